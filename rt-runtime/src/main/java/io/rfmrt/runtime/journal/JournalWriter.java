package io.rfmrt.runtime.journal;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

import java.util.concurrent.atomic.AtomicLong;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.BYTE_ORDER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_COUNT_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.COUNTERS_VALUES_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_CODE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FAULT_VALUE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_CONSUMER_START_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_CRC_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_FLAGS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_HANDLER_END_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_LENGTH_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_PAYLOAD_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEND_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SEQ_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_SOURCE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_VALIDATED_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.FRAME_WOKE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_CYCLE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_KIND_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_STATE_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.SAMPLE_VALUES_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_FROM_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_NANOS_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.STATE_TO_OFFSET;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.countersLength;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.frameLength;
import static org.agrona.BitUtil.SIZE_OF_DOUBLE;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * The hot path's end of the journal: puts one record into this writer's own preallocated SPSC ring (Agrona
 * {@link OneToOneRingBuffer}), from which the journal thread takes it to disk. Made by {@link Journal#newWriter}.
 *
 * <p><b>Threading:</b> one producing thread per writer; no other thread may call the record methods. Every record
 * method is allocation-free, lock-free and never waits: it returns {@code true} when the record is in the ring, and
 * {@code false} when the ring has no room (or the journal is closed, or the record is bigger than 1/8 of the ring) —
 * then the record is dropped and counted in {@link #dropped()}. Arguments that point outside their buffer are
 * programming errors and throw before anything is claimed. {@link #dropped()} and {@link #name()} may be called from
 * any thread. Times are {@code System.nanoTime()} values in nanoseconds, recorded as given.
 */
public final class JournalWriter
{
    private final String name;
    private final int id;
    private final OneToOneRingBuffer ring;
    private final AtomicBuffer buffer;
    private final int maxMessageLength;
    /** Written by the producing thread only (lazySet), read by any. */
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;

    JournalWriter(final String name, final int id, final OneToOneRingBuffer ring)
    {
        this.name = name;
        this.id = id;
        this.ring = ring;
        this.buffer = ring.buffer();
        this.maxMessageLength = ring.maxMsgLength();
    }

    /**
     * Journal one received frame.
     *
     * @param seq                frame sequence number.
     * @param source             sending node id.
     * @param flags              frame header flags.
     * @param crc32c             CRC32C from the frame header.
     * @param sendNanos          sender's stamp at publish.
     * @param wokeNanos          ISR-wake thread woke.
     * @param validatedNanos     frame validated in host memory.
     * @param consumerStartNanos consumer thread started on it.
     * @param handlerEndNanos    handler returned.
     * @param payload            buffer holding the payload; may be {@code null} when {@code length} is 0.
     * @param offset             payload start in {@code payload}.
     * @param length             payload bytes; the whole record may take at most 1/8 of the ring.
     * @return {@code true} when queued, {@code false} when dropped (counted).
     * @throws IndexOutOfBoundsException when {@code offset}/{@code length} are outside {@code payload}.
     */
    public boolean frame(
        final long seq,
        final int source,
        final int flags,
        final int crc32c,
        final long sendNanos,
        final long wokeNanos,
        final long validatedNanos,
        final long consumerStartNanos,
        final long handlerEndNanos,
        final DirectBuffer payload,
        final int offset,
        final int length)
    {
        if (length != 0 && (payload == null || offset < 0 || length < 0 || offset > payload.capacity() - length))
        {
            throw new IndexOutOfBoundsException("payload offset " + offset + " length " + length +
                " is outside a buffer of " + (payload == null ? "null" : payload.capacity() + " bytes"));
        }
        final int messageLength = frameLength(length);
        final int index = claim(RecordKind.FRAME, messageLength);
        if (index < 0)
        {
            return false;
        }
        final AtomicBuffer buffer = this.buffer;
        buffer.putLong(index + FRAME_SEQ_OFFSET, seq, BYTE_ORDER);
        buffer.putLong(index + FRAME_SEND_NANOS_OFFSET, sendNanos, BYTE_ORDER);
        buffer.putLong(index + FRAME_WOKE_NANOS_OFFSET, wokeNanos, BYTE_ORDER);
        buffer.putLong(index + FRAME_VALIDATED_NANOS_OFFSET, validatedNanos, BYTE_ORDER);
        buffer.putLong(index + FRAME_CONSUMER_START_NANOS_OFFSET, consumerStartNanos, BYTE_ORDER);
        buffer.putLong(index + FRAME_HANDLER_END_NANOS_OFFSET, handlerEndNanos, BYTE_ORDER);
        buffer.putInt(index + FRAME_SOURCE_OFFSET, source, BYTE_ORDER);
        buffer.putInt(index + FRAME_FLAGS_OFFSET, flags, BYTE_ORDER);
        buffer.putInt(index + FRAME_CRC_OFFSET, crc32c, BYTE_ORDER);
        buffer.putInt(index + FRAME_PAYLOAD_LENGTH_OFFSET, length, BYTE_ORDER);
        if (length > 0)
        {
            buffer.putBytes(index + FRAME_PAYLOAD_OFFSET, payload, offset, length);
        }
        ring.commit(index);
        return true;
    }

    /**
     * Journal a fault.
     *
     * @param code  fault code (the caller's enum id).
     * @param seq   sequence number the fault concerns, or 0.
     * @param value a value that goes with the code (expected seq, latency, ...).
     * @param nanos when it happened.
     * @return {@code true} when queued, {@code false} when dropped (counted).
     */
    public boolean fault(final int code, final long seq, final long value, final long nanos)
    {
        final int index = claim(RecordKind.FAULT, FAULT_LENGTH);
        if (index < 0)
        {
            return false;
        }
        final AtomicBuffer buffer = this.buffer;
        buffer.putLong(index + FAULT_NANOS_OFFSET, nanos, BYTE_ORDER);
        buffer.putLong(index + FAULT_SEQ_OFFSET, seq, BYTE_ORDER);
        buffer.putLong(index + FAULT_VALUE_OFFSET, value, BYTE_ORDER);
        buffer.putInt(index + FAULT_CODE_OFFSET, code, BYTE_ORDER);
        ring.commit(index);
        return true;
    }

    /**
     * Journal a state change.
     *
     * @param from  state before (the caller's enum id).
     * @param to    state after.
     * @param nanos when it changed.
     * @return {@code true} when queued, {@code false} when dropped (counted).
     */
    public boolean state(final int from, final int to, final long nanos)
    {
        final int index = claim(RecordKind.STATE, STATE_LENGTH);
        if (index < 0)
        {
            return false;
        }
        final AtomicBuffer buffer = this.buffer;
        buffer.putLong(index + STATE_NANOS_OFFSET, nanos, BYTE_ORDER);
        buffer.putInt(index + STATE_FROM_OFFSET, from, BYTE_ORDER);
        buffer.putInt(index + STATE_TO_OFFSET, to, BYTE_ORDER);
        ring.commit(index);
        return true;
    }

    /**
     * Journal a snapshot of counters.
     *
     * @param nanos  when the snapshot was taken.
     * @param values counter values; the first {@code count} are journalled.
     * @param count  number of values.
     * @return {@code true} when queued, {@code false} when dropped (counted).
     * @throws IndexOutOfBoundsException when {@code count} is negative or more than {@code values.length}.
     */
    public boolean counters(final long nanos, final long[] values, final int count)
    {
        if (count < 0 || count > values.length)
        {
            throw new IndexOutOfBoundsException("counter count " + count + " is outside an array of " +
                values.length);
        }
        final int index = claim(RecordKind.COUNTERS, countersLength(count));
        if (index < 0)
        {
            return false;
        }
        final AtomicBuffer buffer = this.buffer;
        buffer.putLong(index + COUNTERS_NANOS_OFFSET, nanos, BYTE_ORDER);
        buffer.putInt(index + COUNTERS_COUNT_OFFSET, count, BYTE_ORDER);
        int at = index + COUNTERS_VALUES_OFFSET;
        for (int i = 0; i < count; i++)
        {
            buffer.putLong(at, values[i], BYTE_ORDER);
            at += SIZE_OF_LONG;
        }
        ring.commit(index);
        return true;
    }

    /**
     * Journal a numeric sample, e.g. one control-loop cycle (setpoint, position, velocity, command, error, latency).
     *
     * @param kind  sample kind (the caller's enum id).
     * @param nanos when it was taken.
     * @param cycle cycle number.
     * @param state state id at that time.
     * @param v0    value 0.
     * @param v1    value 1.
     * @param v2    value 2.
     * @param v3    value 3.
     * @param v4    value 4.
     * @param v5    value 5.
     * @return {@code true} when queued, {@code false} when dropped (counted).
     */
    public boolean sample(
        final int kind,
        final long nanos,
        final long cycle,
        final int state,
        final double v0,
        final double v1,
        final double v2,
        final double v3,
        final double v4,
        final double v5)
    {
        final int index = claim(RecordKind.SAMPLE, SAMPLE_LENGTH);
        if (index < 0)
        {
            return false;
        }
        final AtomicBuffer buffer = this.buffer;
        buffer.putLong(index + SAMPLE_NANOS_OFFSET, nanos, BYTE_ORDER);
        buffer.putLong(index + SAMPLE_CYCLE_OFFSET, cycle, BYTE_ORDER);
        buffer.putInt(index + SAMPLE_KIND_OFFSET, kind, BYTE_ORDER);
        buffer.putInt(index + SAMPLE_STATE_OFFSET, state, BYTE_ORDER);
        final int values = index + SAMPLE_VALUES_OFFSET;
        buffer.putDouble(values, v0, BYTE_ORDER);
        buffer.putDouble(values + SIZE_OF_DOUBLE, v1, BYTE_ORDER);
        buffer.putDouble(values + 2 * SIZE_OF_DOUBLE, v2, BYTE_ORDER);
        buffer.putDouble(values + 3 * SIZE_OF_DOUBLE, v3, BYTE_ORDER);
        buffer.putDouble(values + 4 * SIZE_OF_DOUBLE, v4, BYTE_ORDER);
        buffer.putDouble(values + 5 * SIZE_OF_DOUBLE, v5, BYTE_ORDER);
        ring.commit(index);
        return true;
    }

    /**
     * @return records this writer dropped: ring full, record too big for the ring, or offered after close. Any
     * thread.
     */
    public long dropped()
    {
        return dropped.get();
    }

    /**
     * @return the name given to {@link Journal#newWriter}.
     */
    public String name()
    {
        return name;
    }

    OneToOneRingBuffer ring()
    {
        return ring;
    }

    void close()
    {
        closed = true;
    }

    private int claim(final RecordKind kind, final int messageLength)
    {
        if (!closed && messageLength <= maxMessageLength)
        {
            final int index = ring.tryClaim(kind.id(), messageLength);
            if (index >= 0)
            {
                return index;
            }
        }
        dropped.lazySet(dropped.get() + 1);
        return -1;
    }

    @Override
    public String toString()
    {
        return "JournalWriter{" + name + ", id " + id + ", dropped " + dropped() + "}";
    }
}
