package io.rfmrt.runtime;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One HdrHistogram recorder per {@link Stage}: the consumer thread records (allocation-free, wait-free), a
 * reporting thread takes interval histograms and keeps the cumulative ones. Values are nanoseconds, clamped to
 * 1 ns .. {@value #HIGHEST_NS} ns.
 */
public final class StageLatencies
{
    /** Highest value tracked: 10 s. */
    public static final long HIGHEST_NS = 10_000_000_000L;
    private static final int DIGITS = 3;

    private final SingleWriterRecorder[] recorders = new SingleWriterRecorder[Stage.COUNT];
    private final Histogram[] interval = new Histogram[Stage.COUNT];
    private final Histogram[] cumulative = new Histogram[Stage.COUNT];

    /**
     * Create the recorders and their histograms.
     */
    public StageLatencies()
    {
        for (int i = 0; i < Stage.COUNT; i++)
        {
            recorders[i] = new SingleWriterRecorder(1, HIGHEST_NS, DIGITS);
            cumulative[i] = new Histogram(1, HIGHEST_NS, DIGITS);
            interval[i] = recorders[i].getIntervalHistogram();
        }
    }

    /**
     * Writer side: record one frame's stages.
     *
     * @param sendNanos          publisher stamp.
     * @param wokeNanos          ISR-wake woke.
     * @param validatedNanos     validated.
     * @param consumerStartNanos consumer took it.
     * @param handlerEndNanos    handler returned.
     */
    public void record(final long sendNanos, final long wokeNanos, final long validatedNanos,
        final long consumerStartNanos, final long handlerEndNanos)
    {
        recorders[Stage.TRANSFER.ordinal()].recordValue(clamp(wokeNanos - sendNanos));
        recorders[Stage.ISR.ordinal()].recordValue(clamp(validatedNanos - wokeNanos));
        recorders[Stage.HANDOFF.ordinal()].recordValue(clamp(consumerStartNanos - validatedNanos));
        recorders[Stage.HANDLER.ordinal()].recordValue(clamp(handlerEndNanos - consumerStartNanos));
        recorders[Stage.END_TO_END.ordinal()].recordValue(clamp(handlerEndNanos - sendNanos));
    }

    private static long clamp(final long nanos)
    {
        return nanos < 1 ? 1 : Math.min(nanos, HIGHEST_NS);
    }

    /**
     * Reader side: move what was recorded since the last call into the interval histograms and add it to the
     * cumulative ones. One reader thread.
     */
    public void sample()
    {
        for (int i = 0; i < Stage.COUNT; i++)
        {
            interval[i] = recorders[i].getIntervalHistogram(interval[i]);
            cumulative[i].add(interval[i]);
        }
    }

    /**
     * Reader side: take what was recorded so far and forget it, e.g. to leave a warm-up out of the results.
     */
    public void discard()
    {
        sample();
        for (final Histogram h : cumulative)
        {
            h.reset();
        }
    }

    /**
     * @param stage a stage.
     * @return frames recorded between the last two {@link #sample()} calls.
     */
    public Histogram interval(final Stage stage)
    {
        return interval[stage.ordinal()];
    }

    /**
     * @param stage a stage.
     * @return every frame recorded up to the last {@link #sample()}.
     */
    public Histogram cumulative(final Stage stage)
    {
        return cumulative[stage.ordinal()];
    }
}
