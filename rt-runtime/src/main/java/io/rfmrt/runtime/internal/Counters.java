package io.rfmrt.runtime.internal;

import io.rfmrt.runtime.RuntimeCounter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Runtime counters, one per cache line, added to atomically (a counter may have writers on two threads) and
 * read by any thread.
 */
public final class Counters
{
    private static final int STRIDE = 64;

    private final UnsafeBuffer values = new UnsafeBuffer(
        BufferUtil.allocateDirectAligned(RuntimeCounter.COUNT * STRIDE, STRIDE));

    /**
     * Add to a counter.
     *
     * @param counter the counter.
     * @param delta   amount.
     */
    public void add(final RuntimeCounter counter, final long delta)
    {
        values.getAndAddLong(counter.id() * STRIDE, delta);
    }

    /**
     * @param counter the counter.
     * @return its value, from any thread.
     */
    public long get(final RuntimeCounter counter)
    {
        return values.getLongVolatile(counter.id() * STRIDE);
    }
}
