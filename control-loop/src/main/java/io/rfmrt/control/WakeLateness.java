package io.rfmrt.control;

import org.HdrHistogram.Histogram;

/**
 * A thread's own measure of how late it woke: each wake-up gives the time the thread should have run (a periodic
 * loop's scheduled tick, or the publish stamp of the frame that woke it) and the time it did run. Every lateness goes
 * into a histogram; a wake-up later than one period is a <b>stall</b>. A stall is an interval
 * {@code [scheduled, actual]}; the wake-ups that follow it while the thread catches up (their scheduled times fall
 * inside the open stall) extend it instead of counting as new stalls, so one hold-up of the thread is one stall.
 * A stall is closed by the first wake-up scheduled after its end (or by {@link #finish}); it is then counted, kept
 * (start and end, up to the capacity; the rest counted as not kept) and handed to the {@link StallSink}, which
 * journals it.
 * <p>
 * Allocation free once built. Not thread safe: one thread calls {@link #wake}; the figures are read after that thread
 * has ended (or stopped calling it).
 */
public final class WakeLateness
{
    /** Stalls kept with their times by default. */
    public static final int CAPACITY_DEFAULT = 4096;
    private static final long HIGHEST_NS = 10_000_000_000L;

    /**
     * Told of each stall when it closes (on the waking thread; must not allocate or block).
     */
    @FunctionalInterface
    public interface StallSink
    {
        /**
         * @param seq           the cycle or frame of the first late wake-up.
         * @param startNanos    when the thread should have run.
         * @param durationNanos how long it was held up (end − start).
         */
        void stall(long seq, long startNanos, long durationNanos);
    }

    private final long periodNanos;
    private final StallSink sink;
    private final Histogram histogram = new Histogram(1, HIGHEST_NS, 3);
    private final long[] starts;
    private final long[] ends;
    private long wakes;
    private long stalls;
    private long notKept;
    private long longestNanos;
    private boolean open;
    private long openSeq;
    private long openStart;
    private long openEnd;

    /**
     * @param periodNanos the period: a wake-up later than this is a stall.
     * @param capacity    stalls kept with their times.
     * @param sink        told of each stall, or {@code null}.
     */
    public WakeLateness(final long periodNanos, final int capacity, final StallSink sink)
    {
        if (periodNanos <= 0 || capacity < 1)
        {
            throw new IllegalArgumentException("period " + periodNanos + " ns and capacity " + capacity +
                " must be positive");
        }
        this.periodNanos = periodNanos;
        this.sink = sink;
        this.starts = new long[capacity];
        this.ends = new long[capacity];
    }

    /**
     * One wake-up.
     *
     * @param seq             the cycle or frame it is for.
     * @param scheduledNanos  when it should have run.
     * @param actualNanos     when it ran.
     * @return its lateness, ns.
     */
    public long wake(final long seq, final long scheduledNanos, final long actualNanos)
    {
        final long lateness = actualNanos - scheduledNanos;
        wakes++;
        histogram.recordValue(lateness < 0 ? 0 : Math.min(lateness, HIGHEST_NS));
        if (open && scheduledNanos > openEnd)
        {
            close();
        }
        if (lateness > periodNanos)
        {
            if (open)
            {
                openEnd = Math.max(openEnd, actualNanos);
            }
            else
            {
                open = true;
                openSeq = seq;
                openStart = scheduledNanos;
                openEnd = actualNanos;
            }
        }
        return lateness;
    }

    /**
     * Close a stall still open (at the end of a run).
     */
    public void finish()
    {
        if (open)
        {
            close();
        }
    }

    private void close()
    {
        open = false;
        final long duration = openEnd - openStart;
        if (stalls - notKept < starts.length)
        {
            final int i = (int)(stalls - notKept);
            starts[i] = openStart;
            ends[i] = openEnd;
        }
        else
        {
            notKept++;
        }
        stalls++;
        longestNanos = Math.max(longestNanos, duration);
        if (sink != null)
        {
            sink.stall(openSeq, openStart, duration);
        }
    }

    /**
     * @return the period that makes a stall, ns.
     */
    public long periodNanos()
    {
        return periodNanos;
    }

    /**
     * @return wake-ups measured.
     */
    public long wakes()
    {
        return wakes;
    }

    /**
     * @return stalls closed.
     */
    public long stalls()
    {
        return stalls;
    }

    /**
     * @return stalls closed beyond the capacity (counted, times not kept).
     */
    public long stallsNotKept()
    {
        return notKept;
    }

    /**
     * @return stalls kept with their times.
     */
    public int kept()
    {
        return (int)(stalls - notKept);
    }

    /**
     * @param i 0 .. {@link #kept()} − 1.
     * @return start of stall i, ns.
     */
    public long start(final int i)
    {
        return starts[i];
    }

    /**
     * @param i 0 .. {@link #kept()} − 1.
     * @return end of stall i, ns.
     */
    public long end(final int i)
    {
        return ends[i];
    }

    /**
     * @return the longest stall, ns (0 when none).
     */
    public long longestNanos()
    {
        return longestNanos;
    }

    /**
     * @param percentile 0..100.
     * @return lateness at that percentile, ns.
     */
    public long latenessAtPercentile(final double percentile)
    {
        return histogram.getValueAtPercentile(percentile);
    }

    /**
     * @return the largest lateness, ns.
     */
    public long maxLatenessNanos()
    {
        return histogram.getMaxValue();
    }
}
