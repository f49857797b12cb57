package io.rfmrt.control;

import java.util.ArrayList;
import java.util.List;

/**
 * The physical parameters of a simulated axis: a DC servo motor on a current-controlled drive turning a rigid load.
 * Settings are named {@code axis.<component>} in messages, as in a node's YAML file.
 * <pre>
 *   J·dω/dt = T − b·ω − Tc·ω/√(ω² + ωs²)        dθ/dt = ω
 *   T       = Kt·i,  i = the drive's current      (ideal current loop: T = the clamped torque command)
 *   τ·dT/dt = Tcmd − T                             (only when currentLagSeconds &gt; 0)
 * </pre>
 * The position is an angle in rad (a rotary, multi-turn axis; a linear axis would use m and kg in the same
 * equations). The drive clamps the command to ±{@code peakTorqueNm} (its peak current times Kt). Coulomb friction
 * is regularised below {@code coulombVelocityRadPerS} (ωs) so that it is continuous and does not chatter at
 * standstill; the price is a creep of ωs·(T/Tc)/√(1 − (T/Tc)²) under a holding torque T below Tc, and a stiff
 * term Tc/(J·ωs) that bounds the integration sub-step (see {@link #maxPeriodSeconds()}).
 *
 * @param torqueConstantNmPerA     Kt, N·m/A (used to report the current; the command is a torque).
 * @param inertiaKgM2              J, motor plus load, kg·m².
 * @param viscousFrictionNmSPerRad b, N·m·s/rad.
 * @param coulombFrictionNm        Tc, N·m.
 * @param coulombVelocityRadPerS   ωs, the velocity below which Coulomb friction fades linearly to 0, rad/s.
 * @param peakTorqueNm             the drive's torque limit, N·m.
 * @param currentLagSeconds        τ, the closed current loop as a first-order lag, s; 0 = instantaneous.
 * @param brakeTorqueNm            holding-brake torque used by {@link AxisPlant#brake(double)}, N·m.
 * @param subSteps                 integration sub-steps per {@link AxisPlant#step(double, double)} call.
 */
public record AxisParameters(
    double torqueConstantNmPerA,
    double inertiaKgM2,
    double viscousFrictionNmSPerRad,
    double coulombFrictionNm,
    double coulombVelocityRadPerS,
    double peakTorqueNm,
    double currentLagSeconds,
    double brakeTorqueNm,
    int subSteps)
{
    /** Default Kt: 0.05 N·m/A (a small 100-200 W servo motor). */
    public static final double TORQUE_CONSTANT_DEFAULT_NM_PER_A = 0.05;
    /** Default J: 2e-4 kg·m² (rotor plus a small load). */
    public static final double INERTIA_DEFAULT_KG_M2 = 2e-4;
    /** Default b: 1e-4 N·m·s/rad. */
    public static final double VISCOUS_FRICTION_DEFAULT_NM_S_PER_RAD = 1e-4;
    /** Default Tc: 5e-3 N·m. */
    public static final double COULOMB_FRICTION_DEFAULT_NM = 5e-3;
    /** Default ωs: 0.01 rad/s. */
    public static final double COULOMB_VELOCITY_DEFAULT_RAD_PER_S = 0.01;
    /** Default peak torque: 0.5 N·m (10 A at the default Kt). */
    public static final double PEAK_TORQUE_DEFAULT_NM = 0.5;
    /** Default current-loop lag: 0 s (instantaneous). */
    public static final double CURRENT_LAG_DEFAULT_SECONDS = 0.0;
    /** Default holding-brake torque: 0.5 N·m. */
    public static final double BRAKE_TORQUE_DEFAULT_NM = 0.5;
    /** Default sub-steps per loop period: 10. */
    public static final int SUB_STEPS_DEFAULT = 10;
    /** Most sub-steps per call that validate() accepts. */
    public static final int SUB_STEPS_MAX = 1000;

    /** |λ·h| that RK4 is held to (its real-axis stability limit is 2.785). */
    private static final double RK4_STABLE_LAMBDA_H = 2.5;

    /**
     * @return the default small servo axis (all {@code *_DEFAULT_*} constants).
     */
    public static AxisParameters standard()
    {
        return new AxisParameters(TORQUE_CONSTANT_DEFAULT_NM_PER_A, INERTIA_DEFAULT_KG_M2,
            VISCOUS_FRICTION_DEFAULT_NM_S_PER_RAD, COULOMB_FRICTION_DEFAULT_NM, COULOMB_VELOCITY_DEFAULT_RAD_PER_S,
            PEAK_TORQUE_DEFAULT_NM, CURRENT_LAG_DEFAULT_SECONDS, BRAKE_TORQUE_DEFAULT_NM, SUB_STEPS_DEFAULT);
    }

    /**
     * @param seconds the current-loop lag, s.
     * @return a copy with that lag.
     */
    public AxisParameters withCurrentLagSeconds(final double seconds)
    {
        return new AxisParameters(torqueConstantNmPerA, inertiaKgM2, viscousFrictionNmSPerRad, coulombFrictionNm,
            coulombVelocityRadPerS, peakTorqueNm, seconds, brakeTorqueNm, subSteps);
    }

    /**
     * @param steps sub-steps per call.
     * @return a copy with that sub-step count.
     */
    public AxisParameters withSubSteps(final int steps)
    {
        return new AxisParameters(torqueConstantNmPerA, inertiaKgM2, viscousFrictionNmSPerRad, coulombFrictionNm,
            coulombVelocityRadPerS, peakTorqueNm, currentLagSeconds, brakeTorqueNm, steps);
    }

    /**
     * @return every problem with these values, one line each naming the setting and the bad value; empty when
     *     they are usable.
     */
    public List<String> problems()
    {
        final List<String> problems = new ArrayList<>();
        Checks.positive(problems, "axis.torqueConstantNmPerA", torqueConstantNmPerA);
        Checks.positive(problems, "axis.inertiaKgM2", inertiaKgM2);
        Checks.notNegative(problems, "axis.viscousFrictionNmSPerRad", viscousFrictionNmSPerRad);
        Checks.notNegative(problems, "axis.coulombFrictionNm", coulombFrictionNm);
        Checks.positive(problems, "axis.coulombVelocityRadPerS", coulombVelocityRadPerS);
        Checks.positive(problems, "axis.peakTorqueNm", peakTorqueNm);
        Checks.notNegative(problems, "axis.currentLagSeconds", currentLagSeconds);
        Checks.notNegative(problems, "axis.brakeTorqueNm", brakeTorqueNm);
        if (subSteps < 1 || subSteps > SUB_STEPS_MAX)
        {
            problems.add("axis.subSteps must be 1.." + SUB_STEPS_MAX + ", was " + subSteps);
        }
        return problems;
    }

    /**
     * @param periodSeconds the loop period the plant will be stepped at, s.
     * @return {@link #problems()} plus a problem when the sub-step would make the integration unstable.
     */
    public List<String> problemsFor(final double periodSeconds)
    {
        final List<String> problems = problems();
        if (!(periodSeconds > 0.0) || !Double.isFinite(periodSeconds))
        {
            problems.add("loop period must be > 0 s, was " + periodSeconds);
        }
        else if (problems.isEmpty() && periodSeconds > maxPeriodSeconds())
        {
            problems.add("axis.subSteps " + subSteps + " is too few for a " + periodSeconds + " s period: the " +
                "friction (Tc/(J*ws)) or current lag needs a sub-step <= " + maxPeriodSeconds() / subSteps +
                " s; raise axis.subSteps or axis.coulombVelocityRadPerS");
        }
        return problems;
    }

    /**
     * @return this.
     * @throws IllegalArgumentException naming every bad setting and value.
     */
    public AxisParameters validate()
    {
        return fail(problems());
    }

    /**
     * @param periodSeconds the loop period, s.
     * @return this.
     * @throws IllegalArgumentException naming every bad setting and value, including too few sub-steps.
     */
    public AxisParameters validateFor(final double periodSeconds)
    {
        return fail(problemsFor(periodSeconds));
    }

    /**
     * @return the longest {@link AxisPlant#step(double, double)} period for which the RK4 sub-steps stay stable on
     *     the stiffest term (the regularised Coulomb friction or the current lag), s.
     */
    public double maxPeriodSeconds()
    {
        final double friction = (viscousFrictionNmSPerRad + coulombFrictionNm / coulombVelocityRadPerS) / inertiaKgM2;
        final double lag = currentLagSeconds > 0.0 ? 1.0 / currentLagSeconds : 0.0;
        return subSteps * RK4_STABLE_LAMBDA_H / Math.max(friction, lag);
    }

    private AxisParameters fail(final List<String> problems)
    {
        if (!problems.isEmpty())
        {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return this;
    }
}
