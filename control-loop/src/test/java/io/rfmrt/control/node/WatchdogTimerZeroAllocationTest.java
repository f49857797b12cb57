package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.Watchdog;
import io.rfmrt.control.WatchdogConfig;
import io.rfmrt.runtime.ZeroAllocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller's watchdog timer on the hot path: the handler's offer and the timer's tick, with a trip and a
 * recovery every 10 000 frames (a stall of the frames), allocate nothing once warm.
 */
class WatchdogTimerZeroAllocationTest
{
    private static final long PERIOD = 1_000_000L;

    @Test
    void shouldNotAllocateInSteadyState()
    {
        final long[] transitions = new long[1];
        final WatchdogTimer timer = new WatchdogTimer(new Watchdog(WatchdogConfig.defaults(PERIOD),
            (from, to, reason, now) -> transitions[0]++));
        final long[] time = {0};
        final ZeroAllocation.Result r = ZeroAllocation.measure((first, count) ->
        {
            for (long k = first; k < first + count; k++)
            {
                time[0] += PERIOD;
                if (k % 10_000 < 9_980)
                {
                    timer.offer(k + 1, time[0], time[0] + 20_000);
                }
                timer.tick(time[0] + 50_000);
            }
        }, 50_000, 100_000, 5);
        // the measured windows end inside a stall of the frames (cycles ending in 9980..9999): tripped by then
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.SAFE);
        assertThat(timer.watchdog().trips()).isPositive();
        assertThat(timer.watchdog().recoveries()).isPositive();
        assertThat(r.lastWindowBytes()).as(r.toString()).isZero();
    }
}
