package io.rfmrt.control;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A loop's periodicity and execution statistics, as ros2_control's controller manager reports them: the cycle period
 * (the time from one cycle's start to the next's) and its jitter (|period − nominal|), the execution time of each
 * cycle as the thread's own CPU time (a pre-emption in the middle is not counted as execution), and overruns (cycles
 * whose wall time from start to end exceeded the period).
 * <p>
 * Threading: one thread, the loop's, calls {@link #record} (wait-free, allocation free: HdrHistogram recorders);
 * one other thread, a housekeeping one, calls {@link #sample} now and then to take the interval since its last call
 * and add it to the figures since the start. {@link Figures} are immutable and may be handed to any thread.
 */
public final class CycleStatistics
{
    private static final long HIGHEST_NS = 10_000_000_000L;

    /**
     * The figures over an interval or since the start.
     *
     * @param cycles        cycles recorded.
     * @param periodP50Us   cycle period, median, µs.
     * @param periodP99Us   99th percentile.
     * @param periodMaxUs   longest.
     * @param periodMinUs   shortest.
     * @param jitterP99Us   |period − nominal|, 99th percentile, µs.
     * @param jitterMaxUs   largest.
     * @param executionP50Us execution time (thread CPU time), median, µs.
     * @param executionP99Us 99th percentile.
     * @param executionMaxUs longest.
     * @param overruns      cycles whose wall time exceeded the period.
     */
    public record Figures(long cycles, double periodP50Us, double periodP99Us, double periodMaxUs,
        double periodMinUs, double jitterP99Us, double jitterMaxUs, double executionP50Us, double executionP99Us,
        double executionMaxUs, long overruns)
    {
        /** No cycles. */
        public static final Figures NONE = new Figures(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    private final long periodNanos;
    private final SingleWriterRecorder periods = new SingleWriterRecorder(1, HIGHEST_NS, 3);
    private final SingleWriterRecorder jitter = new SingleWriterRecorder(1, HIGHEST_NS, 3);
    private final SingleWriterRecorder execution = new SingleWriterRecorder(1, HIGHEST_NS, 3);
    private final AtomicLong overruns = new AtomicLong();
    private final AtomicLong cycles = new AtomicLong();
    private long previousStart;
    private Histogram periodInterval;
    private Histogram jitterInterval;
    private Histogram executionInterval;
    private final Histogram periodTotal = new Histogram(1, HIGHEST_NS, 3);
    private final Histogram jitterTotal = new Histogram(1, HIGHEST_NS, 3);
    private final Histogram executionTotal = new Histogram(1, HIGHEST_NS, 3);
    private long sampledCycles;
    private long sampledOverruns;

    /**
     * @param periodNanos the nominal period.
     */
    public CycleStatistics(final long periodNanos)
    {
        if (periodNanos <= 0)
        {
            throw new IllegalArgumentException("period " + periodNanos + " ns must be > 0");
        }
        this.periodNanos = periodNanos;
    }

    /**
     * One cycle, on the loop's thread.
     *
     * @param startNanos      when the cycle started ({@link System#nanoTime()}).
     * @param executionNanos  its execution time: the thread's CPU time over the cycle, ns (negative: not known).
     * @param wallNanos       its wall time from start to end, ns: above the period is an overrun.
     */
    public void record(final long startNanos, final long executionNanos, final long wallNanos)
    {
        if (previousStart != 0)
        {
            final long period = startNanos - previousStart;
            periods.recordValue(clamp(period));
            jitter.recordValue(clamp(Math.abs(period - periodNanos)));
        }
        previousStart = startNanos;
        if (executionNanos >= 0)
        {
            execution.recordValue(clamp(executionNanos));
        }
        if (wallNanos > periodNanos)
        {
            overruns.setRelease(overruns.getPlain() + 1);
        }
        cycles.setRelease(cycles.getPlain() + 1);
    }

    /**
     * Take the interval since the last call (on the one reading thread) and add it to the totals.
     *
     * @return the interval's figures.
     */
    public Figures sample()
    {
        periodInterval = periods.getIntervalHistogram(periodInterval);
        jitterInterval = jitter.getIntervalHistogram(jitterInterval);
        executionInterval = execution.getIntervalHistogram(executionInterval);
        periodTotal.add(periodInterval);
        jitterTotal.add(jitterInterval);
        executionTotal.add(executionInterval);
        final long c = cycles.getAcquire();
        final long o = overruns.getAcquire();
        final Figures interval = figures(c - sampledCycles, periodInterval, jitterInterval, executionInterval,
            o - sampledOverruns);
        sampledCycles = c;
        sampledOverruns = o;
        return interval;
    }

    /**
     * @return the figures since the start, up to the last {@link #sample()} (on the reading thread).
     */
    public Figures total()
    {
        return figures(sampledCycles, periodTotal, jitterTotal, executionTotal, sampledOverruns);
    }

    /**
     * @return the nominal period, ns.
     */
    public long periodNanos()
    {
        return periodNanos;
    }

    private static Figures figures(final long cycles, final Histogram period, final Histogram jitter,
        final Histogram execution, final long overruns)
    {
        return new Figures(cycles, period.getValueAtPercentile(50) / 1e3, period.getValueAtPercentile(99) / 1e3,
            period.getMaxValue() / 1e3, period.getTotalCount() == 0 ? 0.0 : period.getMinValue() / 1e3,
            jitter.getValueAtPercentile(99) / 1e3, jitter.getMaxValue() / 1e3,
            execution.getValueAtPercentile(50) / 1e3, execution.getValueAtPercentile(99) / 1e3,
            execution.getMaxValue() / 1e3, overruns);
    }

    private static long clamp(final long nanos)
    {
        return Math.max(1, Math.min(nanos, HIGHEST_NS));
    }
}
