package io.rfmrt.control;

/**
 * The failsafe of an axis: watches the sensor stream and decides whether the controller may drive the axis.
 * <pre>
 *            M good frames                     no frame for &gt; K periods
 *  STARTING ───────────────▶ RUNNING ─────────────────────────────────────▶ SAFE
 *                              ▲                                          │  ▲
 *                              │ M good frames   frame (AUTOMATIC) or     │  │ no frame for &gt; K periods
 *                              └─────────────── commandRecovery() ◀──────┘  │
 *                                  RECOVERING ──────────────────────────────┘
 *  commandSafe(): any state but FAULT → SAFE, latched until commandRecovery()
 *  driveNotOperating(): RUNNING → SAFE (a trip, not latched: recovers as after a timeout)
 *  fault():       any state → FAULT, latched: no frame, timeout or recovery leaves it
 *  resetFault():  FAULT → SAFE, latched until commandRecovery() (a fault reset does not re-enable the axis)
 * </pre>
 * A "good" frame is one that arrives no more than K periods after the frame before it; a longer gap breaks the run.
 * Every transition is reported to the {@link Listener} (synchronously, on the caller's thread) so the node can
 * journal it; trips (timeouts that leave RUNNING or RECOVERING) and recoveries (RECOVERING → RUNNING) are counted.
 * <p>
 * Time is passed in (ns, any monotonic clock); there is no clock inside. The node calls {@link #onFrame(long)} for
 * each sensor frame and {@link #poll(long)} once per period from a timer, since a missing frame cannot wake anything.
 * Allocation free (given a listener that is). Not thread safe: one thread owns an instance.
 */
public final class Watchdog
{
    /**
     * Why a transition happened.
     */
    public enum Reason
    {
        /** STARTING → RUNNING: M good frames. */
        SENSOR_STREAM_STEADY,
        /** RUNNING or RECOVERING → SAFE: no frame for more than K periods. */
        SENSOR_TIMEOUT,
        /** any → SAFE: {@link #commandSafe(long)}. */
        COMMANDED_SAFE,
        /** SAFE → RECOVERING: a frame arrived (automatic recovery). */
        SENSOR_FRAMES_RETURNED,
        /** SAFE → RECOVERING: {@link #commandRecovery(long)}. */
        RECOVERY_COMMANDED,
        /** RECOVERING → RUNNING: M good frames. */
        RECOVERED,
        /** RUNNING or RECOVERING → SAFE: the sensor cycle jumped by more than K. */
        SENSOR_CYCLE_GAP,
        /** RUNNING or RECOVERING → SAFE: a frame older than K periods when seen. */
        SENSOR_FRAME_STALE,
        /** RUNNING → SAFE: {@link #driveNotOperating(long)} (the drive reports it is not applying the torque). */
        DRIVE_NOT_OPERATING,
        /** any → FAULT: {@link #fault(long)} (the following error stayed above its limit). */
        FOLLOWING_ERROR,
        /** FAULT → SAFE: {@link #resetFault(long)}. */
        FAULT_RESET
    }

    /**
     * Told of every transition, on the thread that caused it.
     */
    @FunctionalInterface
    public interface Listener
    {
        /**
         * @param from      the state before.
         * @param to        the state after.
         * @param reason    why.
         * @param nowNanos  the time passed to the call that caused it, ns.
         */
        void onTransition(AxisState from, AxisState to, Reason reason, long nowNanos);
    }

    private final WatchdogConfig config;
    private final Listener listener;
    private final long timeoutNanos;
    private final int goodFramesToRecover;
    private final boolean automatic;

    private AxisState state = AxisState.STARTING;
    private boolean seenFrame;
    private boolean latched;
    private long lastFrameNanos;
    private long goodFrames;
    private long frames;
    /** Written by the one thread that steps the watchdog; volatile so a monitor reads it (a trip is rare). */
    private volatile long trips;
    private long recoveries;
    private long commandedStops;
    private long faults;
    private long driveTrips;
    private long lastCycle;
    private long runStartCycle;
    private long gapTrips;
    private long staleTrips;
    private long staleFrames;
    private final long missedPeriodsToTrip;

    /**
     * @param config   the settings; validated here.
     * @param listener told of every transition; may be a no-op.
     * @throws IllegalArgumentException naming every bad setting.
     */
    public Watchdog(final WatchdogConfig config, final Listener listener)
    {
        this.config = config.validate();
        if (listener == null)
        {
            throw new IllegalArgumentException("watchdog listener must not be null");
        }
        this.listener = listener;
        this.timeoutNanos = config.timeoutNanos();
        this.goodFramesToRecover = config.goodFramesToRecover();
        this.automatic = config.recovery() == WatchdogConfig.Recovery.AUTOMATIC;
        this.missedPeriodsToTrip = config.missedPeriodsToTrip();
    }

    /**
     * A frame that carries no cycle number or stamp of its own: it is taken as the next cycle, stamped and seen at
     * {@code nowNanos} (see {@link #onFrame(long, long, long)}).
     *
     * @param nowNanos when the frame arrived.
     * @return the state after it.
     */
    public AxisState onFrame(final long nowNanos)
    {
        return onFrame(lastCycle + 1, nowNanos, nowNanos);
    }

    /**
     * One sensor frame, judged in frame time: its cycle number and the time its sender stamped it.
     * <ul>
     * <li>a cycle more than K after the previous frame's is a gap: in RUNNING or RECOVERING a trip
     * ({@link Reason#SENSOR_CYCLE_GAP}), whatever the arrival times;</li>
     * <li>a frame older than K periods when it is seen ({@code nowNanos − frameNanos}) is stale: it is not a good
     * frame, it breaks the run, and in RUNNING or RECOVERING it trips ({@link Reason#SENSOR_FRAME_STALE}). A burst of
     * frames queued behind a stall therefore cannot end a recovery;</li>
     * <li>the good-frame run is counted in sensor cycles since its first frame: recovery ends M cycles of frame time
     * after it started, however fast the frames are handed over;</li>
     * <li>a cycle not after the previous one (a duplicate or a reordered frame) is ignored.</li>
     * </ul>
     *
     * @param cycle      the frame's sensor cycle.
     * @param frameNanos the sender's stamp.
     * @param nowNanos   when the frame was taken (same clock).
     * @return the state after it.
     */
    public AxisState onFrame(final long cycle, final long frameNanos, final long nowNanos)
    {
        if (seenFrame && cycle <= lastCycle)
        {
            return state;
        }
        checkTimeout(nowNanos);
        frames++;
        if (seenFrame && cycle - lastCycle > missedPeriodsToTrip)
        {
            goodFrames = 0;
            if (state == AxisState.RUNNING || state == AxisState.RECOVERING)
            {
                trips++;
                gapTrips++;
                transition(AxisState.SAFE, Reason.SENSOR_CYCLE_GAP, nowNanos);
            }
        }
        seenFrame = true;
        lastCycle = cycle;
        lastFrameNanos = Math.max(lastFrameNanos, frameNanos);
        if (nowNanos - frameNanos > timeoutNanos)
        {
            staleFrames++;
            goodFrames = 0;
            if (state == AxisState.RUNNING || state == AxisState.RECOVERING)
            {
                trips++;
                staleTrips++;
                transition(AxisState.SAFE, Reason.SENSOR_FRAME_STALE, nowNanos);
            }
            return state;
        }
        if (goodFrames == 0)
        {
            runStartCycle = cycle;
        }
        goodFrames = cycle - runStartCycle + 1;
        if (state == AxisState.SAFE && automatic && !latched)
        {
            transition(AxisState.RECOVERING, Reason.SENSOR_FRAMES_RETURNED, nowNanos);
        }
        if (goodFrames >= goodFramesToRecover)
        {
            if (state == AxisState.STARTING)
            {
                transition(AxisState.RUNNING, Reason.SENSOR_STREAM_STEADY, nowNanos);
            }
            else if (state == AxisState.RECOVERING)
            {
                recoveries++;
                transition(AxisState.RUNNING, Reason.RECOVERED, nowNanos);
            }
        }
        return state;
    }

    /**
     * Check the sensor stream for a timeout; call at least once per period.
     *
     * @param nowNanos the time now, ns.
     * @return the state after the check.
     */
    public AxisState poll(final long nowNanos)
    {
        checkTimeout(nowNanos);
        return state;
    }

    /**
     * Leave SAFE: accepted only in SAFE while frames are arriving (the last one no more than K periods ago). The
     * axis goes to RECOVERING and runs again after M further good frames. Clears a {@link #commandSafe} latch.
     *
     * @param nowNanos the time now, ns.
     * @return whether the command was accepted.
     */
    public boolean commandRecovery(final long nowNanos)
    {
        checkTimeout(nowNanos);
        if (state != AxisState.SAFE || !seenFrame || nowNanos - lastFrameNanos > timeoutNanos)
        {
            return false;
        }
        latched = false;
        goodFrames = 0;
        transition(AxisState.RECOVERING, Reason.RECOVERY_COMMANDED, nowNanos);
        return true;
    }

    /**
     * Stop the axis (an operator's stop): SAFE from any state, and latched there, even with automatic recovery,
     * until {@link #commandRecovery(long)}.
     *
     * @param nowNanos the time now, ns.
     */
    public void commandSafe(final long nowNanos)
    {
        latched = true;
        if (state != AxisState.SAFE && state != AxisState.FAULT)
        {
            commandedStops++;
            transition(AxisState.SAFE, Reason.COMMANDED_SAFE, nowNanos);
        }
    }

    /**
     * The drive reports that it is not applying the torque command while the axis is RUNNING (it braked on a stale
     * command, or lost "operation enabled"): a trip to SAFE, counted, not latched. With automatic recovery the axis
     * comes back through RECOVERING as after any trip, so the controller re-enters bumplessly instead of winding up
     * against a braked axis.
     *
     * @param nowNanos the time now, ns.
     * @return whether it tripped (only from RUNNING).
     */
    public boolean driveNotOperating(final long nowNanos)
    {
        if (state != AxisState.RUNNING)
        {
            return false;
        }
        trips++;
        driveTrips++;
        goodFrames = 0;
        transition(AxisState.SAFE, Reason.DRIVE_NOT_OPERATING, nowNanos);
        return true;
    }

    /**
     * @return trips on the drive reporting it was not operating.
     */
    public long driveTrips()
    {
        return driveTrips;
    }

    /**
     * Fault the axis: FAULT from any state, latched. Frames keep being counted but change nothing; only
     * {@link #resetFault(long)} leaves it.
     *
     * @param nowNanos the time now, ns.
     * @return whether the state changed (false when already faulted).
     */
    public boolean fault(final long nowNanos)
    {
        if (state == AxisState.FAULT)
        {
            return false;
        }
        faults++;
        transition(AxisState.FAULT, Reason.FOLLOWING_ERROR, nowNanos);
        return true;
    }

    /**
     * The explicit fault reset: FAULT → SAFE, latched there until {@link #commandRecovery(long)}, so a reset alone
     * never re-enables the axis.
     *
     * @param nowNanos the time now, ns.
     * @return whether the axis was faulted.
     */
    public boolean resetFault(final long nowNanos)
    {
        if (state != AxisState.FAULT)
        {
            return false;
        }
        latched = true;
        goodFrames = 0;
        transition(AxisState.SAFE, Reason.FAULT_RESET, nowNanos);
        return true;
    }

    /**
     * @return {@link #fault(long)} calls that faulted the axis.
     */
    public long faults()
    {
        return faults;
    }

    /**
     * @return the current state.
     */
    public AxisState state()
    {
        return state;
    }

    /**
     * @return whether the controller may drive the axis (state RUNNING).
     */
    public boolean running()
    {
        return state == AxisState.RUNNING;
    }

    /**
     * @return timeouts that took the axis from RUNNING or RECOVERING to SAFE.
     */
    public long trips()
    {
        return trips;
    }

    /**
     * @return trips on a sensor-cycle gap of more than K.
     */
    public long gapTrips()
    {
        return gapTrips;
    }

    /**
     * @return trips on a frame older than K periods when seen.
     */
    public long staleTrips()
    {
        return staleTrips;
    }

    /**
     * @return frames older than K periods when seen (not counted as good).
     */
    public long staleFrames()
    {
        return staleFrames;
    }

    /**
     * @return the last sensor cycle seen.
     */
    public long lastCycle()
    {
        return lastCycle;
    }

    /**
     * @return returns from RECOVERING to RUNNING.
     */
    public long recoveries()
    {
        return recoveries;
    }

    /**
     * @return {@link #commandSafe(long)} calls that changed the state.
     */
    public long commandedStops()
    {
        return commandedStops;
    }

    /**
     * @return sensor frames seen.
     */
    public long frames()
    {
        return frames;
    }

    /**
     * @return good frames in a row up to now (0 after a gap, or after an accepted {@link #commandRecovery}).
     */
    public long goodFrames()
    {
        return goodFrames;
    }

    /**
     * @return when the last frame arrived, ns (meaningless before the first).
     */
    public long lastFrameNanos()
    {
        return lastFrameNanos;
    }

    /**
     * @return whether a {@link #commandSafe(long)} latch holds the axis in SAFE.
     */
    public boolean latched()
    {
        return latched;
    }

    /**
     * @return the settings.
     */
    public WatchdogConfig config()
    {
        return config;
    }

    private void checkTimeout(final long nowNanos)
    {
        if (!seenFrame || nowNanos - lastFrameNanos <= timeoutNanos)
        {
            return;
        }
        goodFrames = 0;
        if (state == AxisState.RUNNING || state == AxisState.RECOVERING)
        {
            trips++;
            transition(AxisState.SAFE, Reason.SENSOR_TIMEOUT, nowNanos);
        }
    }

    private void transition(final AxisState to, final Reason reason, final long nowNanos)
    {
        final AxisState from = state;
        state = to;
        listener.onTransition(from, to, reason, nowNanos);
    }
}
