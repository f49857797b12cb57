package io.rfmrt.runtime.internal;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.locks.LockSupport;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Single-producer single-consumer hand-off from the ISR-wake thread to the consumer thread: fixed-size entries in
 * a preallocated power-of-two ring, a release-stored tail and head, and a parked flag so that the producer wakes a
 * blocked consumer (and only then makes the system call).
 * <pre>
 * Indexes: head (consumer) at 0, tail (producer) at 64, parked flag at 128, each on its own cache line.
 * Entry, 64 bytes:
 *   0 | DMA slot (int32)        | status (int32): FrameStatus id        |
 *   8 | channel (int32)         | source node (int32)                   |
 *  16 | seq (int64)                                                     |
 *  24 | send nanos (int64)                                              |
 *  32 | woke nanos (int64)                                              |
 *  40 | validated nanos (int64)                                         |
 *  48 | pad                                                             |
 * </pre>
 */
public final class HandoffRing
{
    public static final int SLOT_OFFSET = 0;
    public static final int STATUS_OFFSET = SLOT_OFFSET + SIZE_OF_INT;
    public static final int CHANNEL_OFFSET = STATUS_OFFSET + SIZE_OF_INT;
    public static final int SOURCE_OFFSET = CHANNEL_OFFSET + SIZE_OF_INT;
    public static final int SEQ_OFFSET = SOURCE_OFFSET + SIZE_OF_INT;
    public static final int SEND_OFFSET = SEQ_OFFSET + SIZE_OF_LONG;
    public static final int WOKE_OFFSET = SEND_OFFSET + SIZE_OF_LONG;
    public static final int VALIDATED_OFFSET = WOKE_OFFSET + SIZE_OF_LONG;
    public static final int ENTRY_SIZE = 64;

    private static final int HEAD_OFFSET = 0;
    private static final int TAIL_OFFSET = 64;
    private static final int PARKED_OFFSET = 128;
    private static final int INDEX_SIZE = 192;

    private final UnsafeBuffer indexes = new UnsafeBuffer(BufferUtil.allocateDirectAligned(INDEX_SIZE, 64));
    private final UnsafeBuffer entries;
    private final int mask;
    private volatile Thread consumer;

    /**
     * @param capacity entries, a power of two.
     */
    public HandoffRing(final int capacity)
    {
        if (!BitUtil.isPowerOfTwo(capacity))
        {
            throw new IllegalArgumentException("hand-off capacity " + capacity + " is not a power of two");
        }
        this.mask = capacity - 1;
        this.entries = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity * ENTRY_SIZE, 64));
    }

    /**
     * @param thread the consumer thread, which {@link #park} blocks and {@link #offer} wakes.
     */
    public void consumer(final Thread thread)
    {
        this.consumer = thread;
    }

    /**
     * Producer: publish one entry.
     *
     * @return true when published, false when full.
     */
    public boolean offer(final int slot, final int status, final int channel, final int source, final long seq,
        final long sendNanos, final long wokeNanos, final long validatedNanos)
    {
        final long tail = indexes.getLong(TAIL_OFFSET);
        if (tail - indexes.getLongAcquire(HEAD_OFFSET) > mask)
        {
            return false;
        }
        final int e = (int)(tail & mask) * ENTRY_SIZE;
        entries.putInt(e + SLOT_OFFSET, slot);
        entries.putInt(e + STATUS_OFFSET, status);
        entries.putInt(e + CHANNEL_OFFSET, channel);
        entries.putInt(e + SOURCE_OFFSET, source);
        entries.putLong(e + SEQ_OFFSET, seq);
        entries.putLong(e + SEND_OFFSET, sendNanos);
        entries.putLong(e + WOKE_OFFSET, wokeNanos);
        entries.putLong(e + VALIDATED_OFFSET, validatedNanos);
        // full fence between publishing the tail and reading the parked flag (the consumer fences the other way)
        indexes.putLongVolatile(TAIL_OFFSET, tail + 1);
        if (indexes.getIntVolatile(PARKED_OFFSET) != 0 && indexes.compareAndSetInt(PARKED_OFFSET, 1, 0))
        {
            LockSupport.unpark(consumer);
        }
        return true;
    }

    /**
     * Consumer: the offset of the oldest entry in {@link #entries()}, or -1 when empty. Call {@link #advance}
     * after reading it.
     *
     * @return entry offset or -1.
     */
    public int peek()
    {
        final long head = indexes.getLong(HEAD_OFFSET);
        if (head == indexes.getLongAcquire(TAIL_OFFSET))
        {
            return -1;
        }
        return (int)(head & mask) * ENTRY_SIZE;
    }

    /**
     * @return the entry storage, read at the offsets above.
     */
    public UnsafeBuffer entries()
    {
        return entries;
    }

    /**
     * Consumer: drop the oldest entry.
     */
    public void advance()
    {
        indexes.putLongRelease(HEAD_OFFSET, indexes.getLong(HEAD_OFFSET) + 1);
    }

    /**
     * Consumer: block until the producer publishes or {@code maxNanos} pass (0 = no limit).
     *
     * @param maxNanos bound on the sleep.
     * @return true when it actually slept.
     */
    public boolean park(final long maxNanos)
    {
        indexes.putIntVolatile(PARKED_OFFSET, 1);
        if (indexes.getLong(HEAD_OFFSET) != indexes.getLongVolatile(TAIL_OFFSET))
        {
            indexes.compareAndSetInt(PARKED_OFFSET, 1, 0);
            return false;
        }
        if (maxNanos > 0)
        {
            LockSupport.parkNanos(maxNanos);
        }
        else
        {
            LockSupport.park();
        }
        indexes.compareAndSetInt(PARKED_OFFSET, 1, 0);
        return true;
    }

    /**
     * Wake the consumer whatever the state, e.g. to stop it.
     */
    public void wake()
    {
        indexes.putIntVolatile(PARKED_OFFSET, 0);
        final Thread t = consumer;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }
}
