package io.rfmrt.control;

import java.util.ArrayList;
import java.util.List;

/**
 * The realistic axis ({@link RealisticAxisPlant}): the motor turns a load through a compliant coupling (a two-mass
 * system with one resonance), friction has a breakaway (stiction) peak above its Coulomb level, an unbalanced load
 * hangs on the axis, the drive reports encoder counts and a velocity estimated by differencing them, and both the
 * measurement and the torque carry noise. Its total inertia is 50 % above the nominal axis
 * ({@link AxisParameters#standard()}, which the standard tune assumes). Settings are named
 * {@code realistic.<component>} in messages.
 * <pre>
 *   Jm·dωm/dt = T − k·(θm − θl) − c·(ωm − ωl) − F(ωm)            motor side: drive torque, coupling, friction
 *   Jl·dωl/dt = k·(θm − θl) + c·(ωm − ωl) − Tg·cos(θl)            load side: coupling, gravity
 *   F(ω)      = b·ω + (Tc + (Ts − Tc)·exp(−(ω/vs)²))·ω/√(ω² + ωs²)
 *   counts    = floor(θm/q + n),  q = 2π/2^bits,  n ~ noise (counts rms);  ω̂ = Δcounts·q/Δt
 *   T         = clamp(Tcmd, ±Tpeak) + torque noise (rms), through the current loop's lag τ
 * </pre>
 *
 * @param motorInertiaKgM2         Jm, kg·m².
 * @param loadInertiaKgM2          Jl, kg·m².
 * @param couplingStiffnessNmPerRad k, N·m/rad.
 * @param couplingDampingNmSPerRad c, N·m·s/rad.
 * @param viscousFrictionNmSPerRad b, N·m·s/rad.
 * @param coulombFrictionNm        Tc, N·m.
 * @param breakawayTorqueNm        Ts, the friction at breakaway (stiction), N·m; at least Tc.
 * @param stribeckVelocityRadPerS  vs, how fast the friction falls from Ts to Tc, rad/s.
 * @param coulombVelocityRadPerS   ωs, the regularisation of the sign at standstill, rad/s.
 * @param gravityTorqueNm          Tg, the unbalanced load's torque with the arm level (θl = 0), N·m.
 * @param peakTorqueNm             the drive's clamp, N·m.
 * @param currentLagSeconds        τ, the current loop as a first-order lag, s (0: none).
 * @param brakeTorqueNm            the holding brake, N·m.
 * @param encoderBits              counts per revolution = 2^bits.
 * @param positionNoiseCounts      measurement noise, counts rms, before the quantisation.
 * @param torqueNoiseNm            torque noise, N·m rms, drawn once per period.
 * @param seed                     the noise generator's seed (the same seed, the same run).
 * @param subSteps                 RK4 sub-steps per period.
 */
public record RealisticAxisParameters(
    double motorInertiaKgM2,
    double loadInertiaKgM2,
    double couplingStiffnessNmPerRad,
    double couplingDampingNmSPerRad,
    double viscousFrictionNmSPerRad,
    double coulombFrictionNm,
    double breakawayTorqueNm,
    double stribeckVelocityRadPerS,
    double coulombVelocityRadPerS,
    double gravityTorqueNm,
    double peakTorqueNm,
    double currentLagSeconds,
    double brakeTorqueNm,
    int encoderBits,
    double positionNoiseCounts,
    double torqueNoiseNm,
    long seed,
    int subSteps)
{
    /** Default Jm: 1.2e-4 kg·m² (the motor and its side of the coupling). */
    public static final double MOTOR_INERTIA_DEFAULT_KG_M2 = 1.2e-4;
    /** Default Jl: 1.8e-4 kg·m²: Jm + Jl = 3e-4, 50 % above the nominal 2e-4. */
    public static final double LOAD_INERTIA_DEFAULT_KG_M2 = 1.8e-4;
    /** Default k: 180 N·m/rad: the resonance at 250 Hz, the anti-resonance at 159 Hz. */
    public static final double COUPLING_STIFFNESS_DEFAULT_NM_PER_RAD = 180.0;
    /** Default c: 0.02 N·m·s/rad (about 9 % damping at the resonance). */
    public static final double COUPLING_DAMPING_DEFAULT_NM_S_PER_RAD = 0.02;
    /** Default b: 1e-4 N·m·s/rad. */
    public static final double VISCOUS_FRICTION_DEFAULT_NM_S_PER_RAD = 1e-4;
    /** Default Tc: 8e-3 N·m. */
    public static final double COULOMB_FRICTION_DEFAULT_NM = 8e-3;
    /** Default Ts: 1.4e-2 N·m (breakaway 75 % above Coulomb). */
    public static final double BREAKAWAY_TORQUE_DEFAULT_NM = 1.4e-2;
    /** Default vs: 0.05 rad/s. */
    public static final double STRIBECK_VELOCITY_DEFAULT_RAD_PER_S = 0.05;
    /** Default ωs: 0.01 rad/s. */
    public static final double COULOMB_VELOCITY_DEFAULT_RAD_PER_S = 0.01;
    /** Default Tg: 0.03 N·m (6 % of peak torque). */
    public static final double GRAVITY_TORQUE_DEFAULT_NM = 0.03;
    /** Default current-loop lag: 0.1 ms. */
    public static final double CURRENT_LAG_DEFAULT_SECONDS = 1e-4;
    /** Default encoder: 17 bits (131 072 counts per revolution, 47.9 µrad a count). */
    public static final int ENCODER_BITS_DEFAULT = 17;
    /** Default measurement noise: 0.5 counts rms. */
    public static final double POSITION_NOISE_DEFAULT_COUNTS = 0.5;
    /** Default torque noise: 2e-3 N·m rms (0.4 % of peak torque). */
    public static final double TORQUE_NOISE_DEFAULT_NM = 2e-3;
    /** Default seed. */
    public static final long SEED_DEFAULT = 0x5eed_2026L;

    /** |λ·h| the RK4 sub-steps are held to. */
    private static final double RK4_STABLE_LAMBDA_H = 2.5;

    /**
     * @return the defaults (all {@code *_DEFAULT_*} constants; the ideal axis's peak torque, brake and sub-steps).
     */
    public static RealisticAxisParameters standard()
    {
        final AxisParameters nominal = AxisParameters.standard();
        return new RealisticAxisParameters(MOTOR_INERTIA_DEFAULT_KG_M2, LOAD_INERTIA_DEFAULT_KG_M2,
            COUPLING_STIFFNESS_DEFAULT_NM_PER_RAD, COUPLING_DAMPING_DEFAULT_NM_S_PER_RAD,
            VISCOUS_FRICTION_DEFAULT_NM_S_PER_RAD, COULOMB_FRICTION_DEFAULT_NM, BREAKAWAY_TORQUE_DEFAULT_NM,
            STRIBECK_VELOCITY_DEFAULT_RAD_PER_S, COULOMB_VELOCITY_DEFAULT_RAD_PER_S, GRAVITY_TORQUE_DEFAULT_NM,
            nominal.peakTorqueNm(), CURRENT_LAG_DEFAULT_SECONDS, nominal.brakeTorqueNm(), ENCODER_BITS_DEFAULT,
            POSITION_NOISE_DEFAULT_COUNTS, TORQUE_NOISE_DEFAULT_NM, SEED_DEFAULT, nominal.subSteps());
    }

    /**
     * @return Jm + Jl, kg·m².
     */
    public double totalInertiaKgM2()
    {
        return motorInertiaKgM2 + loadInertiaKgM2;
    }

    /**
     * @return the coupled resonance √(k·(1/Jm + 1/Jl)), rad/s.
     */
    public double resonanceRadPerS()
    {
        return Math.sqrt(couplingStiffnessNmPerRad * (1.0 / motorInertiaKgM2 + 1.0 / loadInertiaKgM2));
    }

    /**
     * @return the anti-resonance √(k/Jl) the motor side sees, rad/s.
     */
    public double antiResonanceRadPerS()
    {
        return Math.sqrt(couplingStiffnessNmPerRad / loadInertiaKgM2);
    }

    /**
     * @return one encoder count, rad.
     */
    public double countRad()
    {
        return 2.0 * Math.PI / (1L << encoderBits);
    }

    /**
     * @param periodSeconds a loop period, s.
     * @return with {@link #problems()}, a line when the sub-steps are too few for the stiffest term at that period.
     */
    public List<String> problemsFor(final double periodSeconds)
    {
        final List<String> problems = problems();
        if (problems.isEmpty() && periodSeconds > maxPeriodSeconds())
        {
            problems.add("realistic.subSteps " + subSteps + " is too few for a " + periodSeconds + " s period: the " +
                "coupling resonance or the friction needs a sub-step <= " + maxPeriodSeconds() / subSteps + " s");
        }
        return problems;
    }

    /**
     * @return every problem, one line each naming the setting and the value; empty when usable.
     */
    public List<String> problems()
    {
        final List<String> problems = new ArrayList<>();
        Checks.positive(problems, "realistic.motorInertiaKgM2", motorInertiaKgM2);
        Checks.positive(problems, "realistic.loadInertiaKgM2", loadInertiaKgM2);
        Checks.positive(problems, "realistic.couplingStiffnessNmPerRad", couplingStiffnessNmPerRad);
        Checks.notNegative(problems, "realistic.couplingDampingNmSPerRad", couplingDampingNmSPerRad);
        Checks.notNegative(problems, "realistic.viscousFrictionNmSPerRad", viscousFrictionNmSPerRad);
        Checks.notNegative(problems, "realistic.coulombFrictionNm", coulombFrictionNm);
        Checks.notNegative(problems, "realistic.breakawayTorqueNm", breakawayTorqueNm);
        if (breakawayTorqueNm < coulombFrictionNm)
        {
            problems.add("realistic.breakawayTorqueNm must be >= realistic.coulombFrictionNm " + coulombFrictionNm +
                ", was " + breakawayTorqueNm);
        }
        Checks.positive(problems, "realistic.stribeckVelocityRadPerS", stribeckVelocityRadPerS);
        Checks.positive(problems, "realistic.coulombVelocityRadPerS", coulombVelocityRadPerS);
        Checks.notNegative(problems, "realistic.gravityTorqueNm", gravityTorqueNm);
        Checks.positive(problems, "realistic.peakTorqueNm", peakTorqueNm);
        Checks.notNegative(problems, "realistic.currentLagSeconds", currentLagSeconds);
        Checks.notNegative(problems, "realistic.brakeTorqueNm", brakeTorqueNm);
        if (encoderBits < 8 || encoderBits > 32)
        {
            problems.add("realistic.encoderBits must be 8..32, was " + encoderBits);
        }
        Checks.notNegative(problems, "realistic.positionNoiseCounts", positionNoiseCounts);
        Checks.notNegative(problems, "realistic.torqueNoiseNm", torqueNoiseNm);
        if (subSteps < 1 || subSteps > AxisParameters.SUB_STEPS_MAX)
        {
            problems.add("realistic.subSteps must be 1.." + AxisParameters.SUB_STEPS_MAX + ", was " + subSteps);
        }
        return problems;
    }

    /**
     * @return the longest period whose RK4 sub-steps stay stable on the stiffest term: the coupling resonance, the
     *     friction's slope at standstill (on the motor's inertia) or the current lag, s.
     */
    public double maxPeriodSeconds()
    {
        final double friction = (viscousFrictionNmSPerRad + breakawayTorqueNm / coulombVelocityRadPerS) /
            motorInertiaKgM2;
        final double lag = currentLagSeconds > 0.0 ? 1.0 / currentLagSeconds : 0.0;
        final double damping = couplingDampingNmSPerRad * (1.0 / motorInertiaKgM2 + 1.0 / loadInertiaKgM2);
        final double stiffest = Math.max(Math.max(friction, lag), Math.max(resonanceRadPerS(), damping));
        return subSteps * RK4_STABLE_LAMBDA_H / stiffest;
    }

    /**
     * @return this.
     * @throws IllegalArgumentException naming every bad setting.
     */
    public RealisticAxisParameters validate()
    {
        final List<String> problems = problems();
        if (!problems.isEmpty())
        {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return this;
    }
}
