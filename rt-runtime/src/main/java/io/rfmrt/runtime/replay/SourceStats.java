package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.Stage;
import org.HdrHistogram.Histogram;

/**
 * What one journal saw of one source node's frames: count, sequence range and holes, and one HdrHistogram per
 * {@link Stage} in nanoseconds.
 *
 * <p>Threading: one thread at a time.
 */
public final class SourceStats
{
    /** Highest stage value tracked, ns (60 s); longer values are recorded as this and counted. */
    public static final long HIGHEST_TRACKABLE_NS = 60_000_000_000L;
    /** Significant digits of every histogram. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final int source;
    private final Histogram[] stages = new Histogram[Stage.COUNT];
    private long frames;
    private long firstSeq;
    private long lastSeq;
    private long missing;
    private long holes;
    private long outOfOrder;
    private long firstSendNanos = Long.MAX_VALUE;
    private long lastSendNanos = Long.MIN_VALUE;
    private long negativeStamps;
    private long overRange;

    SourceStats(final int source)
    {
        this.source = source;
        for (int i = 0; i < stages.length; i++)
        {
            stages[i] = newHistogram();
        }
    }

    /**
     * @return an empty histogram of the replay's range and precision.
     */
    public static Histogram newHistogram()
    {
        return new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }

    void frame(final long seq, final long send, final long woke, final long validated, final long consumerStart,
        final long handlerEnd)
    {
        if (frames == 0)
        {
            firstSeq = seq;
            lastSeq = seq;
        }
        else if (seq > lastSeq)
        {
            if (seq > lastSeq + 1)
            {
                missing += seq - lastSeq - 1;
                holes++;
            }
            lastSeq = seq;
        }
        else
        {
            outOfOrder++;
        }
        frames++;
        firstSendNanos = Math.min(firstSendNanos, send);
        lastSendNanos = Math.max(lastSendNanos, send);
        record(Stage.TRANSFER, woke - send);
        record(Stage.ISR, validated - woke);
        record(Stage.HANDOFF, consumerStart - validated);
        record(Stage.HANDLER, handlerEnd - consumerStart);
        record(Stage.END_TO_END, handlerEnd - send);
    }

    private void record(final Stage stage, final long nanos)
    {
        long value = nanos;
        if (value < 0)
        {
            negativeStamps++;
            value = 0;
        }
        else if (value > HIGHEST_TRACKABLE_NS)
        {
            overRange++;
            value = HIGHEST_TRACKABLE_NS;
        }
        stages[stage.ordinal()].recordValue(value);
    }

    /**
     * @return the source node id.
     */
    public int source()
    {
        return source;
    }

    /**
     * @return frames seen.
     */
    public long frames()
    {
        return frames;
    }

    /**
     * @return lowest sequence number seen first (the first frame's).
     */
    public long firstSeq()
    {
        return firstSeq;
    }

    /**
     * @return highest sequence number seen.
     */
    public long lastSeq()
    {
        return lastSeq;
    }

    /**
     * @return sequence numbers missing between the first and the highest frame seen (lost, torn, CRC-failed...).
     */
    public long missing()
    {
        return missing;
    }

    /**
     * @return holes in the sequence (runs of missing numbers).
     */
    public long holes()
    {
        return holes;
    }

    /**
     * @return frames at or below the highest sequence number already seen (duplicates, reordering).
     */
    public long outOfOrder()
    {
        return outOfOrder;
    }

    /**
     * @return earliest send stamp, ns.
     */
    public long firstSendNanos()
    {
        return firstSendNanos;
    }

    /**
     * @return latest send stamp, ns.
     */
    public long lastSendNanos()
    {
        return lastSendNanos;
    }

    /**
     * @return stage values below zero (stamps out of order, clocks of different hosts), recorded as 0.
     */
    public long negativeStamps()
    {
        return negativeStamps;
    }

    /**
     * @return stage values above {@link #HIGHEST_TRACKABLE_NS}, recorded as that.
     */
    public long overRange()
    {
        return overRange;
    }

    /**
     * @param stage a stage.
     * @return its histogram, ns; live, do not modify.
     */
    public Histogram histogram(final Stage stage)
    {
        return stages[stage.ordinal()];
    }

    /**
     * @return frames per second over the send stamps, 0 for fewer than two frames.
     */
    public double rate()
    {
        final long span = lastSendNanos - firstSendNanos;
        return frames > 1 && span > 0 ? (frames - 1) * 1e9 / span : 0.0;
    }
}
