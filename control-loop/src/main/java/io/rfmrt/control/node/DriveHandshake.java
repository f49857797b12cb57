package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;

import java.util.function.LongConsumer;

import static io.rfmrt.control.node.ControlFrames.CW_FAULT_RESET;
import static io.rfmrt.control.node.ControlFrames.CW_OPERATE;
import static io.rfmrt.control.node.ControlFrames.CW_QUICK_STOP_COMMAND;
import static io.rfmrt.control.node.ControlFrames.CW_SHUTDOWN;
import static io.rfmrt.control.node.ControlFrames.SW_BRAKE_ENGAGED;
import static io.rfmrt.control.node.ControlFrames.SW_FAULT;
import static io.rfmrt.control.node.ControlFrames.SW_OPERATION_ENABLED;

/**
 * The controller's side of the CiA 402 handshake with the drive, per sensor frame: which state the cycle acts in, when
 * the law may drive, and the control word it sends.
 * <pre>
 *   watchdog RUNNING ──► HOLDING ──(status: operation enabled, brake released)──► DRIVING
 *   (entered)            hold the axis where        the law activates once; the trajectory
 *                        it stood, no history       starts (from STARTING) or rejoins (after a recovery)
 *
 *   HOLDING longer than the brake-release timeout, or DRIVING with the drive no longer "operation enabled":
 *   a drive trip, asked of the watchdog (again every 2 x grace cycles while it is pending); the cycle acts as SAFE.
 * </pre>
 * Control words: RUNNING operates (enable + brake release), FAULT quick-stops, a drive reporting a fault in STARTING or
 * RECOVERING gets the fault-reset bit every other cycle (a rising edge), everything else is a shutdown (brake on).
 * The trajectory's start is taken from the frames (since when they report the drive ready), not from when this thread
 * saw RUNNING, so a replay of the same frames gives the same commands.
 * <p>
 * Threading: the controller's handler thread only.
 */
final class DriveHandshake
{
    /** Cycles after entering RUNNING before the drive must report "operation enabled" (its answer takes a period). */
    static final int DRIVE_ENABLE_GRACE_CYCLES = 5;
    private static final int READY_MASK = SW_OPERATION_ENABLED | SW_BRAKE_ENGAGED | SW_FAULT;
    private static final int RUNNING = AxisState.RUNNING.id();
    private static final int STARTING = AxisState.STARTING.id();
    private static final int SAFE = AxisState.SAFE.id();
    private static final int FAULT = AxisState.FAULT.id();
    private static final int RECOVERING = AxisState.RECOVERING.id();

    private final long brakeWaitCycles;
    private final LongConsumer driveTrip;
    private int previousState = STARTING;
    private boolean tripPending;
    private long tripSince;
    private long runningSince;
    private boolean awaiting;
    private boolean readyNow;
    private boolean startingTrajectory;
    private double holdPosition;
    private long readySince;
    private int lastWord;
    private long resets;

    /**
     * @param brakeWaitCycles cycles after entering RUNNING the drive may take to report it operates with its brake
     *                        released.
     * @param driveTrip       asks the watchdog for a drive trip, given the cycle (not on this thread's time).
     */
    DriveHandshake(final long brakeWaitCycles, final LongConsumer driveTrip)
    {
        this.brakeWaitCycles = brakeWaitCycles;
        this.driveTrip = driveTrip;
    }

    /**
     * @param status a drive status word.
     * @return whether it reports operation enabled, the brake released and no fault.
     */
    static boolean ready(final int status)
    {
        return (status & READY_MASK) == SW_OPERATION_ENABLED;
    }

    /**
     * Follow since when the frames report the drive ready; every frame, a skipped one too.
     *
     * @param cycle  the sensor cycle.
     * @param status its status word.
     */
    void observe(final long cycle, final int status)
    {
        readySince = !ready(status) ? 0 : readySince == 0 ? cycle : readySince;
    }

    /**
     * One cycle of the handshake.
     *
     * @param cycle    the sensor cycle.
     * @param state    the axis state the watchdog published (FAULT when this thread latched a fault).
     * @param status   the drive's status word in the frame.
     * @param position the measured position, rad (held while the drive is not yet ready).
     * @return the state this cycle acts in ({@link AxisState#id()}).
     */
    int step(final long cycle, final int state, final int status, final double position)
    {
        int st = state;
        readyNow = false;
        if (st != RUNNING)
        {
            tripPending = false;
        }
        else if (tripPending)
        {
            // told the watchdog the drive is not operating; until its timer has moved the axis, drive nothing (and
            // tell it again should it not have been RUNNING any more when it was told, and be so again now)
            st = SAFE;
            if (cycle - tripSince > 2 * DRIVE_ENABLE_GRACE_CYCLES)
            {
                tripSince = cycle;
                driveTrip.accept(cycle);
            }
        }
        else if (previousState == RUNNING && (awaiting ? cycle - runningSince > brakeWaitCycles : !ready(status)))
        {
            // the drive is not applying the torque (it faulted on a stale command, or lost "operation enabled"), or
            // did not release its brake in time: a trip, so the loop does not wind up against a braked axis and
            // re-enters bumplessly after the recovery
            tripPending = true;
            tripSince = cycle;
            driveTrip.accept(cycle);
            st = SAFE;
        }
        if (st == RUNNING && previousState != st)
        {
            // entering RUNNING: the drive is told to enable and release its brake; until it reports both, the axis is
            // held where it stands
            runningSince = cycle;
            awaiting = true;
            holdPosition = position;
            startingTrajectory = previousState == STARTING;
        }
        if (st == RUNNING && awaiting && ready(status))
        {
            awaiting = false;
            readyNow = true;
        }
        previousState = st;
        return st;
    }

    /**
     * @return whether the drive reported ready on this cycle, the first since entering RUNNING: the law activates,
     * and the trajectory starts ({@link #startingTrajectory()}) or rejoins.
     */
    boolean readyNow()
    {
        return readyNow;
    }

    /**
     * @return whether this cycle holds the axis where it stood on entering RUNNING (the drive not yet ready).
     */
    boolean holding()
    {
        return previousState == RUNNING && awaiting;
    }

    /**
     * @return whether this cycle drives the axis along the trajectory.
     */
    boolean driving()
    {
        return previousState == RUNNING && !awaiting;
    }

    /**
     * @return whether RUNNING was entered from STARTING (the trajectory starts) rather than after a recovery (it
     * rejoins).
     */
    boolean startingTrajectory()
    {
        return startingTrajectory;
    }

    /**
     * @return the position held while the drive is not ready, rad.
     */
    double holdPosition()
    {
        return holdPosition;
    }

    /**
     * @return the first cycle of the current run of frames reporting the drive ready, or 0.
     */
    long readySince()
    {
        return readySince;
    }

    /**
     * The control word of a cycle: only RUNNING enables the drive and releases the brake; a faulted axis is
     * quick-stopped (the drive ramps it to rest, then brakes); STARTING, SAFE and RECOVERING hold the brake on
     * (shutdown). A drive that reports a fault is reset in STARTING and RECOVERING, where the axis is about to be
     * driven again: the fault-reset bit is raised every other cycle, so the drive sees a rising edge; never in SAFE
     * (held) or FAULT (latched), and a drive never leaves its fault by itself.
     *
     * @param st     the state the cycle acts in.
     * @param status the drive's status word.
     * @return the control word.
     */
    int controlWord(final int st, final int status)
    {
        final int word;
        if (st == RUNNING)
        {
            word = CW_OPERATE;
        }
        else if (st == FAULT)
        {
            word = CW_QUICK_STOP_COMMAND;
        }
        else if ((status & SW_FAULT) != 0 && (st == RECOVERING || st == STARTING) && (lastWord & CW_FAULT_RESET) == 0)
        {
            word = CW_SHUTDOWN | CW_FAULT_RESET;
            resets++;
        }
        else
        {
            word = CW_SHUTDOWN;
        }
        lastWord = word;
        return word;
    }

    /**
     * @return fault resets sent (rising edges of the fault-reset bit).
     */
    long resets()
    {
        return resets;
    }
}
