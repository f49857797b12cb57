package io.rfmrt.runtime.internal;

import io.rfmrt.runtime.RuntimeCounter;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

/**
 * The consumer's wait when the hand-off is empty: spin for {@code spinNanos} after the last frame (0 = not at all),
 * then block in the kernel until the ISR-wake thread hands a frame over ({@link HandoffRing#park}). The spin window
 * is timed on an injected clock, so a test steps it.
 */
public final class HandoffIdleStrategy implements IdleStrategy
{
    private final HandoffRing handoff;
    private final long spinNanos;
    private final NanoClock clock;
    private final Counters counters;
    private long lastWork;

    /**
     * @param handoff   the hand-off the consumer reads.
     * @param spinNanos spin window after work, 0 for blocking at once.
     * @param clock     time source.
     * @param counters  CONSUMER_PARKS is counted here.
     */
    public HandoffIdleStrategy(final HandoffRing handoff, final long spinNanos, final NanoClock clock,
        final Counters counters)
    {
        this.handoff = handoff;
        this.spinNanos = spinNanos;
        this.clock = clock;
        this.counters = counters;
        this.lastWork = clock.nanoTime();
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            if (spinNanos > 0)
            {
                lastWork = clock.nanoTime();
            }
            return;
        }
        idle();
    }

    @Override
    public void idle()
    {
        if (spinNanos > 0 && clock.nanoTime() - lastWork < spinNanos)
        {
            Thread.onSpinWait();
            return;
        }
        if (handoff.park(0))
        {
            counters.add(RuntimeCounter.CONSUMER_PARKS, 1);
            lastWork = clock.nanoTime();
        }
    }

    @Override
    public void reset()
    {
        lastWork = clock.nanoTime();
    }

    /**
     * @return whether the next idle call with no work would block (the spin window is over).
     */
    public boolean wouldBlock()
    {
        return spinNanos == 0 || clock.nanoTime() - lastWork >= spinNanos;
    }

    @Override
    public String alias()
    {
        return spinNanos == 0 ? "blocking" : "spin-then-block";
    }
}
