package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

class TrajectoryRejoinTest
{
    private final DemoProfile profile = DemoProfile.standard();
    private final Setpoint s = new Setpoint();

    @Test
    void shouldRejoinAMoveInterruptedAtSpeedFromRestAndResumeAtTheMovesEnd()
    {
        // 1.2 s into the profile the first move (0 → 1.0 rad) runs at its top speed
        profile.setpoint(1.2, s);
        assertThat(s.velocity()).isGreaterThan(0.5);
        final TrajectoryRejoin rejoin = TrajectoryRejoin.of(profile);
        final int segment = profile.trajectory().segmentAt(1.2);
        final double resume = rejoin.plan(1.2, 0.4);
        assertThat(resume).isEqualTo(profile.trajectory().segmentEndSeconds(segment));

        // bumpless: it starts where the axis stands, at rest
        assertThat(rejoin.sample(0, s)).isTrue();
        assertThat(s.position()).isEqualTo(0.4);
        assertThat(s.velocity()).isZero();
        assertThat(s.acceleration()).isZero();
        // within the profile's limits all the way, and it ends where the interrupted move ends, at rest
        final double dt = 1e-3;
        double t = 0;
        while (rejoin.sample(t, s))
        {
            assertThat(Math.abs(s.velocity())).isLessThanOrEqualTo(DemoProfile.V_MAX_RAD_PER_S + 1e-9);
            assertThat(Math.abs(s.acceleration())).isLessThanOrEqualTo(DemoProfile.A_MAX_RAD_PER_S2 + 1e-9);
            t += dt;
        }
        assertThat(s.position()).isCloseTo(1.0, offset(1e-12));
        assertThat(s.velocity()).isZero();
        // and the profile at the resume time is there too: the join is continuous
        final Setpoint at = new Setpoint();
        profile.setpoint(resume, at);
        assertThat(at.position()).isCloseTo(1.0, offset(1e-9));
        assertThat(at.velocity()).isCloseTo(0.0, offset(1e-9));
    }

    @Test
    void shouldRejoinADwellAtItsPositionAndResumeWhereTheClockStopped()
    {
        final TrajectoryGenerator trajectory = profile.trajectory();
        final int firstDwell = 2; // lead-in, move, dwell
        assertThat(trajectory.segmentKind(firstDwell)).isEqualTo(MoveProfile.Kind.DWELL);
        final double stopped = trajectory.segmentStartSeconds(firstDwell) + 0.1;
        final TrajectoryRejoin rejoin = TrajectoryRejoin.of(profile);
        assertThat(rejoin.plan(stopped, 0.998)).isEqualTo(stopped);
        assertThat(rejoin.move().endPosition()).isEqualTo(1.0);
        assertThat(rejoin.sample(0, s)).isTrue();
        assertThat(s.position()).isEqualTo(0.998);
        assertThat(rejoin.rejoins()).isEqualTo(1);
    }

    @Test
    void shouldNotMoveWhenThePositionIsNotANumber()
    {
        final TrajectoryRejoin rejoin = TrajectoryRejoin.of(profile);
        rejoin.plan(1.2, Double.NaN);
        assertThat(rejoin.move().distance()).isZero();
        assertThat(rejoin.sample(0, s)).isFalse();
    }
}
