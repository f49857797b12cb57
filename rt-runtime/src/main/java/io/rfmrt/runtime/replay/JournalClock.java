package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.internal.ChronicleSupport;
import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.BYTE_ORDER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_EPOCH_MILLIS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_MAGIC_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;

/**
 * One reading of a node's two clocks, from the first journal header of its journal: maps the node's
 * {@code System.nanoTime()} stamps to wall-clock time and back (to the millisecond the header holds).
 *
 * @param epochMillis wall clock at the reading, ms since the Unix epoch.
 * @param nanos       {@code System.nanoTime()} at the same reading; also the journal start of a replay.
 */
public record JournalClock(long epochMillis, long nanos)
{
    static
    {
        ChronicleSupport.init();
    }

    /**
     * @param epochNanos ns since the Unix epoch.
     * @return the node's {@code System.nanoTime()} at that instant.
     */
    public long toNanos(final long epochNanos)
    {
        return nanos + (epochNanos - epochMillis * 1_000_000L);
    }

    /**
     * @param monotonicNanos a {@code System.nanoTime()} stamp of the node.
     * @return the instant.
     */
    public Instant toInstant(final long monotonicNanos)
    {
        final long epochNanos = epochMillis * 1_000_000L + (monotonicNanos - nanos);
        return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L),
            Math.floorMod(epochNanos, 1_000_000_000L));
    }

    /**
     * Read the first journal header of a journal folder.
     *
     * @param dir a journal folder that {@link io.rfmrt.runtime.journal.JournalReader} opened.
     * @return its clock reading, or {@code null} when the folder's first record is no readable journal header.
     */
    public static JournalClock probe(final Path dir)
    {
        final boolean readOnly = !Files.isWritable(dir) || !Files.isWritable(dir.resolve("metadata.cq4t"));
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir).readOnly(readOnly).build();
            ExcerptTailer tailer = queue.createTailer().toStart())
        {
            for (int tries = 0; tries < 16; tries++)
            {
                try (DocumentContext context = tailer.readingDocument())
                {
                    if (!context.isPresent())
                    {
                        return null;
                    }
                    if (!context.isData())
                    {
                        continue;
                    }
                    final Bytes<?> bytes = context.wire().bytes();
                    final int length = (int)Math.min(bytes.readRemaining(), 64);
                    if (length < RECORD_HEADER_LENGTH + HEADER_NANOS_OFFSET + 8)
                    {
                        return null;
                    }
                    final byte[] array = new byte[length];
                    bytes.read(array, 0, length);
                    final UnsafeBuffer buffer = new UnsafeBuffer(array);
                    if ((buffer.getByte(JournalRecordDescriptor.KIND_OFFSET) & 0xFF) !=
                        JournalRecordDescriptor.HEADER_KIND_ID ||
                        buffer.getLong(RECORD_HEADER_LENGTH + HEADER_MAGIC_OFFSET, BYTE_ORDER) !=
                        JournalRecordDescriptor.MAGIC)
                    {
                        return null;
                    }
                    return new JournalClock(buffer.getLong(RECORD_HEADER_LENGTH + HEADER_EPOCH_MILLIS_OFFSET,
                        BYTE_ORDER), buffer.getLong(RECORD_HEADER_LENGTH + HEADER_NANOS_OFFSET, BYTE_ORDER));
                }
            }
            return null;
        }
        catch (final Exception | Error ex)
        {
            return null;
        }
    }
}
