package io.rfmrt.control.node;

import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.TrajectoryRejoin;

/**
 * The controller's trajectory on the sensor's clock: it advances only while the axis is driven, on the sensor's cycle
 * number (a gap in the frames is time passed). At the start it begins from the first frame after the watchdog's
 * RUNNING cycle that reported the drive ready; after a recovery it is rejoined bumplessly ({@link TrajectoryRejoin}:
 * an S-curve from the measured position at rest to the end of the segment it stopped in, then the profile from there).
 * While the axis is not driven the setpoint stays where the trajectory stopped.
 * <p>
 * Threading: the controller's handler thread only.
 */
final class TrajectoryClock
{
    private final DemoProfile profile;
    private final TrajectoryRejoin rejoin;
    private final double dt;
    private long trajectoryCycle;
    /** Sensor cycle minus trajectory cycle while driven. */
    private long origin;
    private boolean rejoining;
    private long rejoinStart;

    /**
     * @param profile       the trajectory.
     * @param periodSeconds the loop period, s.
     */
    TrajectoryClock(final DemoProfile profile, final double periodSeconds)
    {
        this.profile = profile;
        this.rejoin = TrajectoryRejoin.of(profile);
        this.dt = periodSeconds;
    }

    /**
     * The trajectory (re)starts where it stands, its clock from the first frame after the watchdog's RUNNING cycle
     * that reported the drive ready.
     *
     * @param runningFromCycle the sensor cycle on which the watchdog went RUNNING.
     * @param readySince       the first cycle of the current run of frames reporting the drive ready.
     */
    void start(final long runningFromCycle, final long readySince)
    {
        origin = Math.max(runningFromCycle + 1, readySince) - trajectoryCycle - 1;
    }

    /**
     * Rejoin after a recovery, from the measured position at rest.
     *
     * @param cycle    the sensor cycle the axis is driven again on.
     * @param position the measured position, rad.
     */
    void rejoin(final long cycle, final double position)
    {
        rejoin.plan(trajectoryCycle * dt, position);
        rejoinStart = cycle;
        rejoining = true;
    }

    /**
     * The setpoint of a driven cycle.
     *
     * @param cycle the sensor cycle.
     * @param out   receives the setpoint.
     */
    void drive(final long cycle, final Setpoint out)
    {
        if (rejoining && !rejoin.sample((cycle - rejoinStart) * dt, out))
        {
            // the rejoin move is done: the trajectory resumes at the end of the segment it was stopped in
            rejoining = false;
            trajectoryCycle = Math.round(rejoin.resumeAtSeconds() / dt);
            origin = cycle - trajectoryCycle;
        }
        if (!rejoining)
        {
            trajectoryCycle = cycle - origin;
            profile.setpoint(trajectoryCycle * dt, out);
        }
    }

    /**
     * The setpoint of a cycle the axis is not driven: where the trajectory stopped.
     *
     * @param out receives the setpoint.
     */
    void stopped(final Setpoint out)
    {
        profile.setpoint(trajectoryCycle * dt, out);
    }

    /**
     * @return the trajectory's own cycle (its time over the period).
     */
    long cycle()
    {
        return trajectoryCycle;
    }

    /**
     * @return whether a rejoin move is under way.
     */
    boolean rejoining()
    {
        return rejoining;
    }

    /**
     * @return the distance the moves commanded so far cover, rad.
     */
    double distanceCovered()
    {
        return profile.distanceCovered(trajectoryCycle * dt);
    }
}
