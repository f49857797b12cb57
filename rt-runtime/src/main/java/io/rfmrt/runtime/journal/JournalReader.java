package io.rfmrt.runtime.journal;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_BY_POSITION;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION_WITHOUT_LAYOUT;

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
 * well-formed documents follow it in the same file: then its writer died (or its header is damaged) and it is
 * reported and skipped. Reading a journal that is still being written works the same way: {@link #next} returns
 * {@code false} at the end of what is written and may be called again later ({@link #open(Path, boolean)} with
 * {@code live}); there an unfinished record is the end until it has stood unfinished for a second
 * ({@code FramingWalk.UNFINISHED_STALL_NANOS}: the journal's one writer finishes a record in microseconds), and only
 * then do records after it make it damage.
 * <p>
 * The folder must be a folder holding a {@code .cq4} file, and its first readable data record must be a journal
 * header (within the first {@value #PROBE_RECORDS} data documents when the first ones are damaged); otherwise
 * {@link #open} throws a {@link JournalException} naming the folder.
 *
 * <p>Inside, three parts: {@link FollowedFiles} (the folder's queue files, listed again while following a live
 * journal), {@link FramingWalk} (Chronicle's framing, damage notes and resynchronisation) and {@link RecordDecoder}
 * (records and journal headers, every field with a range checked); this class drives them and is the only one
 * callers see.
 *
 * <p>Threading: one thread at a time. Allocation-free per record, except for journal headers, damage notes and
 * growth of the record's copy.
 */
public final class JournalReader implements AutoCloseable
{
    /** Longest record accepted, in bytes; a longer length is damage. */
    public static final int MAX_RECORD_LENGTH = FramingWalk.MAX_RECORD_LENGTH;
    /** Damage notes kept; {@link #damageCount()} counts all. */
    public static final int MAX_DAMAGE_NOTES = FramingWalk.MAX_DAMAGE_NOTES;
    /** Data documents looked at for the first journal header when the first ones are damaged. */
    public static final int PROBE_RECORDS = 16;
    /**
     * Sequence numbers of a frame are below this (2^48: 89 years at 100 kHz); a higher one is damage.
     */
    public static final long MAX_SEQ = RecordDecoder.MAX_SEQ;
    /**
     * Time stamps are {@code System.nanoTime()} readings, which on Linux count from the host's boot: below this
     * (2^58 ns, 9.1 years); a higher or negative one is damage.
     */
    public static final long MAX_NANOS = RecordDecoder.MAX_NANOS;

    private final Path dir;
    private final FollowedFiles files;
    private final RecordDecoder decoder = new RecordDecoder();
    private final FramingWalk walk;
    private long index = -1;
    private long documents;
    private boolean closed;

    private JournalReader(final Path dir, final boolean live, final NanoClock clock)
    {
        this.dir = dir;
        this.files = new FollowedFiles(dir, live);
        this.walk = new FramingWalk(files, decoder, clock);
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
        return open(dir, live, SystemNanoClock.INSTANCE);
    }

    /**
     * As {@link #open(Path, boolean)}, an unfinished record timed by {@code clock}.
     */
    static JournalReader open(final Path dir, final boolean live, final NanoClock clock)
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
        final JournalReader reader = new JournalReader(dir, live, clock);
        reader.files.list();
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
        while (walk.nextDocument(into))
        {
            final String why = decoder.decode(into, into.length());
            if (why == null)
            {
                index = documents++;
                walk.returned();
                return true;
            }
            if (why != RecordDecoder.HEADER_READ)
            {
                walk.recordDamaged("a record of " + into.length() + " bytes that " + why);
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
        return walk.recordAt();
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
        return walk.damage();
    }

    /**
     * @return damaged regions met so far, all of them.
     */
    public long damageCount()
    {
        return walk.damageCount();
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
        return decoder.firstHeader();
    }

    /**
     * @return the journal header read most recently (its writer list includes writers added since the first), or
     *         {@code null} when none has been read.
     */
    public JournalHeader lastHeader()
    {
        return decoder.lastHeader();
    }

    /**
     * @return the {@code .cq4} file being read (the first one right after {@link #open}), or {@code null} before any.
     */
    public Path file()
    {
        return files.file();
    }

    /**
     * @return journal headers read so far (one per session, writer addition and roll cycle).
     */
    public long headerCount()
    {
        return decoder.headers();
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
            walk.close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------

    /**
     * The first readable data record must be a journal header, or be preceded by damage only and followed by
     * records that decode; otherwise the folder holds something else.
     */
    private void probe()
    {
        final JournalRecord record = new JournalRecord();
        int seen = 0;
        boolean decodable = false;
        while (seen < PROBE_RECORDS && walk.nextDocument(record))
        {
            seen++;
            if (seen == 1 && RecordDecoder.oldJournalHeader(record))
            {
                throw new JournalException("journal file " + dir.resolve(walk.fileName()) + " has record version " +
                    VERSION_BY_POSITION + " (codes numbered by position); this rfmrt reads versions " +
                    VERSION_WITHOUT_LAYOUT + " and " + VERSION + " only: replay it with the rfmrt that wrote it");
            }
            final String why = decoder.decode(record, record.length());
            if (why == RecordDecoder.HEADER_READ && seen == 1)
            {
                return;
            }
            if (why == null || why == RecordDecoder.HEADER_READ)
            {
                decodable = true;
                break;
            }
        }
        if (seen > 0 && !decodable)
        {
            throw new JournalException("journal dir " + dir + " is not an rfmrt journal: its first record (" +
                walk.fileName() + " at byte " + walk.recordAt() + ", " + record.length() +
                " bytes) is not a journal header");
        }
        // empty, or damaged at the start: read again from the beginning and note the damage on the way
        walk.rewind();
        decoder.reset();
    }
}
