package io.rfmrt.cli.bench;

/**
 * When a bench's frames went missing, read from the numbers the sender gave them (1, 2, ...): a number past the next
 * one expected means the frames between were not handled. Counts them apart for the warm-up (the first
 * {@code warmupFrames} numbers) and after it, and keeps when the first and the last skip were seen, from the first
 * frame handled: a loss at start-up (a cold process) and one spread over a run look the same in a total, not here.
 * <p>
 * Written by the receive thread alone ({@link #onFrame}, no allocation); read by another thread once the receive
 * thread has stopped ({@link #figures()}). Frames handled out of order count as nothing (a transport that reorders
 * is not one these benches run).
 */
public final class SequenceSkips
{
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
