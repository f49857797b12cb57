package io.rfmrt.control;

/**
 * The plant's servo drive: a CiA 402 state machine in brief, with a holding brake that takes time to release and to
 * engage, in front of a {@link SimulatedAxis}. Each period the plant node hands it the control word of the command it
 * acts on (0 when it has none), whether that command timed out, and its torque; the drive moves the axis for one
 * period and reports its status word.
 * <pre>
 *                 shutdown (0x0006)              enable operation + brake release (0x400F)
 *  SWITCH ON ─────────────────────────▶ READY TO ───────────────────────────────────────────▶ OPERATION
 *  DISABLED  ◀───────────────────────── SWITCH ON ◀──────────────────────────────────────────  ENABLED
 *   ▲   ▲      no voltage / quick stop      ▲         shutdown (0x0006)                       │  │
 *   │   │                                   └───────────── 0x0006 ──────┐          quick stop │  │ command timeout
 *   │   └──────────────── at rest ◀──────────────── QUICK STOP ACTIVE ◀─┴──────── (0x0002) ◀──┘  ▼
 *   └──────────────────────── fault reset: a rising edge of bit 7 (0x0080) ◀──────────────────── FAULT
 * </pre>
 * Only OPERATION ENABLED applies the torque command, and only once the brake has released: entering it starts the
 * release ({@code brakeReleaseTicks} periods, during which the brake still holds the axis and the status word still
 * says "brake engaged"). Leaving the powered states (OPERATION ENABLED, QUICK STOP ACTIVE) starts the engage
 * ({@code brakeEngageTicks} periods during which the motor is off and the brake does not hold yet: the axis coasts).
 * A quick stop ramps the axis to rest at the quick-stop deceleration, then disables (SWITCH ON DISABLED). A command
 * that times out while operation is enabled is a drive fault: FAULT, motor off, brake engaging, status bit 3 set. The
 * drive never leaves FAULT by itself: only a rising edge of the fault-reset bit does, to SWITCH ON DISABLED, from
 * where a shutdown and an enable operation drive again.
 * <p>
 * Allocation free, deterministic; one thread (the plant's loop) owns an instance.
 */
public final class Cia402Drive
{
    /** Control word bit 0: switch on. */
    public static final int CW_SWITCH_ON = 1;
    /** Control word bit 1: enable voltage. */
    public static final int CW_ENABLE_VOLTAGE = 1 << 1;
    /** Control word bit 2: quick stop, active low (0 = quick stop requested). */
    public static final int CW_QUICK_STOP = 1 << 2;
    /** Control word bit 3: enable operation. */
    public static final int CW_ENABLE_OPERATION = 1 << 3;
    /** Control word bit 7: fault reset, acted on at its rising edge. */
    public static final int CW_FAULT_RESET = 1 << 7;
    /** Control word bit 14 (manufacturer specific): release the holding brake. */
    public static final int CW_BRAKE_RELEASE = 1 << 14;
    /** "Enable operation" with the brake released: the only word the drive drives on. */
    public static final int CW_OPERATE = CW_SWITCH_ON | CW_ENABLE_VOLTAGE | CW_QUICK_STOP | CW_ENABLE_OPERATION |
        CW_BRAKE_RELEASE;
    /** "Shutdown": to READY TO SWITCH ON, brake engaged. */
    public static final int CW_SHUTDOWN = CW_ENABLE_VOLTAGE | CW_QUICK_STOP;
    /** "Quick stop" (enable voltage, quick stop bit clear): the fault reaction. */
    public static final int CW_QUICK_STOP_COMMAND = CW_ENABLE_VOLTAGE;

    /** Status word bit 0: ready to switch on. */
    public static final int SW_READY_TO_SWITCH_ON = 1;
    /** Status word bit 1: switched on. */
    public static final int SW_SWITCHED_ON = 1 << 1;
    /** Status word bit 2: operation enabled. */
    public static final int SW_OPERATION_ENABLED = 1 << 2;
    /** Status word bit 3: fault. */
    public static final int SW_FAULT = 1 << 3;
    /** Status word bit 5: quick stop, active low (0 while a quick stop runs). */
    public static final int SW_QUICK_STOP = 1 << 5;
    /** Status word bit 6: switch on disabled. */
    public static final int SW_SWITCH_ON_DISABLED = 1 << 6;
    /** Status word bit 14 (manufacturer specific): the holding brake holds (engaged, or not yet released). */
    public static final int SW_BRAKE_ENGAGED = 1 << 14;

    /** Default brake release time: 20 ms. */
    public static final double BRAKE_RELEASE_DEFAULT_MS = 20.0;
    /** Default brake engage time: 10 ms. */
    public static final double BRAKE_ENGAGE_DEFAULT_MS = 10.0;

    /**
     * The drive's states, with the ids the plant journals.
     */
    public enum State
    {
        /** Power stage off, brake on; waits for a shutdown word. */
        SWITCH_ON_DISABLED(0),
        /** Ready to switch on (and switched on): power stage off, brake on. */
        READY_TO_SWITCH_ON(1),
        /** The torque command is applied (once the brake has released). */
        OPERATION_ENABLED(2),
        /** Ramping to rest at the quick-stop deceleration. */
        QUICK_STOP_ACTIVE(3),
        /** A drive fault: power stage off, brake on, until a fault reset. */
        FAULT(4);

        private final int id;

        State(final int id)
        {
            this.id = id;
        }

        /**
         * @return the stable id.
         */
        public int id()
        {
            return id;
        }
    }

    private enum Brake
    {
        ENGAGED, RELEASING, RELEASED, ENGAGING
    }

    private final SimulatedAxis axis;
    private final double quickStopDeceleration;
    private final double quickStopTorque;
    private final int releaseTicks;
    private final int engageTicks;
    private State state = State.SWITCH_ON_DISABLED;
    private Brake brake = Brake.ENGAGED;
    private int brakeTicks;
    private int previousWord;
    private long faults;
    private long faultResets;

    /**
     * @param axis                  the axis the drive moves.
     * @param quickStopRadPerS2     the quick-stop deceleration (its torque at most the peak torque), rad/s².
     * @param brakeReleaseTicks     periods the brake takes to release, 0 = at once.
     * @param brakeEngageTicks      periods it takes to engage, 0 = at once.
     */
    public Cia402Drive(final SimulatedAxis axis, final double quickStopRadPerS2, final int brakeReleaseTicks,
        final int brakeEngageTicks)
    {
        if (!(quickStopRadPerS2 > 0) || brakeReleaseTicks < 0 || brakeEngageTicks < 0)
        {
            throw new IllegalArgumentException("quick stop " + quickStopRadPerS2 + " rad/s^2 must be > 0, brake " +
                "release " + brakeReleaseTicks + " and engage " + brakeEngageTicks + " periods >= 0");
        }
        this.axis = axis;
        this.quickStopDeceleration = quickStopRadPerS2;
        this.quickStopTorque = Math.min(axis.peakTorqueNm(), quickStopRadPerS2 * axis.inertiaKgM2());
        this.releaseTicks = brakeReleaseTicks;
        this.engageTicks = brakeEngageTicks;
    }

    /**
     * One period.
     *
     * @param controlWord the command's control word, 0 when there is none.
     * @param timedOut    whether the command the drive holds is older than its timeout.
     * @param torqueNm    the command's torque.
     * @param dtSeconds   the period.
     */
    public void tick(final int controlWord, final boolean timedOut, final double torqueNm, final double dtSeconds)
    {
        // a timed-out command is no word at all: nothing to act on, and no edge against the last word received
        final int word = timedOut ? 0 : controlWord;
        final boolean resetEdge = !timedOut && (word & CW_FAULT_RESET) != 0 && (previousWord & CW_FAULT_RESET) == 0;
        if (!timedOut)
        {
            previousWord = word;
        }
        final boolean voltage = (word & (CW_ENABLE_VOLTAGE | CW_QUICK_STOP)) == (CW_ENABLE_VOLTAGE | CW_QUICK_STOP);
        final boolean quickStop = (word & (CW_ENABLE_VOLTAGE | CW_QUICK_STOP)) == CW_ENABLE_VOLTAGE;
        final boolean operate = (word & CW_OPERATE) == CW_OPERATE;
        switch (state)
        {
            case FAULT ->
            {
                if (resetEdge)
                {
                    faultResets++;
                    state = State.SWITCH_ON_DISABLED;
                }
            }
            case SWITCH_ON_DISABLED ->
            {
                if (voltage && (word & CW_FAULT_RESET) == 0)
                {
                    state = State.READY_TO_SWITCH_ON;
                }
            }
            case READY_TO_SWITCH_ON ->
            {
                if (operate)
                {
                    state = State.OPERATION_ENABLED;
                }
                else if (!voltage)
                {
                    state = State.SWITCH_ON_DISABLED;
                }
            }
            case OPERATION_ENABLED ->
            {
                if (timedOut)
                {
                    faults++;
                    state = State.FAULT;
                }
                else if (quickStop)
                {
                    state = State.QUICK_STOP_ACTIVE;
                }
                else if (!operate)
                {
                    state = voltage ? State.READY_TO_SWITCH_ON : State.SWITCH_ON_DISABLED;
                }
            }
            case QUICK_STOP_ACTIVE ->
            {
                // a timed-out command does not end the quick stop: it is already the fault reaction
                if (!timedOut && operate)
                {
                    state = State.OPERATION_ENABLED;
                }
                else if (!timedOut && voltage)
                {
                    state = State.READY_TO_SWITCH_ON;
                }
            }
        }
        move(torqueNm, dtSeconds);
    }

    private void move(final double torqueNm, final double dt)
    {
        final boolean powered = state == State.OPERATION_ENABLED || state == State.QUICK_STOP_ACTIVE;
        if (powered)
        {
            if (brake == Brake.ENGAGED || brake == Brake.ENGAGING)
            {
                brake = Brake.RELEASING;
                brakeTicks = releaseTicks;
            }
            if (brake == Brake.RELEASING && brakeTicks <= 0)
            {
                brake = Brake.RELEASED;
            }
        }
        else
        {
            if (brake == Brake.RELEASED || brake == Brake.RELEASING)
            {
                brake = Brake.ENGAGING;
                brakeTicks = engageTicks;
            }
            if (brake == Brake.ENGAGING && brakeTicks <= 0)
            {
                brake = Brake.ENGAGED;
            }
        }
        if (brakeTicks > 0)
        {
            brakeTicks--;
        }
        if (brake == Brake.ENGAGED || brake == Brake.RELEASING)
        {
            // the brake holds (still, or not yet released)
            axis.brake(dt);
            if (state == State.QUICK_STOP_ACTIVE && axis.velocity() == 0.0)
            {
                state = State.SWITCH_ON_DISABLED;
            }
        }
        else if (brake == Brake.ENGAGING)
        {
            axis.coast(dt);
        }
        else if (state == State.QUICK_STOP_ACTIVE)
        {
            final double v = axis.velocity();
            if (Math.abs(v) <= quickStopDeceleration * dt)
            {
                // at rest: disable; the brake engages from the next period, the axis coasting meanwhile
                state = State.SWITCH_ON_DISABLED;
                axis.coast(dt);
            }
            else
            {
                axis.step(-Math.copySign(quickStopTorque, v), dt);
            }
        }
        else
        {
            axis.step(torqueNm, dt);
        }
    }

    /**
     * @return the status word of the state after the last period.
     */
    public int statusWord()
    {
        final int brakeBit = brake == Brake.ENGAGED || brake == Brake.RELEASING ? SW_BRAKE_ENGAGED : 0;
        return brakeBit | switch (state)
        {
            case SWITCH_ON_DISABLED -> SW_SWITCH_ON_DISABLED;
            case READY_TO_SWITCH_ON -> SW_READY_TO_SWITCH_ON | SW_QUICK_STOP;
            case OPERATION_ENABLED -> SW_READY_TO_SWITCH_ON | SW_SWITCHED_ON | SW_OPERATION_ENABLED | SW_QUICK_STOP;
            case QUICK_STOP_ACTIVE -> SW_READY_TO_SWITCH_ON | SW_SWITCHED_ON | SW_OPERATION_ENABLED;
            case FAULT -> SW_FAULT;
        };
    }

    /**
     * @return whether the brake is applied: engaged, engaging, or not yet released.
     */
    public boolean braking()
    {
        return brake != Brake.RELEASED;
    }

    /**
     * @return the state.
     */
    public State state()
    {
        return state;
    }

    /**
     * @return drive faults (command timeouts while operation was enabled).
     */
    public long faults()
    {
        return faults;
    }

    /**
     * @return faults reset by a rising edge of the fault-reset bit.
     */
    public long faultResets()
    {
        return faultResets;
    }

    /**
     * @return the axis.
     */
    public SimulatedAxis axis()
    {
        return axis;
    }
}
