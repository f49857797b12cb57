package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.rfmrt.control.node.ControlFrames.CW_FAULT_RESET;
import static io.rfmrt.control.node.ControlFrames.CW_OPERATE;
import static io.rfmrt.control.node.ControlFrames.CW_QUICK_STOP_COMMAND;
import static io.rfmrt.control.node.ControlFrames.CW_SHUTDOWN;
import static io.rfmrt.control.node.ControlFrames.SW_BRAKE_ENGAGED;
import static io.rfmrt.control.node.ControlFrames.SW_FAULT;
import static io.rfmrt.control.node.ControlFrames.SW_OPERATION_ENABLED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CiA 402 handshake fed status words frame by frame, no drive and no thread: hold until the drive reports it
 * operates with its brake released, then drive; a trip when it does not in time or stops operating; fault-reset edges
 * only in STARTING and RECOVERING.
 */
class DriveHandshakeTest
{
    private static final int STARTING = AxisState.STARTING.id();
    private static final int RUNNING = AxisState.RUNNING.id();
    private static final int SAFE = AxisState.SAFE.id();
    private static final int FAULT = AxisState.FAULT.id();
    private static final int RECOVERING = AxisState.RECOVERING.id();
    private static final int READY = SW_OPERATION_ENABLED;
    private static final int BRAKED = SW_BRAKE_ENGAGED;

    private final List<Long> trips = new ArrayList<>();
    private final DriveHandshake drive = new DriveHandshake(20, trips::add);

    private int step(final long cycle, final int state, final int status, final double position)
    {
        drive.observe(cycle, status);
        return drive.step(cycle, state, status, position);
    }

    @Test
    void shouldHoldWhereTheAxisStoodUntilTheDriveReportsReadyThenDrive()
    {
        assertThat(step(1, STARTING, BRAKED, 0.1)).isEqualTo(STARTING);
        assertThat(drive.holding()).isFalse();
        assertThat(drive.driving()).isFalse();
        assertThat(step(2, RUNNING, BRAKED, 0.2)).isEqualTo(RUNNING);
        assertThat(drive.holding()).isTrue();
        assertThat(drive.holdPosition()).isEqualTo(0.2);
        assertThat(drive.controlWord(RUNNING, BRAKED)).isEqualTo(CW_OPERATE);
        assertThat(step(3, RUNNING, BRAKED, 0.3)).isEqualTo(RUNNING);
        assertThat(drive.holdPosition()).as("held where it stood on entering").isEqualTo(0.2);
        assertThat(drive.readyNow()).isFalse();

        assertThat(step(4, RUNNING, READY, 0.3)).isEqualTo(RUNNING);
        assertThat(drive.readyNow()).isTrue();
        assertThat(drive.startingTrajectory()).isTrue();
        assertThat(drive.readySince()).isEqualTo(4);
        assertThat(drive.driving()).isTrue();
        assertThat(drive.holding()).isFalse();
        step(5, RUNNING, READY, 0.3);
        assertThat(drive.readyNow()).as("only on the first ready frame").isFalse();
        assertThat(drive.readySince()).isEqualTo(4);
        assertThat(trips).isEmpty();
    }

    @Test
    void shouldTripWhenTheBrakeIsNotReleasedInTimeAndAskAgainWhilePending()
    {
        step(1, RUNNING, BRAKED, 0.0);
        for (long c = 2; c <= 21; c++)
        {
            assertThat(step(c, RUNNING, BRAKED, 0.0)).isEqualTo(RUNNING);
        }
        assertThat(trips).isEmpty();
        assertThat(step(22, RUNNING, BRAKED, 0.0)).as("21 cycles waited, 20 allowed").isEqualTo(SAFE);
        assertThat(trips).containsExactly(22L);
        // the watchdog has not moved yet: SAFE, asked again after 2 x grace cycles
        for (long c = 23; c <= 22 + 2 * DriveHandshake.DRIVE_ENABLE_GRACE_CYCLES; c++)
        {
            assertThat(step(c, RUNNING, BRAKED, 0.0)).isEqualTo(SAFE);
        }
        assertThat(trips).containsExactly(22L);
        step(33, RUNNING, BRAKED, 0.0);
        assertThat(trips).containsExactly(22L, 33L);
        // the watchdog moved the axis: the trip is no longer pending, and RUNNING again is a new entry
        assertThat(step(34, SAFE, BRAKED, 0.0)).isEqualTo(SAFE);
        assertThat(step(35, RECOVERING, BRAKED, 0.0)).isEqualTo(RECOVERING);
        assertThat(step(36, RUNNING, BRAKED, 0.5)).isEqualTo(RUNNING);
        assertThat(drive.holding()).isTrue();
        step(37, RUNNING, READY, 0.5);
        assertThat(drive.readyNow()).isTrue();
        assertThat(drive.startingTrajectory()).as("after a recovery the trajectory rejoins").isFalse();
    }

    @Test
    void shouldTripWhenADrivenAxisStopsOperating()
    {
        step(1, RUNNING, READY, 0.0);
        assertThat(drive.driving()).isTrue();
        assertThat(step(2, RUNNING, READY, 0.0)).isEqualTo(RUNNING);
        assertThat(step(3, RUNNING, READY | SW_FAULT, 0.0)).isEqualTo(SAFE);
        assertThat(trips).containsExactly(3L);
        assertThat(drive.readySince()).as("a fault ends the ready run").isZero();
    }

    @Test
    void shouldRaiseTheFaultResetBitEveryOtherCycleOnlyWhereTheAxisIsAboutToBeDriven()
    {
        final int faulted = SW_FAULT | BRAKED;
        assertThat(drive.controlWord(STARTING, faulted)).isEqualTo(CW_SHUTDOWN | CW_FAULT_RESET);
        assertThat(drive.controlWord(STARTING, faulted)).isEqualTo(CW_SHUTDOWN);
        assertThat(drive.controlWord(RECOVERING, faulted)).isEqualTo(CW_SHUTDOWN | CW_FAULT_RESET);
        assertThat(drive.resets()).isEqualTo(2);
        assertThat(drive.controlWord(SAFE, faulted)).isEqualTo(CW_SHUTDOWN);
        assertThat(drive.controlWord(SAFE, faulted)).as("never in SAFE").isEqualTo(CW_SHUTDOWN);
        assertThat(drive.controlWord(FAULT, faulted)).isEqualTo(CW_QUICK_STOP_COMMAND);
        assertThat(drive.controlWord(FAULT, faulted)).as("never in FAULT").isEqualTo(CW_QUICK_STOP_COMMAND);
        assertThat(drive.controlWord(STARTING, BRAKED)).as("no fault, no reset").isEqualTo(CW_SHUTDOWN);
        assertThat(drive.resets()).isEqualTo(2);
        assertThat(DriveHandshake.ready(READY)).isTrue();
        assertThat(DriveHandshake.ready(READY | BRAKED)).isFalse();
    }
}
