package io.rfmrt.cli.demo;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.control.StallMatcher;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.Lateness;
import io.rfmrt.control.node.NodeResults.LossCauses;
import io.rfmrt.control.node.NodeResults.PlantResult;
import io.rfmrt.control.node.NodeResults.ThreadHygiene;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one {@code rfmrt demo} run did: {@code DIR/summary.json}, the {@code --json} line and the summary table. Written
 * by Jackson with snake_case names ({@code ChildResult.MAPPER}), in the order of the components; docs/control.md names
 * the figures.
 *
 * @param cycles                 the controller's cycles.
 * @param lostFrames             sensor frames the controller lost.
 * @param deadlineMisses         cycles answered after the deadline.
 * @param watchdogTrips          times the watchdog drove the axis to SAFE.
 * @param watchdogRecoveries     times it came back.
 * @param stalls                 the misses and trips matched against the stalls both nodes measured (unwrapped).
 * @param lostFrameCauses        why frames were lost.
 * @param trackingRms            tracking error while moving, rms, rad.
 * @param trackingMax            its largest, rad.
 * @param trackingMaxAtRest      the largest at rest, rad.
 * @param trackingRmsAllRunning  tracking error over every running cycle, rms, rad.
 * @param movingCycles           cycles the trajectory moved.
 * @param followingErrorFaults   times the axis faulted on its following error.
 * @param faultCycle             the cycle of the first such fault.
 * @param faultLagRad            the lag then, rad.
 * @param faultLimitRad          the limit then, rad.
 * @param peakLagRad             the largest lag, rad.
 * @param skippedFrames          sensor frames skipped for a newer one.
 * @param trackingMaxCounts      {@code trackingMax} in encoder counts.
 * @param encoderBits            the encoder those counts are of.
 * @param peakTorquePct          the largest torque commanded, % of the drive's peak.
 * @param handlerCpuP50Us        the handler's execution (thread CPU time), median, µs.
 * @param handlerCpuP99Us        its 99th percentile, µs.
 * @param handlerCpuMaxUs        its largest, µs.
 * @param loop                   the controller's periodicity and execution.
 * @param plantLoop              the plant's.
 * @param driveFaults            times the drive faulted.
 * @param driveFaultResets       faults reset.
 * @param plantTickIntervalUs    the plant's tick intervals, µs.
 * @param plantMissedTicks       ticks the plant missed.
 * @param plantLateCommands      commands the plant saw one or more periods late.
 * @param moveDistance           the distance the profile moves, rad.
 * @param e2eP50Us               sensor stamp to command, median, µs.
 * @param e2eP99Us               its 99th percentile, µs.
 * @param e2eMaxUs               its largest, µs.
 * @param deadlineUs             the deadline, µs.
 * @param trackedCycles          cycles the tracking figures are over.
 * @param tornFrames             torn frames.
 * @param journalDrops           controller journal records dropped.
 * @param journalWriteErrors     controller journal write errors.
 * @param journalRecords         controller journal records written.
 * @param threadsAfterWarmup     the controller's threads' hygiene after the warm-up.
 * @param trackingRmsPctOfMove   {@code trackingRms} in % of the move (0 for a run that moved nothing).
 * @param interrupted            "no", or the signal that stopped the run.
 * @param rateHz                 the loop rate.
 * @param seconds                the run's length.
 * @param fault                  the injected fault, or "none".
 * @param plantModel             the plant model.
 * @param profile                the trajectory.
 * @param waitMode               how the controller took its frames ({@code wait}: inline or blocking, as --wait says).
 * @param hosts                  with {@code --hosts}: each host's bridge; left out otherwise.
 * @param plant                  the plant's figures (its stall times went into {@code stalls}; its loop is
 *                               {@code plantLoop}).
 * @param journals               where the journals are.
 * @param plots                  the plots drawn.
 */
public record DemoSummary(
    long cycles, long lostFrames, long deadlineMisses, long watchdogTrips, long watchdogRecoveries,
    @JsonUnwrapped Stalls stalls,
    LossCauses lostFrameCauses, double trackingRms, double trackingMax, double trackingMaxAtRest,
    double trackingRmsAllRunning, long movingCycles, long followingErrorFaults, long faultCycle, double faultLagRad,
    double faultLimitRad, double peakLagRad, long skippedFrames, double trackingMaxCounts, int encoderBits,
    double peakTorquePct, double handlerCpuP50Us, double handlerCpuP99Us, double handlerCpuMaxUs,
    CycleStatistics.Figures loop, CycleStatistics.Figures plantLoop, long driveFaults, long driveFaultResets,
    TickIntervals plantTickIntervalUs, long plantMissedTicks, long plantLateCommands, double moveDistance,
    double e2eP50Us, double e2eP99Us, double e2eMaxUs, double deadlineUs, long trackedCycles, long tornFrames,
    long journalDrops, long journalWriteErrors, long journalRecords, List<ThreadHygiene> threadsAfterWarmup,
    double trackingRmsPctOfMove, String interrupted, int rateHz, int seconds, String fault, String plantModel,
    String profile, @JsonProperty("wait") String waitMode,
    @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, DemoHosts.HostBridge> hosts,
    @JsonIgnoreProperties({"stall_start", "stall_end", "loop"}) PlantResult plant,
    Journals journals, List<String> plots)
{
    /**
     * The deadline misses and watchdog trips matched against the stalls both nodes measured (the rule is
     * {@link StallMatcher}'s, with one period of slack; docs/control.md, "Stalls").
     *
     * @param missesMatched     misses within a stall.
     * @param missesLateWake    misses whose thread woke late.
     * @param missesPreempted   misses whose thread was off its CPU.
     * @param missesUnexplained the rest.
     * @param missesUnchecked   misses beyond what the controller kept with times: neither matched nor unexplained.
     * @param tripsMatched      trips within a stall.
     * @param tripsUnexplained  the rest.
     * @param tripsUnchecked    trips beyond what the controller kept with times.
     * @param stalls            stalls measured by the plant, the controller and its watchdog timer.
     * @param longestStallUs    the longest, µs.
     * @param lateness          each thread's lateness: plant, controller, watchdog_timer.
     */
    public record Stalls(long missesMatched, long missesLateWake, long missesPreempted, long missesUnexplained,
        long missesUnchecked, long tripsMatched, long tripsUnexplained, long tripsUnchecked, long stalls,
        double longestStallUs, Map<String, Lateness> lateness)
    {
        /**
         * @param c           the controller's result.
         * @param p           the plant's result.
         * @param periodNanos the loop period.
         * @return the matching of the controller's misses and trips against both nodes' stalls.
         */
        public static Stalls match(final ControllerResult c, final PlantResult p, final long periodNanos)
        {
            final long[] starts = concat(c.stallStart(), p.stallStart());
            final long[] ends = concat(c.stallEnd(), p.stallEnd());
            final StallMatcher matcher = new StallMatcher(starts, ends, starts.length, periodNanos);
            final StallMatcher.Misses misses = matcher.classify(c.missFrom(), c.missTo(), c.missWake(),
                c.missOffCpu(), c.missFrom().length, Math.round(c.deadlineUs() * 1_000));
            final long tripsMatched = matcher.matched(c.tripFrom(), c.tripTo(), c.tripFrom().length);
            final Map<String, Lateness> lateness = new LinkedHashMap<>();
            lateness.put("plant", p.lateness());
            lateness.put("controller", c.lateness());
            lateness.put("watchdog_timer", c.watchdogTimerLateness());
            long count = 0;
            double longest = 0;
            for (final Lateness l : lateness.values())
            {
                count += l.stalls();
                longest = Math.max(longest, l.longestStallUs());
            }
            return new Stalls(misses.matched(), misses.lateWake(), misses.preempted(), misses.unexplained(),
                c.missesNotKept(), tripsMatched, c.tripFrom().length - tripsMatched, c.tripsNotKept(), count, longest,
                lateness);
        }

        private static long[] concat(final long[] a, final long[] b)
        {
            final long[] out = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, out, a.length, b.length);
            return out;
        }
    }

    /**
     * The plant's intervals between two ticks taken, µs.
     *
     * @param min shortest.
     * @param p50 median.
     * @param p99 99th percentile.
     * @param max longest.
     */
    public record TickIntervals(double min, double p50, double p99, double max)
    {
    }

    /**
     * @param controller the controller's journal folder.
     * @param plant      the plant's.
     */
    public record Journals(String controller, String plant)
    {
    }

    /**
     * How the demo ran, beside what its nodes measured.
     *
     * @param interrupted "no", or the signal that stopped the run.
     * @param rateHz      the loop rate.
     * @param seconds     the run's length.
     * @param fault       the injected fault, or "none".
     * @param plantModel  the plant model.
     * @param profile     the trajectory.
     * @param waitMode    how the controller took its frames.
     * @param hosts       with {@code --hosts}: each host's bridge; otherwise {@code null}.
     * @param journals    where the journals are.
     */
    public record Run(String interrupted, int rateHz, int seconds, String fault, String plantModel, String profile,
        String waitMode, Map<String, DemoHosts.HostBridge> hosts, Journals journals)
    {
    }

    /**
     * @param c     the controller's result.
     * @param p     the plant's result.
     * @param run   how the demo ran.
     * @param plots the plots drawn.
     * @return the summary of the run.
     */
    public static DemoSummary of(final ControllerResult c, final PlantResult p, final Run run,
        final List<String> plots)
    {
        // a run too short to leave the first dwell commanded no move: no error relative to one (and no NaN)
        final double moved = c.moveDistance();
        return new DemoSummary(c.cycles(), c.lostFrames(), c.deadlineMisses(), c.watchdogTrips(),
            c.watchdogRecoveries(), Stalls.match(c, p, 1_000_000_000L / run.rateHz()), c.lostFrameCauses(),
            c.trackingRmsMoves(), c.trackingMaxMoves(), c.trackingMaxAtRest(), c.trackingRms(), c.movingCycles(),
            c.followingErrorFaults(), c.faultCycle(), c.faultLagRad(), c.faultLimitRad(), c.peakLagRad(),
            c.skippedFrames(), c.trackingMaxMovesCounts(), c.encoderBits(),
            c.torqueLimitNm() > 0 ? 100.0 * c.peakTorqueNm() / c.torqueLimitNm() : 0.0,
            c.loop().executionP50Us(), c.loop().executionP99Us(), c.loop().executionMaxUs(), c.loop(), p.loop(),
            p.driveFaults(), p.driveFaultResets(),
            new TickIntervals(p.tickIntervalMinUs(), p.tickIntervalP50Us(), p.tickIntervalP99Us(),
                p.tickIntervalMaxUs()),
            p.missedTicks(), p.lateCommands(), moved, c.e2eP50Us(), c.e2eP99Us(), c.e2eMaxUs(), c.deadlineUs(),
            c.trackedCycles(), c.tornFrames(), c.journalDrops(), c.journalWriteErrors(), c.journalRecords(),
            c.threadsAfterWarmup(), moved > 0 ? 100.0 * c.trackingRmsMoves() / moved : 0.0, run.interrupted(),
            run.rateHz(), run.seconds(), run.fault(), run.plantModel(), run.profile(), run.waitMode(), run.hosts(), p,
            run.journals(), plots);
    }
}
