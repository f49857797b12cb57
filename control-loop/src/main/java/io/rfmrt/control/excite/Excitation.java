package io.rfmrt.control.excite;

import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.Setpoint;

import static io.rfmrt.control.journal.ControlJournal.EXCITATION_DEADLINE_MISSES;
import static io.rfmrt.control.journal.ControlJournal.EXCITATION_DONE;
import static io.rfmrt.control.journal.ControlJournal.EXCITATION_FAULT;
import static io.rfmrt.control.journal.ControlJournal.EXCITATION_REFUSED;

/**
 * One excitation in a running loop, on the controller's thread: when it starts, what it injects each cycle, and when
 * and why it stops. The signal ({@link ExcitationSignal}) is added at its {@link InjectionPoint}: to the position
 * setpoint before the law, to the law's velocity reference (through {@link ControlLaw#velocityReferenceOffset}), or
 * to the law's torque command; the excited torque command is clamped to the drive's peak torque whatever the point.
 * <pre>
 *            cycle − first ≥ start
 *   WAITING ──────────────────────► driven and supervised? ──no──► ENDED  (STOPPED 4: refused)
 *                                          │ yes
 *                                          ▼
 *                                       RUNNING ── not driven or not supervised ─────────────► ENDED  (STOPPED 2: fault/trip)
 *                                          │  signal over (STOPPED 1) or a deadline-miss burst (STOPPED 3)
 *                                          ▼
 *                                       FADING ── the injection ramps linearly from its last value to 0 over
 *                                          │      the fade; not driven or not supervised: ENDED at once
 *                                          ▼
 *                                        ENDED
 * </pre>
 * Rules:
 * <ul>
 *   <li>Refused (never injects) unless, on its start cycle, the axis is driven with the drive operation-enabled and
 *   following-error supervision is active.</li>
 *   <li>Stopped at once, injecting nothing more, when the axis stops being driven (a fault, a watchdog trip, a drive
 *   trip, the following-error fault): the safety layer then commands zero torque, and the loop's own bumpless
 *   re-entry (the law activated from where the axis stands, the trajectory rejoined) hands it back to its
 *   trajectory; the excitation does not resume.</li>
 *   <li>Stopped with a fade on a deadline-miss burst: {@value #MISS_BURST_COUNT} misses within
 *   {@value #MISS_BURST_WINDOW_CYCLES} cycles while it runs.</li>
 *   <li>Bumpless hand-back: after a stop that leaves the axis driven (done, deadline-miss burst) the injected value
 *   changes by at most |its last value| / fade cycles per cycle and reaches exactly 0; the law is neither reset nor
 *   re-activated, so the command differs from what the law alone computes by that ramp only, and by nothing once it
 *   has ended.</li>
 * </ul>
 * Each stop is reported once, on the cycle it is decided ({@link #stopReason()}: the journal's EXCITATION_STOPPED
 * values); every cycle it injects ({@link #active()}, the fade included) the caller journals an EXCITATION sample.
 * <p>
 * Allocation free after construction. Threading: the controller's thread only.
 */
public final class Excitation
{
    /** Deadline misses within {@link #MISS_BURST_WINDOW_CYCLES} that stop a running excitation. */
    public static final int MISS_BURST_COUNT = 3;
    /** The window of a deadline-miss burst, cycles. */
    public static final int MISS_BURST_WINDOW_CYCLES = 100;

    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final int FADING = 2;
    private static final int ENDED = 3;

    private final ExcitationSpec spec;
    private final ExcitationSignal signal;
    private final InjectionPoint point;
    private final long startCycles;
    private final long fadeCycles;
    private final double peakTorqueNm;
    private final long[] missAt = new long[MISS_BURST_COUNT];
    private int misses;
    private int state = WAITING;
    private long firstCycle = Long.MIN_VALUE;
    private long n;
    private long fadeLeft;
    private double fadeFrom;
    private boolean active;
    private double value;
    private double frequencyHz;
    private double before;
    private int stopReason;
    private int endReason;
    private boolean offsetGiven;

    /**
     * @param spec          what to inject.
     * @param limits        what may be injected, and the drive's peak torque.
     * @param periodSeconds the loop period, s.
     * @throws IllegalArgumentException one line ({@code excite: ...}) when the spec is outside the limits or the rate.
     */
    public Excitation(final ExcitationSpec spec, final ExcitationLimits limits, final double periodSeconds)
    {
        final String problem = spec.problemFor(periodSeconds, limits);
        if (problem != null)
        {
            throw new IllegalArgumentException(problem);
        }
        this.spec = spec;
        this.signal = spec.signal(periodSeconds);
        this.point = spec.point();
        this.startCycles = Math.round(spec.startSeconds() / periodSeconds);
        this.fadeCycles = Math.round(spec.fadeMs() * 1e-3 / periodSeconds);
        this.peakTorqueNm = limits.peakTorqueNm();
    }

    /**
     * Decide this cycle: whether it starts, injects, fades or stops. Call once per answered cycle, before
     * {@link #beforeLaw}.
     *
     * @param cycle      the sensor cycle.
     * @param driven     the law commands the axis this cycle, the drive operation-enabled (brake released, no fault,
     *                   no trip pending).
     * @param supervised following-error supervision is active and has not faulted.
     * @return the stop decided on this cycle ({@link #stopReason()}), 0 for none.
     */
    public int cycle(final long cycle, final boolean driven, final boolean supervised)
    {
        stopReason = 0;
        active = false;
        value = 0.0;
        frequencyHz = 0.0;
        if (firstCycle == Long.MIN_VALUE)
        {
            firstCycle = cycle;
        }
        final boolean safe = driven && supervised;
        if (state == WAITING && cycle - firstCycle >= startCycles)
        {
            if (!safe)
            {
                return end(EXCITATION_REFUSED);
            }
            state = RUNNING;
        }
        if (state == RUNNING)
        {
            if (!safe)
            {
                return end(EXCITATION_FAULT);
            }
            if (misses >= MISS_BURST_COUNT && cycle - missAt[misses % MISS_BURST_COUNT] <= MISS_BURST_WINDOW_CYCLES)
            {
                fade(EXCITATION_DEADLINE_MISSES);
            }
            else if (n >= signal.cycles())
            {
                fade(EXCITATION_DONE);
            }
            else
            {
                active = true;
                value = signal.value(n);
                frequencyHz = signal.frequencyHz(n);
                n++;
                return 0;
            }
        }
        if (state == FADING)
        {
            if (!safe || fadeLeft <= 0)
            {
                state = ENDED;
                return stopReason;
            }
            fadeLeft--;
            active = true;
            value = fadeFrom * ((double)fadeLeft / fadeCycles);
        }
        return stopReason;
    }

    /**
     * Note a deadline miss of a cycle (counted toward a burst while the excitation runs).
     *
     * @param cycle the sensor cycle that missed.
     */
    public void deadlineMiss(final long cycle)
    {
        if (state == RUNNING)
        {
            missAt[misses % MISS_BURST_COUNT] = cycle;
            misses++;
        }
    }

    /**
     * Before the law: add the injection to the position setpoint, or give the law its velocity-reference offset (0
     * when not active, so a stopped excitation leaves none behind).
     *
     * @param setpoint the cycle's setpoint, shifted in place at the position point.
     * @param law      the law.
     */
    public void beforeLaw(final Setpoint setpoint, final ControlLaw law)
    {
        if (point == InjectionPoint.VELOCITY && (active || offsetGiven))
        {
            law.velocityReferenceOffset(active ? value : 0.0);
            offsetGiven = active;
        }
        if (active && point == InjectionPoint.POSITION)
        {
            before = setpoint.position();
            setpoint.set(before + value, setpoint.velocity(), setpoint.acceleration(), setpoint.jerk());
        }
    }

    /**
     * After the law: add the injection to the torque command; clamp the excited command to the drive's peak torque.
     *
     * @param command the law's command, changed in place.
     */
    public void afterLaw(final ControlCommand command)
    {
        if (!active)
        {
            return;
        }
        double torque = command.torqueNm();
        if (point == InjectionPoint.TORQUE)
        {
            before = torque;
            torque += value;
        }
        else if (point == InjectionPoint.VELOCITY)
        {
            before = command.velocityReferenceRadPerS() - value;
        }
        final double clamped = Math.max(-peakTorqueNm, Math.min(peakTorqueNm, torque));
        command.set(command.cycle(), clamped, point == InjectionPoint.TORQUE ? command.unsaturatedTorqueNm() + value :
            command.unsaturatedTorqueNm(), command.feedForwardTorqueNm(), command.velocityReferenceRadPerS(),
            command.positionErrorRad(), command.velocityErrorRadPerS(), command.saturated() || clamped != torque);
    }

    private void fade(final int reason)
    {
        stopReason = reason;
        endReason = reason;
        state = FADING;
        fadeFrom = n > 0 ? signal.value(n - 1) : 0.0;
        fadeLeft = fadeCycles;
    }

    private int end(final int reason)
    {
        stopReason = reason;
        endReason = reason;
        state = ENDED;
        return reason;
    }

    /**
     * @return whether this cycle injects (the signal or its fade): journal an EXCITATION sample.
     */
    public boolean active()
    {
        return active;
    }

    /**
     * @return this cycle's injected value, in the point's unit (0 when not active).
     */
    public double value()
    {
        return value;
    }

    /**
     * @return this cycle's instantaneous frequency, Hz (a chirp's; 0 otherwise and while fading).
     */
    public double frequencyHz()
    {
        return frequencyHz;
    }

    /**
     * @return the value at the injection point before the injection was added this cycle (the law's own torque,
     * velocity reference, or the trajectory's position setpoint).
     */
    public double before()
    {
        return before;
    }

    /**
     * @return the stop decided on this cycle (EXCITATION_DONE, _FAULT, _DEADLINE_MISSES, _REFUSED), 0 for none.
     */
    public int stopReason()
    {
        return stopReason;
    }

    /**
     * @return why it ended or is fading (as {@link #stopReason()}), 0 while it waits or runs.
     */
    public int endReason()
    {
        return endReason;
    }

    /**
     * @return whether it has ended (nothing more will be injected).
     */
    public boolean ended()
    {
        return state == ENDED;
    }

    /**
     * @return whether it is injecting the signal itself (not waiting, fading or ended).
     */
    public boolean running()
    {
        return state == RUNNING;
    }

    /**
     * @return the injection point.
     */
    public InjectionPoint point()
    {
        return point;
    }

    /**
     * @return the signal.
     */
    public ExcitationSignal signal()
    {
        return signal;
    }

    /**
     * @return the spec.
     */
    public ExcitationSpec spec()
    {
        return spec;
    }

    /**
     * @return the fade, cycles.
     */
    public long fadeCycles()
    {
        return fadeCycles;
    }

    /**
     * @return the cycles after the first one seen at which it starts.
     */
    public long startCycles()
    {
        return startCycles;
    }
}
