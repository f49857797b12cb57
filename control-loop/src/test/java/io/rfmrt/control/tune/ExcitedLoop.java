package io.rfmrt.control.tune;

import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.excite.ExcitationLimits;
import io.rfmrt.control.excite.ExcitationRecording;
import io.rfmrt.control.excite.ExcitationSpec;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.CascadedPidLaw;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongPredicate;
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
        return journalAndRead(r, periodSeconds, point, kind, amplitude, dir, cycle -> true);
    }

    /**
     * As above, the cycles {@code computed} refuses journaled without their CONTROL sample (frames skipped).
     */
    static ExcitedCycles.Series journalAndRead(final ExcitationRecording r, final double periodSeconds,
        final int point, final int kind, final double amplitude, final Path dir, final LongPredicate computed)
    {
        ExcitationJournal.write(dir.resolve("node-2"), r, periodSeconds, point, kind, amplitude, computed);
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
