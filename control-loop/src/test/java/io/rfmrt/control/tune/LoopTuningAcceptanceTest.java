package io.rfmrt.control.tune;

import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.FollowingError;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.excite.ExcitationRecording;
import io.rfmrt.control.excite.ExcitationSpec;
import io.rfmrt.control.law.CascadedPidLaw;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

/**
 * The acceptance of the loop-tuning measurements on the realistic axis (two masses, 251.6 Hz resonance, 50 % more
 * inertia than the standard tune assumes, stiction, gravity, current-loop lag) at 4 kHz with one period of transport
 * delay, seeded and without threads: the loop's own excitation, a logarithmic chirp of 0.1 N·m, 2 Hz to 1 kHz over
 * 20 s, added to the torque command while the axis runs at 2 rad/s (friction keeps one sign), journaled as the
 * controller journals it and analysed from the journal as {@code rfmrt replay --frequency-response} does (Welch's H1,
 * Hann, 4096 points, 50 % overlap, from the injection: the plant P = H(d→ω)/H(d→u), the open loop
 * L = −H(d→c)/H(d→u)). The measurement is checked against {@link AxisModel}, built from the plant's parameters and
 * the gains only.
 * <p>
 * Two such runs (the shipped gains, the suggested ones) of 21 s of simulated loop each take about a second apiece:
 * the class is in {@code ./run-tests --quick} too.
 */
class LoopTuningAcceptanceTest
{
    private static final double PERIOD = 250e-6;
    private static final int DELAY_PERIODS = 1;
    private static final int SEGMENT = 4096;
    private static final double OVERLAP = 0.5;
    private static final ControllerGains SHIPPED = ControllerGains.standard().withPeriodSeconds(PERIOD);
    private static final RealisticAxisParameters AXIS = RealisticAxisParameters.standard();
    private static final AxisModel MODEL = new AxisModel(AXIS, PERIOD, DELAY_PERIODS);

    private static LoopReport shipped;

    /** A torque chirp in the loop under some gains, journaled and analysed as replay --frequency-response does. */
    private static LoopReport measure(final ControllerGains gains, final String name)
    {
        final ExcitationSpec spec = ExcitationSpec.parse("chirp:point=torque,f0=2,f1=1000,amp=0.1,seconds=20,start=1");
        final ExcitationRecording r = ExcitedLoop.run(gains, 2.0, spec);
        // -Dtune.journal=DIR keeps the journals (DIR/shipped, DIR/suggested) for rfmrt replay (docs/loop-tuning.md)
        final String keep = System.getProperty("tune.journal");
        final Path dir = keep == null ? ExcitedLoop.scratch() : Path.of(keep, name);
        try
        {
            final ExcitedCycles.Series s = ExcitedLoop.journalAndRead(r, PERIOD, 1, 2, 0.1, dir);
            assertThat(s.periodSeconds()).as("the period from the stamps").isCloseTo(PERIOD, offset(1e-9));
            assertThat(s.cycles()).isEqualTo(r.lastExcited() - r.firstExcited() + 1);
            final LoopReport report = LoopReport.of(s, SEGMENT, OVERLAP, LoopFigures.MIN_COHERENCE_DEFAULT);
            assertThat(report.segments()).isEqualTo(2 * s.cycles() / SEGMENT - 1);
            return report;
        }
        finally
        {
            if (keep == null)
            {
                ExcitedLoop.delete(dir);
            }
        }
    }

    private static synchronized LoopReport shipped()
    {
        if (shipped == null)
        {
            shipped = measure(SHIPPED, "shipped");
        }
        return shipped;
    }

    @Test
    void shouldFindTheResonanceFromAChirpAt4kHz()
    {
        final LoopFigures.Resonance r = shipped().resonance();
        final double modelHz = AXIS.resonanceRadPerS() / (2 * Math.PI);
        System.out.printf(Locale.ROOT, "resonance %.1f Hz (model %.1f), anti-resonance %.1f Hz (model %.1f), rigid " +
            "inertia %.3e kg m2 (model %.3e)%n", r.resonanceHz(), modelHz, r.antiResonanceHz(),
            AXIS.antiResonanceRadPerS() / (2 * Math.PI), r.inertiaKgM2(), AXIS.totalInertiaKgM2());
        assertThat(modelHz).isCloseTo(251.6, offset(0.05));
        assertThat(r.resonanceHz()).isCloseTo(modelHz, offset(5.0));
        assertThat(r.antiResonanceHz()).isCloseTo(AXIS.antiResonanceRadPerS() / (2 * Math.PI), offset(5.0));
        assertThat(r.inertiaKgM2()).isCloseTo(AXIS.totalInertiaKgM2(), offset(0.1 * AXIS.totalInertiaKgM2()));
    }

    @Test
    void shouldMeasureThePlantWithin1dBOfTheModelWhereCoherent()
    {
        final FrequencyResponse plant = shipped().response(shipped().plant());
        int points = 0;
        int skipped = 0;
        double worst = 0;
        for (int i = 0; i < plant.size(); i++)
        {
            if (plant.hz(i) < 10 || plant.hz(i) > 200)
            {
                continue;
            }
            if (plant.coherence(i) <= 0.9)
            {
                skipped++;
                continue;
            }
            final double[] m = MODEL.velocity(plant.hz(i));
            final double error = plant.magnitudeDb(i) - 20 * Math.log10(Math.hypot(m[0], m[1]));
            worst = Math.max(worst, Math.abs(error));
            points++;
            assertThat(Math.abs(error)).as("%.1f Hz", plant.hz(i)).isLessThanOrEqualTo(1.0);
        }
        System.out.printf(Locale.ROOT, "plant vs model 10-200 Hz: %d points with coherence > 0.9 (%d below), worst " +
            "%.2f dB%n", points, skipped, worst);
        assertThat(points).as("most of the band is coherent").isGreaterThan(9 * skipped);
    }

    @Test
    void shouldEstimateTheDelayWithin20PercentOfTheConfiguredOne()
    {
        final LoopFigures.Delay delay = shipped().delay();
        // command → differenced velocity: the transport (one period), the hold (half), the differencing (half) and
        // the current loop's lag
        final double configured = DELAY_PERIODS * PERIOD + 0.5 * PERIOD + 0.5 * PERIOD + AXIS.currentLagSeconds();
        System.out.printf(Locale.ROOT, "delay %.1f us over %d points, %.1f-%.1f Hz (%.1f us configured), phase at " +
            "0: %.1f deg%n", delay.seconds() * 1e6, delay.points(), delay.fromHz(), delay.toHz(), configured * 1e6,
            delay.interceptDeg());
        assertThat(delay.seconds()).isCloseTo(configured, offset(0.2 * configured));
        assertThat(delay.interceptDeg()).as("an integrator").isCloseTo(-90, offset(5.0));
    }

    @Test
    void shouldMeasureTheShippedTunesMarginsAsTheModelGivesThem()
    {
        final LoopFigures.Margins measured = shipped().margins();
        final LoopFigures.Margins analytic = LoopFigures.margins(MODEL.openLoopResponse(SHIPPED, 1, 1999, 8000), 0);
        System.out.printf(Locale.ROOT, "shipped tune: measured crossover %.1f Hz, PM %.1f deg, GM %.2f dB at %.1f " +
            "Hz; analytic %.1f Hz, PM %.1f deg, GM %.2f dB at %.1f Hz%n", measured.crossoverHz(),
            measured.phaseMarginDeg(), measured.gainMarginDb(), measured.phaseCrossoverHz(), analytic.crossoverHz(),
            analytic.phaseMarginDeg(), analytic.gainMarginDb(), analytic.phaseCrossoverHz());
        assertThat(measured.gainMarginDb()).isCloseTo(analytic.gainMarginDb(), offset(1.0));
        assertThat(measured.phaseMarginDeg()).isCloseTo(analytic.phaseMarginDeg(), offset(5.0));
        assertThat(measured.crossoverHz()).isCloseTo(analytic.crossoverHz(), offset(0.05 * analytic.crossoverHz()));
    }

    @Test
    void shouldReadAPrbsOverTheRunsOfALoopThatSkippedFramesAndMeasureTheModelsMargins()
    {
        // a loop held up now and then, as on a machine whose timer wakes come late: one cycle in about 1,500 has no
        // CONTROL sample (a frame the controller skipped), so no stretch holds 4 of the default segments
        final ExcitationSpec spec = ExcitationSpec.parse("prbs:point=torque,amp=0.1,seconds=4,start=1");
        final ExcitationRecording r = ExcitedLoop.run(SHIPPED, 2.0, spec);
        final SplittableRandom random = new SplittableRandom(7);
        final BitSet skipped = new BitSet();
        for (int c = r.firstExcited() + random.nextInt(1500); c <= r.lastExcited(); c += 1 + random.nextInt(3000))
        {
            skipped.set(c);
        }
        final Path dir = ExcitedLoop.scratch();
        try
        {
            final ExcitedCycles.Series s = ExcitedLoop.journalAndRead(r, PERIOD, 1, 3, 0.1, dir,
                cycle -> !skipped.get((int)cycle));
            final int[] runs = s.runStarts();
            assertThat(runs.length).as("a run between each two skipped cycles").isEqualTo(skipped.cardinality() + 1);
            assertThat(s.gaps()).as("the skipped cycles are left out").isEqualTo(skipped.cardinality());
            assertThat(s.cycles()).isEqualTo(r.lastExcited() - r.firstExcited() + 1 - skipped.cardinality());
            assertThat(s.longestRun().cycles()).as("the longest run alone").isLessThan(s.cycles() / 3);
            final LoopReport report = LoopReport.of(s, 0, OVERLAP, LoopFigures.MIN_COHERENCE_DEFAULT);
            assertThat(report.runs()).isEqualTo(runs.length);
            assertThat(report.segments()).as("segments lie inside runs").isEqualTo(
                FrequencyResponse.segments(runs, s.cycles(), report.segment(), OVERLAP)).isGreaterThanOrEqualTo(
                LoopReport.MIN_SEGMENTS);
            final LoopFigures.Margins measured = report.margins();
            final LoopFigures.Margins analytic = LoopFigures.margins(MODEL.openLoopResponse(SHIPPED, 1, 1999, 8000),
                0);
            System.out.printf(Locale.ROOT, "prbs over %d runs (%d-point segments, %d): resonance %.1f Hz, PM %.1f " +
                "deg (analytic %.1f), GM %.2f dB (analytic %.2f)%n", runs.length, report.segment(),
                report.segments(), report.resonance().resonanceHz(), measured.phaseMarginDeg(),
                analytic.phaseMarginDeg(), measured.gainMarginDb(), analytic.gainMarginDb());
            assertThat(report.resonance().resonanceHz()).isCloseTo(AXIS.resonanceRadPerS() / (2 * Math.PI),
                offset(5.0));
            assertThat(measured.gainMarginDb()).isCloseTo(analytic.gainMarginDb(), offset(1.0));
            assertThat(measured.phaseMarginDeg()).isCloseTo(analytic.phaseMarginDeg(), offset(5.0));
        }
        finally
        {
            ExcitedLoop.delete(dir);
        }
    }

    /** Tracking over the fast profile's moves at 4 kHz with one period of delay, and following-error faults. */
    private static double[] track(final ControllerGains gains)
    {
        final DemoProfile profile = DemoProfile.fast();
        final ClosedLoopHarness loop = new ClosedLoopHarness(new RealisticAxisPlant(AXIS), new CascadedPidLaw(gains),
            PERIOD, DELAY_PERIODS);
        // the controller's limits for the fast profile: 20 mrad at rest, 30 at speed, 10 ms
        final FollowingError supervision = new FollowingError(new FollowingError.Limits(20e-3, 30e-3,
            profile.vMaxRadPerS(), (int)Math.round(10e-3 / PERIOD)));
        final double[] f = new double[4];
        loop.run(profile::setpoint, Math.round(profile.durationSeconds() / PERIOD), (s, sp, c) ->
        {
            final double e = sp.position() - s.position();
            if (sp.velocity() != 0 || sp.acceleration() != 0)
            {
                f[0] += e * e;
                f[1]++;
                f[2] = Math.max(f[2], Math.abs(e));
            }
            if (supervision.check(e, sp.velocity()))
            {
                f[3]++;
            }
        });
        return new double[] {Math.sqrt(f[0] / f[1]), f[2], f[3]};
    }

    @Test
    void shouldSuggestGainsThatTrackNoWorseWithoutFaultsAtTheTargetMargin()
    {
        final GainSuggestion.Suggestion s = GainSuggestion.suggest(shipped().response(shipped().plant()), SHIPPED,
            GainSuggestion.PHASE_MARGIN_DEFAULT_DEG, GainSuggestion.POSITION_RATIO_DEFAULT,
            GainSuggestion.INTEGRAL_RATIO_DEFAULT, GainSuggestion.MIN_GAIN_MARGIN_DEFAULT_DB);
        final ControllerGains g = s.gains();
        final double[] before = track(SHIPPED);
        final double[] after = track(g);
        // what the loop gains do alone, with the shipped acceleration feed-forward (reported, not judged)
        final double[] gainsOnly = track(g.withFeedForward(SHIPPED.velocityFeedForward(),
            SHIPPED.accelerationFeedForwardKgM2()));
        final LoopFigures.Margins measured = measure(g, "suggested").margins();
        System.out.printf(Locale.ROOT, "suggested Kp %.1f /s, Kv %.4f N m s/rad, Ki %.1f /s, Kaff %.3e kg m2: " +
            "expected PM %.1f deg GM %.2f dB at %.1f Hz, measured PM %.1f deg GM %.2f dB at %.1f Hz; fast profile " +
            "rms %.3e rad max %.3e (shipped rms %.3e max %.3e; the new loop gains with the shipped Kaff rms %.3e), " +
            "faults %.0f (shipped %.0f)%n", g.positionGainPerS(),
            g.velocityGainNmSPerRad(), g.velocityIntegralGainPerS(), g.accelerationFeedForwardKgM2(),
            s.expected().phaseMarginDeg(), s.expected().gainMarginDb(), s.expected().crossoverHz(),
            measured.phaseMarginDeg(), measured.gainMarginDb(), measured.crossoverHz(), after[0], after[1], before[0],
            before[1], gainsOnly[0], after[2], before[2]);
        assertThat(after[0]).as("tracking rms over the moves").isLessThanOrEqualTo(before[0]);
        assertThat(after[2]).as("following-error faults").isZero();
        assertThat(measured.phaseMarginDeg()).isCloseTo(GainSuggestion.PHASE_MARGIN_DEFAULT_DEG, offset(10.0));
        assertThat(s.expected().gainMarginDb()).isGreaterThanOrEqualTo(GainSuggestion.MIN_GAIN_MARGIN_DEFAULT_DB);
    }
}
