package io.rfmrt.control;

/**
 * A sampling clock that never catches up: tick {@code k} is due at {@code t0 + k·period}, and a tick taken more than
 * half a period after it was due is not taken at all: it is <b>missed</b>, counted, and the clock moves on to the
 * first tick that can still be taken on time. A real plant (a drive, a sensor) samples on its own clock; when the
 * loop that reads it is held up, the samples of that time are gone, and taking them afterwards, one right after the
 * other, would hand the controller a burst of frames stamped at one instant.
 * <p>
 * So a tick is always taken within half a period of when it was due, and two taken ticks are at least half a period
 * apart (the one before was at most half a period late, this one is at least one period later in the schedule).
 * The caller waits for {@link #dueNanos()}, then calls {@link #skipLate(long)} with the time it woke: when that is
 * non-zero, ticks were missed and the (new) due time may still be ahead: wait for it again. Then {@link #take()}.
 * <p>
 * Time is passed in (ns, any monotonic clock); allocation free; one thread owns an instance.
 */
public final class TickSchedule
{
    private final long periodNanos;
    private final long halfPeriodNanos;
    private long dueNanos;
    private long tick;
    private long missed;
    private long missedEvents;

    /**
     * @param periodNanos the period, ns.
     */
    public TickSchedule(final long periodNanos)
    {
        if (periodNanos < 2)
        {
            throw new IllegalArgumentException("period " + periodNanos + " ns must be at least 2 ns");
        }
        this.periodNanos = periodNanos;
        this.halfPeriodNanos = periodNanos / 2;
    }

    /**
     * Start the schedule: tick 1 is due one period after {@code startNanos}.
     *
     * @param startNanos the schedule's origin.
     * @return this.
     */
    public TickSchedule start(final long startNanos)
    {
        dueNanos = startNanos + periodNanos;
        tick = 1;
        missed = 0;
        missedEvents = 0;
        return this;
    }

    /**
     * @return when the next tick is due.
     */
    public long dueNanos()
    {
        return dueNanos;
    }

    /**
     * @return the number of the next tick (1 for the first).
     */
    public long nextTick()
    {
        return tick;
    }

    /**
     * Skip the ticks that can no longer be taken on time.
     *
     * @param nowNanos when the caller woke for the tick that was due.
     * @return ticks missed by this wake-up (0 when the due tick is at most half a period late).
     */
    public long skipLate(final long nowNanos)
    {
        final long late = nowNanos - dueNanos;
        if (late <= halfPeriodNanos)
        {
            return 0;
        }
        // the first tick k with now − due(k) <= period/2
        final long skip = (late - halfPeriodNanos + periodNanos - 1) / periodNanos;
        dueNanos += skip * periodNanos;
        tick += skip;
        missed += skip;
        missedEvents++;
        return skip;
    }

    /**
     * Take the due tick: the clock moves on to the one after it.
     *
     * @return the tick taken.
     */
    public long take()
    {
        final long taken = tick;
        tick++;
        dueNanos += periodNanos;
        return taken;
    }

    /**
     * @return ticks missed since {@link #start(long)}.
     */
    public long missed()
    {
        return missed;
    }

    /**
     * @return wake-ups that missed at least one tick.
     */
    public long missedEvents()
    {
        return missedEvents;
    }

    /**
     * @return the period, ns.
     */
    public long periodNanos()
    {
        return periodNanos;
    }
}
