package io.rfmrt.control;

import java.util.Map;

/**
 * A control law for one axis, the part of a controller a user writes. The built-in controller node
 * ({@code app: controller}) hosts a law inside its safety layer: the CiA 402 drive handshake (enable, brake release,
 * fault-reset edge), the watchdog, the deadline monitor, following-error supervision, bumpless re-entry after a
 * recovery, loop statistics and the journal. The law sees named inputs and outputs, never byte offsets:
 * <pre>
 *               +--------------------+
 *   sensor  --> |                    |
 *  (position,   |    ControlLaw      | --> command (torque, and the terms a plot wants)
 *   velocity)   |                    |
 * setpoint  --> |  update(sensor,    |
 *  (position,   |    setpoint, time, |
 *   velocity,   |    period, command)|
 *   accel, jerk)+--------------------+
 * </pre>
 * Life cycle, after ros2_control's controller interface: {@link #configure} once, off the real-time path; then, on the
 * controller's thread, {@link #activate} each time the axis is about to be driven from where it stands (also every
 * cycle while the drive has not yet reported its brake released: the law holds the axis with no history),
 * {@link #update} once per driven cycle, and {@link #deactivate} when the axis stops being driven (SAFE, FAULT,
 * RECOVERING). While the axis is not driven the safety layer commands zero torque itself; the law is not asked.
 * <p>
 * {@link #activate}, {@link #update}, {@link #deactivate} and {@link #journalState} run on the hot path: no allocation,
 * no locks, no logging, no exceptions. A law must be a function of what it is given and of its own state: the same
 * inputs give the same commands bit for bit, which is what lets {@code rfmrt replay --rerun} re-run it from a journal.
 * The state a law carries from one cycle to the next is journaled as one value ({@link #journalState}) and put back
 * by {@link #restoreState} on a re-run; a law whose state does not fit in one double re-runs exactly only over the
 * cycles where it does (a stateless law always does).
 * <p>
 * A law is found by class name ({@code app: law: com.acme.MyLaw}) and made with its public no-argument constructor.
 * Threading: one thread at a time, the controller's.
 */
public interface ControlLaw
{
    /**
     * Take the law's settings (the node's {@code app: gains:} mapping; empty when none is given) and the loop period.
     * Called once before the run, off the real-time path.
     *
     * @param settings      the law's own settings by name; never null.
     * @param periodSeconds the loop period, s.
     * @throws IllegalArgumentException one line naming every bad key or value, each as {@code gains.KEY} (the node
     *                                  reports it under its own section: {@code app.gains.KEY}).
     */
    void configure(Map<String, Object> settings, double periodSeconds);

    /**
     * The axis is about to be driven from this measured state: start with no history, so the first command does not
     * jump (bumpless).
     *
     * A law without state does nothing (the default).
     *
     * @param sensor the latest sensor sample.
     */
    default void activate(final SensorSample sensor)
    {
    }

    /**
     * One control cycle.
     *
     * @param sensor        the sensor sample of this cycle (position rad, velocity rad/s); read only.
     * @param setpoint      where the axis should be (position, velocity, acceleration, jerk); read only.
     * @param timeSeconds   the sensor's time: its cycle number times the period, s.
     * @param periodSeconds the loop period, s.
     * @param command       receives the command; its torque is what the drive is sent.
     */
    void update(SensorSample sensor, Setpoint setpoint, double timeSeconds, double periodSeconds,
        ControlCommand command);

    /**
     * The axis is no longer driven (the safety layer took over). The law keeps its state for inspection until the
     * next {@link #activate}. A law without state does nothing (the default).
     */
    default void deactivate()
    {
    }

    /**
     * @return the state this law carries into the next cycle, as one value, read before each {@link #update} and
     * journaled with the cycle (the cascaded PID: its velocity integrator, N·m). 0 for a stateless law.
     */
    default double journalState()
    {
        return 0.0;
    }

    /**
     * Put back the state journaled with a cycle, before that cycle is re-run.
     *
     * @param journaled the value {@link #journalState} gave.
     */
    default void restoreState(final double journaled)
    {
    }

    /**
     * An offset added to the law's velocity reference from the next {@link #update} on, until changed (the hook an
     * excitation at the velocity reference uses to measure the closed velocity loop). A law without a velocity
     * reference ignores it and says so (the default): an excitation at that point is then refused. Hot path: no
     * allocation. The offset is not part of {@link #journalState}: the excitation journals it itself.
     *
     * @param offsetRadPerS rad/s, 0 for none.
     * @return whether the law adds it (false: it has no velocity reference).
     */
    default boolean velocityReferenceOffset(final double offsetRadPerS)
    {
        return false;
    }

    /**
     * @return the torque limit this law commands within, N·m, for the result (0 when it does not say).
     */
    default double torqueLimitNm()
    {
        return 0.0;
    }
}
