package io.rfmrt.control;

import io.rfmrt.control.excite.Excitation;
import io.rfmrt.control.excite.ExcitationLimits;
import io.rfmrt.control.excite.ExcitationSpec;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.CascadedPidLaw;
import io.rfmrt.runtime.ZeroAllocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A control cycle (trajectory sample, controller step, plant step, deadline and watchdog bookkeeping, wake-up lateness
 * with a stall now and then, and now and then a re-planned move; the realistic axis behind its CiA 402 drive with a
 * fault and reset now and then; the loop statistics with the thread's CPU time; the shipped law excited by a chirp on
 * the torque command, a PRBS on the velocity reference or a step on the position setpoint, one after another, some
 * stopped by a fault, some by a deadline-miss burst, the rest done and faded out) allocates nothing once warm.
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
        assertThat(loop.excitedCycles).as("cycles an excitation injected in").isGreaterThan(50_000);
        assertThat(loop.stops[ControlJournal.EXCITATION_DONE]).isPositive();
        assertThat(loop.stops[ControlJournal.EXCITATION_FAULT]).isPositive();
        assertThat(loop.stops[ControlJournal.EXCITATION_DEADLINE_MISSES]).isPositive();
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
        final CascadedPidLaw law = new CascadedPidLaw(ControllerGains.standard());
        final AxisPlant excitedPlant = new AxisPlant(AxisParameters.standard());
        final SensorSample excitedSample = new SensorSample();
        final Setpoint excitedSetpoint = new Setpoint();
        final ControlCommand excitedCommand = new ControlCommand();
        /** One excitation per block of {@link #BLOCK} cycles, made before the measurement. */
        final Excitation[] excitations = new Excitation[128];
        final long[] stops = new long[5];
        long excitedCycles;
        long stallsSunk;
        double checksum;
        static final int BLOCK = 5000;

        Loop()
        {
            final String[] specs = {"chirp:point=torque,f0=5,f1=400,amp=0.1,seconds=3,start=0.1",
                "prbs:point=velocity,amp=2,bit=2,seed=9,seconds=3,start=0.1",
                "step:point=position,amp=0.004,seconds=3,start=0.1"};
            for (int i = 0; i < excitations.length; i++)
            {
                excitations[i] = new Excitation(ExcitationSpec.parse(specs[i % 3]), ExcitationLimits.defaults(),
                    PERIOD_S);
            }
        }

        /**
         * The shipped law on its own axis with this block's excitation: every 4th block from the second faults
         * (the axis not driven) at 2000 cycles in, every 4th from the third has three deadline misses then.
         */
        void excite(final int k)
        {
            final int block = k / BLOCK;
            final int at = k % BLOCK;
            final Excitation e = excitations[block % excitations.length];
            excitedSample.set(k, k * PERIOD_NS, excitedPlant.position(), excitedPlant.velocity());
            demo.setpointRepeating(k * PERIOD_S, excitedSetpoint);
            final boolean driven = !(block % 4 == 1 && at >= 2000 && at < 2010);
            stops[e.cycle(k, driven, true)]++;
            if (driven)
            {
                e.beforeLaw(excitedSetpoint, law);
                law.update(excitedSample, excitedSetpoint, k * PERIOD_S, PERIOD_S, excitedCommand);
                e.afterLaw(excitedCommand);
                excitedPlant.step(excitedCommand.torqueNm(), PERIOD_S);
            }
            else
            {
                law.activate(excitedSample);
                excitedPlant.step(0.0, PERIOD_S);
            }
            if (block % 4 == 2 && (at == 2000 || at == 2010 || at == 2020))
            {
                e.deadlineMiss(k);
            }
            excitedCycles += e.active() ? 1 : 0;
            checksum += excitedCommand.torqueNm() + e.value() + e.frequencyHz() + e.before();
        }

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
                excite(k);
            }
        }
    }
}
