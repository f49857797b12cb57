package io.rfmrt.control;

/**
 * Checks each control cycle against its deadline: from the sensor frame's send time (the plant's clock) to the time
 * the command frame was written (the controller's), both {@link System#nanoTime()} on one host. A cycle whose latency
 * exceeds the deadline (a fraction of the loop period, 0.5 by default) is an overrun, a "missed cycle" as
 * ros2_control calls it: counted, with the worst lateness kept. Times are passed in; there is no clock inside.
 * <p>
 * A negative latency (a command written "before" its sensor frame was sent: clocks not comparable, or a caller bug)
 * is counted apart and is neither a hit nor a miss.
 * <p>
 * Allocation free. Not thread safe: the controller's thread owns an instance and copies the counts to whatever other
 * threads read (the runtime's counters).
 */
public final class DeadlineMonitor
{
    /** Default deadline: half the loop period. */
    public static final double DEADLINE_FRACTION_DEFAULT = 0.5;

    private final long periodNanos;
    private final double deadlineFraction;
    private final long deadlineNanos;

    private long cycles;
    private long misses;
    private long consecutiveMisses;
    private long maxConsecutiveMisses;
    private long negativeLatencies;
    private long lastLatencyNanos;
    private long worstLatencyNanos;
    private long worstLatenessNanos;

    /**
     * A monitor with the deadline at {@link #DEADLINE_FRACTION_DEFAULT} of the period.
     *
     * @param periodNanos the loop period, ns, &gt; 0.
     */
    public DeadlineMonitor(final long periodNanos)
    {
        this(periodNanos, DEADLINE_FRACTION_DEFAULT);
    }

    /**
     * @param periodNanos      the loop period, ns, &gt; 0.
     * @param deadlineFraction the deadline as a fraction of the period, in (0, 1].
     * @throws IllegalArgumentException naming the bad value.
     */
    public DeadlineMonitor(final long periodNanos, final double deadlineFraction)
    {
        if (periodNanos <= 0)
        {
            throw new IllegalArgumentException("deadline.periodNanos must be > 0, was " + periodNanos);
        }
        if (!(deadlineFraction > 0.0 && deadlineFraction <= 1.0))
        {
            throw new IllegalArgumentException("deadline.fraction must be in (0, 1], was " + deadlineFraction);
        }
        this.periodNanos = periodNanos;
        this.deadlineFraction = deadlineFraction;
        this.deadlineNanos = Math.max(1L, Math.round(periodNanos * deadlineFraction));
    }

    /**
     * Record one cycle.
     *
     * @param sensorSendNanos     when the plant sent the sensor frame, ns.
     * @param commandWrittenNanos when the command frame was written, ns.
     * @return true when the cycle missed its deadline.
     */
    public boolean record(final long sensorSendNanos, final long commandWrittenNanos)
    {
        final long latency = commandWrittenNanos - sensorSendNanos;
        cycles++;
        lastLatencyNanos = latency;
        if (latency < 0)
        {
            negativeLatencies++;
            return false;
        }
        if (latency > worstLatencyNanos)
        {
            worstLatencyNanos = latency;
        }
        if (latency <= deadlineNanos)
        {
            consecutiveMisses = 0;
            return false;
        }
        misses++;
        consecutiveMisses++;
        if (consecutiveMisses > maxConsecutiveMisses)
        {
            maxConsecutiveMisses = consecutiveMisses;
        }
        final long lateness = latency - deadlineNanos;
        if (lateness > worstLatenessNanos)
        {
            worstLatenessNanos = lateness;
        }
        return true;
    }

    /**
     * Zero every count (e.g. after a warm-up).
     */
    public void reset()
    {
        cycles = 0;
        misses = 0;
        consecutiveMisses = 0;
        maxConsecutiveMisses = 0;
        negativeLatencies = 0;
        lastLatencyNanos = 0;
        worstLatencyNanos = 0;
        worstLatenessNanos = 0;
    }

    /**
     * @return the loop period, ns.
     */
    public long periodNanos()
    {
        return periodNanos;
    }

    /**
     * @return the deadline as a fraction of the period.
     */
    public double deadlineFraction()
    {
        return deadlineFraction;
    }

    /**
     * @return the deadline, ns after the sensor frame was sent (rounded, at least 1).
     */
    public long deadlineNanos()
    {
        return deadlineNanos;
    }

    /**
     * @return cycles recorded.
     */
    public long cycles()
    {
        return cycles;
    }

    /**
     * @return cycles that missed the deadline.
     */
    public long misses()
    {
        return misses;
    }

    /**
     * @return misses in a row up to the last cycle.
     */
    public long consecutiveMisses()
    {
        return consecutiveMisses;
    }

    /**
     * @return the longest run of misses in a row.
     */
    public long maxConsecutiveMisses()
    {
        return maxConsecutiveMisses;
    }

    /**
     * @return cycles with a negative latency (not counted as hits or misses).
     */
    public long negativeLatencies()
    {
        return negativeLatencies;
    }

    /**
     * @return the last cycle's latency, ns.
     */
    public long lastLatencyNanos()
    {
        return lastLatencyNanos;
    }

    /**
     * @return the highest latency seen, ns.
     */
    public long worstLatencyNanos()
    {
        return worstLatencyNanos;
    }

    /**
     * @return how far past the deadline the worst miss was, ns; 0 without misses.
     */
    public long worstLatenessNanos()
    {
        return worstLatenessNanos;
    }
}
