package io.rfmrt.runtime.internal;

/**
 * A fixed schedule: due every {@code periodNanos} from a start; a caller that falls behind by more than a period
 * restarts the schedule rather than bursting through the missed due times. One owner thread.
 */
public final class Period
{
    private final long periodNanos;
    private long next;

    /**
     * @param startNanos  the time the schedule starts from (the first due time is one period later).
     * @param periodNanos the period.
     */
    public Period(final long startNanos, final long periodNanos)
    {
        this.periodNanos = periodNanos;
        this.next = startNanos + periodNanos;
    }

    /**
     * @param nowNanos the time now.
     * @return true when a due time has come (the schedule then moves on by a period), false before it.
     */
    public boolean due(final long nowNanos)
    {
        if (nowNanos - next < 0)
        {
            return false;
        }
        next += periodNanos;
        if (nowNanos - next > periodNanos)
        {
            next = nowNanos + periodNanos;
        }
        return true;
    }

    /**
     * @return the next due time.
     */
    public long nextNanos()
    {
        return next;
    }
}
