package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.ChronicleSupport;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.BYTE_ORDER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_KIND_ID;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_MAGIC_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITERS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITER_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_WRITER_ENTRY_FIXED_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAGIC;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.SIZE_OF_SHORT;

/**
 * Reads a journal written by {@link Journal}, record by record from the start, across roll cycles:
 * <pre>{@code
 * try (JournalReader reader = JournalReader.open(dir))
 * {
 *     final JournalRecord record = new JournalRecord();
 *     while (reader.next(record))
 *     {
 *         if (record.kind() == RecordKind.FRAME) { ... record.seq(), record.payload() ... }
 *     }
 * }
 * }</pre>
 * Old roll-cycle files may be deleted (the reader starts at the oldest one left), except in a folder this process
 * cannot write: there Chronicle opens the queue read-only and keeps its listing of files as it was.
 * The journal may be open for writing at the same time; {@link #next} then returns {@code false} at what is written
 * so far, including at a record whose writer has not finished it (or died while writing it): an incomplete last
 * record is the clean end. A record this code cannot understand — a layout version other than
 * {@value io.rfmrt.runtime.journal.internal.JournalRecordDescriptor#VERSION}, an unknown kind, or fewer bytes than
 * its kind needs — stops the reader with a {@link JournalException} naming the record index: nothing is skipped
 * silently.
 *
 * <p>Threading: one thread at a time. Allocation-free per record, except for journal headers and growth of the
 * record's copy.
 */
public final class JournalReader implements AutoCloseable
{
    static
    {
        ChronicleSupport.init();
    }

    private static final String[] NO_NAMES = new String[0];
    private static final String METADATA_FILE = "metadata.cq4t";

    private final Path dir;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private String[] writerNames = NO_NAMES;
    private boolean headerSeen;
    private long index = -1;
    private long documentIndex = -1;
    private boolean closed;

    private JournalReader(final Path dir, final SingleChronicleQueue queue)
    {
        this.dir = dir;
        this.queue = queue;
        this.tailer = queue.createTailer().toStart();
    }

    /**
     * @param dir folder of a journal.
     * @return a reader at the first record.
     * @throws JournalException when the folder is missing, is no folder, holds no queue file, holds a queue that is
     *                          not an rfmrt journal, or Chronicle cannot open it; one line naming the folder.
     */
    public static JournalReader open(final Path dir)
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
        if (!hasQueueFiles(dir))
        {
            throw new JournalException("journal dir " + dir + " holds no journal (no .cq4 queue file)");
        }
        final SingleChronicleQueue queue;
        try
        {
            // read-only mode keeps Chronicle's stale listing when old cycle files were deleted; use it only when
            // the folder cannot be written
            final boolean readOnly = !Files.isWritable(dir) || !Files.isWritable(dir.resolve(METADATA_FILE));
            queue = SingleChronicleQueueBuilder.binary(dir).readOnly(readOnly).build();
        }
        catch (final RuntimeException | Error ex)
        {
            throw new JournalException("cannot open journal dir " + dir + ": " + Journal.oneLine(ex), ex);
        }
        JournalReader reader = null;
        try
        {
            reader = new JournalReader(dir, queue);
            reader.readFirstHeader();
            return reader;
        }
        catch (final JournalException ex)
        {
            close(reader, queue);
            throw ex;
        }
        catch (final RuntimeException | Error ex)
        {
            close(reader, queue);
            throw new JournalException("cannot read journal dir " + dir + ": " + Journal.oneLine(ex), ex);
        }
    }

    private static void close(final JournalReader reader, final SingleChronicleQueue queue)
    {
        if (reader != null)
        {
            reader.close();
        }
        else
        {
            queue.close();
        }
    }

    /**
     * An rfmrt journal starts with a journal header: read it now, so that a folder of something else fails at open.
     * An empty queue passes (a journal whose thread could not write yet).
     */
    private void readFirstHeader()
    {
        final JournalRecord first = new JournalRecord();
        if (readDocument(first))
        {
            final int length = first.length();
            if (length < RECORD_HEADER_LENGTH || first.version() != VERSION || first.kindId() != HEADER_KIND_ID)
            {
                throw notJournal(length);
            }
            readHeader(first.buffer(), length);
        }
    }

    /**
     * Read the next record.
     *
     * @param into the flyweight to fill.
     * @return {@code true} when {@code into} holds the next record; {@code false} at the end of what is written.
     * @throws JournalException when the next record cannot be understood (names its index and why), or the folder
     *                          is not an rfmrt journal.
     */
    public boolean next(final JournalRecord into)
    {
        if (closed)
        {
            throw new IllegalStateException("journal reader of " + dir + " is closed");
        }
        while (readDocument(into))
        {
            if (decode(into, into.length()))
            {
                index = documentIndex;
                return true;
            }
        }
        return false;
    }

    /**
     * Copy the next data document into {@code into}, undecoded.
     *
     * @return {@code false} at the end.
     */
    private boolean readDocument(final JournalRecord into)
    {
        while (true)
        {
            try (DocumentContext context = tailer.readingDocument())
            {
                if (!context.isPresent())
                {
                    return false;
                }
                if (!context.isData())
                {
                    continue;
                }
                documentIndex = context.index();
                final Bytes<?> bytes = context.wire().bytes();
                final long remaining = bytes.readRemaining();
                if (remaining > Integer.MAX_VALUE)
                {
                    throw error(remaining, "is too big for a journal record");
                }
                final int length = (int)remaining;
                final byte[] array = into.prepare(length);
                if (length > 0)
                {
                    bytes.read(array, 0, length);
                }
                return true;
            }
        }
    }

    /**
     * @return Chronicle index of the last record read, -1 before the first.
     */
    public long index()
    {
        return index;
    }

    /**
     * Close the queue. Idempotent.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            tailer.close();
            queue.close();
        }
    }

    private boolean decode(final JournalRecord into, final int length)
    {
        if (length < RECORD_HEADER_LENGTH)
        {
            throw notJournalOr(length, "is shorter than a record header (" + RECORD_HEADER_LENGTH + " bytes)");
        }
        final UnsafeBuffer buffer = into.buffer();
        final int version = into.version();
        if (version != VERSION)
        {
            throw notJournalOr(length, "has layout version " + version + "; this reader knows version " + VERSION +
                " only (written by a newer rfmrt?)");
        }
        final int kindId = into.kindId();
        if (kindId == HEADER_KIND_ID)
        {
            readHeader(buffer, length);
            return false;
        }
        if (!headerSeen)
        {
            throw notJournal(length);
        }
        final RecordKind kind = RecordKind.fromId(kindId);
        if (kind == null)
        {
            throw error(length, "has unknown kind " + kindId);
        }
        final int body = length - RECORD_HEADER_LENGTH;
        switch (kind)
        {
            case FRAME ->
            {
                checkLength(kind, body, FRAME_FIXED_LENGTH, length);
                final long payload = buffer.getInt(RECORD_HEADER_LENGTH + FRAME_PAYLOAD_LENGTH_OFFSET, BYTE_ORDER);
                if (payload < 0 || FRAME_FIXED_LENGTH + payload > body)
                {
                    throw error(length, "is a FRAME with payloadLength " + payload + " that does not fit");
                }
            }
            case FAULT -> checkLength(kind, body, FAULT_LENGTH, length);
            case STATE -> checkLength(kind, body, STATE_LENGTH, length);
            case COUNTERS ->
            {
                checkLength(kind, body, COUNTERS_FIXED_LENGTH, length);
                final long count = buffer.getInt(RECORD_HEADER_LENGTH + COUNTERS_COUNT_OFFSET, BYTE_ORDER);
                if (count < 0 || COUNTERS_FIXED_LENGTH + count * SIZE_OF_LONG > body)
                {
                    throw error(length, "is a COUNTERS record with count " + count + " that does not fit");
                }
            }
            case SAMPLE -> checkLength(kind, body, SAMPLE_LENGTH, length);
            default -> throw error(length, "has unknown kind " + kindId);
        }
        into.set(kind, writerNames);
        return true;
    }

    private void readHeader(final UnsafeBuffer buffer, final int length)
    {
        final int body = length - RECORD_HEADER_LENGTH;
        if (body < HEADER_WRITERS_OFFSET || buffer.getLong(RECORD_HEADER_LENGTH + HEADER_MAGIC_OFFSET, BYTE_ORDER) !=
            MAGIC)
        {
            throw notJournalOr(length, "is a journal header without the journal magic");
        }
        final int count = buffer.getInt(RECORD_HEADER_LENGTH + HEADER_WRITER_COUNT_OFFSET, BYTE_ORDER);
        if (count < 0 || count > body)
        {
            throw error(length, "is a journal header with writer count " + count);
        }
        final String[] names = new String[count];
        int at = RECORD_HEADER_LENGTH + HEADER_WRITERS_OFFSET;
        for (int i = 0; i < count; i++)
        {
            if (at + HEADER_WRITER_ENTRY_FIXED_LENGTH > length)
            {
                throw error(length, "is a journal header cut short in writer entry " + i);
            }
            final int id = buffer.getShort(at, BYTE_ORDER) & 0xFFFF;
            final int nameLength = buffer.getShort(at + SIZE_OF_SHORT, BYTE_ORDER) & 0xFFFF;
            at += HEADER_WRITER_ENTRY_FIXED_LENGTH;
            if (id >= count || at + nameLength > length)
            {
                throw error(length, "is a journal header with a bad writer entry " + i);
            }
            final byte[] name = new byte[nameLength];
            buffer.getBytes(at, name);
            names[id] = new String(name, StandardCharsets.US_ASCII);
            at += nameLength;
        }
        writerNames = names;
        headerSeen = true;
    }

    private void checkLength(final RecordKind kind, final int body, final int needed, final int length)
    {
        if (body < needed)
        {
            throw error(length, "is a " + kind + " record with a body of " + body + " bytes; it needs " + needed);
        }
    }

    private JournalException notJournalOr(final int length, final String what)
    {
        return headerSeen ? error(length, what) : notJournal(length);
    }

    private JournalException notJournal(final int length)
    {
        return new JournalException("journal dir " + dir + " is not an rfmrt journal: its first record (index 0x" +
            Long.toHexString(documentIndex) + ", " + length + " bytes) is not a journal header");
    }

    private JournalException error(final long length, final String what)
    {
        return new JournalException("journal dir " + dir + ": record at index 0x" + Long.toHexString(documentIndex) +
            " (" + length + " bytes) " + what);
    }

    private static boolean hasQueueFiles(final Path dir)
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".cq4"));
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot list journal dir " + dir + ": " + Journal.oneLine(ex), ex);
        }
    }
}
