package io.rfmrt.control.tune;

import io.rfmrt.control.ControllerGains;

import java.util.Locale;

/**
 * Cascade gains from a measured plant P (torque command → measured velocity, the drive's own delays included), for
 * a phase margin asked for:
 * <pre>
 *   L(z)  = C_v(z)·(1 + Kp·T/(1 − z^−1))·P(z)            the cascade opened at the torque command
 *   C_v(z) = Kv·(1 + Ki·T/(z − 1))                         the velocity PI as {@link io.rfmrt.control.AxisController}
 *   Ki = ωc / integralRatio,  Kp = ωc / positionRatio     the PI zero and the position loop below the crossover ωc
 *   ωc: the lowest measured frequency where 180° + ∠L(ωc) falls to the target margin
 *   Kv: |L(ωc)| = 1
 *   Kaff = J, the rigid inertia 1/(|P|·ω) measured below the anti-resonance
 * </pre>
 * The ratios place the integrator's and the position loop's phase lag: at ωc they cost atan(1/ratio) each (14° at 4,
 * the defaults). With the velocity loop's crossover 4 times the position gain, the position loop sees a velocity
 * loop that is close to 1 up to its own crossover. Then the margins are computed from the measured P with the new
 * gains ({@link LoopFigures#margins}); when the gain margin is below {@code minGainMarginDb} (a resonance that
 * reaches 0 dB) ωc is lowered, point by point, until it is not, and the phase margin is what it is then.
 * <p>
 * Only the loop's gains and the acceleration feed-forward are suggested; the limits, the velocity feed-forward and
 * the anti-windup keep the base gains' values. Threading: static, stateless.
 */
public final class GainSuggestion
{
    /** Default target phase margin, degrees. */
    public static final double PHASE_MARGIN_DEFAULT_DEG = 50.0;
    /** Default ωc / Kp: the velocity loop's crossover over the position loop's. */
    public static final double POSITION_RATIO_DEFAULT = 4.0;
    /** Default ωc / Ki: the crossover over the PI zero. */
    public static final double INTEGRAL_RATIO_DEFAULT = 4.0;
    /** The least gain margin a suggestion keeps, dB. */
    public static final double MIN_GAIN_MARGIN_DEFAULT_DB = 6.0;
    /** The coherence a measured point needs to be used. */
    public static final double MIN_COHERENCE = 0.9;

    private GainSuggestion()
    {
    }

    /**
     * A suggestion.
     *
     * @param gains            the gains (base gains with Kp, Kv, Ki and Kaff replaced).
     * @param crossoverHz      the crossover designed for, Hz.
     * @param expected         the margins the measured plant gives with these gains.
     * @param inertiaKgM2      the rigid inertia measured, kg·m² (the acceleration feed-forward).
     * @param targetMarginDeg  the phase margin asked for.
     * @param limitedByGain    whether ωc was lowered for the gain margin (the phase margin is then above target).
     */
    public record Suggestion(ControllerGains gains, double crossoverHz, LoopFigures.Margins expected,
        double inertiaKgM2, double targetMarginDeg, boolean limitedByGain)
    {
    }

    /**
     * @param plant            the measured torque → velocity response, with its sample rate.
     * @param base             the gains whose limits and feed-forward settings are kept; their period is replaced
     *                         by the measurement's.
     * @param targetMarginDeg  the phase margin asked for, degrees (10..80).
     * @param positionRatio    ωc / Kp (≥ 1).
     * @param integralRatio    ωc / Ki (≥ 1).
     * @param minGainMarginDb  the least gain margin kept, dB.
     * @return the suggestion.
     * @throws IllegalArgumentException when the settings are out of range, or no measured point can give the margin.
     */
    public static Suggestion suggest(final FrequencyResponse plant, final ControllerGains base,
        final double targetMarginDeg, final double positionRatio, final double integralRatio,
        final double minGainMarginDb)
    {
        if (!(targetMarginDeg >= 10 && targetMarginDeg <= 80))
        {
            throw new IllegalArgumentException("phase margin " + targetMarginDeg + " deg must be 10..80");
        }
        if (!(positionRatio >= 1) || !(integralRatio >= 1))
        {
            throw new IllegalArgumentException("position ratio " + positionRatio + " and integral ratio " +
                integralRatio + " must be >= 1");
        }
        if (!(plant.rateHz() > 0))
        {
            throw new IllegalArgumentException("the plant response carries no sample rate; it must be a measurement");
        }
        final double period = 1.0 / plant.rateHz();
        final LoopFigures.Resonance resonance = LoopFigures.resonance(plant, 0.0, MIN_COHERENCE);
        final double[] phase = plant.phaseDegrees(MIN_COHERENCE);
        // the point where the margin falls to the target, then down from there while the gain margin is short
        int at = -1;
        double previousMargin = Double.NaN;
        for (int i = 0; i < plant.size(); i++)
        {
            if (plant.coherence(i) < MIN_COHERENCE)
            {
                continue;
            }
            final double margin = 180.0 + phase[i] + Math.toDegrees(controllerPhase(plant.hz(i), period,
                positionRatio, integralRatio));
            if (!Double.isNaN(previousMargin) && previousMargin >= targetMarginDeg && margin < targetMarginDeg)
            {
                break;
            }
            at = i;
            previousMargin = margin;
        }
        if (at < 0 || !(previousMargin >= targetMarginDeg))
        {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "no measured frequency gives a " +
                "phase margin of %.0f deg (the plant's phase is already too low at its first good point)",
                targetMarginDeg));
        }
        boolean limited = false;
        for (int i = at; i >= 0; i--)
        {
            if (plant.coherence(i) < MIN_COHERENCE)
            {
                continue;
            }
            final ControllerGains gains = design(plant, i, period, positionRatio, integralRatio, base,
                resonance.inertiaKgM2());
            final LoopFigures.Margins expected = LoopFigures.margins(openLoop(plant, gains), MIN_COHERENCE);
            if (expected.gainMarginDb() >= minGainMarginDb)
            {
                return new Suggestion(gains, plant.hz(i), expected, resonance.inertiaKgM2(), targetMarginDeg,
                    limited);
            }
            limited = true;
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT, "no crossover up to %.1f Hz keeps " +
            "a gain margin of %.0f dB on the measured plant", plant.hz(at), minGainMarginDb));
    }

    private static ControllerGains design(final FrequencyResponse plant, final int i, final double period,
        final double positionRatio, final double integralRatio, final ControllerGains base, final double inertia)
    {
        final double wc = 2.0 * Math.PI * plant.hz(i);
        final double ki = wc / integralRatio;
        final double kp = wc / positionRatio;
        final double[] f = factors(plant.hz(i), period, kp, ki);
        final double kv = 1.0 / (plant.magnitude(i) * Math.hypot(f[0], f[1]));
        final ControllerGains g = base.withPeriodSeconds(period).withGains(kp, kv, ki);
        return Double.isFinite(inertia) ? g.withFeedForward(base.velocityFeedForward(), inertia) : g;
    }

    /** The controller's phase at f for ratios: the phase of (1 + Ki·T/(z − 1))·(1 + Kp·T/(1 − z^−1)), rad. */
    private static double controllerPhase(final double hz, final double period, final double positionRatio,
        final double integralRatio)
    {
        final double wc = 2.0 * Math.PI * hz;
        final double[] f = factors(hz, period, wc / positionRatio, wc / integralRatio);
        return Math.atan2(f[1], f[0]);
    }

    /** (1 + Ki·T/(z − 1))·(1 + Kp·T/(1 − z^−1)) at f, {re, im}. */
    private static double[] factors(final double hz, final double period, final double kp, final double ki)
    {
        final double w = 2.0 * Math.PI * hz * period;
        // 1/(z − 1) with z = e^(jw)
        final double zr = Math.cos(w) - 1.0;
        final double zi = Math.sin(w);
        final double d = zr * zr + zi * zi;
        final double ar = 1.0 + ki * period * zr / d;
        final double ai = -ki * period * zi / d;
        // 1/(1 − z^−1) = z/(z − 1)
        final double qr = (Math.cos(w) * zr + Math.sin(w) * zi) / d;
        final double qi = (Math.sin(w) * zr - Math.cos(w) * zi) / d;
        final double br = 1.0 + kp * period * qr;
        final double bi = kp * period * qi;
        return new double[] {ar * br - ai * bi, ar * bi + ai * br};
    }

    /**
     * The open loop a measured plant gives with some gains: L = Kv·(1 + Ki·T/(z − 1))·(1 + Kp·T/(1 − z^−1))·P.
     *
     * @param plant the measured torque → velocity response, with its sample rate.
     * @param gains the gains.
     * @return L on the plant's grid, with its coherence.
     */
    public static FrequencyResponse openLoop(final FrequencyResponse plant, final ControllerGains gains)
    {
        final double period = 1.0 / plant.rateHz();
        final int n = plant.size();
        final double[] hz = new double[n];
        final double[] re = new double[n];
        final double[] im = new double[n];
        final double[] coherence = new double[n];
        for (int i = 0; i < n; i++)
        {
            hz[i] = plant.hz(i);
            final double[] f = factors(hz[i], period, gains.positionGainPerS(), gains.velocityIntegralGainPerS());
            final double kv = gains.velocityGainNmSPerRad();
            re[i] = kv * (f[0] * plant.re(i) - f[1] * plant.im(i));
            im[i] = kv * (f[0] * plant.im(i) + f[1] * plant.re(i));
            coherence[i] = plant.coherence(i);
        }
        return FrequencyResponse.of(hz, re, im, coherence);
    }
}
