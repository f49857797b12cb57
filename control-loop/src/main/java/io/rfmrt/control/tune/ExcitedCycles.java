package io.rfmrt.control.tune;

import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.journal.ControlSample;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.ReplayListener;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * The excited cycles of a controller journal, as a {@link ReplayListener} of the replay's one pass: each EXCITATION
 * sample (what was injected, where, the value before it) joined by cycle with that cycle's CONTROL sample (measured
 * position and velocity, the torque sent, the latency), into arrays over the runs of consecutive cycles that have
 * both ({@link #series}). The loop's period is read from the samples' stamps (the median of the time between
 * consecutive excited cycles), not taken from a setting. Only the journal is read, so a recording from a rig
 * analyses the same way as one from the demo.
 * <p>
 * Threading: one thread at a time.
 */
public final class ExcitedCycles implements ReplayListener
{
    /** EXCITATION value indexes (the journal contract, {@link ControlJournal}). */
    private static final int INJECTED = 0;
    private static final int FREQUENCY = 1;
    private static final int KIND = 2;
    private static final int AMPLITUDE = 3;
    private static final int BEFORE = 4;

    private final ControlSample control = new ControlSample();
    private final Long2LongHashMap controlByCycle = new Long2LongHashMap(-1);
    private final Long2LongHashMap excitationByCycle = new Long2LongHashMap(-1);
    private double[] controlValues = new double[4 * 1024];
    private long[] controlNanos = new long[1024];
    private int controls;
    private long[] cycle = new long[1024];
    private double[] values = new double[5 * 1024];
    private int[] point = new int[1024];
    private int excitations;

    /**
     * The signals of the excited cycles, consecutive and in order.
     *
     * @param point        the injection point: 1 torque command, 2 velocity reference, 3 position setpoint.
     * @param kind         the signal: 1 step, 2 chirp, 3 PRBS.
     * @param amplitude    its amplitude (N·m, rad/s or rad by point).
     * @param periodSeconds the loop period from the stamps, s.
     * @param fromHz       a chirp's lowest instantaneous frequency, Hz (0 for other signals).
     * @param toHz         its highest, Hz.
     * @param firstCycle   the first cycle of the run.
     * @param gaps         EXCITATION samples left out: cycles without a CONTROL sample, runs of a single cycle,
     *                     and runs of another excitation.
     * @param latencyP50Us the median cycle latency (sensor send to command written) over the run, µs.
     * @param injected     d, the value injected each cycle.
     * @param before       the value at the injection point before d was added.
     * @param torque       the torque sent, N·m.
     * @param velocity     the measured velocity, rad/s.
     * @param position     the measured position, rad.
     * @param cycle        each sample's cycle; where it does not follow the one before, a new run begins.
     */
    public record Series(int point, int kind, double amplitude, double periodSeconds, double fromHz, double toHz,
        long firstCycle, long gaps, double latencyP50Us, double[] injected, double[] before, double[] torque,
        double[] velocity, double[] position, long[] cycle)
    {
        /**
         * @return the number of cycles.
         */
        public int cycles()
        {
            return injected.length;
        }

        /**
         * @return where each run begins, as indexes into the arrays: 0 first, then each index whose cycle does not
         * follow the one before it.
         */
        public int[] runStarts()
        {
            int runs = cycle.length > 0 ? 1 : 0;
            for (int i = 1; i < cycle.length; i++)
            {
                runs += cycle[i] == cycle[i - 1] + 1 ? 0 : 1;
            }
            final int[] starts = new int[runs];
            for (int i = 1, r = 1; i < cycle.length; i++)
            {
                if (cycle[i] != cycle[i - 1] + 1)
                {
                    starts[r++] = i;
                }
            }
            return starts;
        }

        /**
         * @return the longest run alone (a step response needs one stretch without a break).
         */
        public Series longestRun()
        {
            final int[] starts = runStarts();
            int best = 0;
            int bestLength = 0;
            for (int r = 0; r < starts.length; r++)
            {
                final int length = (r + 1 < starts.length ? starts[r + 1] : cycle.length) - starts[r];
                if (length > bestLength)
                {
                    bestLength = length;
                    best = starts[r];
                }
            }
            final int from = best;
            final int to = best + bestLength;
            return new Series(point, kind, amplitude, periodSeconds, fromHz, toHz, cycle[from],
                gaps + cycle.length - bestLength, latencyP50Us, Arrays.copyOfRange(injected, from, to),
                Arrays.copyOfRange(before, from, to), Arrays.copyOfRange(torque, from, to),
                Arrays.copyOfRange(velocity, from, to), Arrays.copyOfRange(position, from, to),
                Arrays.copyOfRange(cycle, from, to));
        }
    }

    @Override
    public void sample(final NodeAnalysis node, final JournalRecord record)
    {
        if (control.wrap(record))
        {
            if (controls == controlNanos.length)
            {
                controlNanos = Arrays.copyOf(controlNanos, controls * 2);
                controlValues = Arrays.copyOf(controlValues, 4 * controls * 2);
            }
            final int at = 4 * controls;
            controlValues[at] = control.command();
            controlValues[at + 1] = control.velocity();
            controlValues[at + 2] = control.position();
            controlValues[at + 3] = control.latencyMicros();
            controlNanos[controls] = control.nanos();
            controlByCycle.put(control.cycle(), controls);
            controls++;
        }
        else if (record.kind() == RecordKind.SAMPLE && record.sampleKind() == ControlJournal.SAMPLE_EXCITATION)
        {
            if (excitations == cycle.length)
            {
                cycle = Arrays.copyOf(cycle, excitations * 2);
                point = Arrays.copyOf(point, excitations * 2);
                values = Arrays.copyOf(values, 5 * excitations * 2);
            }
            cycle[excitations] = record.cycle();
            point[excitations] = record.state();
            final int at = 5 * excitations;
            for (int v = 0; v < 5; v++)
            {
                values[at + v] = record.value(v);
            }
            excitationByCycle.put(record.cycle(), excitations);
            excitations++;
        }
    }

    /**
     * @return EXCITATION samples read.
     */
    public int excitations()
    {
        return excitations;
    }

    /**
     * @return CONTROL samples read.
     */
    public int controls()
    {
        return controls;
    }

    /**
     * The excited cycles in runs: a run is a stretch of consecutive cycles that each have an EXCITATION and a CONTROL
     * sample; a cycle the controller did not compute on (a skipped frame) or a tick the plant missed ends one. The
     * longest run names the excitation (injection point, signal, amplitude); every other run of at least two cycles
     * of the same excitation joins it, in cycle order, so a loop held up now and then still gives all its stretches
     * to the estimate (Welch's segments never straddle two runs, {@link FrequencyResponse#welch(double[], double[],
     * int[], double, int, double)}).
     *
     * @return the runs, or null when there is none of two cycles or more.
     * @throws IllegalArgumentException when the samples are not usable (the longest run mixes injection points or
     *                                  signals, no stamps that give a period).
     */
    public Series series()
    {
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < excitations; i = runEnd(i))
        {
            final int length = runEnd(i) - i;
            if (controlByCycle.get(cycle[i]) >= 0 && length > bestLength)
            {
                bestLength = length;
                bestStart = i;
            }
        }
        if (bestLength < 2)
        {
            return null;
        }
        final int firstPoint = point[bestStart];
        final double firstKind = values[5 * bestStart + KIND];
        final double firstAmplitude = values[5 * bestStart + AMPLITUDE];
        for (int e = bestStart; e < bestStart + bestLength; e++)
        {
            if (point[e] != firstPoint || values[5 * e + KIND] != firstKind)
            {
                throw new IllegalArgumentException("EXCITATION samples change injection point or signal at cycle " +
                    cycle[e] + " (point " + firstPoint + " -> " + point[e] + ", kind " + (int)firstKind + " -> " +
                    (int)values[5 * e + KIND] + "); give --from/--to around one excitation");
            }
        }
        final int[] taken = new int[excitations];
        int n = 0;
        for (int i = 0; i < excitations; i = runEnd(i))
        {
            final int end = runEnd(i);
            if (controlByCycle.get(cycle[i]) >= 0 && end - i >= 2 && sameExcitation(i, end, firstPoint, firstKind,
                firstAmplitude))
            {
                for (int e = i; e < end; e++)
                {
                    taken[n++] = e;
                }
            }
        }
        final double[] injected = new double[n];
        final double[] before = new double[n];
        final double[] torque = new double[n];
        final double[] velocity = new double[n];
        final double[] position = new double[n];
        final long[] cycles = new long[n];
        final long[] intervals = new long[n];
        int intervalCount = 0;
        final double[] latency = new double[n];
        double fromHz = Double.MAX_VALUE;
        double toHz = 0;
        for (int k = 0; k < n; k++)
        {
            final int e = taken[k];
            final int c = (int)controlByCycle.get(cycle[e]);
            cycles[k] = cycle[e];
            injected[k] = values[5 * e + INJECTED];
            before[k] = values[5 * e + BEFORE];
            torque[k] = controlValues[4 * c];
            velocity[k] = controlValues[4 * c + 1];
            position[k] = controlValues[4 * c + 2];
            latency[k] = controlValues[4 * c + 3];
            final double f = values[5 * e + FREQUENCY];
            if (f > 0)
            {
                fromHz = Math.min(fromHz, f);
                toHz = Math.max(toHz, f);
            }
            if (k > 0 && cycles[k] == cycles[k - 1] + 1)
            {
                intervals[intervalCount++] = controlNanos[c] - controlNanos[(int)controlByCycle.get(cycle[e - 1])];
            }
        }
        Arrays.sort(intervals, 0, intervalCount);
        Arrays.sort(latency);
        final long median = intervals[intervalCount / 2];
        if (median <= 0)
        {
            throw new IllegalArgumentException("the excited cycles' CONTROL stamps do not advance (median interval " +
                median + " ns): no loop period can be read from them");
        }
        return new Series(firstPoint, (int)firstKind, firstAmplitude, median / 1e9, toHz > 0 ? fromHz : 0.0, toHz,
            cycles[0], excitations - n, latency[n / 2], injected, before, torque, velocity, position, cycles);
    }

    /** The end (exclusive) of the run that starts at excitation i: consecutive cycles, each with a CONTROL sample. */
    private int runEnd(final int i)
    {
        int e = i + 1;
        while (controlByCycle.get(cycle[i]) >= 0 && e < excitations && cycle[e] == cycle[e - 1] + 1 &&
            controlByCycle.get(cycle[e]) >= 0)
        {
            e++;
        }
        return e;
    }

    private boolean sameExcitation(final int from, final int to, final int point, final double kind,
        final double amplitude)
    {
        for (int e = from; e < to; e++)
        {
            if (this.point[e] != point || values[5 * e + KIND] != kind || values[5 * e + AMPLITUDE] != amplitude)
            {
                return false;
            }
        }
        return true;
    }
}
