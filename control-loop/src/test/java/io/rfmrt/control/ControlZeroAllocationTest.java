package io.rfmrt.control;

import io.rfmrt.runtime.ZeroAllocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A control cycle (trajectory sample, controller step, plant step, deadline and watchdog bookkeeping, wake-up lateness
 * with a stall now and then, and now and then a re-planned move; the realistic axis behind its CiA 402 drive with a
 * fault and reset now and then; the loop statistics with the thread's CPU time) allocates nothing once warm.
 */
class ControlZeroAllocationTest
{
    private static final int WARMUP = 50_000;
    private static final int CYCLES = 100_000;
    private static final int WINDOWS = 5;
    private static final long PERIOD_NS = 1_000_000L;
    private static final double PERIOD_S = 1e-3;

    @Test
    void shouldNotAllocateInSteadyState()
    {
        assertThat(ZeroAllocation.supported()).isTrue();
        final Loop loop = new Loop();
        // the project's reusable proof (docs/extending.md): a warm-up, then windows until one allocates nothing
        final ZeroAllocation.Result r = ZeroAllocation.measure((first, count) -> loop.cycles((int)first, count),
            WARMUP, CYCLES, WINDOWS);
        final int measured = r.windowBytes().length;

        assertThat(loop.watchdog.state()).isEqualTo(AxisState.RUNNING);
        assertThat(loop.deadlines.cycles()).isEqualTo(WARMUP + (long)measured * CYCLES);
        assertThat(loop.checksum).isFinite();
        // a stall every 1000 cycles, beyond the 64 kept: the not-kept branch ran too
        assertThat(loop.lateness.stalls()).isEqualTo(loop.stallsSunk).isGreaterThan(64);
        assertThat(loop.lateness.stallsNotKept()).isPositive();
        assertThat(loop.schedule.missed()).as("the missed-tick branch ran").isPositive();
        assertThat(loop.followingError.peakLag()).isPositive();
        assertThat(loop.drive.faults()).as("the drive's fault branch ran").isPositive();
        assertThat(loop.drive.faultResets()).isEqualTo(loop.drive.faults());
        assertThat(loop.statistics.sample().cycles()).isPositive();
        assertThat(r.lastWindowBytes()).as(r.toString()).isZero();
    }

    /** Everything preallocated; {@link #cycles} is the measured code. */
    private static final class Loop
    {
        final DemoProfile demo = DemoProfile.standard();
        final AxisPlant plant = new AxisPlant(AxisParameters.standard());
        final AxisController controller = new AxisController(ControllerGains.standard());
        final DeadlineMonitor deadlines = new DeadlineMonitor(PERIOD_NS);
        final Watchdog watchdog = new Watchdog(WatchdogConfig.defaults(PERIOD_NS), (from, to, reason, nanos) ->
        {
        });
        final MoveProfile recoveryMove = new MoveProfile();
        final ControllerState state = new ControllerState();
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint();
        final Setpoint spare = new Setpoint();
        final ControlCommand command = new ControlCommand();
        final WakeLateness lateness = new WakeLateness(PERIOD_NS, 64, (seq, start, duration) -> this.stallsSunk++);
        final FollowingError followingError = new FollowingError(FollowingError.Limits.defaults(PERIOD_S));
        final TickSchedule schedule = new TickSchedule(PERIOD_NS).start(0);
        final RealisticAxisPlant realistic = new RealisticAxisPlant(RealisticAxisParameters.standard());
        final Cia402Drive drive = new Cia402Drive(realistic, 50.0, 20, 10);
        final CycleStatistics statistics = new CycleStatistics(PERIOD_NS);
        final java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long stallsSunk;
        double checksum;

        void cycles(final int first, final int count)
        {
            for (int k = first; k < first + count; k++)
            {
                final long now = k * PERIOD_NS;
                watchdog.poll(now);
                sample.set(k, now, plant.position(), plant.velocity());
                watchdog.onFrame(now + 20_000);
                lateness.wake(k, now, now + (k % 1000 == 999 ? 3 * PERIOD_NS : 20_000 + (k & 0xff) * 100));
                demo.setpointRepeating(k * PERIOD_S, setpoint);
                controller.step(state, sample, setpoint, state, command);
                deadlines.record(now, now + 30_000 + (k & 0xff) * 3_000);
                plant.step(command.torqueNm(), PERIOD_S);
                if (followingError.check(setpoint.position() - plant.position(), setpoint.velocity()))
                {
                    followingError.reset();
                }
                // the plant's clock, late by three periods every 1000 ticks: it misses ticks
                schedule.skipLate(schedule.dueNanos() + (k % 1000 == 500 ? 3 * PERIOD_NS : 0));
                checksum += schedule.take();
                if (k % 10_000 == 0)
                {
                    recoveryMove.planSCurve(plant.position(), 0.5, 0.6, 3.0, 30.0);
                    recoveryMove.sample(0.1, spare);
                    checksum += spare.position();
                }
                checksum += command.torqueNm();
                // the realistic axis behind its drive: enabled, driven, timed out (a fault) every 5000 cycles, reset
                final int phase = k % 5000;
                final int word = phase < 4990 ? Cia402Drive.CW_OPERATE : (phase & 1) == 0 ?
                    Cia402Drive.CW_SHUTDOWN | Cia402Drive.CW_FAULT_RESET : Cia402Drive.CW_SHUTDOWN;
                drive.tick(word, phase == 4989, 0.05 * Math.sin(k * 1e-3), PERIOD_S);
                checksum += realistic.measuredPosition() + drive.statusWord();
                final long cpuStart = cpu.getCurrentThreadCpuTime();
                statistics.record(now, cpu.getCurrentThreadCpuTime() - cpuStart, k % 777 == 0 ? 2 * PERIOD_NS : 0);
            }
        }
    }
}
