package io.rfmrt.control.node;

import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.DeadlineMonitor;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.FollowingError;
import io.rfmrt.control.law.ControlLaws;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The acceptance point of {@code rfmrt demo --seconds 3 --plant realistic --fault latency:3ms}, held with no process
 * and no clock: the realistic axis, the law and gains the demo's controller runs, the fast profile where the demo's
 * trajectory clock puts it, the drive's transport delay, and from 40 % of the 3000 cycles on three more periods of
 * delay; the controller's following-error check (its {@link Supervision}, with the limits the demo's controller is
 * configured with) faults the axis within 200 cycles of the injection, and not before it. Without the added latency
 * the run does not fault.
 * <p>
 * The settings are built as the demo writes them ({@link PlantSettings}, {@link ControllerApp.Settings}), so the axis
 * model, the transport delay, the profile and the limits are the nodes' own defaults.
 * <p>
 * The plant's delay and the harness's: the plant's tick c ({@code PlantApp}'s {@code actuate}, c = 1, 2, ...) takes
 * the newest command answering a cycle at most c − 1 − T − L(c), where T is the drive's transport periods and L(c)
 * the latency fault's periods (from its first cycle on, else 0), holds it (never going back to an older one), steps
 * the axis one period under it, and then publishes sensor frame c: the state after c steps. The harness's cycle k
 * samples the state after k steps (sensor frame k), computes command k, and steps the axis from k to k + 1 under the
 * command of cycle k − delayCycles, held likewise ({@link ClosedLoopHarness#delayCycles(int)}). The step from k to
 * k + 1 is the plant's tick k + 1, under command k − T − L(k + 1); so delayCycles = T + L(k + 1): T up to cycle
 * latencyFrom − 2, and T + L from cycle latencyFrom − 1 on (the step into sensor frame latencyFrom is the first the
 * latency holds back).
 * <p>
 * How soon the loop trips depends on where in the profile the delay comes: here the injection falls at the end of a
 * deceleration into 0.5 rad (the profile's 1.128 s), and the loop, unstable with four periods of delay, rings up past
 * the limit within a few tens of cycles (cycle 1226, as in a quiet demo run). Landing in a dwell, it would not trip
 * until the next move starts, more than 200 cycles on; so the trajectory's origin below is part of the acceptance
 * point.
 */
class RealisticLatencyFaultTest
{
    private static final int RATE_HZ = 1000;
    private static final double PERIOD_S = 1.0 / RATE_HZ;
    private static final long PERIOD_NS = TimeUnit.SECONDS.toNanos(1) / RATE_HZ;
    /** {@code --seconds 3} at 1 kHz: the plant's ticks. */
    private static final long CYCLES = 3L * RATE_HZ;
    /** The demo places each fault at 40 % of the cycles ({@code DemoFault.parse}): 1200. */
    private static final long LATENCY_FROM = CYCLES * 40 / 100;
    /** {@code latency:3ms}. */
    private static final long LATENCY_NS = TimeUnit.MILLISECONDS.toNanos(3);
    /** The bound the demo's acceptance test held on a quiet machine: the fault within 200 cycles of the injection. */
    private static final long FAULT_WITHIN_CYCLES = 200;
    /**
     * The sensor cycle the demo's trajectory clock counts from ({@link TrajectoryClock}: its setpoint at sensor cycle c
     * is the profile's at (c − origin)·period). The watchdog goes RUNNING on the 50th good frame, then the drive
     * handshake runs (the operate word a period and the drive's transport period late, then the brake's 20 ms
     * release), and the clock starts on the first frame reporting the drive ready: a quiet run's controller journal
     * has the setpoint first move (after the profile's 0.5 s lead-in) on sensor cycle 573, the profile's cycle 501.
     * Before the origin the setpoint holds the profile's start (0 rad), where the demo's holds the axis where it stood.
     */
    private static final long TRAJECTORY_ORIGIN = 72;

    /** What one run found. */
    private record Run(long faultCycle, double lagAtFault, double limitAtFault, double peakLag, double peakLagBefore)
    {
    }

    @Test
    void shouldFaultOnTheFollowingErrorWithinTwoHundredCyclesOfThreeMorePeriodsOfDelayOnTheRealisticAxis()
    {
        final Run r = run(true);
        final String found = String.format(Locale.ROOT, "fault at cycle %d (%d after the injection at %d), lag %.2f " +
            "mrad over the limit %.2f mrad; peak lag before the injection %.2f mrad", r.faultCycle(),
            r.faultCycle() - LATENCY_FROM, LATENCY_FROM, r.lagAtFault() * 1e3, r.limitAtFault() * 1e3,
            r.peakLagBefore() * 1e3);
        System.out.println("realistic axis, fast profile, 1 kHz, latency 3 ms from cycle " + LATENCY_FROM + ": " +
            found);
        assertThat(r.faultCycle()).as(found).isPositive();
        assertThat(r.faultCycle() - LATENCY_FROM).as("cycles from the injection to the fault: " + found)
            .isBetween(0L, FAULT_WITHIN_CYCLES);
    }

    @Test
    void shouldNotFaultWithoutTheAddedLatency()
    {
        final Run r = run(false);
        final String found = String.format(Locale.ROOT, "fault cycle %d (0: none), peak lag %.2f mrad",
            r.faultCycle(), r.peakLag() * 1e3);
        System.out.println("realistic axis, fast profile, 1 kHz, no latency: " + found);
        assertThat(r.faultCycle()).as(found).isZero();
    }

    /**
     * The demo's loop over its cycles, with or without the latency fault.
     */
    private static Run run(final boolean latency)
    {
        // the plant and the controller as the demo configures them for --plant realistic (fast profile, standard tune)
        final PlantSettings plant = new PlantSettings(RATE_HZ, CYCLES, null, null, null, latency ? LATENCY_FROM : 0,
            latency ? LATENCY_NS : 0, null, PlantApp.MODEL_REALISTIC, null, null, null, null, null);
        final ControllerApp.Settings controller = new ControllerApp.Settings(RATE_HZ, null, null, null, null,
            DemoProfile.FAST, null, null, null, null, null, null, null, null, null, null, null);
        final int transport = plant.delayPeriods();
        final int added = (int)(plant.latencyNanos() / PERIOD_NS);
        assertThat(transport).as("the realistic drive's transport delay").isEqualTo(1);
        assertThat(added).isEqualTo(latency ? 3 : 0);

        final ControlLaw law = ControlLaws.create(controller.law(), RealisticLatencyFaultTest.class.getClassLoader());
        law.configure(controller.gains() == null ? Map.of() : controller.gains(), PERIOD_S);
        final DemoProfile profile = DemoProfile.named(controller.profile());
        final FollowingError check = new FollowingError(controller.followingErrorLimits());
        final Supervision supervision = new Supervision(new DeadlineMonitor(PERIOD_NS), check, 1, cycle ->
        {
        });
        final ClosedLoopHarness loop = new ClosedLoopHarness(plant.newAxis(), law, PERIOD_S, transport,
            transport + added);
        final ClosedLoopHarness.SetpointSource setpoints = (t, out) ->
            profile.setpoint(Math.max(0, Math.round(t / PERIOD_S) - TRAJECTORY_ORIGIN) * PERIOD_S, out);
        final double[] peakBefore = {0};
        final ClosedLoopHarness.Observer supervise = (sample, setpoint, command) ->
        {
            final double error = setpoint.position() - sample.position();
            if (sample.cycle() < LATENCY_FROM)
            {
                peakBefore[0] = Math.max(peakBefore[0], Math.abs(error));
            }
            supervision.followingError(sample.cycle(), error, setpoint.velocity());
        };

        // harness cycles 0 .. latencyFrom − 2 under the transport delay alone, then (the plant's ticks from
        // latencyFrom on) the latency too, through sensor frame CYCLES
        final long before = plant.latencyFrom() > 0 ? plant.latencyFrom() - 1 : CYCLES + 1;
        loop.run(setpoints, before, supervise);
        loop.delayCycles(transport + added);
        loop.run(setpoints, CYCLES + 1 - loop.cycles(), supervise);
        assertThat(loop.cycles()).isEqualTo(CYCLES + 1);
        return new Run(supervision.faultCycle(), check.lagAtFault(), check.limitAtFault(), check.peakLag(),
            peakBefore[0]);
    }
}
