package io.rfmrt.control;

/**
 * The trajectory {@code rfmrt demo} follows: S-curve moves 0 → 1.0 → 0.25 → 0.75 → 0 rad with a 0.3 s dwell between
 * moves, a 0.5 s lead-in and a 0.5 s tail at rest; about 8.1 s, 3.0 rad of moves in all. Limits: 0.6 rad/s,
 * 3 rad/s², 30 rad/s³.
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

    private static final double[] TARGETS = {1.0, 0.25, 0.75, 0.0};

    private final TrajectoryGenerator trajectory;

    private DemoProfile(final TrajectoryGenerator trajectory)
    {
        this.trajectory = trajectory;
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
        return new DemoProfile(builder.dwell(TAIL_SECONDS).build());
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
     * @return the sum of |distance| of the moves, rad (3.0).
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
