package io.rfmrt.control.tune;

import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.law.CascadedPidLaw;

import java.util.Map;

/**
 * The realistic axis under the cascaded law in {@link ClosedLoopHarness}, with a logarithmic chirp added to the
 * torque command: the setpoint runs up smoothly to a constant speed (so friction keeps one sign) and the chirp plays
 * while it holds it. Records, per cycle of the chirp: the injected d, the torque sent u, the law's own output c = u − d,
 * the measured velocity and position.
 */
final class ExcitedLoop
{
    static final double RAMP_SECONDS = 0.5;

    final double[] d;
    final double[] u;
    final double[] c;
    final double[] velocity;
    final double[] position;
    final double rateHz;

    /**
     * @param gains     the law's gains (their period is the loop's).
     * @param speed     the constant speed the chirp plays at, rad/s.
     * @param amplitude the chirp's amplitude, N·m.
     * @param fromHz    its start frequency.
     * @param toHz      its end frequency.
     * @param seconds   its duration.
     */
    ExcitedLoop(final ControllerGains gains, final double speed, final double amplitude, final double fromHz,
        final double toHz, final double seconds)
    {
        final double dt = gains.periodSeconds();
        rateHz = 1.0 / dt;
        final int lead = (int)Math.round(2 * RAMP_SECONDS / dt);
        final int n = (int)Math.round(seconds / dt);
        d = new double[n];
        u = new double[n];
        c = new double[n];
        velocity = new double[n];
        position = new double[n];
        final double rate = Math.log(toHz / fromHz) / seconds;
        final double[] chirp = new double[lead + n];
        for (int i = 0; i < n; i++)
        {
            final double t = i * dt;
            chirp[lead + i] = amplitude * Math.sin(2 * Math.PI * fromHz * (Math.exp(rate * t) - 1) / rate);
        }
        final CascadedPidLaw inner = new CascadedPidLaw(gains);
        final ControlLaw law = new ControlLaw()
        {
            @Override
            public void configure(final Map<String, Object> settings, final double periodSeconds)
            {
            }

            @Override
            public void activate(final SensorSample sensor)
            {
                inner.activate(sensor);
            }

            @Override
            public void update(final SensorSample sensor, final Setpoint setpoint, final double timeSeconds,
                final double periodSeconds, final ControlCommand command)
            {
                inner.update(sensor, setpoint, timeSeconds, periodSeconds, command);
                final double injected = chirp[(int)sensor.cycle()];
                command.set(command.cycle(), command.torqueNm() + injected, command.unsaturatedTorqueNm() + injected,
                    command.feedForwardTorqueNm(), command.velocityReferenceRadPerS(), command.positionErrorRad(),
                    command.velocityErrorRadPerS(), command.saturated());
            }
        };
        final ClosedLoopHarness loop = new ClosedLoopHarness(new RealisticAxisPlant(RealisticAxisParameters.standard()),
            law, dt, 1);
        loop.run((t, out) -> speedUp(t, speed, out), lead + n, (sample, setpoint, command) ->
        {
            final int i = (int)sample.cycle() - lead;
            if (i >= 0)
            {
                d[i] = chirp[lead + i];
                u[i] = command.torqueNm();
                c[i] = u[i] - d[i];
                velocity[i] = sample.velocity();
                position[i] = sample.position();
            }
        });
    }

    /** A smooth (cosine) run-up to {@code speed} over {@link #RAMP_SECONDS}, then the speed held. */
    static void speedUp(final double t, final double speed, final Setpoint out)
    {
        if (t < RAMP_SECONDS)
        {
            final double s = t / RAMP_SECONDS;
            final double v = speed * 0.5 * (1 - Math.cos(Math.PI * s));
            final double p = speed * 0.5 * (t - RAMP_SECONDS / Math.PI * Math.sin(Math.PI * s));
            final double a = speed * 0.5 * Math.PI / RAMP_SECONDS * Math.sin(Math.PI * s);
            out.set(p, v, a, 0);
        }
        else
        {
            out.set(speed * 0.5 * RAMP_SECONDS + speed * (t - RAMP_SECONDS), speed, 0, 0);
        }
    }
}
