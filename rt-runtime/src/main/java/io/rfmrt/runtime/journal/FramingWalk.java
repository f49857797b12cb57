package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.FileHoles;
import org.agrona.concurrent.NanoClock;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_KIND_ID;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_MAGIC_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITERS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.KIND_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAGIC;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NODE_ID_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NO_WRITER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.WRITER_ID_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.readable;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Walks Chronicle's document framing in a journal's queue files ({@link FollowedFiles}), read-only, and hands each
 * data document on undecoded; notes damage in the framing and finds where reading resumes after it.
 * <p>
 * Chronicle frames every document with a 4-byte little-endian header; documents start 4-aligned:
 * <pre>
 *    31  30  29                                         0
 *   +---+---+--------------------------------------------+
 *   | N | M |               length (bytes)               |   then the document, padded to 4 bytes
 *   +---+---+--------------------------------------------+
 *   N: not complete (a writer is at work on it)   M: metadata (not a record)
 *   0x00000000: nothing written here yet          0xC0000000: the end of a rolled file
 * </pre>
 * A file starts with a metadata document (Chronicle's queue header); index documents and padding follow in the
 * middle of a file. Each data document is one rfmrt record.
 * <p>
 * The file is read through a window of {@value #WINDOW} bytes. After damage at a byte, {@link #resync} tries every
 * byte offset after it (bytes inserted into a file shift the records after them by any count) for one where a record
 * of this journal starts, judged by its framing and the {@link RecordDecoder}'s id checks, or goes to the next file.
 *
 * <p>Threading: the reader's thread. Allocation-free per document, except for damage notes.
 */
final class FramingWalk
{
    /** Longest record accepted, in bytes; a longer length is damage. */
    static final int MAX_RECORD_LENGTH = 16 << 20;
    /** Damage notes kept; {@link #damageCount()} counts all. */
    static final int MAX_DAMAGE_NOTES = 20;

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

    /**
     * How long, live, an unfinished header with records after it stands before it is damage: the journal's one
     * writer finishes a record in microseconds, so one that stays unfinished while later bytes hold records has no
     * writer any more (or is a damaged header).
     */
    static final long UNFINISHED_STALL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final FollowedFiles files;
    private final RecordDecoder decoder;
    private final NanoClock clock;
    private final boolean live;
    private long unfinishedAt = -1;
    private int unfinishedFile = -1;
    private long unfinishedSince;
    private final ByteBuffer window = ByteBuffer.allocate(WINDOW).order(ByteOrder.LITTLE_ENDIAN);
    private final List<String> damage = new ArrayList<>();
    private long damageCount;
    private long windowStart = -1;
    private int windowLength;

    private long fileSize;
    private long position;
    private long recordInFile;
    private long recordAt = -1;
    private long returnedAt = -1;
    private long returnedEnd = -1;
    private int returnedFile = -1;
    private long endVerifiedAt = -1;

    /**
     * @param files   the files to walk.
     * @param decoder whose id checks judge where a record starts.
     * @param clock   times an unfinished header live ({@link #UNFINISHED_STALL_NANOS}).
     */
    FramingWalk(final FollowedFiles files, final RecordDecoder decoder, final NanoClock clock)
    {
        this.files = files;
        this.decoder = decoder;
        this.clock = clock;
        this.live = files.live();
    }

    /**
     * @return byte offset, in its file, of the data document {@link #nextDocument} found last; -1 before the first.
     */
    long recordAt()
    {
        return recordAt;
    }

    /**
     * @return name of the file being read.
     */
    String fileName()
    {
        return files.name();
    }

    /**
     * The document found last was returned to the reader as a record: damage found right where it ends makes
     * {@link #resync} look again from its start.
     */
    void returned()
    {
        returnedAt = recordAt;
        returnedEnd = position;
        returnedFile = files.index();
    }

    /**
     * The document found last does not decode: note it, and resume reading after it.
     *
     * @param what what is wrong with it.
     */
    void recordDamaged(final String what)
    {
        damaged(recordAt, recordInFile - 1, what);
        resync(recordAt);
    }

    /**
     * @return the damaged regions met so far, at most {@value #MAX_DAMAGE_NOTES}.
     */
    List<String> damage()
    {
        return Collections.unmodifiableList(damage);
    }

    /**
     * @return damaged regions met so far, all of them.
     */
    long damageCount()
    {
        return damageCount;
    }

    /**
     * Stand before the first file again, with no damage noted.
     */
    void rewind()
    {
        closeFile();
        files.rewind();
        damage.clear();
        damageCount = 0;
        endVerifiedAt = -1;
    }

    /**
     * Close the file being read.
     */
    void close()
    {
        closeFile();
    }

    /**
     * Copy the next data document into {@code into}, undecoded; note damage in the framing on the way.
     */
    boolean nextDocument(final JournalRecord into)
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
            if (!files.isOpen())
            {
                files.laterFileExists();
                if (!openFile(files.index() + 1))
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
                    if (live && files.atLastFile())
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
                // so far until it has stood for UNFINISHED_STALL_NANOS (a journal's one writer finishes a record in
                // microseconds), then a record anywhere after it makes it damage, as offline; a length makes it
                // damage at once
                if (live && length > 0)
                {
                    damaged(p, "a document of " + length + " bytes marked unfinished, with a length");
                    resync(p);
                    continue;
                }
                final long after = live ? (stalled(p) ? findRecord(p + 1) : -1) :
                    endVerifiedAt == p ? -1 : findRecord(p + 1);
                final boolean fits = length <= fileSize - p - Integer.BYTES;
                if (after >= 0 || !fits && !live || files.laterFileExists())
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

    /**
     * Live: whether the unfinished header at {@code p} has stood for {@link #UNFINISHED_STALL_NANOS} since it was
     * first met, or since the last look after it found nothing; the look is made at most once per such period.
     */
    private boolean stalled(final long p)
    {
        final long now = clock.nanoTime();
        if (unfinishedAt != p || unfinishedFile != files.index())
        {
            unfinishedAt = p;
            unfinishedFile = files.index();
            unfinishedSince = now;
            return false;
        }
        if (now - unfinishedSince < UNFINISHED_STALL_NANOS)
        {
            return false;
        }
        unfinishedSince = now;
        return true;
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
    void resync(final long p)
    {
        // damage right where the record read last ends: that record's length may be what led here (its own end
        // damaged), so the records it may have hidden are looked for from its start
        // (once: reading from there comes back here)
        final boolean suspect = returnedEnd == p && returnedAt >= 0 && returnedAt < p && files.index() == returnedFile;
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
        if (decoder.nodeIdProblem(intAt(at + NODE_ID_OFFSET)) != null)
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
        if (kind == null || decoder.writerIdProblem(writerId) != null)
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


    // files ---------------------------------------------------------------------------------------------------------

    private boolean nextFile()
    {
        if (!files.laterFileExists())
        {
            return false;
        }
        closeFile();
        return openFile(files.index() + 1);
    }

    /** Open file {@code i}, or the first readable file after it, noting each one that cannot be read. */
    private boolean openFile(final int i)
    {
        for (int at = i; at < files.count(); at++)
        {
            position = 0;
            recordInFile = 0;
            endVerifiedAt = -1;
            windowStart = -1;
            final String unreadable = files.open(at);
            if (unreadable == null)
            {
                fileSize = files.size();
                return true;
            }
            damaged(0, unreadable);
        }
        files.pastLast();
        return false;
    }

    private void closeFile()
    {
        files.close();
        windowStart = -1;
    }

    private void refreshSize()
    {
        if (files.refreshSize())
        {
            fileSize = files.size();
            windowStart = -1;
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
        final int total = files.read(window, at, (int)Math.min(WINDOW, fileSize - at));
        windowStart = at;
        windowLength = total;
        while (window.position() < length)
        {
            window.put((byte)0);
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
            final long data = FileHoles.nextData(files.file(), q);
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
        files.read(ByteBuffer.wrap(array, 0, length), at, length);
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
            damage.add(files.named() + ", record " + record + " of the file, byte " + at + ": " + what);
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
}
