package io.rfmrt.control.law;

import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;

import java.util.Map;
import java.util.Set;

/**
 * An example law, different from the shipped one: PD on the position error with velocity, acceleration and Coulomb
 * friction feed-forward, and a torque clamp. No integrator: it carries no state from one cycle to the next, so it
 * re-runs from a journal bit for bit on every cycle.
 * <pre>
 * torque = clamp(kp·(x* − x) + kd·(v* − v) + J·a* + c·sign(v*) + b·v*, ±limit)
 * </pre>
 * Settings ({@code app: gains:}), with their defaults (for the standard axis, {@code AxisParameters.standard()}:
 * 2e-4 kg·m², 5 mN·m of Coulomb friction, 0.5 N·m peak, at 1 kHz):
 * <pre>
 *   kpNmPerRad: 9.0          # position gain
 *   kdNmSPerRad: 0.075       # damping on the velocity error
 *   inertiaKgM2: 2e-4        # acceleration feed-forward
 *   coulombNm: 5e-3          # Coulomb friction feed-forward, signed by the setpoint velocity
 *   viscousNmSPerRad: 1e-4   # viscous friction feed-forward
 *   torqueLimitNm: 0.5       # the clamp
 * </pre>
 * Threading: one thread at a time.
 */
public final class PdFeedForwardLaw implements ControlLaw
{
    private static final Set<String> KEYS = Set.of("kpNmPerRad", "kdNmSPerRad", "inertiaKgM2", "coulombNm",
        "viscousNmSPerRad", "torqueLimitNm");

    private double kp = 9.0;
    private double kd = 0.075;
    private double inertia = 2e-4;
    private double coulomb = 5e-3;
    private double viscous = 1e-4;
    private double torqueLimit = 0.5;

    /**
     * @throws IllegalArgumentException naming every unknown key and every value that is not a finite number in range.
     */
    @Override
    public void configure(final Map<String, Object> settings, final double periodSeconds)
    {
        final StringBuilder problems = new StringBuilder();
        for (final Map.Entry<String, Object> e : settings.entrySet())
        {
            final String key = e.getKey();
            if (!KEYS.contains(key))
            {
                problems.append(problems.length() == 0 ? "" : "; ").append("gains.").append(key)
                    .append(": unknown (known: ").append(String.join(", ", KEYS.stream().sorted().toList()))
                    .append(')');
                continue;
            }
            final double v = e.getValue() instanceof Number n ? n.doubleValue() : Double.NaN;
            if (!Double.isFinite(v) || v < 0.0 || ("torqueLimitNm".equals(key) && v == 0.0))
            {
                problems.append(problems.length() == 0 ? "" : "; ").append("gains.").append(key).append(": '")
                    .append(e.getValue()).append("' is not a ").append("torqueLimitNm".equals(key) ? "positive" :
                    "non-negative").append(" number");
                continue;
            }
            switch (key)
            {
                case "kpNmPerRad" -> kp = v;
                case "kdNmSPerRad" -> kd = v;
                case "inertiaKgM2" -> inertia = v;
                case "coulombNm" -> coulomb = v;
                case "viscousNmSPerRad" -> viscous = v;
                default -> torqueLimit = v;
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
        final double velocityError = setpoint.velocity() - sensor.velocity();
        final double v = setpoint.velocity();
        final double feedForward = inertia * setpoint.acceleration() + (v > 0.0 ? coulomb : v < 0.0 ? -coulomb : 0.0) +
            viscous * v;
        final double unsaturated = kp * positionError + kd * velocityError + feedForward;
        final double torque = Math.max(-torqueLimit, Math.min(torqueLimit, unsaturated));
        command.set(sensor.cycle(), torque, unsaturated, feedForward, v, positionError, velocityError,
            torque != unsaturated);
    }

    @Override
    public double torqueLimitNm()
    {
        return torqueLimit;
    }
}
