package io.rfmrt.control.replay;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.journal.ControlSample;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayException;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplayListener;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two controller journals compared cycle by cycle (their CONTROL samples, matched by sensor cycle): a recording and
 * a controller that ran against its sensor frames played back ({@code rfmrt replay A B --compare}). For every cycle in
 * both, the watchdog states and the torque commands, bit for bit ({@link Double#doubleToRawLongBits}); and the
 * <em>comparable window</em>: from the first cycle both have to the first one where either run is in a state other
 * than STARTING or RUNNING (a trip, a fault), computed a RUNNING cycle the other has not (a frame one of them
 * skipped or lost while the controller ran; a frame missed while STARTING, or at rest with exactly zero error, speed
 * and torque as in the lead-in, changes nothing), or commanded another
 * setpoint (its trajectory started on another cycle: a late frame while STARTING restarted its count of good
 * frames, or it rejoined the trajectory from elsewhere).
 * Inside it both controllers saw the same frames with the same history, so a controller that is a function of its
 * inputs gives the same commands there bit for bit (with the same gains); past it the two histories differ and so
 * may the commands, whatever the gains. The tracking of each run (RMS and max of the position error over its RUNNING
 * cycles, and over the window's cycles where both ran) is the summary of how each did.
 *
 * <p>Threading: one thread.
 */
public final class ControlCompare
{
    private static final int STARTING = ControlJournal.stateId(AxisState.STARTING);
    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);

    /**
     * One controller journal.
     *
     * @param dir         the folder given.
     * @param journal     the journal's name under it.
     * @param cycles      CONTROL samples (one per computed cycle).
     * @param firstCycle  the first cycle, -1 when none.
     * @param lastCycle   the last cycle.
     * @param running     cycles in RUNNING.
     * @param trackingRms RMS position error over the RUNNING cycles, rad.
     * @param trackingMax largest |position error| over them, rad.
     */
    public record Run(Path dir, String journal, long cycles, long firstCycle, long lastCycle, long running,
        double trackingRms, double trackingMax)
    {
    }

    /**
     * One cycle both runs computed.
     *
     * @param cycle  the sensor cycle.
     * @param stateA the state A commanded in (an {@code AxisState} id).
     * @param stateB the state B commanded in.
     * @param torqueA A's torque, N·m.
     * @param torqueB B's torque, N·m.
     */
    public record Cycle(long cycle, int stateA, int stateB, double torqueA, double torqueB)
    {
        /**
         * @return whether the torques are equal in every bit.
         */
        public boolean equal()
        {
            return Double.doubleToRawLongBits(torqueA) == Double.doubleToRawLongBits(torqueB);
        }
    }

    /**
     * The comparison.
     *
     * @param a                  the first run (the recording).
     * @param b                  the second run.
     * @param common             cycles in both.
     * @param onlyA              cycles only in A.
     * @param onlyB              cycles only in B.
     * @param statesAgree        cycles in both with the same state.
     * @param positionsEqual     cycles in both with the same sensor position, bit for bit: all of them when B ran
     *                           against A's frames played back (open loop: B's commands moved nothing, and its
     *                           tracking is A's recorded axis against B's setpoints).
     * @param firstStateDiff     the first cycle in both whose states differ, or {@code null}.
     * @param equal              cycles in both whose torques are bit-equal.
     * @param differing          cycles in both whose torques differ.
     * @param maxDifference      the largest |torque A − torque B| over the cycles in both, N·m.
     * @param rmsDifference      RMS of torque A − torque B over the cycles in both, N·m.
     * @param firstDiff          the first cycle in both whose torques differ, or {@code null}.
     * @param windowFirst        the first cycle of the comparable window, -1 when the runs have no cycle in common.
     * @param windowLast         its last cycle.
     * @param windowEnd          why it ends: "end of the runs", "A SAFE at cycle N", "cycle N only in B", ...
     * @param windowCycles       cycles in it (all in both).
     * @param windowRunning      of them, cycles where both ran (RUNNING).
     * @param windowDiffering    of them, cycles whose torques differ.
     * @param windowTrackingRmsA A's RMS position error over the window's cycles where both ran, rad.
     * @param windowTrackingRmsB B's, rad.
     */
    public record Comparison(Run a, Run b, long common, long onlyA, long onlyB, long statesAgree,
        long positionsEqual, Cycle firstStateDiff, long equal, long differing, double maxDifference,
        double rmsDifference, Cycle firstDiff,
        long windowFirst, long windowLast, String windowEnd, long windowCycles, long windowRunning,
        long windowDiffering, double windowTrackingRmsA, double windowTrackingRmsB)
    {
    }

    /** Per-cycle output, e.g. a CSV row per cycle in both. */
    @FunctionalInterface
    public interface CycleSink
    {
        /**
         * @param cycle a cycle both runs computed, in cycle order.
         */
        void cycle(Cycle cycle);
    }

    private ControlCompare()
    {
    }

    /**
     * @param a    a folder with one controller journal (the recording; a demo's folder will do).
     * @param b    another (the controller run against the recording's frames).
     * @param sink told of every cycle in both, or {@code null}.
     * @return the comparison.
     * @throws ReplayException one line: a folder without a controller journal or with several.
     */
    public static Comparison compare(final Path a, final Path b, final CycleSink sink)
    {
        final Series sa = read(a);
        final Series sb = read(b);
        return compare(sa, sb, sink);
    }

    static Comparison compare(final Series a, final Series b, final CycleSink sink)
    {
        long common = 0;
        long positionsEqual = 0;
        long onlyA = 0;
        long onlyB = 0;
        long statesAgree = 0;
        Cycle firstStateDiff = null;
        long equal = 0;
        long differing = 0;
        double maxDifference = 0;
        double squares = 0;
        Cycle firstDiff = null;
        long windowFirst = -1;
        long windowLast = -1;
        String windowEnd = null;
        long windowCycles = 0;
        long windowRunning = 0;
        long windowDiffering = 0;
        double windowSquaresA = 0;
        double windowSquaresB = 0;
        final long commonEnd = Math.min(a.last(), b.last());
        int i = 0;
        int j = 0;
        while (i < a.count || j < b.count)
        {
            final long ca = i < a.count ? a.cycle[i] : Long.MAX_VALUE;
            final long cb = j < b.count ? b.cycle[j] : Long.MAX_VALUE;
            if (ca != cb)
            {
                final long c = Math.min(ca, cb);
                if (ca < cb)
                {
                    onlyA++;
                    i++;
                }
                else
                {
                    onlyB++;
                    j++;
                }
                final Series run = ca < cb ? a : b;
                final int k = ca < cb ? i - 1 : j - 1;
                final int state = run.state[k];
                if (windowFirst >= 0 && windowEnd == null && c <= commonEnd && state != STARTING && !atRest(run, k))
                {
                    windowEnd = "cycle " + c + " only in " + (ca < cb ? "A" : "B") + ", " +
                        ControlJournal.vocabulary().stateName(state);
                }
                continue;
            }
            final Cycle cycle = new Cycle(ca, a.state[i], b.state[j], a.torque[i], b.torque[j]);
            common++;
            if (cycle.stateA() == cycle.stateB())
            {
                statesAgree++;
            }
            else if (firstStateDiff == null)
            {
                firstStateDiff = cycle;
            }
            if (Double.doubleToRawLongBits(a.position[i]) == Double.doubleToRawLongBits(b.position[j]))
            {
                positionsEqual++;
            }
            final double difference = cycle.torqueA() - cycle.torqueB();
            if (cycle.equal())
            {
                equal++;
            }
            else
            {
                differing++;
                maxDifference = Math.max(maxDifference, Math.abs(difference));
                squares += difference * difference;
                if (firstDiff == null)
                {
                    firstDiff = cycle;
                }
            }
            if (windowFirst < 0)
            {
                windowFirst = ca;
            }
            if (windowEnd == null)
            {
                final String left = left(cycle.stateA(), "A", ca);
                final String leftB = left(cycle.stateB(), "B", ca);
                if (left != null || leftB != null)
                {
                    windowEnd = left != null ? left : leftB;
                }
                else if (Double.doubleToRawLongBits(a.setpoint[i]) != Double.doubleToRawLongBits(b.setpoint[j]))
                {
                    windowEnd = "another setpoint at cycle " + ca;
                }
                else
                {
                    windowLast = ca;
                    windowCycles++;
                    if (cycle.stateA() == RUNNING && cycle.stateB() == RUNNING)
                    {
                        windowRunning++;
                        windowSquaresA += a.error[i] * a.error[i];
                        windowSquaresB += b.error[j] * b.error[j];
                    }
                    if (!cycle.equal())
                    {
                        windowDiffering++;
                    }
                }
            }
            if (sink != null)
            {
                sink.cycle(cycle);
            }
            i++;
            j++;
        }
        return new Comparison(a.run(), b.run(), common, onlyA, onlyB, statesAgree, positionsEqual, firstStateDiff,
            equal, differing,
            maxDifference, common == 0 ? 0.0 : Math.sqrt(squares / common), firstDiff, windowFirst, windowLast,
            windowFirst < 0 ? "no cycle in both" : windowEnd == null ? "the end of the cycles in both" : windowEnd,
            windowCycles, windowRunning, windowDiffering,
            windowRunning == 0 ? 0.0 : Math.sqrt(windowSquaresA / windowRunning),
            windowRunning == 0 ? 0.0 : Math.sqrt(windowSquaresB / windowRunning));
    }

    /**
     * A cycle computed at rest with nothing to correct: zero position error, zero speed, zero torque. The step changed
     * nothing in the controller (its integrator gained nothing), so a run that did not compute it has the same history.
     */
    private static boolean atRest(final Series run, final int k)
    {
        return run.error[k] == 0.0 && run.velocity[k] == 0.0 && run.torque[k] == 0.0;
    }

    private static String left(final int state, final String run, final long cycle)
    {
        return state == STARTING || state == RUNNING ? null :
            run + " " + ControlJournal.vocabulary().stateName(state) + " at cycle " + cycle;
    }

    /**
     * @param dir a folder holding one controller journal.
     * @return its CONTROL samples in cycle order.
     */
    static Series read(final Path dir)
    {
        final Collector collector = new Collector();
        Replay.run(dir, ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(collector));
        final List<Map.Entry<NodeAnalysis, Series>> found = new ArrayList<>();
        for (final Map.Entry<NodeAnalysis, Series> e : collector.byNode.entrySet())
        {
            if (e.getValue().count > 0)
            {
                found.add(e);
            }
        }
        if (found.isEmpty())
        {
            throw new ReplayException("compare: no controller journal under " + dir + " (no journal holds CONTROL " +
                "samples)");
        }
        if (found.size() > 1)
        {
            final List<String> names = new ArrayList<>();
            found.forEach(e -> names.add(e.getKey().name()));
            throw new ReplayException("compare: " + dir + " holds " + found.size() + " controller journals " + names +
                "; give the folder of one");
        }
        final Series series = found.get(0).getValue();
        series.finish(dir, found.get(0).getKey().name());
        return series;
    }

    /** Collects the CONTROL samples of each journal. */
    private static final class Collector implements ReplayListener
    {
        final Map<NodeAnalysis, Series> byNode = new IdentityHashMap<>();
        final ControlSample sample = new ControlSample();

        @Override
        public void journal(final NodeAnalysis node)
        {
            byNode.put(node, new Series());
        }

        @Override
        public void sample(final NodeAnalysis node, final JournalRecord record)
        {
            if (sample.wrap(record))
            {
                byNode.get(node).add(sample.cycle(), sample.stateId(), sample.command(), sample.error(),
                    sample.position(), sample.setpoint(), sample.velocity());
            }
        }
    }

    /** One journal's cycles, as columns. */
    static final class Series
    {
        long[] cycle = new long[1024];
        int[] state = new int[1024];
        double[] torque = new double[1024];
        double[] error = new double[1024];
        double[] position = new double[1024];
        double[] setpoint = new double[1024];
        double[] velocity = new double[1024];
        int count;
        private Run run;

        void add(final long c, final int s, final double t, final double e, final double p, final double sp,
            final double v)
        {
            if (count == cycle.length)
            {
                cycle = Arrays.copyOf(cycle, count * 2);
                state = Arrays.copyOf(state, count * 2);
                torque = Arrays.copyOf(torque, count * 2);
                error = Arrays.copyOf(error, count * 2);
                position = Arrays.copyOf(position, count * 2);
                setpoint = Arrays.copyOf(setpoint, count * 2);
                velocity = Arrays.copyOf(velocity, count * 2);
            }
            cycle[count] = c;
            state[count] = s;
            torque[count] = t;
            error[count] = e;
            position[count] = p;
            setpoint[count] = sp;
            velocity[count] = v;
            count++;
        }

        long last()
        {
            return count == 0 ? -1 : cycle[count - 1];
        }

        Run run()
        {
            return run;
        }

        /** Sort by cycle (a restarted node appends cycles from 1 again: each cycle's first sample is kept). */
        void finish(final Path dir, final String journal)
        {
            boolean sorted = true;
            for (int k = 1; k < count && sorted; k++)
            {
                sorted = cycle[k] > cycle[k - 1];
            }
            if (!sorted)
            {
                final Integer[] order = new Integer[count];
                for (int k = 0; k < count; k++)
                {
                    order[k] = k;
                }
                Arrays.sort(order, (x, y) -> Long.compare(cycle[x], cycle[y]));
                final long[] c = new long[count];
                final int[] s = new int[count];
                final double[] t = new double[count];
                final double[] e = new double[count];
                final double[] p = new double[count];
                final double[] sp = new double[count];
                final double[] v = new double[count];
                int n = 0;
                for (final int k : order)
                {
                    if (n > 0 && c[n - 1] == cycle[k])
                    {
                        continue;
                    }
                    c[n] = cycle[k];
                    s[n] = state[k];
                    t[n] = torque[k];
                    e[n] = error[k];
                    p[n] = position[k];
                    sp[n] = setpoint[k];
                    v[n] = velocity[k];
                    n++;
                }
                cycle = c;
                state = s;
                torque = t;
                error = e;
                position = p;
                setpoint = sp;
                velocity = v;
                count = n;
            }
            long running = 0;
            double squares = 0;
            double max = 0;
            for (int k = 0; k < count; k++)
            {
                if (state[k] == RUNNING)
                {
                    running++;
                    squares += error[k] * error[k];
                    max = Math.max(max, Math.abs(error[k]));
                }
            }
            run = new Run(dir, journal, count, count == 0 ? -1 : cycle[0], last(), running,
                running == 0 ? 0.0 : Math.sqrt(squares / running), max);
        }
    }
}
