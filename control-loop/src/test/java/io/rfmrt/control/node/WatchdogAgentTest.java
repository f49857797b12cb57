package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.WakeLateness;
import io.rfmrt.control.Watchdog;
import io.rfmrt.control.WatchdogConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog's timer agent driven by hand with its own clock, no thread: it ticks the timer once per period on the
 * absolute schedule (a late wake-up is measured, the schedule does not slip), trips on silence, and stops watching
 * once the plant says it is done.
 */
class WatchdogAgentTest
{
    private static final long PERIOD = 1_000_000;
    private long now = 5_000_000;
    private long plantDone;
    private final WatchdogTimer timer = new WatchdogTimer(new Watchdog(WatchdogConfig.defaults(PERIOD),
        (from, to, reason, nanos) ->
        {
        }));
    private final WakeLateness lateness = new WakeLateness(PERIOD, 16, (seq, start, duration) ->
    {
    });
    private final WatchdogAgent agent = new WatchdogAgent(timer, lateness, PERIOD, () -> plantDone, () -> now);

    @Test
    void shouldTickOncePerPeriodOnTheScheduleAndTripOnSilence()
    {
        agent.onStart();
        for (long c = 1; c <= 300; c++)
        {
            now = 5_000_000 + c * PERIOD;
            timer.offer(c, now - 50_000, now - 20_000);
            assertThat(agent.doWork()).isEqualTo(1);
        }
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RUNNING);
        assertThat(lateness.wakes()).isEqualTo(300);
        assertThat(lateness.stalls()).isZero();
        // woken three periods late, and no frames from then on: the watchdog trips on the silence; the schedule does
        // not slip, so every wake-up after is as late, one stall
        now += 4 * PERIOD;
        agent.doWork();
        for (int i = 0; i < 20; i++)
        {
            now += PERIOD;
            agent.doWork();
        }
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.SAFE);
        lateness.finish();
        assertThat(lateness.stalls()).isEqualTo(1);
        // from the first late tick's due time to the last wake-up
        assertThat(lateness.longestNanos()).isEqualTo((3 + 20) * PERIOD);
        assertThat(agent.roleName()).isEqualTo(ControllerApp.WATCHDOG_THREAD);
    }

    @Test
    void shouldStopWatchingOnceThePlantIsDone()
    {
        agent.onStart();
        now += PERIOD;
        assertThat(agent.doWork()).isEqualTo(1);
        plantDone = 1;
        assertThat(agent.doWork()).isZero();
        final long wakes = lateness.wakes();
        now += 100 * PERIOD;
        assertThat(agent.doWork()).isZero();
        assertThat(lateness.wakes()).isEqualTo(wakes);
        assertThat(timer.watchdog().state()).as("the end of stream is not a sensor failure")
            .isNotEqualTo(AxisState.SAFE);
    }
}
