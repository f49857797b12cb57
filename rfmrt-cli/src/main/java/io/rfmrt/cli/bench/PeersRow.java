package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One row of {@code bench peers} at one rate, as its JSON shows it: the transport, its rate and, for Aeron, the media
 * driver's threading mode; then what the rfmrt receive path ({@link RfmrtSide}) or a peer's sender and receiver
 * ({@link PeerSide}) measured; a probe of the threading modes says its mode last. The latency histogram is not in
 * the row (it goes to the plot).
 *
 * @param transport      the row's name.
 * @param what           one line on what it is.
 * @param rateHz         the rate.
 * @param aeronThreading the media driver's threading mode (Aeron rows only).
 * @param side           what was measured.
 * @param threading      the threading mode a probe ran in (probes only).
 */
record PeersRow(String transport, String what, int rateHz,
    @JsonInclude(JsonInclude.Include.NON_NULL) String aeronThreading, @JsonUnwrapped Side side,
    @JsonInclude(JsonInclude.Include.NON_NULL) String threading) implements BenchRows.RateRow
{
    /**
     * What a row measured, whichever side measured it.
     */
    interface Side
    {
        /**
         * @return why the row is invalid, or null.
         */
        String failure();

        /**
         * @return the receiver's figures, or null when it gave none.
         */
        BenchRun.ReceiverFigures figures();

        /**
         * @return frames sent.
         */
        long sentFrames();

        /**
         * @return the bench process's other threads while sending, % of one core, or null.
         */
        Double benchSideCpuPct();
    }

    /**
     * An rfmrt row: the mode's run without its name, and no bench-side CPU (written as null).
     *
     * @param run             the mode's run.
     * @param benchSideCpuPct always null: the sender is alone in the bench process.
     */
    record RfmrtSide(@JsonUnwrapped BenchRun.ModeRun run, Double benchSideCpuPct) implements Side
    {
        @Override
        public String failure()
        {
            return run.failure();
        }

        @Override
        public BenchRun.ReceiverFigures figures()
        {
            return run.figures();
        }

        @Override
        public long sentFrames()
        {
            return run.sent();
        }
    }

    /**
     * A peer's row: its sender and the receiver's figures, as far as the run came.
     *
     * @param sender  the sender's pacing; null when the sending side could not be set up.
     * @param sending what the sender did; null when the receiver was never ready.
     * @param figures the receiver's figures; null when it gave none.
     * @param failure why the row is invalid, or null.
     * @param valid   whether it finished well with a CPU figure.
     */
    record PeerSide(@JsonInclude(JsonInclude.Include.NON_NULL) String sender, @JsonUnwrapped Sending sending,
        @JsonUnwrapped BenchRun.ReceiverFigures figures, String failure, boolean valid) implements Side
    {
        static PeerSide failed(final String sender, final Sending sending, final String failure)
        {
            return new PeerSide(sender, sending, null, failure, false);
        }

        @Override
        public long sentFrames()
        {
            return sending == null ? 0 : sending.sent();
        }

        @Override
        public Double benchSideCpuPct()
        {
            return sending == null ? null : sending.benchSideCpuPct();
        }
    }

    /**
     * The sending side of a peer's row.
     *
     * @param sent            frames sent.
     * @param sendRateHz      the rate they were sent at.
     * @param refusedBySender frames the transport refused.
     * @param benchSideCpuPct the bench process's threads other than the sender while sending, % of one core.
     */
    record Sending(long sent, long sendRateHz, long refusedBySender, Double benchSideCpuPct)
    {
        static Sending of(final BenchRows.SendFigures tx)
        {
            return new Sending(tx.sent(), tx.sendRateHz(), tx.refused(), tx.cpuPct());
        }
    }

    /**
     * @param mode the threading mode a probe ran in.
     * @return this row as that probe.
     */
    PeersRow probe(final String mode)
    {
        return new PeersRow(transport, what, rateHz, aeronThreading, side, mode);
    }

    /**
     * @return the receiver's figures, or null.
     */
    BenchRun.ReceiverFigures figures()
    {
        return side.figures();
    }

    @Override
    public String name()
    {
        return transport;
    }

    @Override
    public String failure()
    {
        return side.failure();
    }
}
