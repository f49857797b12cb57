package com.example;

import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;

import java.util.Map;

/**
 * A user's control law, the short way: a P position loop around a P velocity loop with velocity and acceleration
 * feed-forward (no integrator, so no state), hosted by the built-in controller inside its safety layer (the CiA 402
 * handshake, watchdog, deadline monitor, following-error supervision, bumpless re-entry, statistics, journal). Run it
 * with {@code app: {name: controller, law: com.example.PdLaw, gains: {positionGain: 120}}} and this jar on the class
 * path ({@code RFMRT_CLASSPATH} in a checkout, {@code conf/lib/} in a release).
 * <pre>
 * vRef   = v* + kp·(x* − x)
 * torque = clamp(J·a* + kv·(vRef − v), ±limit)
 * </pre>
 */
public final class PdLaw implements ControlLaw
{
    private double positionGain = 120.0;
    private double velocityGain = 0.075;
    private double inertia = 2e-4;
    private double torqueLimit = 0.5;

    @Override
    public void configure(final Map<String, Object> settings, final double periodSeconds)
    {
        final StringBuilder problems = new StringBuilder();
        for (final Map.Entry<String, Object> e : settings.entrySet())
        {
            final double v = e.getValue() instanceof Number n ? n.doubleValue() : Double.NaN;
            final boolean good = Double.isFinite(v) && v > 0;
            switch (e.getKey())
            {
                case "positionGain" -> positionGain = v;
                case "velocityGain" -> velocityGain = v;
                case "inertia" -> inertia = v;
                case "torqueLimit" -> torqueLimit = v;
                default ->
                {
                    problems.append(problems.length() == 0 ? "" : "; ").append("gains.").append(e.getKey())
                        .append(": unknown (positionGain, velocityGain, inertia, torqueLimit)");
                    continue;
                }
            }
            if (!good)
            {
                problems.append(problems.length() == 0 ? "" : "; ").append("gains.").append(e.getKey())
                    .append(": '").append(e.getValue()).append("' is not a positive number");
            }
        }
        if (problems.length() > 0)
        {
            throw new IllegalArgumentException(problems.toString());
        }
    }

    @Override
    public void update(final SensorSample sensor, final Setpoint setpoint, final double timeSeconds,
        final double periodSeconds, final ControlCommand command)
    {
        final double positionError = setpoint.position() - sensor.position();
        final double velocityReference = setpoint.velocity() + positionGain * positionError;
        final double velocityError = velocityReference - sensor.velocity();
        final double feedForward = inertia * setpoint.acceleration();
        final double unsaturated = feedForward + velocityGain * velocityError;
        final double torque = Math.max(-torqueLimit, Math.min(torqueLimit, unsaturated));
        command.set(sensor.cycle(), torque, unsaturated, feedForward, velocityReference, positionError, velocityError,
            torque != unsaturated);
    }

    @Override
    public double torqueLimitNm()
    {
        return torqueLimit;
    }
}
