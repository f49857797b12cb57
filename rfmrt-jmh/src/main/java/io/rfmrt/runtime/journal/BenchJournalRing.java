package io.rfmrt.runtime.journal;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * A {@link JournalWriter} over a ring of its own, without a journal thread: the benchmark thread writes records with
 * the writer's own code and empties the ring between measured batches ({@link #drain()}), so that every record is
 * written, none dropped, and no thread writes to disk beside the measurement. In this package for the writer's
 * package-private constructor.
 */
public final class BenchJournalRing
{
    private final OneToOneRingBuffer ring;
    private final JournalWriter writer;
    private final MessageHandler discard = (type, buffer, index, length) -> { };

    /**
     * @param capacityBytes the ring's capacity, a power of two (a journal's default is {@link JournalConfig}'s).
     */
    public BenchJournalRing(final int capacityBytes)
    {
        if (!BitUtil.isPowerOfTwo(capacityBytes))
        {
            throw new IllegalArgumentException("ring capacity " + capacityBytes + " is not a power of two");
        }
        ring = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
            capacityBytes + RingBufferDescriptor.TRAILER_LENGTH, BitUtil.CACHE_LINE_LENGTH)));
        writer = new JournalWriter("bench", 0, ring);
    }

    /**
     * @return the writer, for one thread.
     */
    public JournalWriter writer()
    {
        return writer;
    }

    /**
     * Take every record out of the ring, as the journal thread would before writing them.
     *
     * @return records taken.
     */
    public int drain()
    {
        int taken = 0;
        int read;
        while ((read = ring.read(discard)) > 0)
        {
            taken += read;
        }
        return taken;
    }
}
