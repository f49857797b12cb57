package io.rfmrt.control.node;

import io.rfmrt.control.CycleStatistics;
import io.rfmrt.control.WakeLateness;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RuntimeCounter;

import java.util.List;

/**
 * The figures the demo's nodes report when they stop, as records (written as JSON with snake_case names:
 * {@code lostFrameCauses} → {@code lost_frame_causes}).
 */
public final class NodeResults
{
    private NodeResults()
    {
    }

    /**
     * Why frames were lost, since the warm-up.
     *
     * @param gaps          frames never seen (the publisher lapped the channel ring before they were read).
     * @param dmaRingFull   times a frame waited because every DMA descriptor was taken.
     * @param handoffFull   hand-off ring full.
     * @param torn          torn frames.
     * @param stale         stale frames.
     * @param crcErrors     CRC errors.
     * @param dmaDropped    transfers the card dropped on a full DMA ring.
     * @param fifoOverflows events the card's FIFO could not hold.
     */
    public record LossCauses(long gaps, long dmaRingFull, long handoffFull, long torn, long stale, long crcErrors,
        long dmaDropped, long fifoOverflows)
    {
        /**
         * @param path   a node's receive path, closed.
         * @param device the node's card.
         * @param event  the event type of the path's frames.
         * @param warm   the card's counters after the warm-up ({@link #cardCounters}).
         * @return the causes.
         */
        public static LossCauses of(final ReceivePath path, final RfmDevice device, final EventType event,
            final long[] warm)
        {
            final long[] now = cardCounters(device, event);
            return new LossCauses(path.counter(FrameCounter.GAPS), path.counter(FrameCounter.DMA_MISSING),
                path.counter(RuntimeCounter.HANDOFF_FULL), path.counter(FrameCounter.TORN),
                path.counter(FrameCounter.STALE), path.counter(FrameCounter.CRC_ERRORS), now[0] - warm[0],
                now[1] - warm[1]);
        }
    }

    /**
     * One thread's wake-up lateness.
     *
     * @param wakes          wake-ups.
     * @param stalls         wake-ups later than one period.
     * @param stallsNotKept  stalls beyond what was kept with times.
     * @param longestStallUs longest stall.
     * @param p50Us          median lateness.
     * @param p99Us          99th percentile.
     * @param maxUs          highest.
     */
    public record Lateness(long wakes, long stalls, long stallsNotKept, double longestStallUs, double p50Us,
        double p99Us, double maxUs)
    {
        /**
         * @param l a thread's lateness, finished.
         * @return its figures.
         */
        public static Lateness of(final WakeLateness l)
        {
            return new Lateness(l.wakes(), l.stalls(), l.stallsNotKept(), l.longestNanos() / 1e3,
                l.latenessAtPercentile(50) / 1e3, l.latenessAtPercentile(99) / 1e3, l.maxLatenessNanos() / 1e3);
        }
    }

    /**
     * RT hygiene of one thread after the warm-up.
     *
     * @param thread              its name.
     * @param minorFaults         minor page faults.
     * @param involuntarySwitches involuntary context switches.
     */
    public record ThreadHygiene(String thread, long minorFaults, long involuntarySwitches)
    {
    }

    /**
     * The controller's figures.
     *
     * @param cycles                 frames handled.
     * @param lostFrames             gaps.
     * @param tornFrames             torn frames.
     * @param lostFrameCauses        why.
     * @param deadlineMisses         commands written after the deadline.
     * @param deadlineUs             the deadline.
     * @param watchdogTrips          trips to SAFE.
     * @param watchdogRecoveries     recoveries.
     * @param trackingRms            RMS tracking error while RUNNING, rad.
     * @param trackingMax            largest error, rad.
     * @param moveDistance           distance the run commanded, rad.
     * @param trackedCycles          cycles in RUNNING.
     * @param e2eP50Us               sensor send → command written, median.
     * @param e2eP99Us               99th percentile.
     * @param e2eMaxUs               highest.
     * @param journalDrops           journal records dropped on a full ring.
     * @param journalWriteErrors     journal write errors.
     * @param journalRecords         journal records written.
     * @param placement              the placement table.
     * @param threadsAfterWarmup     RT hygiene per thread.
     * @param waitStrategy           the wait strategy.
     * @param lateness               the handler's lateness.
     * @param watchdogTimerLateness  the watchdog timer's.
     * @param missFrom               kept misses' starts (nanoTime).
     * @param missTo                 their ends.
     * @param missWake               when the handler of each started (its wake-up: {@code missWake - missFrom}).
     * @param missOffCpu             how long the handler's thread was off the cpu in each, from its start to the
     *                               command (wall time less the thread's CPU time), ns.
     * @param missesNotKept          misses beyond those kept.
     * @param tripFrom               kept trips' windows' starts.
     * @param tripTo                 the trips' times.
     * @param tripsNotKept           trips beyond those kept.
     * @param stallStart             kept stalls' starts (handler and timer).
     * @param stallEnd               their ends.
     * @param trackingRmsMoves       RMS tracking error over the moves (set-point moving, RUNNING), rad.
     * @param trackingMaxMoves       largest error over the moves, rad.
     * @param trackingMaxAtRest      largest error at rest between the moves (RUNNING), rad.
     * @param movingCycles           RUNNING cycles with the set-point moving.
     * @param followingErrorFaults   1 when the axis faulted on its following error, else 0.
     * @param faultCycle             the sensor cycle it faulted on (0: none).
     * @param faultLagRad            the lag when it faulted, rad.
     * @param faultLimitRad          the limit then, rad.
     * @param peakLagRad             the largest lag checked while RUNNING, rad.
     * @param skippedFrames          sensor frames not computed on: a newer one was already there (backlog).
     * @param loop                   the handler's periodicity and execution (thread CPU time) over the run.
     * @param peakTorqueNm           the largest |torque| commanded while RUNNING, N·m.
     * @param torqueLimitNm          the controller's torque clamp (the drive's peak), N·m.
     * @param trackingMaxMovesCounts {@code trackingMaxMoves} in encoder counts.
     * @param encoderBits            the encoder those counts are of (2^bits a revolution).
     * @param profile                the trajectory followed.
     * @param driveResets            fault-reset edges sent to a faulted drive.
     */
    public record ControllerResult(long cycles, long lostFrames, long tornFrames, LossCauses lostFrameCauses,
        long deadlineMisses, double deadlineUs, long watchdogTrips, long watchdogRecoveries, double trackingRms,
        double trackingMax, double moveDistance, long trackedCycles, double e2eP50Us, double e2eP99Us,
        double e2eMaxUs, long journalDrops, long journalWriteErrors, long journalRecords, String placement,
        List<ThreadHygiene> threadsAfterWarmup, String waitStrategy, Lateness lateness,
        Lateness watchdogTimerLateness, long[] missFrom, long[] missTo, long[] missWake, long[] missOffCpu,
        long missesNotKept, long[] tripFrom, long[] tripTo, long tripsNotKept, long[] stallStart, long[] stallEnd, double trackingRmsMoves,
        double trackingMaxMoves, double trackingMaxAtRest, long movingCycles, long followingErrorFaults,
        long faultCycle, double faultLagRad, double faultLimitRad, double peakLagRad, long skippedFrames,
        CycleStatistics.Figures loop, double peakTorqueNm, double torqueLimitNm, double trackingMaxMovesCounts,
        int encoderBits, String profile, long driveResets)
    {
    }

    /**
     * The plant's figures.
     *
     * @param cycles               the last tick (periods run, taken or missed).
     * @param interrupted          stopped before its cycles were done.
     * @param sensorFrames         sensor frames published.
     * @param staleCommandCycles   periods it braked on a stale command.
     * @param withheldSensorFrames sensor frames withheld (the dropout fault).
     * @param ticksTaken           ticks the loop took (sampled, journaled).
     * @param missedTicks          ticks not taken: the loop woke more than half a period after they were due.
     * @param missedTickEvents     wake-ups that missed ticks.
     * @param lateCommands         commands first seen one or more periods after they were due.
     * @param lateCommandsByPeriods late commands by periods late, 1..5 (the last: 5 or more).
     * @param tickIntervalMinUs    shortest interval between two ticks taken (never below half a period).
     * @param tickIntervalP50Us    median interval.
     * @param tickIntervalP99Us    99th percentile.
     * @param tickIntervalMaxUs    longest.
     * @param loop                 the tick loop's periodicity and execution (thread CPU time per tick) over the run.
     * @param model                the axis model (ideal, realistic).
     * @param driveFaults          times the drive faulted (command timeout while operation was enabled).
     * @param driveFaultResets     faults reset by a fault-reset edge.
     * @param commandsReceived     command frames handled.
     * @param commandGaps          command frames lost.
     * @param lostFrameCauses      why.
     * @param journalDrops         journal records dropped on a full ring.
     * @param journalWriteErrors   journal write errors.
     * @param journalRecords       journal records written.
     * @param lateness             the loop's lateness.
     * @param stallStart           kept stalls' starts.
     * @param stallEnd             their ends.
     * @param uncommandedCycles    ticks taken without a command in force: before the first one came, and while the
     *                             commands had timed out ({@code staleCommandCycles}).
     * @param ignoredCommands      command frames the drive did not act on, by why.
     */
    public record PlantResult(long cycles, boolean interrupted, long sensorFrames, long staleCommandCycles,
        long withheldSensorFrames, long ticksTaken, long missedTicks, long missedTickEvents, long lateCommands,
        long[] lateCommandsByPeriods, double tickIntervalMinUs, double tickIntervalP50Us, double tickIntervalP99Us,
        double tickIntervalMaxUs, CycleStatistics.Figures loop, String model, long driveFaults,
        long driveFaultResets, long commandsReceived, long commandGaps, LossCauses lostFrameCauses,
        long journalDrops, long journalWriteErrors, long journalRecords, Lateness lateness, long[] stallStart,
        long[] stallEnd, long uncommandedCycles, IgnoredCommands ignoredCommands)
    {
    }

    /**
     * Command frames the plant's drive did not act on, each counted once (the plant warns once of each kind).
     *
     * @param wrongVersion    frames of another payload version: not read at all.
     * @param driveNotEnabled commands asking for torque while the drive was not enabled, with a control word that
     *                        does not enable operation (CiA 402: shutdown, then enable operation).
     * @param noFaultReset    commands asking for torque while the drive was in FAULT, without a rising edge of the
     *                        fault-reset bit.
     */
    public record IgnoredCommands(long wrongVersion, long driveNotEnabled, long noFaultReset)
    {
    }

    /**
     * @param device a card.
     * @param event  an event type.
     * @return its DMA-dropped and FIFO-overflow counters (for that type), to subtract the warm-up's.
     */
    public static long[] cardCounters(final RfmDevice device, final EventType event)
    {
        return new long[] {device.counter(RfmCounter.DMA_DROPPED, null),
            device.counter(RfmCounter.FIFO_OVERFLOWS, event)};
    }

    /**
     * @param a      one thread's stalls.
     * @param b      another's, or {@code null}.
     * @param starts starts, else ends.
     * @return the kept stalls' starts (or ends) of both.
     */
    public static long[] concat(final WakeLateness a, final WakeLateness b, final boolean starts)
    {
        final int n = a.kept() + (b == null ? 0 : b.kept());
        final long[] out = new long[n];
        int k = 0;
        for (final WakeLateness l : b == null ? List.of(a) : List.of(a, b))
        {
            for (int i = 0; i < l.kept(); i++)
            {
                out[k++] = starts ? l.start(i) : l.end(i);
            }
        }
        return out;
    }
}
