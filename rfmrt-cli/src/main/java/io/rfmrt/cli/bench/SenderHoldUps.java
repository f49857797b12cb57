package io.rfmrt.cli.bench;

/**
 * How far a paced sender fell behind its send times: the latest send (now minus the frame's send time) and the
 * largest catch-up burst (sends in a row that were late by more than a period: after a hold-up of the sender's
 * thread, {@link BenchRun#pace} sends every frame that fell due back to back), and when each was, from the first
 * send. A receiver that loses frames in a burst of the sender's and one that stalls on its own look the same in its
 * loss counters, not beside these.
 * <p>
 * Written by the sender's thread alone ({@link #onSend}, no allocation, no locks); read by another thread once the
 * sender has stopped ({@link #figures()}).
 */
public final class SenderHoldUps
{
    private final long periodNs;
    private boolean started;
    private long firstSendNs;
    private long lateMaxNs;
    private long lateAtNs = -1;
    private long burst;
    private long burstStartNs;
    private long burstMax;
    private long burstAtNs = -1;

    /**
     * @param periodNs the sender's period: a send later than this is part of a catch-up burst.
     */
    public SenderHoldUps(final long periodNs)
    {
        this.periodNs = periodNs;
    }

    /**
     * @param dueNs the frame's send time, on the sender's clock.
     * @param nowNs when it is sent, on the same clock.
     */
    public void onSend(final long dueNs, final long nowNs)
    {
        if (!started)
        {
            started = true;
            firstSendNs = nowNs;
        }
        final long late = nowNs - dueNs;
        if (late > lateMaxNs)
        {
            lateMaxNs = late;
            lateAtNs = nowNs - firstSendNs;
        }
        if (late > periodNs)
        {
            if (burst++ == 0)
            {
                burstStartNs = nowNs - firstSendNs;
            }
            if (burst > burstMax)
            {
                burstMax = burst;
                burstAtNs = burstStartNs;
            }
        }
        else
        {
            burst = 0;
        }
    }

    /**
     * @return the latest send and the largest catch-up burst, and when.
     */
    public Figures figures()
    {
        return new Figures(lateMaxNs, seconds(lateAtNs), burstMax, seconds(burstAtNs));
    }

    private static Double seconds(final long ns)
    {
        return ns < 0 ? null : Math.round(ns / 1e6) / 1e3;
    }

    /**
     * The sender's hold-ups, as the bench rows carry them ({@code sender_late_max_ns} ... in JSON).
     *
     * @param senderLateMaxNs the latest send, ns after its send time.
     * @param senderLateAtS   when it was sent, seconds from the first send; {@code null} when no send was late.
     * @param senderBurstMax  the most sends in a row late by more than a period (0 for none).
     * @param senderBurstAtS  when the first of them was sent, seconds from the first send; {@code null} for none.
     */
    public record Figures(long senderLateMaxNs, Double senderLateAtS, long senderBurstMax, Double senderBurstAtS)
    {
        /**
         * @return e.g. "longest late 12.3 ms at 2.101 s, largest catch-up burst 2461 frames at 2.101 s after the
         * first frame", or "never late".
         */
        public String line()
        {
            if (senderLateAtS == null)
            {
                return "never late";
            }
            final String late = "longest late " + Math.round(senderLateMaxNs / 1e5) / 10.0 + " ms at " +
                senderLateAtS + " s";
            return senderBurstAtS == null ? late + " after the first frame, no catch-up burst" :
                late + ", largest catch-up burst " + senderBurstMax + " frames at " + senderBurstAtS +
                " s after the first frame";
        }
    }
}
