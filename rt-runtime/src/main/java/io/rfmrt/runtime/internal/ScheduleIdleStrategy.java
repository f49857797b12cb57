package io.rfmrt.runtime.internal;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.locks.LockSupport;

/**
 * The wait of a periodic agent (polling, publisher, heartbeat): sleep until the agent's next due time, less a spin
 * margin that is spun through for a precise start. The due time comes from the agent, so the schedule itself is
 * tested by stepping the agent's clock, without this strategy.
 */
public final class ScheduleIdleStrategy implements IdleStrategy
{
    /** Something that is due at a time. */
    @FunctionalInterface
    public interface Schedule
    {
        /**
         * @return next due time, nanoTime scale.
         */
        long nextDueNanos();
    }

    private final Schedule schedule;
    private final NanoClock clock;
    private final long spinMarginNanos;

    /**
     * @param schedule        the agent.
     * @param clock           the agent's clock.
     * @param spinMarginNanos spin this long before the due time instead of sleeping, 0 for none.
     */
    public ScheduleIdleStrategy(final Schedule schedule, final NanoClock clock, final long spinMarginNanos)
    {
        this.schedule = schedule;
        this.clock = clock;
        this.spinMarginNanos = spinMarginNanos;
    }

    @Override
    public void idle(final int workCount)
    {
        idle();
    }

    @Override
    public void idle()
    {
        final long remaining = schedule.nextDueNanos() - clock.nanoTime();
        if (remaining > spinMarginNanos)
        {
            LockSupport.parkNanos(remaining - spinMarginNanos);
        }
        else if (remaining > 0)
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset()
    {
    }

    @Override
    public String alias()
    {
        return "schedule";
    }
}
