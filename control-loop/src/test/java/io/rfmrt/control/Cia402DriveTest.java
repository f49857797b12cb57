package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static io.rfmrt.control.Cia402Drive.CW_FAULT_RESET;
import static io.rfmrt.control.Cia402Drive.CW_OPERATE;
import static io.rfmrt.control.Cia402Drive.CW_QUICK_STOP_COMMAND;
import static io.rfmrt.control.Cia402Drive.CW_SHUTDOWN;
import static io.rfmrt.control.Cia402Drive.SW_BRAKE_ENGAGED;
import static io.rfmrt.control.Cia402Drive.SW_FAULT;
import static io.rfmrt.control.Cia402Drive.SW_OPERATION_ENABLED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The plant's drive, period by period with no thread: the brake's release and engage delays, the drive's own fault on
 * a command timeout and the edge its reset needs, the quick stop.
 */
class Cia402DriveTest
{
    private static final double DT = 1e-3;
    private static final int RELEASE = 20;
    private static final int ENGAGE = 10;

    private final AxisPlant axis = new AxisPlant(AxisParameters.standard());
    private final Cia402Drive drive = new Cia402Drive(axis, 50.0, RELEASE, ENGAGE);

    private void ticks(final int n, final int word, final double torque)
    {
        for (int i = 0; i < n; i++)
        {
            drive.tick(word, false, torque, DT);
        }
    }

    private void enable()
    {
        ticks(1, CW_SHUTDOWN, 0);
        ticks(1, CW_OPERATE, 0);
        ticks(RELEASE, CW_OPERATE, 0);
        assertThat(drive.statusWord()).isEqualTo(0x0027);
    }

    @Test
    void shouldStartSwitchOnDisabledAndBraked()
    {
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.SWITCH_ON_DISABLED);
        assertThat(drive.statusWord()).isEqualTo(0x4040);
        ticks(5, 0, 0.4);
        assertThat(axis.velocity()).isZero();
        ticks(1, CW_SHUTDOWN, 0.4);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.READY_TO_SWITCH_ON);
        assertThat(drive.statusWord()).isEqualTo(0x4021);
        assertThat(axis.velocity()).isZero();
        // no voltage any more: back to switch on disabled
        ticks(1, 0, 0);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.SWITCH_ON_DISABLED);
    }

    @Test
    void shouldApplyTheTorqueOnlyOnceTheBrakeHasReleasedAndSayWhenItHas()
    {
        ticks(1, CW_SHUTDOWN, 0);
        // enable operation: the drive is enabled at once, but the brake holds for its release time
        for (int i = 1; i <= RELEASE; i++)
        {
            drive.tick(CW_OPERATE, false, 0.4, DT);
            assertThat(drive.state()).isEqualTo(Cia402Drive.State.OPERATION_ENABLED);
            assertThat(drive.statusWord()).as("period %d", i).isEqualTo(SW_BRAKE_ENGAGED | 0x0027);
            assertThat(drive.braking()).isTrue();
            assertThat(axis.position()).as("held by the brake, period %d", i).isZero();
        }
        drive.tick(CW_OPERATE, false, 0.4, DT);
        assertThat(drive.statusWord()).isEqualTo(0x0027);
        assertThat(drive.braking()).isFalse();
        assertThat(axis.velocity()).as("driven").isPositive();
    }

    @Test
    void shouldLetTheAxisCoastWhileTheBrakeEngagesThenHoldIt()
    {
        enable();
        ticks(100, CW_OPERATE, 0.2);
        final double speed = axis.velocity();
        assertThat(speed).isGreaterThan(50.0);
        for (int i = 1; i <= ENGAGE; i++)
        {
            drive.tick(CW_SHUTDOWN, false, 0.2, DT);
            assertThat(drive.statusWord()).as("engaging, period %d", i).isEqualTo(0x0021);
            assertThat(drive.braking()).isTrue();
        }
        // friction alone over the engage time: the axis is still moving fast
        assertThat(axis.velocity()).isGreaterThan(0.9 * speed);
        ticks(1, CW_SHUTDOWN, 0.2);
        assertThat(drive.statusWord()).isEqualTo(0x4021);
        ticks(100, CW_SHUTDOWN, 0.2);
        assertThat(axis.velocity()).as("held by the brake").isZero();
    }

    @Test
    void shouldFaultOnACommandTimeoutAndLeaveFaultOnlyOnAResetEdge()
    {
        enable();
        // a master that holds the reset bit up all along: a level, never an edge
        ticks(50, CW_OPERATE | CW_FAULT_RESET, 0.1);
        drive.tick(CW_OPERATE | CW_FAULT_RESET, true, 0.1, DT);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.FAULT);
        assertThat(drive.faults()).isEqualTo(1);
        assertThat(drive.statusWord() & SW_FAULT).isNotZero();
        assertThat(drive.statusWord() & SW_OPERATION_ENABLED).isZero();
        // commands that come back do not re-enable a faulted drive, however long they come, nor does the level
        ticks(200, CW_OPERATE | CW_FAULT_RESET, 0.1);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.FAULT);
        assertThat(axis.velocity()).as("braked").isZero();
        assertThat(drive.statusWord()).isEqualTo(SW_FAULT | SW_BRAKE_ENGAGED);
        ticks(200, CW_OPERATE, 0.1);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.FAULT);
        // a timed-out command is no word at all: not an edge either
        drive.tick(CW_SHUTDOWN | CW_FAULT_RESET, true, 0, DT);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.FAULT);
        // the rising edge resets it, to switch on disabled: a shutdown and an enable operation drive again
        ticks(1, CW_SHUTDOWN | CW_FAULT_RESET, 0);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.SWITCH_ON_DISABLED);
        assertThat(drive.faultResets()).isEqualTo(1);
        ticks(1, CW_SHUTDOWN, 0);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.READY_TO_SWITCH_ON);
        ticks(1 + RELEASE, CW_OPERATE, 0);
        assertThat(drive.statusWord()).isEqualTo(0x0027);
    }

    @Test
    void shouldNotFaultOnATimeoutWhileNotEnabled()
    {
        ticks(1, CW_SHUTDOWN, 0);
        drive.tick(CW_SHUTDOWN, true, 0, DT);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.SWITCH_ON_DISABLED);
        assertThat(drive.faults()).isZero();
    }

    @Test
    void shouldQuickStopToRestAtItsDecelerationThenDisableAndBrake()
    {
        enable();
        ticks(20, CW_OPERATE, 0.1);
        final double speed = axis.velocity();
        assertThat(speed).isGreaterThan(5.0);
        drive.tick(CW_QUICK_STOP_COMMAND, false, 0.5, DT);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.QUICK_STOP_ACTIVE);
        assertThat(drive.statusWord()).isEqualTo(0x0007);
        int ticks = 1;
        while (drive.state() == Cia402Drive.State.QUICK_STOP_ACTIVE && ticks < 10_000)
        {
            drive.tick(CW_QUICK_STOP_COMMAND, false, 0.5, DT);
            ticks++;
        }
        // the ramp at 50 rad/s^2, helped by friction ((Tc + b·v)/J: up to 30 rad/s^2 more on this axis)
        assertThat(ticks * DT).isBetween(0.95 * speed / 80.0, 1.05 * speed / 50.0);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.SWITCH_ON_DISABLED);
        ticks(ENGAGE + 5, CW_QUICK_STOP_COMMAND, 0.5);
        assertThat(drive.statusWord()).isEqualTo(0x4040);
        assertThat(axis.velocity()).isZero();
        // a quick stop word keeps it disabled; a shutdown readies it again
        ticks(1, CW_SHUTDOWN, 0);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.READY_TO_SWITCH_ON);
    }

    @Test
    void shouldQuickStopFromReadyStayBraked()
    {
        ticks(1, CW_SHUTDOWN, 0);
        ticks(1, CW_QUICK_STOP_COMMAND, 0.5);
        assertThat(drive.state()).isEqualTo(Cia402Drive.State.SWITCH_ON_DISABLED);
        assertThat(axis.position()).isZero();
    }

    @Test
    void shouldRefuseBadSettings()
    {
        assertThatThrownBy(() -> new Cia402Drive(axis, 0.0, 1, 1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("quick stop 0.0 rad/s^2 must be > 0");
        assertThatThrownBy(() -> new Cia402Drive(axis, 50.0, -1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
