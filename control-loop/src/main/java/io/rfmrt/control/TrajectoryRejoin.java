package io.rfmrt.control;

/**
 * Bumpless re-entry into a trajectory after the axis was held: instead of resuming the trajectory where its clock
 * stopped (which may be mid-move, at speed, while the axis stands braked), a fresh S-curve is planned from the
 * measured position, at rest, to where the interrupted segment ends; when it is done the trajectory resumes at that
 * segment's end. Stopped in a dwell, the rejoin brings the axis back to the dwell's position and the trajectory
 * resumes where it stopped. The rejoin starts at rest, which is exact here: SAFE and RECOVERING keep the holding brake
 * on, and a braked axis stands still.
 * <p>
 * Allocation free once built; one thread owns an instance.
 */
public final class TrajectoryRejoin
{
    private final TrajectoryGenerator trajectory;
    private final double vMax;
    private final double aMax;
    private final double jMax;
    private final MoveProfile move = new MoveProfile();
    private double resumeAtSeconds;
    private long rejoins;

    /**
     * @param trajectory the trajectory to rejoin.
     * @param vMax       velocity limit of the rejoin move, rad/s.
     * @param aMax       acceleration limit, rad/s².
     * @param jMax       jerk limit, rad/s³.
     */
    public TrajectoryRejoin(final TrajectoryGenerator trajectory, final double vMax, final double aMax,
        final double jMax)
    {
        this.trajectory = trajectory;
        this.vMax = vMax;
        this.aMax = aMax;
        this.jMax = jMax;
    }

    /**
     * @param profile the demo profile.
     * @return a rejoin of it with the profile's own limits.
     */
    public static TrajectoryRejoin of(final DemoProfile profile)
    {
        return new TrajectoryRejoin(profile.trajectory(), profile.vMaxRadPerS(), profile.aMaxRadPerS2(),
            profile.jMaxRadPerS3());
    }

    /**
     * Plan the rejoin.
     *
     * @param stoppedAtSeconds where the trajectory's clock stopped, s.
     * @param positionRad      the measured position, rad (the axis at rest).
     * @return when the trajectory resumes after the rejoin move, s of its own clock.
     */
    public double plan(final double stoppedAtSeconds, final double positionRad)
    {
        final int segment = trajectory.segmentAt(stoppedAtSeconds);
        final boolean dwell = trajectory.segmentKind(segment) == MoveProfile.Kind.DWELL;
        final double target = trajectory.segmentEndPosition(segment);
        resumeAtSeconds = dwell ? stoppedAtSeconds : trajectory.segmentEndSeconds(segment);
        // a position that is not a number (a damaged frame) cannot be planned from: no move, straight back on
        move.planSCurve(Double.isFinite(positionRad) ? positionRad : target, target, vMax, aMax, jMax);
        rejoins++;
        return resumeAtSeconds;
    }

    /**
     * The rejoin move's set-point.
     *
     * @param sinceSeconds seconds since the rejoin began.
     * @param out          receives it.
     * @return whether the move still runs (false once it is done: follow the trajectory from
     *         {@link #resumeAtSeconds()}).
     */
    public boolean sample(final double sinceSeconds, final Setpoint out)
    {
        move.sample(sinceSeconds, out);
        return sinceSeconds < move.durationSeconds();
    }

    /**
     * @return when the trajectory resumes, s of its clock.
     */
    public double resumeAtSeconds()
    {
        return resumeAtSeconds;
    }

    /**
     * @return the last rejoin move.
     */
    public MoveProfile move()
    {
        return move;
    }

    /**
     * @return rejoins planned.
     */
    public long rejoins()
    {
        return rejoins;
    }
}
