package io.rfmrt.control.node;

import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.Setpoint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The trajectory on the sensor's clock, stepped by cycle numbers: it starts from the first ready frame after the
 * RUNNING cycle, a gap is time passed, it stands still while not driven, and after a recovery it rejoins from the
 * measured position and resumes the profile.
 */
class TrajectoryClockTest
{
    private static final double DT = 1e-3;
    private final DemoProfile profile = DemoProfile.standard();
    private final TrajectoryClock clock = new TrajectoryClock(profile, DT);
    private final Setpoint setpoint = new Setpoint();
    private final Setpoint expected = new Setpoint();

    @Test
    void shouldRunOnTheSensorsCycleNumberFromTheFirstReadyFrame()
    {
        // RUNNING on cycle 10, the drive ready from 14: trajectory cycle 1 on sensor cycle 14
        clock.start(10, 14);
        clock.drive(14, setpoint);
        assertThat(clock.cycle()).isEqualTo(1);
        profile.setpoint(DT, expected);
        assertThat(setpoint.position()).isEqualTo(expected.position());
        // a gap of frames is time passed
        clock.drive(1014, setpoint);
        assertThat(clock.cycle()).isEqualTo(1001);
        profile.setpoint(1001 * DT, expected);
        assertThat(setpoint.position()).isEqualTo(expected.position());
        assertThat(setpoint.velocity()).isEqualTo(expected.velocity());
        // ready before RUNNING: from the cycle after RUNNING
        final TrajectoryClock early = new TrajectoryClock(profile, DT);
        early.start(10, 3);
        early.drive(11, setpoint);
        assertThat(early.cycle()).isEqualTo(1);
    }

    @Test
    void shouldStandStillWhileNotDrivenAndRejoinFromTheMeasuredPosition()
    {
        clock.start(0, 1);
        clock.drive(1200, setpoint);
        final long stoppedAt = clock.cycle();
        assertThat(setpoint.velocity()).as("mid-move").isNotZero();
        clock.stopped(setpoint);
        profile.setpoint(stoppedAt * DT, expected);
        assertThat(setpoint.position()).isEqualTo(expected.position());
        assertThat(clock.cycle()).isEqualTo(stoppedAt);

        // axis came to rest somewhere else; driven again on cycle 5000: a rejoin move from there
        final double restedAt = expected.position() + 0.05;
        clock.rejoin(5000, restedAt);
        clock.drive(5000, setpoint);
        assertThat(clock.rejoining()).isTrue();
        assertThat(setpoint.position()).isCloseTo(restedAt, within(1e-9));
        long c = 5000;
        while (clock.rejoining() && c < 20_000)
        {
            clock.drive(++c, setpoint);
        }
        assertThat(clock.rejoining()).isFalse();
        profile.setpoint(clock.cycle() * DT, expected);
        assertThat(setpoint.position()).isEqualTo(expected.position());
        final long resumedAt = clock.cycle();
        clock.drive(c + 1, setpoint);
        assertThat(clock.cycle()).as("resumed on the sensor's clock").isEqualTo(resumedAt + 1);
        assertThat(clock.distanceCovered()).isPositive();
    }
}
