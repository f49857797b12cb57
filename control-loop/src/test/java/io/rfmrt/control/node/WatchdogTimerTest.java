package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.Watchdog;
import io.rfmrt.control.WatchdogConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller's own watchdog timer ({@link WatchdogTimer}: the ring the handler hands frames through and the
 * timer's tick), driven without threads: the handler's offers and the timer's ticks interleaved as the two threads
 * would, with made-up times. The burst of frames a held-up handler takes at one instant cannot end a recovery early:
 * it lasts its M cycles of frame time; a 430-cycle jump in the sensor's cycles trips however steadily frames arrive.
 */
class WatchdogTimerTest
{
    /** 4 kHz. */
    private static final long PERIOD = 250_000L;
    private static final WatchdogConfig CONFIG = WatchdogConfig.defaults(PERIOD);
    private static final int K = CONFIG.missedPeriodsToTrip();
    private static final int M = CONFIG.goodFramesToRecover();

    /** A transition, with the last cycle offered when the tick that made it ran. */
    private record Transition(AxisState from, AxisState to, Watchdog.Reason reason, long nanos, long cycle)
    {
    }

    private final List<Transition> transitions = new ArrayList<>();
    private long offeredCycle;
    private final WatchdogTimer timer = new WatchdogTimer(new Watchdog(CONFIG, (from, to, reason, now) ->
        transitions.add(new Transition(from, to, reason, now, offeredCycle))));

    /** Frame {@code cycle}, published at {@code cycle·PERIOD}, taken by the handler at {@code seen}. */
    private void offer(final long cycle, final long seen)
    {
        assertThat(timer.offer(cycle, cycle * PERIOD, seen)).isTrue();
        offeredCycle = cycle;
    }

    /** Cycles on time: each frame taken 30 µs after it was published, the timer ticking 50 µs later. */
    private void onTime(final long from, final long to)
    {
        for (long c = from; c <= to; c++)
        {
            offer(c, c * PERIOD + 30_000);
            timer.tick(c * PERIOD + 80_000);
        }
    }

    @Test
    void shouldLastTheRecoveryItsCyclesOfFrameTimeAfterABurstOfQueuedFrames()
    {
        onTime(1, 400);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RUNNING);
        // the handler is held up for 115 ms (460 periods); the timer still ticks every period and trips on the silence
        final long stallFrom = 401;
        final long stallTo = 860;
        for (long c = stallFrom; c <= stallTo; c++)
        {
            timer.tick(c * PERIOD + 80_000);
        }
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.SAFE);
        assertThat(transitions.get(transitions.size() - 1).reason()).isEqualTo(Watchdog.Reason.SENSOR_TIMEOUT);
        // then it takes every frame queued meanwhile at one instant: a burst, handed over before the timer's next tick
        final long burstAt = stallTo * PERIOD + 100_000;
        for (long c = stallFrom; c <= stallTo; c++)
        {
            offer(c, burstAt);
        }
        timer.tick(burstAt + 10_000);
        // only the frames no older than K periods when taken are good: the recovery starts at the first of them
        final long firstGood = stallTo - K + 1;
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RECOVERING);
        assertThat(timer.watchdog().staleFrames()).isEqualTo(firstGood - stallFrom);
        // and the axis does not run again until M cycles of frame time after that frame, not at the burst
        onTime(stallTo + 1, firstGood + M - 2);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RECOVERING);
        onTime(firstGood + M - 1, firstGood + M - 1);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RUNNING);
        final Transition recovering = transitions.get(transitions.size() - 2);
        final Transition running = transitions.get(transitions.size() - 1);
        assertThat(recovering.to()).isEqualTo(AxisState.RECOVERING);
        assertThat(running.reason()).isEqualTo(Watchdog.Reason.RECOVERED);
        assertThat(running.cycle() - firstGood + 1).isEqualTo(M);
        // 12.5 ms at 4 kHz in frame time, of which the burst covered K + 1 cycles at one instant
        assertThat(running.nanos() - recovering.nanos()).isGreaterThanOrEqualTo((M - K - 1) * PERIOD);
        assertThat(timer.watchdog().recoveries()).isEqualTo(1);
    }

    @Test
    void shouldTripOnA430CycleGapWhileFramesArriveOnTime()
    {
        onTime(1, 3029);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RUNNING);
        // the next frame arrives a period later, on time, but 430 cycles on
        offer(3459, 3030 * PERIOD + 30_000);
        timer.tick(3030 * PERIOD + 80_000);
        // tripped on the gap; the frame itself is a good one, so (automatic recovery) it starts RECOVERING
        final Transition trip = transitions.get(transitions.size() - 2);
        assertThat(trip.from()).isEqualTo(AxisState.RUNNING);
        assertThat(trip.to()).isEqualTo(AxisState.SAFE);
        assertThat(trip.reason()).isEqualTo(Watchdog.Reason.SENSOR_CYCLE_GAP);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RECOVERING);
        assertThat(timer.watchdog().gapTrips()).isEqualTo(1);
        assertThat(timer.watchdog().trips()).isEqualTo(1);
    }

    @Test
    void shouldPassTheHandlersFaultAndDriveTripOnTheNextTick()
    {
        onTime(1, 100);
        timer.requestDriveTrip(100);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.RUNNING);
        timer.tick(100 * PERIOD + 90_000);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.SAFE);
        assertThat(transitions.get(transitions.size() - 1).reason()).isEqualTo(Watchdog.Reason.DRIVE_NOT_OPERATING);
        // the same request is not a second trip
        onTime(101, 110);
        assertThat(timer.watchdog().driveTrips()).isEqualTo(1);
        timer.requestFault(110);
        timer.tick(110 * PERIOD + 90_000);
        assertThat(timer.watchdog().state()).isEqualTo(AxisState.FAULT);
        onTime(111, 400);
        assertThat(timer.watchdog().state()).as("latched").isEqualTo(AxisState.FAULT);
    }

    @Test
    void shouldRefuseFramesWhenTheTimerIsHeldUpPastItsRing()
    {
        for (long c = 1; c <= WatchdogTimer.SLOTS; c++)
        {
            offer(c, c * PERIOD);
        }
        assertThat(timer.offer(WatchdogTimer.SLOTS + 1, 0, 0)).isFalse();
        timer.tick(WatchdogTimer.SLOTS * PERIOD);
        assertThat(timer.seen()).isEqualTo(WatchdogTimer.SLOTS);
        assertThat(timer.offer(WatchdogTimer.SLOTS + 1, 0, 0)).isTrue();
    }
}
