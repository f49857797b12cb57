package io.rfmrt.runtime.journal;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.runtime.journal.internal.FileHoles;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.BYTE_ORDER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_EPOCH_MILLIS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_KIND_ID;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_LAYOUT_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_MAGIC_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITERS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITER_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITER_ENTRY_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.KIND_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAGIC;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_BY_POSITION;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_WITHOUT_LAYOUT;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAX_LAYOUT_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.readable;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NODE_ID_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NO_WRITER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.WRITER_ID_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEND_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_WOKE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_VALIDATED_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_CONSUMER_START_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_HANDLER_END_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SOURCE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_CODE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_KIND_OFFSET;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.SIZE_OF_SHORT;

/**
 * Reads a journal written by {@link Journal}, record by record from the start, across roll-cycle files:
 * <pre>{@code
 * try (JournalReader reader = JournalReader.open(dir))
 * {
 *     final JournalRecord record = new JournalRecord();
 *     while (reader.next(record))
 *     {
 *         if (record.kind() == RecordKind.FRAME) { ... record.seq(), record.payload() ... }
 *     }
 *     reader.damage().forEach(System.out::println);
 * }
 * }</pre>
 *
 * <h2>Read-only and total</h2>
 * The reader does not go through Chronicle Queue: it opens each {@code .cq4} file of the folder read-only
 * ({@code O_RDONLY}) and walks Chronicle's document framing itself, so reading never writes into the journal (no
 * metadata file is touched, no file is grown) and nothing in a file is trusted before it is bounded. Chronicle frames
 * every document with a 4-byte little-endian header: bits 0-29 the length, bit 30 metadata, bit 31 not complete;
 * documents start 4-aligned; a header of 0 is where nothing has been written yet and {@code 0xC0000000} ends a
 * rolled file. Each data document is one rfmrt record ({@code JournalRecordDescriptor}).
 * <p>
 * Damage never stops the reader and never gives a phantom record. A header whose length runs past the end of the
 * file or past {@value #MAX_RECORD_LENGTH} bytes, a record that does not decode (unknown version or kind, fewer bytes
 * than its kind needs, a count that does not fit), zeros where a header belongs with data after them, a file that
 * does not start with a Chronicle queue header, a record cut short by the end of the file: each is noted in
 * {@link #damage()} (file, record number in the file, byte offset, what was wrong), and reading resumes at the next
 * position in that file that holds a plausible document (a complete header whose length fits and whose record, for
 * data, decodes), or at the next file. Where damage hides a record's boundary this search is the best the format
 * allows: Chronicle keeps no checksum, so a flipped byte inside a record whose framing stays intact is read as it is.
 * <p>
 * A record whose writer has not finished it (not-complete bit set) is the end of what is written so far, except when
 * well-formed documents follow it in the same file: then its writer died and it is reported and skipped. Reading a
 * journal that is still being written works the same way: {@link #next} returns {@code false} at the end of what is
 * written and may be called again later ({@link #open(Path, boolean)} with {@code live}).
 * <p>
 * The folder must be a folder holding a {@code .cq4} file, and its first readable data record must be a journal
 * header (within the first {@value #PROBE_RECORDS} data documents when the first ones are damaged); otherwise
 * {@link #open} throws a {@link JournalException} naming the folder.
 *
 * <p>Threading: one thread at a time. Allocation-free per record, except for journal headers, damage notes and
 * growth of the record's copy.
 */
public final class JournalReader implements AutoCloseable
{
    /** Longest record accepted, in bytes; a longer length is damage. */
    public static final int MAX_RECORD_LENGTH = 16 << 20;
    /** Damage notes kept; {@link #damageCount()} counts all. */
    public static final int MAX_DAMAGE_NOTES = 20;
    /** Data documents looked at for the first journal header when the first ones are damaged. */
    public static final int PROBE_RECORDS = 16;
    /**
     * Sequence numbers of a frame are below this (2^48: 89 years at 100 kHz); a higher one is damage.
     */
    public static final long MAX_SEQ = 1L << 48;
    /**
     * Time stamps are {@code System.nanoTime()} readings, which on Linux count from the host's boot: below this
     * (2^58 ns, 9.1 years); a higher or negative one is damage.
     */
    public static final long MAX_NANOS = 1L << 58;

    private static final int NOT_COMPLETE = 0x8000_0000;
    private static final int META_DATA = 0x4000_0000;
    private static final int LENGTH_MASK = 0x3FFF_FFFF;
    private static final int END_OF_DATA = NOT_COMPLETE | META_DATA;
    /** Chronicle's queue file starts with a metadata document whose wire bytes name the field {@code header}. */
    private static final byte[] QUEUE_SIGNATURE = {(byte)0xB9, 6, 'h', 'e', 'a', 'd', 'e', 'r'};
    /** Names of the index documents Chronicle writes in the middle of a file. */
    private static final byte[] INDEX2INDEX = "index2index".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INDEX = "index".getBytes(StandardCharsets.US_ASCII);
    /** Longest padding (a metadata document of zeros) accepted in the middle of a file, in bytes. */
    private static final int MAX_PADDING = 4096;
    private static final int WINDOW = 1 << 20;
    private static final int[] FRAME_STAMP_OFFSETS = {FRAME_SEND_NANOS_OFFSET, FRAME_WOKE_NANOS_OFFSET,
        FRAME_VALIDATED_NANOS_OFFSET, FRAME_CONSUMER_START_NANOS_OFFSET, FRAME_HANDLER_END_NANOS_OFFSET};
    private static final long LIST_INTERVAL_NS = 200_000_000L;

    private final Path dir;
    private final boolean live;
    private final List<Path> files = new ArrayList<>();
    private final ByteBuffer window = ByteBuffer.allocate(WINDOW).order(ByteOrder.LITTLE_ENDIAN);
    private final List<String> damage = new ArrayList<>();
    private long damageCount;
    private long windowStart = -1;
    private int windowLength;

    private int fileIndex = -1;
    private FileChannel channel;
    private String fileName;
    private long fileSize;
    private long position;
    private long recordInFile;
    private long recordAt = -1;
    private long returnedAt = -1;
    private long returnedEnd = -1;
    private int returnedFile = -1;
    private long endVerifiedAt = -1;
    private long lastListNanos;

    private String[] writerNames = new String[0];
    private boolean headerSeen;
    private JournalHeader firstHeader;
    private JournalHeader lastHeader;
    private long headers;
    private long index = -1;
    private long documents;
    private boolean closed;

    private JournalReader(final Path dir, final boolean live)
    {
        this.dir = dir;
        this.live = live;
    }

    /**
     * Open a journal that is complete (offline reading: zeros with data after them are damage).
     *
     * @param dir folder of a journal.
     * @return a reader at the first record.
     * @throws JournalException when the folder is missing, is no folder, cannot be listed, holds no queue file, or
     *                          holds something that is not an rfmrt journal; one line naming the folder.
     */
    public static JournalReader open(final Path dir)
    {
        return open(dir, false);
    }

    /**
     * @param dir  folder of a journal.
     * @param live the journal may still be written: zeros are where the writer has not got to yet, not damage, and
     *             files that appear later are read too.
     * @return a reader at the first record.
     * @throws JournalException as {@link #open(Path)}.
     */
    public static JournalReader open(final Path dir, final boolean live)
    {
        if (dir == null)
        {
            throw new JournalException("journal dir must be given (was null)");
        }
        if (!Files.exists(dir))
        {
            throw new JournalException("journal dir " + dir + " does not exist");
        }
        if (!Files.isDirectory(dir))
        {
            throw new JournalException("journal dir " + dir + " is not a folder");
        }
        final JournalReader reader = new JournalReader(dir, live);
        reader.listFiles();
        if (reader.files.isEmpty())
        {
            throw new JournalException("journal dir " + dir + " holds no journal (no .cq4 queue file)");
        }
        try
        {
            reader.probe();
            return reader;
        }
        catch (final RuntimeException ex)
        {
            reader.close();
            throw ex;
        }
    }

    /**
     * Read the next record.
     *
     * @param into the flyweight to fill.
     * @return {@code true} when {@code into} holds the next record; {@code false} at the end of what is written.
     * @throws JournalException only when a file cannot be read at all (an I/O error); damage is noted in
     *                          {@link #damage()} and skipped.
     */
    public boolean next(final JournalRecord into)
    {
        if (closed)
        {
            throw new IllegalStateException("journal reader of " + dir + " is closed");
        }
        while (nextDocument(into))
        {
            final String why = decode(into, into.length());
            if (why == null)
            {
                index = documents++;
                returnedAt = recordAt;
                returnedEnd = position;
                returnedFile = fileIndex;
                return true;
            }
            if (why != HEADER_READ)
            {
                damaged(recordAt, recordInFile - 1, "a record of " + into.length() + " bytes that " + why);
                resync(recordAt);
            }
        }
        return false;
    }

    /**
     * @return byte offset, in its file ({@link #file()}), of the document of the record {@link #next} returned last;
     *         -1 before the first.
     */
    public long position()
    {
        return recordAt;
    }

    /**
     * @return number of records returned before the last one, -1 before the first (counts across files).
     */
    public long index()
    {
        return index;
    }

    /**
     * @return the damaged regions met so far, one line each (file, record, byte offset, what was wrong, where reading
     *         resumed), at most {@value #MAX_DAMAGE_NOTES}.
     */
    public List<String> damage()
    {
        return Collections.unmodifiableList(damage);
    }

    /**
     * @return damaged regions met so far, all of them.
     */
    public long damageCount()
    {
        return damageCount;
    }

    /**
     * The first journal header of the journal: its clock reading maps the node's {@code System.nanoTime()} stamps to
     * wall-clock time, and it is where a replay starts. {@link #open} reads it, so it is there from the start unless
     * the journal's first records are damaged.
     *
     * @return the first journal header read, or {@code null} when none has been read.
     */
    public JournalHeader header()
    {
        return firstHeader;
    }

    /**
     * @return the journal header read most recently (its writer list includes writers added since the first), or
     *         {@code null} when none has been read.
     */
    public JournalHeader lastHeader()
    {
        return lastHeader;
    }

    /**
     * @return the {@code .cq4} file being read (the first one right after {@link #open}), or {@code null} before any.
     */
    public Path file()
    {
        return fileIndex >= 0 && fileIndex < files.size() ? files.get(fileIndex) : null;
    }

    /**
     * @return journal headers read so far (one per session, writer addition and roll cycle).
     */
    public long headerCount()
    {
        return headers;
    }

    /**
     * Close the files. Idempotent.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            closeFile();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static final String HEADER_READ = "journal header";

    /**
     * The first readable data record must be a journal header, or be preceded by damage only and followed by
     * records that decode; otherwise the folder holds something else.
     */
    private void probe()
    {
        final JournalRecord record = new JournalRecord();
        int seen = 0;
        boolean decodable = false;
        while (seen < PROBE_RECORDS && nextDocument(record))
        {
            seen++;
            if (seen == 1 && oldJournalHeader(record))
            {
                throw new JournalException("journal file " + dir.resolve(fileName) + " has record version " +
                    VERSION_BY_POSITION + " (codes numbered by position); this rfmrt reads versions " +
                    VERSION_WITHOUT_LAYOUT + " and " + VERSION + " only: replay it with the rfmrt that wrote it");
            }
            final String why = decode(record, record.length());
            if (why == HEADER_READ && seen == 1)
            {
                return;
            }
            if (why == null || why == HEADER_READ)
            {
                decodable = true;
                break;
            }
        }
        if (seen > 0 && !decodable)
        {
            throw new JournalException("journal dir " + dir + " is not an rfmrt journal: its first record (" +
                fileName + " at byte " + recordAt + ", " + record.length() + " bytes) is not a journal header");
        }
        // empty, or damaged at the start: read again from the beginning and note the damage on the way
        closeFile();
        fileIndex = -1;
        damage.clear();
        damageCount = 0;
        headerSeen = false;
        writerNames = new String[0];
        firstHeader = null;
        lastHeader = null;
        headers = 0;
        endVerifiedAt = -1;
    }

    /**
     * Copy the next data document into {@code into}, undecoded; note damage in the framing on the way.
     */
    private boolean nextDocument(final JournalRecord into)
    {
        final boolean found = findDocument(into);
        if (!found)
        {
            // the next call reads the file again: a live writer may have written more
            windowStart = -1;
        }
        return found;
    }

    private boolean findDocument(final JournalRecord into)
    {
        while (true)
        {
            if (channel == null)
            {
                laterFileExists();
                if (!openFile(fileIndex + 1))
                {
                    return false;
                }
            }
            final long p = position;
            if (p + Integer.BYTES > fileSize && live)
            {
                refreshSize();
            }
            if (p + Integer.BYTES > fileSize)
            {
                if (p < fileSize)
                {
                    damaged(p, "the file ends " + (fileSize - p) + " bytes into a record header");
                    position = fileSize;
                }
                if (!nextFile())
                {
                    return false;
                }
                continue;
            }
            final int header = intAt(p);
            if (header == 0)
            {
                if (p == 0)
                {
                    if (live && fileIndex == files.size() - 1)
                    {
                        return false;
                    }
                    damaged(p, "the file does not start with a Chronicle queue header (zeros)");
                    resync(p);
                    continue;
                }
                if (endOfWritten(p))
                {
                    if (!nextFile())
                    {
                        return false;
                    }
                    continue;
                }
                damaged(p, "zeros where a record header belongs, with data after them");
                resync(p);
                continue;
            }
            if (header == END_OF_DATA)
            {
                if (!nextFile())
                {
                    return false;
                }
                continue;
            }
            final int length = header & LENGTH_MASK;
            if ((header & NOT_COMPLETE) != 0)
            {
                if (p == 0)
                {
                    damaged(p, "the file does not start with a Chronicle queue header");
                    resync(p);
                    continue;
                }
                // the writer at work shows a header of unknown length (0): live, that is the end of what is written
                // so far; a length, or offline a record anywhere after it, makes it damage
                if (live && length > 0)
                {
                    damaged(p, "a document of " + length + " bytes marked unfinished, with a length");
                    resync(p);
                    continue;
                }
                final long after = live || endVerifiedAt == p ? -1 : findRecord(p + 1);
                final boolean fits = length <= fileSize - p - Integer.BYTES;
                if (after >= 0 || !fits && !live || laterFileExists())
                {
                    damaged(p, "a document of " + length + " bytes that its writer never completed");
                    if (after >= 0)
                    {
                        resync(p);
                        continue;
                    }
                    position = fileSize;
                    if (!nextFile())
                    {
                        return false;
                    }
                    continue;
                }
                endVerifiedAt = p;
                return false;
            }
            final long end = p + Integer.BYTES + length;
            if (length > MAX_RECORD_LENGTH || end > fileSize)
            {
                damaged(p, length > MAX_RECORD_LENGTH ?
                    "a header claiming " + length + " bytes (more than " + MAX_RECORD_LENGTH + ")" :
                    "a document of " + length + " bytes cut short: the file ends " + (fileSize - p - Integer.BYTES) +
                    " bytes after its header");
                resync(p);
                continue;
            }
            if ((header & META_DATA) != 0)
            {
                if (p == 0 && !signatureAt(Integer.BYTES))
                {
                    damaged(p, "the file does not start with a Chronicle queue header");
                    resync(p);
                    continue;
                }
                final long next = p + Integer.BYTES + align(length);
                if (p != 0 && !chronicleMetadata(p, length))
                {
                    damaged(p, "a metadata document of " + length + " bytes that is not Chronicle's");
                    resync(p);
                    continue;
                }
                position = next;
                continue;
            }
            if (p == 0)
            {
                damaged(p, "the file does not start with a Chronicle queue header");
                resync(p);
                continue;
            }
            recordAt = p;
            recordInFile++;
            position = p + Integer.BYTES + align(length);
            final byte[] array = into.prepare(length);
            read(p + Integer.BYTES, array, length);
            return true;
        }
    }

    /** Offline: whether everything from {@code p} to the end of the file is zero (checked once per position). */
    private boolean endOfWritten(final long p)
    {
        if (endVerifiedAt == p)
        {
            return true;
        }
        if (live)
        {
            // the writer writes in order: bytes after zeros are damage, unless it has since written here too
            if (!dataInWindow(p))
            {
                return true;
            }
            windowStart = -1;
            return intAt(p) != 0;
        }
        if (nextNonZero(p) < 0)
        {
            endVerifiedAt = p;
            return true;
        }
        return false;
    }

    /**
     * Find where reading can go on after damage at {@code p}: the next byte of this file at which a record starts
     * ({@link #recordStartsAt}), or the end of the file. Every byte offset is tried, not only 4-aligned ones: bytes
     * inserted into a file shift every record after them by their count.
     */
    private void resync(final long p)
    {
        // damage right where the record read last ends: that record's length may be what led here (its own end
        // damaged), so the records it may have hidden are looked for from its start
        // (once: reading from there comes back here)
        final boolean suspect = returnedEnd == p && returnedAt >= 0 && returnedAt < p && fileIndex == returnedFile;
        returnedEnd = -1;
        long q = findRecord(suspect ? returnedAt + 1 : p + 1);
        if (q == p)
        {
            q = findRecord(p + 1);
        }
        if (q < 0)
        {
            position = fileSize;
            endVerifiedAt = fileSize;
            noteResume("nothing readable after it in this file");
            return;
        }
        position = q;
        noteResume("reading resumed at byte " + q + (q < p ? ", inside the record read before it (at byte " +
            returnedAt + "), whose length led here" : ""));
    }

    /**
     * @return the first byte offset at or after {@code from} at which a record starts, or -1. A record's fifth byte is
     *         its version, 2 or 3: eight positions are ruled out at once when none of the eight bytes four further on
     *         is either (random bytes: 94 % of the time, zeros: always); the others are tried one by one, with a
     *         first test on their four bytes (a complete data header of a length that fits) before
     *         {@link #recordStartsAt}.
     */
    private long findRecord(final long from)
    {
        long q = Math.max(from, 0);
        scan:
        while (q + Integer.BYTES <= fileSize)
        {
            cover(q, Integer.BYTES);
            final long start = windowStart;
            final int limit = windowLength - Integer.BYTES;
            int i = (int)(q - start);
            while (i <= limit)
            {
                if (i + Integer.BYTES + SIZE_OF_LONG <= windowLength &&
                    !hasVersionByte(window.getLong(i + Integer.BYTES)))
                {
                    i += SIZE_OF_LONG;
                    continue;
                }
                for (final int end = Math.min(i + SIZE_OF_LONG, limit + 1); i < end; i++)
                {
                    final int header = window.getInt(i);
                    if (header >= RECORD_HEADER_LENGTH && header <= MAX_RECORD_LENGTH)
                    {
                        final long candidate = start + i;
                        if (recordStartsAt(candidate))
                        {
                            return candidate;
                        }
                        if (windowStart != start)
                        {
                            q = candidate + 1;
                            continue scan;
                        }
                    }
                }
            }
            if (start + windowLength >= fileSize)
            {
                break;
            }
            q = start + i;
        }
        return -1;
    }

    /** @return whether any of the eight bytes of {@code word} is 2 or 3 (a version this reader reads). */
    private static boolean hasVersionByte(final long word)
    {
        final long x = (word & 0xFEFE_FEFE_FEFE_FEFEL) ^ 0x0202_0202_0202_0202L;
        return ((x - 0x0101_0101_0101_0101L) & ~x & 0x8080_8080_8080_8080L) != 0;
    }

    /**
     * Whether a record that this reader returns or takes in starts at byte {@code q}, judged from its framing and
     * record header: a complete data document whose length fits the file and {@value #MAX_RECORD_LENGTH}, a version
     * this reader reads, a known kind with the body length that kind has, a writer id the last journal header names
     * (the journal header's own id for a journal header, which must carry the magic) and the journal's node id.
     * Random bytes pass all of it about once in 2^45 positions; a record of the journal cut by damage fails at its
     * cut framing.
     */
    private boolean recordStartsAt(final long q)
    {
        if (q < 0 || q + Integer.BYTES + RECORD_HEADER_LENGTH > fileSize)
        {
            return false;
        }
        final int header = intAt(q);
        final long at = q + Integer.BYTES;
        if (header < RECORD_HEADER_LENGTH || header > MAX_RECORD_LENGTH || at + header > fileSize ||
            !readable(byteAt(at + VERSION_OFFSET)))
        {
            return false;
        }
        final int kindId = byteAt(at + KIND_OFFSET);
        final int writerId = byteAt(at + WRITER_ID_OFFSET) | byteAt(at + WRITER_ID_OFFSET + 1) << 8;
        if (nodeIdProblem(intAt(at + NODE_ID_OFFSET)) != null)
        {
            return false;
        }
        final int body = header - RECORD_HEADER_LENGTH;
        if (kindId == HEADER_KIND_ID)
        {
            return writerId == NO_WRITER && body >= HEADER_WRITERS_OFFSET &&
                longAt(at + RECORD_HEADER_LENGTH + HEADER_MAGIC_OFFSET) == MAGIC;
        }
        final RecordKind kind = RecordKind.fromId(kindId);
        if (kind == null || writerIdProblem(writerId) != null)
        {
            return false;
        }
        return switch (kind)
        {
            case FRAME -> body >= FRAME_FIXED_LENGTH &&
                FRAME_FIXED_LENGTH + (long)intAt(at + RECORD_HEADER_LENGTH + FRAME_PAYLOAD_LENGTH_OFFSET) == body;
            case FAULT -> body == FAULT_LENGTH;
            case STATE -> body == STATE_LENGTH;
            case COUNTERS -> body >= COUNTERS_FIXED_LENGTH && COUNTERS_FIXED_LENGTH +
                (long)intAt(at + RECORD_HEADER_LENGTH + COUNTERS_COUNT_OFFSET) * SIZE_OF_LONG == body;
            case SAMPLE -> body == SAMPLE_LENGTH;
        };
    }

    /**
     * Whether the metadata document at {@code p} (not the file's first) is one Chronicle writes in the middle of a
     * file: an index ({@code index2index} or {@code index}, named in its first bytes) or padding (zeros, shorter
     * than {@value #MAX_PADDING} bytes). Anything else is damage; a metadata document is skipped unread, so a
     * random one trusted would hide what lies under its length.
     */
    private boolean chronicleMetadata(final long p, final int length)
    {
        final long at = p + Integer.BYTES;
        final int first = byteAt(at);
        if (first == 0)
        {
            if (length > MAX_PADDING)
            {
                return false;
            }
            for (int i = 0; i < length; i++)
            {
                if (byteAt(at + i) != 0)
                {
                    return false;
                }
            }
            return true;
        }
        return first == 0xB9 && (nameAt(at + 1, length - 1, INDEX2INDEX) || nameAt(at + 1, length - 1, INDEX));
    }

    /** Whether a Chronicle wire field name (length byte, then the name) equal to {@code name} is at {@code at}. */
    private boolean nameAt(final long at, final int room, final byte[] name)
    {
        if (room < name.length + 1 || byteAt(at) != name.length)
        {
            return false;
        }
        for (int i = 0; i < name.length; i++)
        {
            if (byteAt(at + 1 + i) != name[i])
            {
                return false;
            }
        }
        return true;
    }

    /** @return why {@code nodeId} cannot be this journal's node, or {@code null}. */
    private String nodeIdProblem(final int nodeId)
    {
        if (nodeId < 0 || nodeId > RfmDevice.MAX_NODE_ID)
        {
            return "node id " + nodeId + " (node ids are 0-" + RfmDevice.MAX_NODE_ID + ")";
        }
        if (lastHeader != null && nodeId != lastHeader.nodeId())
        {
            return "node id " + nodeId + " in the journal of node " + lastHeader.nodeId();
        }
        return null;
    }

    /** @return why {@code writerId} names no writer of this journal, or {@code null}. */
    private String writerIdProblem(final int writerId)
    {
        if (headerSeen ? writerId >= writerNames.length : writerId == NO_WRITER)
        {
            return "writer id " + writerId + (headerSeen ? " (the journal header names " + writerNames.length +
                " writers)" : "");
        }
        return null;
    }

    /**
     * Whether the first document is a journal header of version {@value JournalRecordDescriptor#VERSION_BY_POSITION}
     * (kind, writer id and magic all in place): a journal of the old numbering, refused whole. A version byte of 1
     * anywhere else is damage in that record.
     */
    private static boolean oldJournalHeader(final JournalRecord record)
    {
        final UnsafeBuffer buffer = record.buffer();
        return record.length() >= RECORD_HEADER_LENGTH + HEADER_WRITERS_OFFSET &&
            record.version() == VERSION_BY_POSITION && record.kindId() == HEADER_KIND_ID &&
            record.writerId() == NO_WRITER &&
            buffer.getLong(RECORD_HEADER_LENGTH + HEADER_MAGIC_OFFSET, BYTE_ORDER) == MAGIC;
    }

    /**
     * @return {@code null} for a record to return, {@link #HEADER_READ} for a journal header taken in, or why the
     *         record cannot be understood.
     */
    private String decode(final JournalRecord into, final int length)
    {
        if (length < RECORD_HEADER_LENGTH)
        {
            return "is shorter than a record header (" + RECORD_HEADER_LENGTH + " bytes)";
        }
        final UnsafeBuffer buffer = into.buffer();
        final int version = into.version();
        if (!readable(version))
        {
            return "has layout version " + version + "; this reader knows versions " + VERSION_WITHOUT_LAYOUT +
                " and " + VERSION + " only (written by a newer rfmrt?)";
        }
        final int kindId = into.kindId();
        if (kindId == HEADER_KIND_ID)
        {
            if (into.writerId() != NO_WRITER)
            {
                return "is a journal header with writer id " + into.writerId() + " (it has " + NO_WRITER + ")";
            }
            final int node = into.nodeId();
            if (node < 0 || node > RfmDevice.MAX_NODE_ID)
            {
                return "is a journal header with node id " + node + " (node ids are 0-" + RfmDevice.MAX_NODE_ID + ")";
            }
            final String why = readHeader(buffer, length, version, node, into.journalNanos());
            return why == null ? HEADER_READ : why;
        }
        final RecordKind kind = RecordKind.fromId(kindId);
        if (kind == null)
        {
            return "has unknown kind " + kindId;
        }
        final int body = length - RECORD_HEADER_LENGTH;
        final String why = switch (kind)
        {
            case FRAME ->
            {
                final String s = shortBody(kind, body, FRAME_FIXED_LENGTH);
                final long payload = s == null ?
                    buffer.getInt(RECORD_HEADER_LENGTH + FRAME_PAYLOAD_LENGTH_OFFSET, BYTE_ORDER) : 0;
                yield s != null ? s : payload >= 0 && FRAME_FIXED_LENGTH + payload == body ? null :
                    "is a FRAME with payloadLength " + payload + " that does not match its body of " + body + " bytes";
            }
            case FAULT -> exactBody(kind, body, FAULT_LENGTH);
            case STATE -> exactBody(kind, body, STATE_LENGTH);
            case COUNTERS ->
            {
                final String s = shortBody(kind, body, COUNTERS_FIXED_LENGTH);
                final long count = s == null ?
                    buffer.getInt(RECORD_HEADER_LENGTH + COUNTERS_COUNT_OFFSET, BYTE_ORDER) : 0;
                yield s != null ? s : count >= 0 && COUNTERS_FIXED_LENGTH + count * SIZE_OF_LONG == body ? null :
                    "is a COUNTERS record with count " + count + " that does not match its body of " + body + " bytes";
            }
            case SAMPLE -> exactBody(kind, body, SAMPLE_LENGTH);
        };
        if (why != null)
        {
            return why;
        }
        final String ids = idProblem(into);
        final String range = ids != null ? ids : fieldProblem(kind, buffer);
        if (range != null)
        {
            return "is a " + kind + " record with " + range;
        }
        into.set(kind, writerNames);
        return null;
    }

    /** @return what in the record header names no node, writer or time of this journal, or {@code null}. */
    private String idProblem(final JournalRecord record)
    {
        final String node = nodeIdProblem(record.nodeId());
        if (node != null)
        {
            return node;
        }
        final String writer = writerIdProblem(record.writerId());
        if (writer != null)
        {
            return writer;
        }
        final long journalNanos = record.journalNanos();
        if (journalNanos < 0 || journalNanos >= MAX_NANOS)
        {
            return "journalNanos " + journalNanos + outsideNanos();
        }
        if (lastHeader != null && journalNanos < lastHeader.journalNanos())
        {
            return "journalNanos " + journalNanos + ", before its journal header's " + lastHeader.journalNanos();
        }
        return null;
    }

    /**
     * @return the first body field outside its range, or {@code null}: a node id 0-255, a sequence number from 0
     *         below {@value #MAX_SEQ}, a time stamp from 0 below {@value #MAX_NANOS}, a code or count not negative.
     *         A record that fails is damage; its values never reach a reader.
     */
    private static String fieldProblem(final RecordKind kind, final UnsafeBuffer buffer)
    {
        final int b = RECORD_HEADER_LENGTH;
        return switch (kind)
        {
            case FRAME ->
            {
                final int source = buffer.getInt(b + FRAME_SOURCE_OFFSET, BYTE_ORDER);
                final long seq = buffer.getLong(b + FRAME_SEQ_OFFSET, BYTE_ORDER);
                if (source < 0 || source > RfmDevice.MAX_NODE_ID)
                {
                    yield "source " + source + " (node ids are 0-" + RfmDevice.MAX_NODE_ID + ")";
                }
                if (seq < 0 || seq >= MAX_SEQ)
                {
                    yield "seq " + seq + " (sequence numbers are 0 to " + (MAX_SEQ - 1) + ")";
                }
                for (final int offset : FRAME_STAMP_OFFSETS)
                {
                    final long nanos = buffer.getLong(b + offset, BYTE_ORDER);
                    if (nanos < 0 || nanos >= MAX_NANOS)
                    {
                        yield "a time stamp of " + nanos + outsideNanos();
                    }
                }
                yield null;
            }
            case FAULT -> nanosProblem(buffer.getLong(b + FAULT_NANOS_OFFSET, BYTE_ORDER),
                buffer.getInt(b + FAULT_CODE_OFFSET, BYTE_ORDER), "code");
            case STATE -> nanosProblem(buffer.getLong(b + STATE_NANOS_OFFSET, BYTE_ORDER), 0, "");
            case COUNTERS -> nanosProblem(buffer.getLong(b + COUNTERS_NANOS_OFFSET, BYTE_ORDER),
                buffer.getInt(b + COUNTERS_COUNT_OFFSET, BYTE_ORDER), "count");
            case SAMPLE -> nanosProblem(buffer.getLong(b + SAMPLE_NANOS_OFFSET, BYTE_ORDER),
                buffer.getInt(b + SAMPLE_KIND_OFFSET, BYTE_ORDER), "sample kind");
        };
    }

    private static String nanosProblem(final long nanos, final int notNegative, final String name)
    {
        if (nanos < 0 || nanos >= MAX_NANOS)
        {
            return "nanos " + nanos + outsideNanos();
        }
        return notNegative < 0 ? name + " " + notNegative + " (not negative)" : null;
    }

    private static String outsideNanos()
    {
        return " (stamps are System.nanoTime() readings, 0 to " + (MAX_NANOS - 1) + ")";
    }

    private static String shortBody(final RecordKind kind, final int body, final int needed)
    {
        return body < needed ? "is a " + kind + " record with a body of " + body + " bytes; it needs " + needed : null;
    }

    private static String exactBody(final RecordKind kind, final int body, final int needed)
    {
        return body != needed ? "is a " + kind + " record with a body of " + body + " bytes; it has " + needed : null;
    }

    private String readHeader(final UnsafeBuffer buffer, final int length, final int version, final int nodeId,
        final long journalNanos)
    {
        final int body = length - RECORD_HEADER_LENGTH;
        if (body < HEADER_WRITERS_OFFSET || buffer.getLong(RECORD_HEADER_LENGTH + HEADER_MAGIC_OFFSET, BYTE_ORDER) !=
            MAGIC)
        {
            return "is a journal header without the journal magic";
        }
        final int count = buffer.getInt(RECORD_HEADER_LENGTH + HEADER_WRITER_COUNT_OFFSET, BYTE_ORDER);
        if (count < 0 || (long)count * HEADER_WRITER_ENTRY_FIXED_LENGTH > body)
        {
            return "is a journal header with writer count " + count;
        }
        final int layoutLength = version == VERSION_WITHOUT_LAYOUT ? 0 :
            buffer.getInt(RECORD_HEADER_LENGTH + HEADER_LAYOUT_LENGTH_OFFSET, BYTE_ORDER);
        if (layoutLength < 0 || layoutLength > MAX_LAYOUT_LENGTH || layoutLength > body)
        {
            return "is a journal header with layout length " + layoutLength;
        }
        final String[] names = new String[count];
        int at = RECORD_HEADER_LENGTH + HEADER_WRITERS_OFFSET;
        for (int i = 0; i < count; i++)
        {
            if (at + HEADER_WRITER_ENTRY_FIXED_LENGTH > length)
            {
                return "is a journal header cut short in writer entry " + i;
            }
            final int id = buffer.getShort(at, BYTE_ORDER) & 0xFFFF;
            final int nameLength = buffer.getShort(at + SIZE_OF_SHORT, BYTE_ORDER) & 0xFFFF;
            at += HEADER_WRITER_ENTRY_FIXED_LENGTH;
            if (id >= count || at + nameLength > length)
            {
                return "is a journal header with a bad writer entry " + i;
            }
            final byte[] name = new byte[nameLength];
            buffer.getBytes(at, name);
            names[id] = new String(name, StandardCharsets.US_ASCII);
            at += nameLength;
        }
        if (at + layoutLength != length)
        {
            return "is a journal header with " + (length - at) + " bytes after its last writer entry" +
                (version == VERSION_WITHOUT_LAYOUT ? "" : " for a layout of " + layoutLength);
        }
        String layout = null;
        if (layoutLength > 0)
        {
            final byte[] text = new byte[layoutLength];
            buffer.getBytes(at, text);
            layout = new String(text, StandardCharsets.UTF_8);
        }
        writerNames = names;
        headerSeen = true;
        final JournalHeader header = new JournalHeader(version, nodeId, journalNanos,
            buffer.getLong(RECORD_HEADER_LENGTH + HEADER_EPOCH_MILLIS_OFFSET, BYTE_ORDER),
            buffer.getLong(RECORD_HEADER_LENGTH + HEADER_NANOS_OFFSET, BYTE_ORDER), java.util.Arrays.asList(names),
            layout);
        if (firstHeader == null)
        {
            firstHeader = header;
        }
        lastHeader = header;
        headers++;
        return null;
    }

    // files ---------------------------------------------------------------------------------------------------------

    private void listFiles()
    {
        lastListNanos = System.nanoTime();
        final List<Path> found;
        try (Stream<Path> list = Files.list(dir))
        {
            found = list.filter(f -> f.getFileName().toString().endsWith(".cq4"))
                .filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        }
        catch (final IOException | java.io.UncheckedIOException ex)
        {
            throw new JournalException("cannot list journal dir " + dir + ": " + reason(ex), ex);
        }
        for (final Path f : found)
        {
            if (!files.contains(f))
            {
                files.add(f);
            }
        }
    }

    private boolean laterFileExists()
    {
        if (live && System.nanoTime() - lastListNanos > LIST_INTERVAL_NS)
        {
            listFiles();
        }
        return fileIndex < files.size() - 1;
    }

    private boolean nextFile()
    {
        if (!laterFileExists())
        {
            return false;
        }
        closeFile();
        return openFile(fileIndex + 1);
    }

    private boolean openFile(final int i)
    {
        int at = i;
        while (at < files.size())
        {
            final Path file = files.get(at);
            fileIndex = at;
            fileName = file.getFileName().toString();
            position = 0;
            recordInFile = 0;
            endVerifiedAt = -1;
            windowStart = -1;
            try
            {
                channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
                fileSize = channel.size();
                if (fileSize == 0)
                {
                    damaged(0, "the file is empty (0 bytes)");
                    closeFile();
                    at++;
                    continue;
                }
                return true;
            }
            catch (final IOException ex)
            {
                closeFile();
                damaged(0, "cannot be read: " + reason(ex));
                at++;
            }
        }
        fileIndex = files.size() - 1;
        return false;
    }

    private void closeFile()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // read-only: nothing to lose
            }
            channel = null;
        }
        windowStart = -1;
    }

    private void refreshSize()
    {
        try
        {
            final long size = channel.size();
            if (size != fileSize)
            {
                fileSize = size;
                windowStart = -1;
            }
        }
        catch (final IOException ex)
        {
            throw ioError(ex);
        }
    }

    // bytes ---------------------------------------------------------------------------------------------------------

    /** Make {@code [at, at + length)} readable in the window; {@code length} is at most the window. */
    private void cover(final long at, final int length)
    {
        if (windowStart >= 0 && at >= windowStart && at + length <= windowStart + windowLength)
        {
            return;
        }
        window.clear();
        try
        {
            int total = 0;
            final int want = (int)Math.min(WINDOW, fileSize - at);
            while (total < want)
            {
                final int n = channel.read(window, at + total);
                if (n < 0)
                {
                    break;
                }
                total += n;
            }
            windowStart = at;
            windowLength = total;
            while (window.position() < length)
            {
                window.put((byte)0);
            }
        }
        catch (final IOException ex)
        {
            throw ioError(ex);
        }
    }

    private int intAt(final long at)
    {
        cover(at, Integer.BYTES);
        return window.getInt((int)(at - windowStart));
    }

    private long longAt(final long at)
    {
        if (at + SIZE_OF_LONG > fileSize)
        {
            return 0;
        }
        cover(at, SIZE_OF_LONG);
        return window.getLong((int)(at - windowStart));
    }

    private int byteAt(final long at)
    {
        if (at >= fileSize)
        {
            return -1;
        }
        cover(at, 1);
        return window.get((int)(at - windowStart)) & 0xFF;
    }

    private boolean signatureAt(final long at)
    {
        for (int i = 0; i < QUEUE_SIGNATURE.length; i++)
        {
            if (byteAt(at + i) != (QUEUE_SIGNATURE[i] & 0xFF))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return whether any byte from {@code p} to the end of the window read at {@code p} (up to 1 MiB; live reading
     *         looks no further for data after zeros, every time it reaches them) is not zero.
     */
    private boolean dataInWindow(final long p)
    {
        cover(p, Integer.BYTES);
        int i = (int)(p - windowStart);
        while (i + SIZE_OF_LONG <= windowLength)
        {
            if (window.getLong(i) != 0)
            {
                return true;
            }
            i += SIZE_OF_LONG;
        }
        while (i < windowLength)
        {
            if (window.get(i++) != 0)
            {
                return true;
            }
        }
        return false;
    }

    /** @return the first 4-aligned position at or after {@code from} whose int is not zero, or -1. */
    private long nextNonZero(final long from)
    {
        long q = from;
        while (q + Integer.BYTES <= fileSize)
        {
            final long data = FileHoles.nextData(files.get(fileIndex), q);
            if (data < 0)
            {
                return -1;
            }
            q = Math.max(q, data & ~3L);
            if (q + Integer.BYTES > fileSize)
            {
                break;
            }
            cover(q, Integer.BYTES);
            final int base = (int)(q - windowStart);
            final int limit = windowLength - Integer.BYTES;
            int i = base;
            while (i + SIZE_OF_LONG <= windowLength && window.getLong(i) == 0)
            {
                i += SIZE_OF_LONG;
            }
            while (i <= limit)
            {
                if (window.getInt(i) != 0)
                {
                    return windowStart + i;
                }
                i += Integer.BYTES;
            }
            q = windowStart + i;
            if (windowLength < WINDOW)
            {
                break;
            }
        }
        return -1;
    }

    private void read(final long at, final byte[] array, final int length)
    {
        if (length <= WINDOW)
        {
            cover(at, length);
            window.get((int)(at - windowStart), array, 0, length);
            return;
        }
        final ByteBuffer target = ByteBuffer.wrap(array, 0, length);
        try
        {
            while (target.hasRemaining())
            {
                if (channel.read(target, at + target.position()) < 0)
                {
                    break;
                }
            }
        }
        catch (final IOException ex)
        {
            throw ioError(ex);
        }
    }

    private static long align(final int length)
    {
        return (length + 3L) & ~3L;
    }

    // damage --------------------------------------------------------------------------------------------------------

    private void damaged(final long at, final String what)
    {
        damaged(at, recordInFile, what);
    }

    private void damaged(final long at, final long record, final String what)
    {
        damageCount++;
        if (damage.size() < MAX_DAMAGE_NOTES)
        {
            damage.add(dir.resolve(fileName) + ", record " + record + " of the file, byte " + at + ": " + what);
        }
    }

    private void noteResume(final String where)
    {
        if (damageCount <= MAX_DAMAGE_NOTES && !damage.isEmpty())
        {
            final int last = damage.size() - 1;
            damage.set(last, damage.get(last) + "; " + where);
        }
    }

    private JournalException ioError(final IOException ex)
    {
        return new JournalException("journal file " + dir.resolve(fileName) + ": " + reason(ex), ex);
    }

    private static String reason(final Exception ex)
    {
        final Throwable cause = ex instanceof java.io.UncheckedIOException u ? u.getCause() : ex;
        if (cause instanceof AccessDeniedException)
        {
            return "permission denied";
        }
        if (cause instanceof java.nio.file.FileSystemException fs && fs.getReason() != null)
        {
            return fs.getReason();
        }
        return Journal.oneLine(cause);
    }
}
