package io.rfmrt.control.tune;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.excite.ExcitationLimits;
import io.rfmrt.control.excite.ExcitationRecording;
import io.rfmrt.control.excite.ExcitationSpec;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.CascadedPidLaw;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The realistic axis (one period of delay) under the cascaded law in the harness, excited by the loop's own
 * {@link io.rfmrt.control.excite.Excitation} while the setpoint runs at a constant speed (so friction keeps one
 * sign), journaled as the controller journals it (a CONTROL and an EXCITATION sample per cycle, stamped at
 * cycle × period) and read back through the replay ({@link ExcitedCycles}): what {@code rfmrt replay
 * --frequency-response} reads.
 */
final class ExcitedLoop
{
    static final double RAMP_SECONDS = 0.5;

    private ExcitedLoop()
    {
    }

    /**
     * @param gains the law's gains (their period is the loop's).
     * @param speed the constant speed, rad/s.
     * @param spec  the excitation (its start after the run-up).
     * @return the recording.
     */
    static ExcitationRecording run(final ControllerGains gains, final double speed, final ExcitationSpec spec)
    {
        final double dt = gains.periodSeconds();
        final int cycles = (int)Math.round((spec.startSeconds() + spec.seconds() + spec.fadeMs() * 1e-3 + 0.1) / dt);
        return ExcitationRecording.record(new RealisticAxisPlant(RealisticAxisParameters.standard()),
            new CascadedPidLaw(gains), dt, 1, spec, ExcitationLimits.defaults(), (t, out) -> speedUp(t, speed, out),
            cycles);
    }

    /**
     * Journal the recording's cycles under {@code dir} (one controller journal) and read the excited cycles back.
     */
    static ExcitedCycles.Series journalAndRead(final ExcitationRecording r, final double periodSeconds,
        final int point, final int kind, final double amplitude, final Path dir)
    {
        final long periodNanos = Math.round(periodSeconds * 1e9);
        final int running = ControlJournal.stateId(AxisState.RUNNING);
        try (Journal journal = Journal.start(JournalConfig.of(dir.resolve("node-2"), 2)))
        {
            final JournalWriter w = journal.newWriter("controller");
            for (int i = 0; i < r.count(); i++)
            {
                final long cycle = i;
                final long nanos = 1_000_000_000L + i * periodNanos + 40_000;
                final double sp = r.setpointRad()[i];
                final double pos = r.positionRad()[i];
                final double vel = r.velocityRadPerS()[i];
                final double torque = r.torqueNm()[i];
                retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, nanos, cycle, running, sp, pos, vel, torque,
                    sp - pos, 40.0));
                if (i >= r.firstExcited() && i <= r.lastExcited())
                {
                    final double d = r.injected()[i];
                    final double f = r.frequencyHz()[i];
                    final double before = r.before()[i];
                    retry(() -> w.sample(ControlJournal.SAMPLE_EXCITATION, nanos, cycle, point, d, f, kind, amplitude,
                        before, 0.0));
                }
            }
        }
        final ExcitedCycles cycles = new ExcitedCycles();
        Replay.run(dir, ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(cycles));
        return cycles.series();
    }

    /** A scratch folder, removed afterwards by {@link #delete}. */
    static Path scratch()
    {
        try
        {
            return Files.createTempDirectory("rfmrt-tune");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static void delete(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void retry(final BooleanSupplier write)
    {
        while (!write.getAsBoolean())
        {
            Thread.onSpinWait();
        }
    }

    /** A smooth (cosine) run-up to {@code speed} over {@link #RAMP_SECONDS}, then the speed held. */
    static void speedUp(final double t, final double speed, final Setpoint out)
    {
        if (t < RAMP_SECONDS)
        {
            final double s = t / RAMP_SECONDS;
            final double v = speed * 0.5 * (1 - Math.cos(Math.PI * s));
            final double p = speed * 0.5 * (t - RAMP_SECONDS / Math.PI * Math.sin(Math.PI * s));
            final double a = speed * 0.5 * Math.PI / RAMP_SECONDS * Math.sin(Math.PI * s);
            out.set(p, v, a, 0);
        }
        else
        {
            out.set(speed * 0.5 * RAMP_SECONDS + speed * (t - RAMP_SECONDS), speed, 0, 0);
        }
    }
}
