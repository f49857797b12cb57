package io.rfmrt.control;

/**
 * The trajectories {@code rfmrt demo} follows. {@link #standard()}: S-curve moves 0 → 1.0 → 0.25 → 0.75 → 0 rad with a
 * 0.3 s dwell between moves, a 0.5 s lead-in and a 0.5 s tail at rest; about 8.1 s, 3.0 rad of moves in all. Limits:
 * 0.6 rad/s, 3 rad/s², 30 rad/s³ (about 1 % of the axis's peak torque). {@link #fast()}: the moves
 * 0 → 2.0 → 0.5 → 1.5 → 0 rad three times over at 10 rad/s, 1000 rad/s², 200 000 rad/s³ with 0.25 s dwells (the
 * acceleration alone takes 40 % of peak torque on the nominal axis, 60 % on the realistic one). {@link #cruise()}: the
 * axis speeds up to 2 rad/s after the lead-in and holds that speed for 10 minutes, for measurements in the running
 * loop (an excitation at rest meets the stiction; in motion, friction stays on its sliding branch).
 * <p>
 * Immutable; {@link #setpoint(double, Setpoint)} allocates nothing and is safe from any thread.
 */
public final class DemoProfile
{
    /** Velocity limit of the demo moves, rad/s. */
    public static final double V_MAX_RAD_PER_S = 0.6;
    /** Acceleration limit of the demo moves, rad/s². */
    public static final double A_MAX_RAD_PER_S2 = 3.0;
    /** Jerk limit of the demo moves, rad/s³. */
    public static final double J_MAX_RAD_PER_S3 = 30.0;
    /** Rest before the first move, s. */
    public static final double LEAD_IN_SECONDS = 0.5;
    /** Rest between moves, s. */
    public static final double DWELL_SECONDS = 0.3;
    /** Rest after the last move, s. */
    public static final double TAIL_SECONDS = 0.5;

    /** Velocity limit of the fast profile, rad/s. */
    public static final double FAST_V_MAX_RAD_PER_S = 10.0;
    /** Acceleration limit of the fast profile, rad/s². */
    public static final double FAST_A_MAX_RAD_PER_S2 = 1000.0;
    /** Jerk limit of the fast profile, rad/s³. */
    public static final double FAST_J_MAX_RAD_PER_S3 = 200_000.0;
    /** Rest between the fast profile's moves, s. */
    public static final double FAST_DWELL_SECONDS = 0.25;
    /** How often the fast profile plays its moves. */
    public static final int FAST_ROUNDS = 3;
    /** The name of {@link #standard()}. */
    public static final String STANDARD = "standard";
    /** The name of {@link #fast()}. */
    public static final String FAST = "fast";
    /** The name of {@link #cruise()}. */
    public static final String CRUISE = "cruise";
    /** The names, for messages. */
    public static final String NAMES = STANDARD + ", " + FAST + " or " + CRUISE;
    /** The cruise profile's speed, rad/s. */
    public static final double CRUISE_V_RAD_PER_S = 2.0;
    /** The cruise profile's acceleration and jerk limits, rad/s², rad/s³ (about 5 % of peak torque). */
    public static final double CRUISE_A_MAX_RAD_PER_S2 = 20.0;
    private static final double CRUISE_J_MAX_RAD_PER_S3 = 400.0;
    /** How long the cruise profile holds its speed, s. */
    public static final double CRUISE_SECONDS = 600.0;

    private static final double[] TARGETS = {1.0, 0.25, 0.75, 0.0};
    private static final double[] FAST_TARGETS = {2.0, 0.5, 1.5, 0.0};

    private final String name;
    private final TrajectoryGenerator trajectory;
    private final double vMax;
    private final double aMax;
    private final double jMax;

    private DemoProfile(final String name, final TrajectoryGenerator trajectory, final double vMax,
        final double aMax, final double jMax)
    {
        this.name = name;
        this.trajectory = trajectory;
        this.vMax = vMax;
        this.aMax = aMax;
        this.jMax = jMax;
    }

    /**
     * @param name {@value #STANDARD}, {@value #FAST} or {@value #CRUISE}.
     * @return that profile.
     * @throws IllegalArgumentException for another name.
     */
    public static DemoProfile named(final String name)
    {
        if (STANDARD.equals(name))
        {
            return standard();
        }
        if (FAST.equals(name))
        {
            return fast();
        }
        if (CRUISE.equals(name))
        {
            return cruise();
        }
        throw new IllegalArgumentException("profile '" + name + "' is not " + NAMES);
    }

    /**
     * @param name a profile's name, or null.
     * @return whether {@link #named(String)} knows it.
     */
    public static boolean isKnown(final String name)
    {
        return STANDARD.equals(name) || FAST.equals(name) || CRUISE.equals(name);
    }

    /**
     * @return the cruise profile: a steady {@value #CRUISE_V_RAD_PER_S} rad/s for {@value #CRUISE_SECONDS} s.
     */
    public static DemoProfile cruise()
    {
        final TrajectoryGenerator trajectory = TrajectoryGenerator.builder(0.0).dwell(LEAD_IN_SECONDS)
            .sCurveTo(CRUISE_V_RAD_PER_S * CRUISE_SECONDS, CRUISE_V_RAD_PER_S, CRUISE_A_MAX_RAD_PER_S2,
                CRUISE_J_MAX_RAD_PER_S3)
            .dwell(TAIL_SECONDS).build();
        return new DemoProfile(CRUISE, trajectory, CRUISE_V_RAD_PER_S, CRUISE_A_MAX_RAD_PER_S2,
            CRUISE_J_MAX_RAD_PER_S3);
    }

    /**
     * @return the fast profile: a large share of the axis's torque on every move.
     */
    public static DemoProfile fast()
    {
        final TrajectoryGenerator.Builder builder = TrajectoryGenerator.builder(0.0).dwell(LEAD_IN_SECONDS);
        for (int round = 0; round < FAST_ROUNDS; round++)
        {
            for (int i = 0; i < FAST_TARGETS.length; i++)
            {
                if (round > 0 || i > 0)
                {
                    builder.dwell(FAST_DWELL_SECONDS);
                }
                builder.sCurveTo(FAST_TARGETS[i], FAST_V_MAX_RAD_PER_S, FAST_A_MAX_RAD_PER_S2,
                    FAST_J_MAX_RAD_PER_S3);
            }
        }
        return new DemoProfile(FAST, builder.dwell(TAIL_SECONDS).build(), FAST_V_MAX_RAD_PER_S,
            FAST_A_MAX_RAD_PER_S2, FAST_J_MAX_RAD_PER_S3);
    }

    /**
     * @return the standard demo profile.
     */
    public static DemoProfile standard()
    {
        final TrajectoryGenerator.Builder builder = TrajectoryGenerator.builder(0.0).dwell(LEAD_IN_SECONDS);
        for (int i = 0; i < TARGETS.length; i++)
        {
            if (i > 0)
            {
                builder.dwell(DWELL_SECONDS);
            }
            builder.sCurveTo(TARGETS[i], V_MAX_RAD_PER_S, A_MAX_RAD_PER_S2, J_MAX_RAD_PER_S3);
        }
        return new DemoProfile(STANDARD, builder.dwell(TAIL_SECONDS).build(), V_MAX_RAD_PER_S, A_MAX_RAD_PER_S2,
            J_MAX_RAD_PER_S3);
    }

    /**
     * @return the profile's name ({@value #STANDARD}, {@value #FAST}).
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the moves' velocity limit, rad/s.
     */
    public double vMaxRadPerS()
    {
        return vMax;
    }

    /**
     * @return the moves' acceleration limit, rad/s².
     */
    public double aMaxRadPerS2()
    {
        return aMax;
    }

    /**
     * @return the moves' jerk limit, rad/s³.
     */
    public double jMaxRadPerS3()
    {
        return jMax;
    }

    /**
     * The setpoint at a time since the demo started; after the end, the axis rests at 0.
     *
     * @param tSeconds seconds since the start.
     * @param out      receives the setpoint.
     */
    public void setpoint(final double tSeconds, final Setpoint out)
    {
        trajectory.sample(tSeconds, out);
    }

    /**
     * The setpoint of the profile played again and again (it ends where it starts, at rest), for runs longer than
     * {@link #durationSeconds()}.
     *
     * @param tSeconds seconds since the start.
     * @param out      receives the setpoint.
     */
    public void setpointRepeating(final double tSeconds, final Setpoint out)
    {
        trajectory.sampleRepeating(tSeconds, out);
    }

    /**
     * @return the profile's length, s.
     */
    public double durationSeconds()
    {
        return trajectory.durationSeconds();
    }

    /**
     * @return the sum of |distance| of the moves, rad (3.0 for the standard profile).
     */
    public double moveDistance()
    {
        return trajectory.moveDistance();
    }

    /**
     * @param tSeconds seconds of the profile played (the trajectory clock of a run).
     * @return how far the setpoint travelled by then, rad: {@link #moveDistance()} once the profile has ended.
     */
    public double distanceCovered(final double tSeconds)
    {
        return trajectory.distanceCovered(tSeconds);
    }

    /**
     * @return the underlying trajectory.
     */
    public TrajectoryGenerator trajectory()
    {
        return trajectory;
    }
}
