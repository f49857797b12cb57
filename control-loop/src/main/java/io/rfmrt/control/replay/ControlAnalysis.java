package io.rfmrt.control.replay;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.journal.ControlSample;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.ReplayListener;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What the control loop's records in a journal add up to, as a {@link ReplayListener} of the replay's one pass, per
 * journal: deadline misses and the worst lateness (FAULT {@value ControlJournal#FAULT_DEADLINE_MISS}), stale
 * commands at the plant ({@value ControlJournal#FAULT_COMMAND_STALE}), stalls the nodes measured themselves and the
 * longest ({@value ControlJournal#FAULT_STALL}), watchdog trips (a transition into SAFE) and recoveries (from SAFE
 * or RECOVERING into RUNNING), and tracking over the CONTROL samples: RMS and largest |error| over the cycles in
 * RUNNING (as the controller node judges it), the largest cycle latency over all of them; the loop's periodicity and
 * execution statistics (the last LOOP_PERIOD and LOOP_EXECUTION samples, which hold the figures since the loop
 * started), the ticks the plant missed (FAULT {@value ControlJournal#FAULT_MISSED_TICKS}) and its drive's faults
 * ({@value ControlJournal#FAULT_DRIVE_FAULT}). Journals of nodes that write none of these read as
 * {@link ControlFigures#NONE}.
 *
 * <p>Threading: one thread at a time.
 */
public final class ControlAnalysis implements ReplayListener
{
    private static final int SAFE = ControlJournal.stateId(AxisState.SAFE);
    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);
    private static final int RECOVERING = ControlJournal.stateId(AxisState.RECOVERING);

    private final Map<NodeAnalysis, Figures> byNode = new IdentityHashMap<>();
    private final ControlSample sample = new ControlSample();
    private NodeAnalysis lastNode;
    private Figures last;

    /**
     * The control figures of one journal.
     *
     * @param deadlineMisses        control cycles that missed their deadline.
     * @param maxLatenessNanos      the largest lateness of a missed deadline, ns.
     * @param commandStale          commands the plant found stale.
     * @param stalls                stalls the node measured itself.
     * @param longestStallNanos     the longest of them, ns.
     * @param trips                 watchdog trips: transitions into SAFE.
     * @param recoveries            transitions from SAFE or RECOVERING into RUNNING.
     * @param controlCycles         CONTROL samples kept.
     * @param trackedCycles         of them, cycles in RUNNING.
     * @param trackingRms           RMS of the position error over the cycles in RUNNING, rad; 0 when none.
     * @param trackingMax           largest |position error| over the cycles in RUNNING, rad.
     * @param maxCycleLatencyMicros largest cycle latency over every CONTROL sample, µs.
     * @param loop                  the loop's statistics since it started, as last journaled
     *                              ({@link CycleStatistics.Figures#NONE} when none was).
     * @param skippedFrames         frames the controller skipped, as last journaled with them.
     * @param lateCommands          commands that reached the plant late, as last journaled with them.
     * @param missedTicks           ticks the plant missed (the sum of its MISSED_TICKS records).
     * @param driveFaults           times the plant's drive faulted.
     */
    public record ControlFigures(long deadlineMisses, long maxLatenessNanos, long commandStale, long stalls,
        long longestStallNanos, long trips, long recoveries, long controlCycles, long trackedCycles,
        double trackingRms, double trackingMax, double maxCycleLatencyMicros, CycleStatistics.Figures loop,
        long skippedFrames, long lateCommands, long missedTicks, long driveFaults)
    {
        /** A journal without control records. */
        public static final ControlFigures NONE = new ControlFigures(0, 0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0,
            CycleStatistics.Figures.NONE, 0, 0, 0, 0);

        /**
         * @return whether the journal is a built-in controller's, whose deadline monitor and watchdog ran (it journals
         * a CONTROL sample every cycle): its misses and trips were measured. A plant's, or a node running its own
         * {@code NodeApp} without the safety layer, measured none.
         */
        public boolean safetyMeasured()
        {
            return controlCycles > 0 || trips > 0 || deadlineMisses > 0;
        }
    }

    private static final class Figures
    {
        long deadlineMisses;
        long maxLatenessNanos;
        long commandStale;
        long stalls;
        long longestStallNanos;
        long trips;
        long recoveries;
        long controlCycles;
        long trackedCycles;
        double errorSquares;
        double maxError;
        double maxCycleLatencyMicros;
        final double[] period = new double[6];
        final double[] execution = new double[6];
        long periodCycles;
        long missedTicks;
        long driveFaults;

        ControlFigures snapshot()
        {
            final CycleStatistics.Figures loop = periodCycles == 0 ? CycleStatistics.Figures.NONE :
                new CycleStatistics.Figures(periodCycles, period[0], period[1], period[2], period[3], period[4],
                    period[5], execution[0], execution[1], execution[2], (long)execution[3]);
            return new ControlFigures(deadlineMisses, maxLatenessNanos, commandStale, stalls, longestStallNanos,
                trips, recoveries, controlCycles, trackedCycles,
                trackedCycles == 0 ? 0.0 : Math.sqrt(errorSquares / trackedCycles), maxError, maxCycleLatencyMicros,
                loop, (long)execution[4], (long)execution[5], missedTicks, driveFaults);
        }
    }

    @Override
    public void journal(final NodeAnalysis node)
    {
        figures(node);
    }

    @Override
    public void fault(final NodeAnalysis node, final JournalRecord record)
    {
        final int code = record.code();
        if (code == ControlJournal.FAULT_DEADLINE_MISS)
        {
            final Figures f = figures(node);
            f.deadlineMisses++;
            f.maxLatenessNanos = Math.max(f.maxLatenessNanos, record.value());
        }
        else if (code == ControlJournal.FAULT_COMMAND_STALE)
        {
            figures(node).commandStale++;
        }
        else if (code == ControlJournal.FAULT_STALL)
        {
            final Figures f = figures(node);
            f.stalls++;
            f.longestStallNanos = Math.max(f.longestStallNanos, record.value());
        }
        else if (code == ControlJournal.FAULT_MISSED_TICKS)
        {
            figures(node).missedTicks += record.value();
        }
        else if (code == ControlJournal.FAULT_DRIVE_FAULT)
        {
            figures(node).driveFaults++;
        }
    }

    @Override
    public void state(final NodeAnalysis node, final JournalRecord record)
    {
        final int from = record.from();
        final int to = record.to();
        if (to == SAFE && from != SAFE)
        {
            figures(node).trips++;
        }
        else if (to == RUNNING && (from == RECOVERING || from == SAFE))
        {
            figures(node).recoveries++;
        }
    }

    @Override
    public void sample(final NodeAnalysis node, final JournalRecord record)
    {
        if (record.sampleKind() == ControlJournal.SAMPLE_LOOP_PERIOD ||
            record.sampleKind() == ControlJournal.SAMPLE_LOOP_EXECUTION)
        {
            // the figures since the loop started: the last record holds the run's
            final Figures f = figures(node);
            final double[] into = record.sampleKind() == ControlJournal.SAMPLE_LOOP_PERIOD ? f.period : f.execution;
            for (int i = 0; i < into.length; i++)
            {
                into[i] = record.value(i);
            }
            f.periodCycles = Math.max(f.periodCycles, record.cycle());
            return;
        }
        if (!sample.wrap(record))
        {
            return;
        }
        final Figures f = figures(node);
        f.controlCycles++;
        f.maxCycleLatencyMicros = Math.max(f.maxCycleLatencyMicros, sample.latencyMicros());
        // tracking is judged while the controller drives the axis, as the node itself does
        if (sample.running())
        {
            f.trackedCycles++;
            final double error = sample.error();
            f.errorSquares += error * error;
            f.maxError = Math.max(f.maxError, Math.abs(error));
        }
    }

    /**
     * @param node a journal of the replay.
     * @return its control figures so far; {@link ControlFigures#NONE} for a journal this analysis was not told of.
     */
    public ControlFigures of(final NodeAnalysis node)
    {
        final Figures f = byNode.get(node);
        return f == null ? ControlFigures.NONE : f.snapshot();
    }

    /**
     * @return deadline misses over every journal so far.
     */
    public long deadlineMisses()
    {
        return byNode.values().stream().mapToLong(f -> f.deadlineMisses).sum();
    }

    /**
     * @return watchdog trips over every journal so far.
     */
    public long trips()
    {
        return byNode.values().stream().mapToLong(f -> f.trips).sum();
    }

    /**
     * @return stalls over every journal so far.
     */
    public long stalls()
    {
        return byNode.values().stream().mapToLong(f -> f.stalls).sum();
    }

    /**
     * @return the longest stall over every journal so far, ns.
     */
    public long longestStallNanos()
    {
        return byNode.values().stream().mapToLong(f -> f.longestStallNanos).max().orElse(0);
    }

    private Figures figures(final NodeAnalysis node)
    {
        if (node != lastNode)
        {
            last = byNode.computeIfAbsent(node, n -> new Figures());
            lastNode = node;
        }
        return last;
    }
}
