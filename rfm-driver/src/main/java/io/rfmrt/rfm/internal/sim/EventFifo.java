package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import org.agrona.concurrent.AtomicBuffer;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.ENTRY_ARRIVAL_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.ENTRY_DATA_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.ENTRY_SEQUENCE_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.ENTRY_SOURCE_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_HEAD_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_SLOTS;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_TAIL_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_WAITERS_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.entryOffset;

/**
 * Flyweight over one event FIFO of an emulated card (layout in {@link ControlBlockDescriptor}): a bounded
 * multi-producer, single-consumer queue of at most {@link EventType#FIFO_CAPACITY} entries. Each entry has a
 * sequence that says whose turn it is: {@code index} when free for the sender that claims tail {@code index},
 * {@code index + 1} once written, {@code index + FIFO_SLOTS} once taken.
 * <p>
 * Any process may {@link #offer}; only the card's holder {@link #poll}s, one thread per FIFO. Allocation-free.
 */
public final class EventFifo
{
    /** {@link #offer}: the entry is in the FIFO. */
    public static final int OFFERED = 0;
    /** {@link #offer}: the FIFO holds {@link EventType#FIFO_CAPACITY} entries; nothing was written. */
    public static final int FULL = 1;
    /** {@link #offer}: the FIFO's head, tail or sequences are in a state no sender or taker leaves; nothing written. */
    public static final int CORRUPT = 2;

    private AtomicBuffer buffer;
    private int offset;

    /**
     * @param buffer the control block.
     * @param offset offset of the FIFO ({@link ControlBlockDescriptor#fifoOffset}).
     * @return this.
     */
    public EventFifo wrap(final AtomicBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /**
     * Lay out an empty FIFO: head and tail 0, no waiters, entry {@code i}'s sequence {@code i}. The interrupt line
     * is left as it is (a sleeper may be watching it).
     *
     * @param buffer the control block.
     * @param offset offset of the FIFO.
     */
    public static void init(final AtomicBuffer buffer, final int offset)
    {
        buffer.putLong(offset + FIFO_HEAD_OFFSET, 0);
        buffer.putLong(offset + FIFO_TAIL_OFFSET, 0);
        buffer.putInt(offset + FIFO_WAITERS_OFFSET, 0);
        for (int i = 0; i < FIFO_SLOTS; i++)
        {
            buffer.putLong(entryOffset(offset, i) + ENTRY_SEQUENCE_OFFSET, i);
        }
    }

    /**
     * Append an entry; safe against other senders in any process. Bounded: each pass either claims the entry, finds
     * the FIFO full, or sees another sender's progress; a control block whose head, tail and sequences no run of
     * the protocol can produce (written by something else, or cut in a torn copy) is refused as {@link #CORRUPT}
     * instead of being waited on. Allocation-free; no exception.
     *
     * @param source sending node.
     * @param data   data word.
     * @param nanos  arrival time.
     * @return {@link #OFFERED}; {@link #FULL} when the FIFO holds {@link EventType#FIFO_CAPACITY} entries already;
     * {@link #CORRUPT} when its head, tail or the entry at the tail cannot be.
     */
    public int offer(final int source, final int data, final long nanos)
    {
        while (true)
        {
            final long tail = buffer.getLongVolatile(offset + FIFO_TAIL_OFFSET);
            final long head = buffer.getLongVolatile(offset + FIFO_HEAD_OFFSET);
            final long size = tail - head;
            if (size >= EventType.FIFO_CAPACITY)
            {
                // tail was read before head, and no claim takes the tail further than the capacity past the head
                return size == EventType.FIFO_CAPACITY ? FULL : CORRUPT;
            }
            if (size < 0 && buffer.getLongVolatile(offset + FIFO_TAIL_OFFSET) - head < 0)
            {
                // a head is only moved over an entry written after its claim moved the tail past it: the tail read
                // now cannot be behind the head read before
                return CORRUPT;
            }
            final int entry = entryOffset(offset, tail);
            final long sequence = buffer.getLongAcquire(entry + ENTRY_SEQUENCE_OFFSET);
            if (sequence == tail)
            {
                if (buffer.compareAndSetLong(offset + FIFO_TAIL_OFFSET, tail, tail + 1))
                {
                    buffer.putLong(entry + ENTRY_ARRIVAL_OFFSET, nanos);
                    buffer.putInt(entry + ENTRY_DATA_OFFSET, data);
                    buffer.putInt(entry + ENTRY_SOURCE_OFFSET, source);
                    buffer.putLongRelease(entry + ENTRY_SEQUENCE_OFFSET, tail + 1);
                    return OFFERED;
                }
            }
            else if (sequence < tail)
            {
                // the entry of the previous lap is not yet written or taken
                return FULL;
            }
            else if (buffer.getLongVolatile(offset + FIFO_TAIL_OFFSET) == tail)
            {
                // a sequence past the tail is stored only after a claim moved the tail beyond it: seen here (acquire)
                // with the tail still unmoved, no sender wrote it
                return CORRUPT;
            }
        }
    }

    /**
     * Take the oldest entry; only the card's holder calls this, from one thread at a time.
     *
     * @param type the FIFO's type, put in {@code into}.
     * @param into filled when an entry is taken.
     * @return true when an entry was taken; false when the FIFO is empty or its oldest entry is still being written.
     */
    public boolean poll(final EventType type, final EventInfo into)
    {
        final long head = buffer.getLong(offset + FIFO_HEAD_OFFSET);
        final int entry = entryOffset(offset, head);
        if (buffer.getLongAcquire(entry + ENTRY_SEQUENCE_OFFSET) != head + 1)
        {
            return false;
        }
        into.set(type, buffer.getInt(entry + ENTRY_SOURCE_OFFSET), buffer.getInt(entry + ENTRY_DATA_OFFSET),
            buffer.getLong(entry + ENTRY_ARRIVAL_OFFSET));
        buffer.putLongRelease(entry + ENTRY_SEQUENCE_OFFSET, head + FIFO_SLOTS);
        buffer.putLongRelease(offset + FIFO_HEAD_OFFSET, head + 1);
        return true;
    }

    /**
     * @return entries claimed and not yet taken.
     */
    public int size()
    {
        return (int)(buffer.getLongVolatile(offset + FIFO_TAIL_OFFSET) -
            buffer.getLongVolatile(offset + FIFO_HEAD_OFFSET));
    }
}
