package io.rfmrt.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Gains and limits of the cascaded position P / velocity PI controller ({@link AxisController}), for one loop
 * period. Settings are named {@code controller.<component>} in messages, as in a node's YAML file.
 * <pre>
 *   v_ref = Kvff·v_sp + Kp·(θ_sp − θ)                 clamped to ±velocityLimit
 *   T     = Kaff·a_sp + Kv·(v_ref − ω) + I             clamped to ±torqueLimit
 *   I    += Kv·Ki·Δt·(v_ref − ω)                       (+ anti-windup, see {@link AntiWindup})
 * </pre>
 * The defaults ({@link #standard()}) are tuned for the default axis ({@link AxisParameters#standard()}) at 1 kHz;
 * docs/control.md gives their step response.
 *
 * @param periodSeconds                 Δt, the loop period the gains are for, s.
 * @param positionGainPerS              Kp, velocity reference per rad of position error, 1/s.
 * @param velocityGainNmSPerRad         Kv, torque per rad/s of velocity error, N·m·s/rad.
 * @param velocityIntegralGainPerS      Ki, integral action rate of the velocity loop (the PI zero), 1/s.
 * @param velocityFeedForward           Kvff, fraction of the setpoint velocity fed forward, 1 = all.
 * @param accelerationFeedForwardKgM2   Kaff, torque per rad/s² of setpoint acceleration (the inertia estimate),
 *                                      kg·m².
 * @param velocityLimitRadPerS          clamp on the velocity reference, rad/s.
 * @param torqueLimitNm                 clamp on the torque command, N·m.
 * @param antiWindup                    how the integrator is kept from winding up in saturation.
 * @param backCalculationGainPerS       Kb, the back-calculation tracking rate, 1/s (used by
 *                                      {@link AntiWindup#BACK_CALCULATION} only); Kb·Δt must be in (0, 1].
 */
public record ControllerGains(
    double periodSeconds,
    double positionGainPerS,
    double velocityGainNmSPerRad,
    double velocityIntegralGainPerS,
    double velocityFeedForward,
    double accelerationFeedForwardKgM2,
    double velocityLimitRadPerS,
    double torqueLimitNm,
    AntiWindup antiWindup,
    double backCalculationGainPerS)
{
    /** Default period: 1 ms (1 kHz). */
    public static final double PERIOD_DEFAULT_SECONDS = 1e-3;
    /** Default Kp: 120 /s (position loop ≈ 19 Hz). */
    public static final double POSITION_GAIN_DEFAULT_PER_S = 120.0;
    /** Default Kv: 0.075 N·m·s/rad (velocity loop Kv/J ≈ 375 rad/s ≈ 60 Hz on the default axis). */
    public static final double VELOCITY_GAIN_DEFAULT_NM_S_PER_RAD = 0.075;
    /** Default Ki: 40 /s. */
    public static final double VELOCITY_INTEGRAL_GAIN_DEFAULT_PER_S = 40.0;
    /** Default velocity feed-forward: 1 (all of it). */
    public static final double VELOCITY_FEED_FORWARD_DEFAULT = 1.0;
    /** Default acceleration feed-forward: 2e-4 kg·m², the default axis' inertia. */
    public static final double ACCELERATION_FEED_FORWARD_DEFAULT_KG_M2 = 2e-4;
    /** Default velocity-reference clamp: 100 rad/s. */
    public static final double VELOCITY_LIMIT_DEFAULT_RAD_PER_S = 100.0;
    /** Default torque clamp: 0.5 N·m, the default axis' peak torque. */
    public static final double TORQUE_LIMIT_DEFAULT_NM = 0.5;
    /** Default anti-windup: clamping (settles fastest after a stall in docs/control.md's comparison). */
    public static final AntiWindup ANTI_WINDUP_DEFAULT = AntiWindup.CLAMPING;
    /** Default back-calculation rate, when that is chosen: 100 /s (Kb·Δt = 0.1 at 1 kHz). */
    public static final double BACK_CALCULATION_GAIN_DEFAULT_PER_S = 100.0;

    /**
     * How the velocity integrator is kept from winding up while the torque is saturated.
     */
    public enum AntiWindup
    {
        /** None: the integrator always integrates (for comparison only; it winds up). */
        NONE,
        /**
         * Clamping (conditional integration): while the command is saturated, the integrator stops when the
         * velocity error would drive it further into saturation; its value is also held within ±torqueLimit.
         */
        CLAMPING,
        /**
         * Back-calculation: the integrator also integrates Kb·(T_sat − T_unsat), which bleeds it back toward the
         * value that just reaches the limit with time constant 1/Kb.
         */
        BACK_CALCULATION
    }

    /**
     * @return the default tune (all {@code *_DEFAULT_*} constants): 1 kHz, for {@link AxisParameters#standard()}.
     */
    public static ControllerGains standard()
    {
        return new ControllerGains(PERIOD_DEFAULT_SECONDS, POSITION_GAIN_DEFAULT_PER_S,
            VELOCITY_GAIN_DEFAULT_NM_S_PER_RAD, VELOCITY_INTEGRAL_GAIN_DEFAULT_PER_S, VELOCITY_FEED_FORWARD_DEFAULT,
            ACCELERATION_FEED_FORWARD_DEFAULT_KG_M2, VELOCITY_LIMIT_DEFAULT_RAD_PER_S, TORQUE_LIMIT_DEFAULT_NM,
            ANTI_WINDUP_DEFAULT, BACK_CALCULATION_GAIN_DEFAULT_PER_S);
    }

    /**
     * @param mode the anti-windup.
     * @return a copy with it.
     */
    public ControllerGains withAntiWindup(final AntiWindup mode)
    {
        return new ControllerGains(periodSeconds, positionGainPerS, velocityGainNmSPerRad, velocityIntegralGainPerS,
            velocityFeedForward, accelerationFeedForwardKgM2, velocityLimitRadPerS, torqueLimitNm, mode,
            backCalculationGainPerS);
    }

    /**
     * @param mode            the anti-windup.
     * @param kbPerS          the back-calculation rate, 1/s.
     * @return a copy with them.
     */
    public ControllerGains withAntiWindup(final AntiWindup mode, final double kbPerS)
    {
        return new ControllerGains(periodSeconds, positionGainPerS, velocityGainNmSPerRad, velocityIntegralGainPerS,
            velocityFeedForward, accelerationFeedForwardKgM2, velocityLimitRadPerS, torqueLimitNm, mode, kbPerS);
    }

    /**
     * The same continuous-time gains at another loop rate (e.g. 4 kHz: 250e-6 s).
     *
     * @param seconds the loop period, s.
     * @return a copy with it.
     */
    public ControllerGains withPeriodSeconds(final double seconds)
    {
        return new ControllerGains(seconds, positionGainPerS, velocityGainNmSPerRad, velocityIntegralGainPerS,
            velocityFeedForward, accelerationFeedForwardKgM2, velocityLimitRadPerS, torqueLimitNm, antiWindup,
            backCalculationGainPerS);
    }

    /**
     * @param kvff velocity feed-forward fraction.
     * @param kaff acceleration feed-forward, kg·m².
     * @return a copy with them (0, 0 = pure feedback).
     */
    public ControllerGains withFeedForward(final double kvff, final double kaff)
    {
        return new ControllerGains(periodSeconds, positionGainPerS, velocityGainNmSPerRad, velocityIntegralGainPerS,
            kvff, kaff, velocityLimitRadPerS, torqueLimitNm, antiWindup, backCalculationGainPerS);
    }

    /**
     * @param limitRadPerS clamp on the velocity reference, rad/s.
     * @return a copy with it.
     */
    public ControllerGains withVelocityLimit(final double limitRadPerS)
    {
        return new ControllerGains(periodSeconds, positionGainPerS, velocityGainNmSPerRad, velocityIntegralGainPerS,
            velocityFeedForward, accelerationFeedForwardKgM2, limitRadPerS, torqueLimitNm, antiWindup,
            backCalculationGainPerS);
    }

    /**
     * @param limitNm clamp on the torque command, N·m.
     * @return a copy with it.
     */
    public ControllerGains withTorqueLimit(final double limitNm)
    {
        return new ControllerGains(periodSeconds, positionGainPerS, velocityGainNmSPerRad, velocityIntegralGainPerS,
            velocityFeedForward, accelerationFeedForwardKgM2, velocityLimitRadPerS, limitNm, antiWindup,
            backCalculationGainPerS);
    }

    /**
     * @param kp position gain, 1/s.
     * @param kv velocity gain, N·m·s/rad.
     * @param ki velocity integral gain, 1/s.
     * @return a copy with them.
     */
    public ControllerGains withGains(final double kp, final double kv, final double ki)
    {
        return new ControllerGains(periodSeconds, kp, kv, ki, velocityFeedForward, accelerationFeedForwardKgM2,
            velocityLimitRadPerS, torqueLimitNm, antiWindup, backCalculationGainPerS);
    }

    /**
     * @return every problem with these values, one line each naming the setting and the bad value; empty when
     *     they are usable.
     */
    public List<String> problems()
    {
        final List<String> problems = new ArrayList<>();
        Checks.positive(problems, "controller.periodSeconds", periodSeconds);
        Checks.notNegative(problems, "controller.positionGainPerS", positionGainPerS);
        Checks.notNegative(problems, "controller.velocityGainNmSPerRad", velocityGainNmSPerRad);
        Checks.notNegative(problems, "controller.velocityIntegralGainPerS", velocityIntegralGainPerS);
        finite(problems, "controller.velocityFeedForward", velocityFeedForward);
        finite(problems, "controller.accelerationFeedForwardKgM2", accelerationFeedForwardKgM2);
        Checks.positive(problems, "controller.velocityLimitRadPerS", velocityLimitRadPerS);
        Checks.positive(problems, "controller.torqueLimitNm", torqueLimitNm);
        if (antiWindup == null)
        {
            problems.add("controller.antiWindup must be one of NONE, CLAMPING, BACK_CALCULATION, was null");
        }
        else if (antiWindup == AntiWindup.BACK_CALCULATION)
        {
            final double kbDt = backCalculationGainPerS * periodSeconds;
            if (!(kbDt > 0.0 && kbDt <= 1.0))
            {
                problems.add("controller.backCalculationGainPerS times controller.periodSeconds must be in (0, 1], " +
                    "was " + backCalculationGainPerS + " * " + periodSeconds);
            }
        }
        return problems;
    }

    /**
     * @return this.
     * @throws IllegalArgumentException naming every bad setting and value.
     */
    public ControllerGains validate()
    {
        final List<String> problems = problems();
        if (!problems.isEmpty())
        {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return this;
    }

    /** The least phase margin {@link #loopProblems} accepts on the velocity loop, degrees. */
    public static final double MIN_PHASE_MARGIN_DEGREES = 30.0;

    /**
     * The velocity loop's phase margin on the nominal model: the axis as an inertia J (friction neglected), the PI
     * at crossover ωc = Kv/J, the zero-order hold (half a period) and {@code delayPeriods} periods of transport delay
     * (one for a drive that applies the command of sample k at k + 1).
     *
     * @param inertiaKgM2  J.
     * @param delayPeriods transport delay, periods.
     * @return 90° − atan(Ki/ωc) − ωc·(½ + delay)·Δt, in degrees (negative when the loop is unstable).
     */
    public double velocityPhaseMarginDegrees(final double inertiaKgM2, final double delayPeriods)
    {
        final double crossover = velocityGainNmSPerRad / inertiaKgM2;
        final double lag = Math.atan(velocityIntegralGainPerS / crossover) + crossover * (0.5 + delayPeriods) * periodSeconds;
        return 90.0 - Math.toDegrees(lag);
    }

    /**
     * The rate and the gains checked together against the nominal axis (call with the period already set): the
     * discrete velocity loop with one period of delay, z² − z + Kv·Δt/J, is stable only for Kv·Δt/J &lt; 1, and its
     * phase margin ({@link #velocityPhaseMarginDegrees}) must be at least {@link #MIN_PHASE_MARGIN_DEGREES}.
     *
     * @param inertiaKgM2 the axis's J.
     * @return one line naming the constraint, the value and the least rate that meets it; empty when usable.
     */
    public List<String> loopProblems(final double inertiaKgM2)
    {
        return loopProblems(inertiaKgM2, 1.0);
    }

    /**
     * {@link #loopProblems(double)} with another delay: the phase margin with {@code delayPeriods} periods of delay
     * besides the zero-order hold must be at least {@link #MIN_PHASE_MARGIN_DEGREES}, and Kv·Δt/J &lt; 1.
     *
     * @param inertiaKgM2  the axis's J.
     * @param delayPeriods the delay in the velocity loop besides the hold, periods (transport, a differenced
     *                     velocity's half period, a current loop's lag).
     * @return one line naming the constraint, the value and the least rate that meets it; empty when usable.
     */
    public List<String> loopProblems(final double inertiaKgM2, final double delayPeriods)
    {
        final List<String> problems = new ArrayList<>();
        final double crossover = velocityGainNmSPerRad / inertiaKgM2;
        if (!(crossover > 0.0) || !Double.isFinite(crossover))
        {
            return problems;
        }
        final double margin = velocityPhaseMarginDegrees(inertiaKgM2, delayPeriods);
        final double k = crossover * periodSeconds;
        if (k >= 1.0 || margin < MIN_PHASE_MARGIN_DEGREES)
        {
            // least rate for the margin: ωc·(½ + delay)·Δt <= 90° − atan(Ki/ωc) − margin
            final double budget = Math.toRadians(90.0 - MIN_PHASE_MARGIN_DEGREES) -
                Math.atan(velocityIntegralGainPerS / crossover);
            final long leastHz = budget > 0.0 ? (long)Math.ceil(crossover * (0.5 + delayPeriods) / budget) :
                Long.MAX_VALUE;
            problems.add(String.format(Locale.ROOT, "rate %.0f Hz is too slow for the velocity loop " +
                "(Kv/J = %.0f rad/s): phase margin %.1f deg with %s of delay, at least %.0f needed%s; " +
                "use at least %d Hz or lower controller.velocityGainNmSPerRad", 1.0 / periodSeconds, crossover,
                margin, delayPeriods == 1.0 ? "one period" : String.format(Locale.ROOT, "%.2f periods",
                    delayPeriods), MIN_PHASE_MARGIN_DEGREES, k >= 1.0 ? String.format(Locale.ROOT,
                    " (Kv*dt/J = %.2f >= 1: unstable)", k) : "", leastHz));
        }
        return problems;
    }

    private static void finite(final List<String> problems, final String name, final double value)
    {
        if (!Double.isFinite(value))
        {
            problems.add(name + " must be a finite number, was " + value);
        }
    }
}
