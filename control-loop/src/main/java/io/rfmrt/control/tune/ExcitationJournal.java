package io.rfmrt.control.tune;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.excite.ExcitationRecording;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;

import java.nio.file.Path;
import java.util.function.LongPredicate;

/**
 * An excited run of the harness ({@link ExcitationRecording}) written as the controller node journals it: per cycle a
 * CONTROL sample (setpoint, measured position and velocity, torque, error, a nominal latency) and, while the
 * excitation injects, an EXCITATION sample stamped alike, the cycle's stamp being cycle × period after a fixed start.
 * What a simulated run leaves for {@code rfmrt replay --frequency-response} to read, without a node; for tests and
 * examples.
 * <p>
 * Threading: one thread; it waits for the journal's ring when it is full (never on a real-time path).
 */
public final class ExcitationJournal
{
    /** The nominal cycle latency written, µs. */
    public static final double LATENCY_US = 40.0;

    private ExcitationJournal()
    {
    }

    /**
     * @param journalDir    the journal's folder (a controller node's, e.g. {@code journal/node-2}).
     * @param r             the recording.
     * @param periodSeconds the loop period, s.
     * @param point         the injection point's journal id (1 torque, 2 velocity, 3 position).
     * @param kind          the signal's journal id (1 step, 2 chirp, 3 PRBS).
     * @param amplitude     its amplitude.
     */
    public static void write(final Path journalDir, final ExcitationRecording r, final double periodSeconds,
        final int point, final int kind, final double amplitude)
    {
        write(journalDir, r, periodSeconds, point, kind, amplitude, cycle -> true);
    }

    /**
     * As {@link #write(Path, ExcitationRecording, double, int, int, double)}, with the cycles a controller skipped
     * left without their CONTROL sample (a frame it did not compute on, held up by a stall): what a loop that was
     * held up now and then leaves.
     *
     * @param journalDir    the journal's folder.
     * @param r             the recording.
     * @param periodSeconds the loop period, s.
     * @param point         the injection point's journal id.
     * @param kind          the signal's journal id.
     * @param amplitude     its amplitude.
     * @param computed      whether a cycle has its CONTROL sample.
     */
    public static void write(final Path journalDir, final ExcitationRecording r, final double periodSeconds,
        final int point, final int kind, final double amplitude, final LongPredicate computed)
    {
        final long periodNanos = Math.round(periodSeconds * 1e9);
        final int running = ControlJournal.stateId(AxisState.RUNNING);
        // the recording's getters copy their series: each taken once, not once a cycle (which copied n² values)
        final double[] setpoint = r.setpointRad();
        final double[] position = r.positionRad();
        final double[] velocity = r.velocityRadPerS();
        final double[] torque = r.torqueNm();
        final double[] injected = r.injected();
        final double[] frequency = r.frequencyHz();
        final double[] before = r.before();
        try (Journal journal = Journal.start(JournalConfig.of(journalDir, 2)))
        {
            final JournalWriter w = journal.newWriter("controller");
            for (int i = 0; i < r.count(); i++)
            {
                final long nanos = 1_000_000_000L + i * periodNanos + (long)(LATENCY_US * 1e3);
                final double sp = setpoint[i];
                final double pos = position[i];
                while (computed.test(i) && !w.sample(ControlJournal.SAMPLE_CONTROL, nanos, i, running, sp, pos,
                    velocity[i], torque[i], sp - pos, LATENCY_US))
                {
                    Thread.onSpinWait();
                }
                if (i >= r.firstExcited() && i <= r.lastExcited())
                {
                    while (!w.sample(ControlJournal.SAMPLE_EXCITATION, nanos, i, point, injected[i],
                        frequency[i], kind, amplitude, before[i], 0.0))
                    {
                        Thread.onSpinWait();
                    }
                }
            }
        }
    }
}
