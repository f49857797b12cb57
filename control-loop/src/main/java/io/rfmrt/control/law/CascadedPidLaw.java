package io.rfmrt.control.law;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;

import java.util.Map;

/**
 * The shipped control law ({@code law: cascaded-pid}, the default): cascaded position P → velocity PI with velocity
 * and acceleration feed-forward, a velocity clamp, torque saturation and anti-windup ({@link AxisController},
 * equations in {@link ControllerGains}). Its settings are {@link ControllerGains} components by name; those not given
 * keep the standard tune. Its state is the velocity integrator ({@link ControllerState}), emptied on
 * {@link #activate}; {@link #journalState} is the integrator before the cycle.
 * <p>
 * Threading: one thread at a time.
 */
public final class CascadedPidLaw implements ControlLaw
{
    /** The name {@code law:} gives it (a class name works too). */
    public static final String NAME = "cascaded-pid";

    private final ControllerState state = new ControllerState();
    private ControllerGains gains = ControllerGains.standard();
    private AxisController controller;
    private double velocityReferenceOffset;

    /**
     * The standard tune at 1 kHz until {@link #configure} is called.
     */
    public CascadedPidLaw()
    {
        controller = new AxisController(gains);
    }

    /**
     * @param gains the gains, their period included.
     */
    public CascadedPidLaw(final ControllerGains gains)
    {
        this.gains = gains;
        controller = new AxisController(gains);
    }

    /**
     * @param settings      {@link ControllerGains} components by name (those not given keep the standard tune).
     * @param periodSeconds the loop period, s (replaces the gains' own).
     */
    @Override
    public void configure(final Map<String, Object> settings, final double periodSeconds)
    {
        final ControllerGains given = settings.isEmpty() ? ControllerGains.standard() :
            GainsFile.apply(settings, ControllerGains.standard(), "gains");
        gains = given.withPeriodSeconds(periodSeconds).validate();
        controller = new AxisController(gains);
    }

    @Override
    public void activate(final SensorSample sensor)
    {
        state.reset();
    }

    @Override
    public void update(final SensorSample sensor, final Setpoint setpoint, final double timeSeconds,
        final double periodSeconds, final ControlCommand command)
    {
        controller.step(state, sensor, setpoint, velocityReferenceOffset, state, command);
    }

    /**
     * Added to the position loop's output inside the velocity clamp.
     */
    @Override
    public boolean velocityReferenceOffset(final double offsetRadPerS)
    {
        velocityReferenceOffset = offsetRadPerS;
        return true;
    }

    @Override
    public void deactivate()
    {
    }

    @Override
    public double journalState()
    {
        return state.integratorNm();
    }

    @Override
    public void restoreState(final double journaled)
    {
        state.set(journaled);
    }

    @Override
    public double torqueLimitNm()
    {
        return gains.torqueLimitNm();
    }

    /**
     * @return the gains it runs with.
     */
    public ControllerGains gains()
    {
        return gains;
    }
}
