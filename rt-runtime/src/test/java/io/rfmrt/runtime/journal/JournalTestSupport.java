package io.rfmrt.runtime.journal;

import org.agrona.BufferUtil;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.util.ArrayList;
import java.util.List;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.BYTE_ORDER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_VALUES_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_CODE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_VALUE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_CONSUMER_START_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_HANDLER_END_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEND_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SOURCE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_VALIDATED_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_WOKE_NANOS_OFFSET;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Helpers shared by the journal tests.
 */
public final class JournalTestSupport
{
    private JournalTestSupport()
    {
    }

    /**
     * Close a journal inside its own try-with-resources block, to look at its final stats there.
     *
     * @param journal to close; closing again at the end of the block is a no-op.
     */
    static void closeNow(final AutoCloseable journal)
    {
        try
        {
            journal.close();
        }
        catch (final Exception ex)
        {
            throw new AssertionError(ex);
        }
    }

    /**
     * Stall the journal thread (for tests outside this package): writers then fill their rings and drop.
     */
    public static void pause(final Journal journal)
    {
        journal.pauseForTest();
    }

    public static void resume(final Journal journal)
    {
        journal.resumeForTest();
    }

    /**
     * A writer with no journal thread behind it: what it queues stays in its ring until {@link #takeQueued} reads
     * it, so a single-threaded test sees exactly what a hot-path thread journaled, without a disk.
     *
     * @param name              the writer's name.
     * @param ringCapacityBytes its ring, a power of two (records of up to 1/8 of it fit).
     * @return the writer.
     */
    public static JournalWriter detachedWriter(final String name, final int ringCapacityBytes)
    {
        final OneToOneRingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            ringCapacityBytes + RingBufferDescriptor.TRAILER_LENGTH, 64)));
        return new JournalWriter(name, 0, ring);
    }

    /**
     * Take what a {@link #detachedWriter} queued out of its ring, oldest first, one line per record:
     * {@code FRAME seq=S source=N send=T woke=T validated=T start=T end=T length=L},
     * {@code FAULT code=C seq=S value=V nanos=T}, {@code COUNTERS nanos=T values=[A,B] length=L} (L: the message's
     * bytes), or the kind's name for the other kinds.
     *
     * @param writer a detached writer.
     * @return the records, now gone from the ring.
     */
    public static List<String> takeQueued(final JournalWriter writer)
    {
        final List<String> records = new ArrayList<>();
        final MessageHandler describe = (kind, buffer, index, length) ->
        {
            if (kind == RecordKind.FRAME.id())
            {
                records.add("FRAME seq=" + buffer.getLong(index + FRAME_SEQ_OFFSET, BYTE_ORDER) +
                    " source=" + buffer.getInt(index + FRAME_SOURCE_OFFSET, BYTE_ORDER) +
                    " send=" + buffer.getLong(index + FRAME_SEND_NANOS_OFFSET, BYTE_ORDER) +
                    " woke=" + buffer.getLong(index + FRAME_WOKE_NANOS_OFFSET, BYTE_ORDER) +
                    " validated=" + buffer.getLong(index + FRAME_VALIDATED_NANOS_OFFSET, BYTE_ORDER) +
                    " start=" + buffer.getLong(index + FRAME_CONSUMER_START_NANOS_OFFSET, BYTE_ORDER) +
                    " end=" + buffer.getLong(index + FRAME_HANDLER_END_NANOS_OFFSET, BYTE_ORDER) +
                    " length=" + buffer.getInt(index + FRAME_PAYLOAD_LENGTH_OFFSET, BYTE_ORDER));
            }
            else if (kind == RecordKind.FAULT.id())
            {
                records.add("FAULT code=" + buffer.getInt(index + FAULT_CODE_OFFSET, BYTE_ORDER) +
                    " seq=" + buffer.getLong(index + FAULT_SEQ_OFFSET, BYTE_ORDER) +
                    " value=" + buffer.getLong(index + FAULT_VALUE_OFFSET, BYTE_ORDER) +
                    " nanos=" + buffer.getLong(index + FAULT_NANOS_OFFSET, BYTE_ORDER));
            }
            else if (kind == RecordKind.COUNTERS.id())
            {
                final StringBuilder values = new StringBuilder();
                final int count = buffer.getInt(index + COUNTERS_COUNT_OFFSET, BYTE_ORDER);
                for (int i = 0; i < count; i++)
                {
                    values.append(i == 0 ? "" : ",").append(
                        buffer.getLong(index + COUNTERS_VALUES_OFFSET + i * SIZE_OF_LONG, BYTE_ORDER));
                }
                records.add("COUNTERS nanos=" + buffer.getLong(index + COUNTERS_NANOS_OFFSET, BYTE_ORDER) +
                    " values=[" + values + "] length=" + length);
            }
            else
            {
                records.add(RecordKind.fromId(kind).name());
            }
        };
        // one read stops at the ring's end: the rest, after the wrap, takes another
        while (writer.ring().size() > 0)
        {
            writer.ring().read(describe);
        }
        return records;
    }
}
