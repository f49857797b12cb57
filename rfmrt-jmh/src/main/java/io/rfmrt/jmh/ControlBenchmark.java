package io.rfmrt.jmh;

import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.law.CascadedPidLaw;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The controller's step: {@code lawUpdate} is the shipped law's cycle ({@link CascadedPidLaw#update}, cascaded
 * position P → velocity PI with feed-forward, clamps and anti-windup) on the demo's trajectory as the controller node
 * calls it; {@code closedLoopCycle} is one cycle of the law's closed loop ({@link ClosedLoopHarness}): the sensor
 * sample, the demo profile's setpoint, the law, the tracking sums and the simulated axis stepped over the period.
 * Both at the demo's 1 kHz period.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ControlBenchmark
{
    private static final double PERIOD_S = 1e-3;
    /** Setpoints of the demo trajectory precomputed for {@code lawUpdate} (8.192 s of it), used in turn. */
    private static final int SETPOINTS = 8192;

    /** The law, configured as the controller node configures it, and the demo's trajectory sampled ahead. */
    @State(Scope.Thread)
    public static class Law
    {
        final CascadedPidLaw law = new CascadedPidLaw();
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint();
        final ControlCommand command = new ControlCommand();
        final double[] positions = new double[SETPOINTS];
        final double[] velocities = new double[SETPOINTS];
        final double[] accelerations = new double[SETPOINTS];
        final double[] jerks = new double[SETPOINTS];
        long cycle;

        /** Configures the law and samples the trajectory. */
        @Setup(Level.Trial)
        public void open()
        {
            law.configure(Map.of(), PERIOD_S);
            final DemoProfile profile = DemoProfile.standard();
            final Setpoint s = new Setpoint();
            for (int k = 0; k < SETPOINTS; k++)
            {
                profile.setpointRepeating(k * PERIOD_S, s);
                positions[k] = s.position();
                velocities[k] = s.velocity();
                accelerations[k] = s.acceleration();
                jerks[k] = s.jerk();
            }
            sample.set(0, 0, 0.0, 0.0);
            law.activate(sample);
        }
    }

    /** A closed loop of the law and the standard simulated axis. */
    @State(Scope.Thread)
    public static class Loop
    {
        ClosedLoopHarness loop;
        ClosedLoopHarness.SetpointSource source;

        /** Makes the loop. */
        @Setup(Level.Trial)
        public void open()
        {
            final CascadedPidLaw law = new CascadedPidLaw();
            law.configure(Map.of(), PERIOD_S);
            loop = new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, PERIOD_S, 0);
            source = DemoProfile.standard()::setpointRepeating;
        }
    }

    /**
     * @param s the law.
     * @return the torque commanded.
     */
    @Benchmark
    public double lawUpdate(final Law s)
    {
        final long k = s.cycle++;
        final int i = (int)(k & (SETPOINTS - 1));
        s.setpoint.set(s.positions[i], s.velocities[i], s.accelerations[i], s.jerks[i]);
        // the axis a little behind its setpoint, as a tracking loop keeps it
        s.sample.set(k, k * 1_000_000L, s.positions[i] - 1e-5, s.velocities[i] * 0.99);
        s.law.update(s.sample, s.setpoint, k * PERIOD_S, PERIOD_S, s.command);
        return s.command.torqueNm();
    }

    /**
     * @param s the loop.
     * @return the torque commanded.
     */
    @Benchmark
    public double closedLoopCycle(final Loop s)
    {
        return s.loop.run(s.source, 1).command().torqueNm();
    }
}
