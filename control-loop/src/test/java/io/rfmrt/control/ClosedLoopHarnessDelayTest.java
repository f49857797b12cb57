package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The harness's delay line, with a law that commands its cycle number as the torque and an axis that records the
 * torque of each step: the command of {@code delayCycles} cycles before, none (0) before the first is due; a longer
 * delay set mid-run holds the command the axis has until a newer one is due, a shorter one moves on at once.
 */
class ClosedLoopHarnessDelayTest
{
    private static final double PERIOD_S = 1e-3;

    /** Commands torque = the cycle number. */
    private static final class CycleLaw implements ControlLaw
    {
        @Override
        public void configure(final Map<String, Object> settings, final double periodSeconds)
        {
        }

        @Override
        public void update(final SensorSample sensor, final Setpoint setpoint, final double timeSeconds,
            final double periodSeconds, final ControlCommand out)
        {
            out.set(sensor.cycle(), sensor.cycle(), sensor.cycle(), 0, 0, 0, 0, false);
        }
    }

    /** Records the torque of each step. */
    private static final class RecordingAxis implements SimulatedAxis
    {
        final List<Double> torques = new ArrayList<>();

        @Override
        public void reset(final double positionRad)
        {
        }

        @Override
        public void step(final double torqueCommandNm, final double dtSeconds)
        {
            torques.add(torqueCommandNm);
        }

        @Override
        public void brake(final double dtSeconds)
        {
        }

        @Override
        public void coast(final double dtSeconds)
        {
        }

        @Override
        public double position()
        {
            return 0;
        }

        @Override
        public double velocity()
        {
            return 0;
        }

        @Override
        public double torque()
        {
            return 0;
        }

        @Override
        public double measuredPosition()
        {
            return 0;
        }

        @Override
        public double measuredVelocity()
        {
            return 0;
        }

        @Override
        public double peakTorqueNm()
        {
            return 1e9;
        }

        @Override
        public double inertiaKgM2()
        {
            return 1;
        }
    }

    private static List<Double> torques(final int first, final int cycles, final int then, final int max)
    {
        final RecordingAxis axis = new RecordingAxis();
        final ClosedLoopHarness loop = new ClosedLoopHarness(axis, new CycleLaw(), PERIOD_S, first, max);
        loop.run((t, out) -> out.hold(0), cycles);
        loop.delayCycles(then);
        assertThat(loop.delayCycles()).isEqualTo(then);
        loop.run((t, out) -> out.hold(0), 10 - cycles);
        return axis.torques;
    }

    @Test
    void shouldApplyTheCommandOfDelayCyclesBefore()
    {
        assertThat(torques(0, 10, 0, 0)).containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
        assertThat(torques(2, 10, 2, 2)).containsExactly(0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
    }

    @Test
    void shouldHoldTheCommandItHasWhenTheDelayGrows()
    {
        // cycles 0..4 at a delay of 1 (commands 0..3 applied at 1..4), then 4: command 3 held through cycle 7
        assertThat(torques(1, 5, 4, 4)).containsExactly(0.0, 0.0, 1.0, 2.0, 3.0, 3.0, 3.0, 3.0, 4.0, 5.0);
    }

    @Test
    void shouldMoveOnAtOnceWhenTheDelayShrinks()
    {
        assertThat(torques(4, 6, 1, 4)).containsExactly(0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 5.0, 6.0, 7.0, 8.0);
    }

    @Test
    void shouldRefuseADelayBeyondTheCapacity()
    {
        final ClosedLoopHarness loop = new ClosedLoopHarness(new RecordingAxis(), new CycleLaw(), PERIOD_S, 1, 4);
        assertThatThrownBy(() -> loop.delayCycles(5)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("delayCycles 5 is not 0..4");
        assertThatThrownBy(() -> new ClosedLoopHarness(new RecordingAxis(), new CycleLaw(), PERIOD_S, 5, 4))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
