package io.rfmrt.cli.bench;

/**
 * When a bench's frames went missing, read from the numbers the sender gave them (1, 2, ...): a number past the next
 * one expected means the frames between were not handled. Counts them apart for the warm-up (the first
 * {@code warmupFrames} numbers) and after it, and keeps when the first and the last skip were seen, from the first
 * frame handled: a loss at start-up (a cold process) and one spread over a run look the same in a total, not here.
 * <p>
 * Written by the receive thread alone ({@link #onFrame}, {@link #reset}, no allocation), or by another thread while
 * no receive thread runs; read by another thread once the receive thread has stopped ({@link #figures()}). Frames
 * handled out of order count as nothing (a transport that reorders is not one these benches run).
 */
public final class SequenceSkips
{
    /** {@link #warmUpNumber}: the frame that stands for a restart of the numbers ({@link #reset}). */
    public static final long RESTART = -1;
    /** Frames in one run of the warm-up's numbers. */
    static final int WARMUP_RUN = 512;

    private final long warmupFrames;
    private boolean started;
    private long firstFrameNs;
    private long expected = 1;
    private long inWarmup;
    private long afterWarmup;
    private long firstSkipNs = -1;
    private long lastSkipNs = -1;

    /**
     * @param warmupFrames how many of the first numbers are the warm-up.
     */
    public SequenceSkips(final long warmupFrames)
    {
        this.warmupFrames = warmupFrames;
    }

    /**
     * @param sequence the frame's number, from 1.
     * @param nowNs    when it was handled, {@code System.nanoTime()}.
     */
    public void onFrame(final long sequence, final long nowNs)
    {
        if (!started)
        {
            started = true;
            firstFrameNs = nowNs;
        }
        if (sequence > expected)
        {
            final long inWarmupSkipped = Math.max(0, Math.min(sequence, warmupFrames + 1) - expected);
            inWarmup += inWarmupSkipped;
            afterWarmup += sequence - expected - inWarmupSkipped;
            if (firstSkipNs < 0)
            {
                firstSkipNs = nowNs - firstFrameNs;
            }
            lastSkipNs = nowNs - firstFrameNs;
        }
        if (sequence >= expected)
        {
            expected = sequence + 1;
        }
    }

    /**
     * Forget every frame seen: the next one is the first again. A receive path's warm-up calls it between its runs of
     * numbers, so that the first frame's branch is in the profile the compiler compiles, not a trap at the run's first
     * frame.
     */
    public void reset()
    {
        started = false;
        firstFrameNs = 0;
        expected = 1;
        inWarmup = 0;
        afterWarmup = 0;
        firstSkipNs = -1;
        lastSkipNs = -1;
    }

    /**
     * The number a receive path's warm-up gives its {@code frame}-th synthetic frame, for a handler that passes numbers
     * above 0 to {@link #onFrame} and calls {@link #reset} on {@link #RESTART}: runs of {@value #WARMUP_RUN} frames,
     * each a restart and then numbers from 1 with a skip inside the warm-up's numbers, one across their end and one
     * after it, so that every branch a run's frames take is profiled.
     *
     * @param frame        the warm-up's frame, from 0.
     * @param warmupFrames how many of the first numbers are the warm-up (400 or more).
     * @return the frame's number, or {@link #RESTART}.
     */
    public static long warmUpNumber(final long frame, final long warmupFrames)
    {
        final int k = (int)(frame % WARMUP_RUN);
        if (k == 0)
        {
            return RESTART;
        }
        if (k < 200)
        {
            return k;
        }
        if (k < 350)
        {
            return warmupFrames - 400 + k;
        }
        return warmupFrames + k - (k < 450 ? 340 : 330);
    }

    /**
     * @return what went missing, and when.
     */
    public Figures figures()
    {
        return new Figures(inWarmup, afterWarmup, firstSkipNs < 0 ? null : Math.round(firstSkipNs / 1e6) / 1e3,
            lastSkipNs < 0 ? null : Math.round(lastSkipNs / 1e6) / 1e3);
    }

    /**
     * Frames missing by number (those after the last one handled are not seen here: the sender's count says them).
     *
     * @param inWarmup    numbers skipped in the warm-up.
     * @param afterWarmup numbers skipped after it.
     * @param firstS      when the first skip was seen, seconds from the first frame handled; {@code null} for none.
     * @param lastS       when the last was, likewise.
     */
    public record Figures(long inWarmup, long afterWarmup, Double firstS, Double lastS)
    {
        /**
         * @return e.g. "by number 1520 in the warm-up, 0 after it, seen from 0.412 s to 0.731 s after the first
         * frame", or "" when none was skipped.
         */
        public String line()
        {
            if (firstS == null)
            {
                return "";
            }
            return "by number " + inWarmup + " in the warm-up, " + afterWarmup + " after it, seen from " + firstS +
                " s to " + lastS + " s after the first frame";
        }
    }
}
