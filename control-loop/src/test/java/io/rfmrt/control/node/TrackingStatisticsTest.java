package io.rfmrt.control.node;

import io.rfmrt.control.Setpoint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tracking over RUNNING cycles, split into moves and rest.
 */
class TrackingStatisticsTest
{
    @Test
    void shouldSplitTheErrorIntoMovesAndRest()
    {
        final TrackingStatistics t = new TrackingStatistics();
        assertThat(t.rmsError()).isZero();
        assertThat(t.movingRmsError()).isZero();
        final Setpoint moving = new Setpoint().set(1.0, 0.5, 0.0, 0.0);
        final Setpoint accelerating = new Setpoint().set(1.0, 0.0, 2.0, 0.0);
        final Setpoint rest = new Setpoint().hold(1.0);
        t.running(0.003, moving, -0.2);
        t.running(-0.004, accelerating, 0.1);
        t.running(0.001, rest, 0.05);
        t.running(-0.002, rest, 0.0);
        assertThat(t.trackedCycles()).isEqualTo(4);
        assertThat(t.movingCycles()).isEqualTo(2);
        assertThat(t.rmsError()).isCloseTo(Math.sqrt((9 + 16 + 1 + 4) * 1e-6 / 4), within(1e-15));
        assertThat(t.maxError()).isEqualTo(0.004);
        assertThat(t.movingRmsError()).isCloseTo(Math.sqrt(25e-6 / 2), within(1e-15));
        assertThat(t.movingMaxError()).isEqualTo(0.004);
        assertThat(t.restMaxError()).isEqualTo(0.002);
        assertThat(t.peakTorque()).isEqualTo(0.2);
    }
}
