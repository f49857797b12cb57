package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The watchdog's states with injected time: start, trip after K missed periods, automatic and commanded recovery,
 * the commanded stop, and every transition reported.
 */
class WatchdogTest
{
    private static final long PERIOD = 1_000_000L;
    private static final int K = 5;
    private static final int M = 20;

    private final List<String> transitions = new ArrayList<>();
    private long now;

    private Watchdog watchdog(final WatchdogConfig.Recovery recovery)
    {
        return new Watchdog(new WatchdogConfig(PERIOD, K, M, recovery),
            (from, to, reason, nanos) -> transitions.add(from + "->" + to + " " + reason + " @" + nanos / PERIOD));
    }

    /** One period of time passes with a frame at its end (and the node's poll). */
    private AxisState frames(final Watchdog watchdog, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            now += PERIOD;
            watchdog.poll(now);
            watchdog.onFrame(now);
        }
        return watchdog.state();
    }

    /** Periods pass with polls but no frames. */
    private AxisState silence(final Watchdog watchdog, final int periods)
    {
        for (int i = 0; i < periods; i++)
        {
            now += PERIOD;
            watchdog.poll(now);
        }
        return watchdog.state();
    }

    @Test
    void shouldStartAfterMGoodFramesAndNotTripWhileStarting()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        assertThat(watchdog.state()).isEqualTo(AxisState.STARTING);
        assertThat(silence(watchdog, 100)).isEqualTo(AxisState.STARTING);
        assertThat(frames(watchdog, M - 1)).isEqualTo(AxisState.STARTING);
        assertThat(silence(watchdog, K + 1)).as("a gap while starting restarts the count")
            .isEqualTo(AxisState.STARTING);
        assertThat(watchdog.goodFrames()).isZero();
        assertThat(frames(watchdog, M - 1)).isEqualTo(AxisState.STARTING);
        assertThat(frames(watchdog, 1)).isEqualTo(AxisState.RUNNING);
        assertThat(watchdog.running()).isTrue();
        assertThat(watchdog.trips()).isZero();
        assertThat(transitions).containsExactly("STARTING->RUNNING SENSOR_STREAM_STEADY @" + (100 + M - 1 + K + 1 + M));
    }

    @Test
    void shouldTripAfterKMissedPeriodsAndNotBefore()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        final long last = now;
        assertThat(watchdog.poll(last + K * PERIOD)).as("exactly K periods: not yet").isEqualTo(AxisState.RUNNING);
        assertThat(watchdog.poll(last + K * PERIOD + 1)).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.trips()).isEqualTo(1);
        assertThat(watchdog.poll(last + 100 * PERIOD)).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.trips()).as("one trip, however long the silence").isEqualTo(1);
        assertThat(transitions).last().isEqualTo("RUNNING->SAFE SENSOR_TIMEOUT @" + (last / PERIOD + K));
    }

    @Test
    void shouldRideThroughGapsShorterThanKPeriods()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        for (int i = 0; i < 10; i++)
        {
            silence(watchdog, K - 1);
            frames(watchdog, 1);
        }
        assertThat(watchdog.state()).isEqualTo(AxisState.RUNNING);
        assertThat(watchdog.trips()).isZero();
    }

    @Test
    void shouldRecoverAutomaticallyAfterMGoodFrames()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        assertThat(silence(watchdog, K + 1)).isEqualTo(AxisState.SAFE);
        assertThat(frames(watchdog, 1)).isEqualTo(AxisState.RECOVERING);
        assertThat(frames(watchdog, M - 2)).isEqualTo(AxisState.RECOVERING);
        assertThat(watchdog.recoveries()).isZero();
        assertThat(frames(watchdog, 1)).isEqualTo(AxisState.RUNNING);
        assertThat(watchdog.recoveries()).isEqualTo(1);
        assertThat(watchdog.trips()).isEqualTo(1);
        assertThat(transitions).extracting(s -> s.substring(0, s.indexOf(" @"))).containsExactly(
            "STARTING->RUNNING SENSOR_STREAM_STEADY",
            "RUNNING->SAFE SENSOR_TIMEOUT",
            "SAFE->RECOVERING SENSOR_FRAMES_RETURNED",
            "RECOVERING->RUNNING RECOVERED");
    }

    @Test
    void shouldTripAgainWhenFramesStopWhileRecovering()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        silence(watchdog, K + 1);
        frames(watchdog, M / 2);
        assertThat(silence(watchdog, K + 1)).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.trips()).isEqualTo(2);
        assertThat(transitions).last().asString().startsWith("RECOVERING->SAFE SENSOR_TIMEOUT");
        assertThat(frames(watchdog, M)).isEqualTo(AxisState.RUNNING);
    }

    @Test
    void shouldTripOnALateFrameEvenWithoutAPoll()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        now += (K + 3) * PERIOD;
        assertThat(watchdog.onFrame(now)).isEqualTo(AxisState.RECOVERING);
        assertThat(watchdog.trips()).isEqualTo(1);
        assertThat(transitions).extracting(s -> s.substring(0, s.indexOf(" @"))).endsWith(
            "RUNNING->SAFE SENSOR_TIMEOUT", "SAFE->RECOVERING SENSOR_FRAMES_RETURNED");
    }

    @Test
    void shouldRecoverOnlyWhenCommandedInCommandedMode()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.COMMANDED);
        frames(watchdog, M);
        assertThat(silence(watchdog, K + 1)).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.commandRecovery(now)).as("no frames flowing: refused").isFalse();
        assertThat(frames(watchdog, 3 * M)).as("frames alone do not recover").isEqualTo(AxisState.SAFE);
        assertThat(watchdog.commandRecovery(now)).isTrue();
        assertThat(watchdog.state()).isEqualTo(AxisState.RECOVERING);
        assertThat(frames(watchdog, M - 1)).isEqualTo(AxisState.RECOVERING);
        assertThat(frames(watchdog, 1)).isEqualTo(AxisState.RUNNING);
        assertThat(watchdog.recoveries()).isEqualTo(1);
        assertThat(watchdog.commandRecovery(now)).as("not in SAFE: refused").isFalse();
        assertThat(transitions).extracting(s -> s.substring(0, s.indexOf(" @"))).containsExactly(
            "STARTING->RUNNING SENSOR_STREAM_STEADY",
            "RUNNING->SAFE SENSOR_TIMEOUT",
            "SAFE->RECOVERING RECOVERY_COMMANDED",
            "RECOVERING->RUNNING RECOVERED");
    }

    @Test
    void shouldLatchACommandedStopUntilRecoveryIsCommanded()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        watchdog.commandSafe(now);
        assertThat(watchdog.state()).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.latched()).isTrue();
        assertThat(frames(watchdog, 3 * M)).as("even automatic recovery waits").isEqualTo(AxisState.SAFE);
        watchdog.commandSafe(now);
        assertThat(watchdog.commandedStops()).isEqualTo(1);
        assertThat(watchdog.trips()).isZero();
        assertThat(watchdog.commandRecovery(now)).isTrue();
        assertThat(watchdog.latched()).isFalse();
        assertThat(frames(watchdog, M)).isEqualTo(AxisState.RUNNING);
    }

    @Test
    void shouldReportTheConfiguredTimeout()
    {
        final WatchdogConfig config = WatchdogConfig.defaults(250_000L);
        assertThat(config.timeoutNanos()).isEqualTo(250_000L * WatchdogConfig.MISSED_PERIODS_TO_TRIP_DEFAULT);
        assertThat(new Watchdog(config, (a, b, c, d) ->
        {
        }).config().recovery()).isEqualTo(WatchdogConfig.Recovery.AUTOMATIC);
    }

    @Test
    void shouldNameEveryBadSetting()
    {
        final WatchdogConfig bad = new WatchdogConfig(0, 0, 0, null);
        assertThatThrownBy(() -> new Watchdog(bad, (a, b, c, d) ->
        {
        })).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("watchdog.periodNanos must be > 0, was 0")
            .hasMessageContaining("watchdog.missedPeriodsToTrip must be >= 1, was 0")
            .hasMessageContaining("watchdog.goodFramesToRecover must be >= 1, was 0")
            .hasMessageContaining("watchdog.recovery must be AUTOMATIC or COMMANDED, was null");
        assertThatThrownBy(() -> new Watchdog(WatchdogConfig.defaults(PERIOD), null))
            .isInstanceOf(IllegalArgumentException.class);
    }
    @Test
    void shouldNotEndARecoveryOnABurstOfQueuedFramesAndLastItsTimeInFrameTime()
    {
        // 4 kHz, K = 10, M = 50: frames stamped every 250 us; the handler stalls for 115 ms, then hands over the backlog
        final long period = 250_000;
        final List<String> log = new ArrayList<>();
        final Watchdog w = new Watchdog(WatchdogConfig.defaults(period),
            (from, to, reason, now) -> log.add(from + ">" + to + ":" + reason + "@" + now));
        long cycle = 0;
        for (; cycle < 100; cycle++)
        {
            w.onFrame(cycle + 1, (cycle + 1) * period, (cycle + 1) * period + 20_000);
        }
        assertThat(w.state()).isEqualTo(AxisState.RUNNING);
        final long stallEnd = (cycle + 460) * period;
        w.poll(stallEnd - 100);
        assertThat(w.state()).as("the timer saw the silence").isEqualTo(AxisState.SAFE);
        // the backlog: 460 frames, all seen at one instant
        for (int k = 1; k <= 460; k++)
        {
            w.onFrame(cycle + k, (cycle + k) * period, stallEnd);
        }
        cycle += 460;
        assertThat(w.state()).as("no recovery completes at one instant").isEqualTo(AxisState.RECOVERING);
        assertThat(w.staleFrames()).as("frames older than K periods are not good").isEqualTo(449);
        // frames then come in real time: RUNNING exactly M cycles after the first fresh one
        final long firstFresh = cycle - 10;
        long runningAt = -1;
        for (long c = cycle + 1; c < cycle + 100 && runningAt < 0; c++)
        {
            w.onFrame(c, c * period, c * period + 20_000);
            if (w.running())
            {
                runningAt = c;
            }
        }
        assertThat(runningAt - firstFresh + 1).isEqualTo(50);
        assertThat(w.recoveries()).isEqualTo(1);
    }

    @Test
    void shouldTripOnASensorCycleGapEvenWhenFramesArriveOnTime()
    {
        final long period = 250_000;
        final Watchdog w = new Watchdog(WatchdogConfig.defaults(period), (from, to, reason, now) -> { });
        for (long c = 1; c <= 3029; c++)
        {
            w.onFrame(c, c * period, c * period + 10_000);
        }
        assertThat(w.running()).isTrue();
        // the next frame is cycle 3459, seen one period later by the clock of arrival: 430 cycles missing
        w.onFrame(3459, 3030 * period, 3030 * period + 10_000);
        assertThat(w.state()).isEqualTo(AxisState.RECOVERING);
        assertThat(w.trips()).isEqualTo(1);
        assertThat(w.gapTrips()).isEqualTo(1);
        // a gap of exactly K is not a trip
        final Watchdog k = new Watchdog(WatchdogConfig.defaults(period), (from, to, reason, now) -> { });
        for (long c = 1; c <= 60; c++)
        {
            k.onFrame(c, c * period, c * period);
        }
        k.onFrame(70, 61 * period, 61 * period);
        assertThat(k.trips()).isZero();
        k.onFrame(81, 62 * period, 62 * period);
        assertThat(k.trips()).isEqualTo(1);
    }

    @Test
    void shouldLatchAFaultThatNoFrameTimeoutOrStopLeavesAndResetOnlyToALatchedSafe()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        assertThat(watchdog.fault(now)).isTrue();
        assertThat(watchdog.state()).isEqualTo(AxisState.FAULT);
        assertThat(watchdog.fault(now)).as("already faulted").isFalse();
        assertThat(watchdog.faults()).isEqualTo(1);

        assertThat(frames(watchdog, 3 * M)).as("good frames do not re-enable a faulted axis").isEqualTo(AxisState.FAULT);
        assertThat(silence(watchdog, 3 * K)).as("nor does a timeout move it").isEqualTo(AxisState.FAULT);
        assertThat(watchdog.trips()).isZero();
        watchdog.commandSafe(now);
        assertThat(watchdog.state()).as("a stop does not clear a fault").isEqualTo(AxisState.FAULT);
        assertThat(watchdog.commandRecovery(now)).isFalse();

        assertThat(watchdog.resetFault(now)).isTrue();
        assertThat(watchdog.state()).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.latched()).isTrue();
        assertThat(frames(watchdog, 3 * M)).as("reset alone does not re-enable").isEqualTo(AxisState.SAFE);
        assertThat(watchdog.resetFault(now)).as("not faulted").isFalse();
        assertThat(watchdog.commandRecovery(now)).isTrue();
        assertThat(frames(watchdog, M)).isEqualTo(AxisState.RUNNING);
        assertThat(transitions).contains("RUNNING->FAULT FOLLOWING_ERROR @" + M, "FAULT->SAFE FAULT_RESET @" + (4 * M + 3 * K));
    }

    @Test
    void shouldTripWhenTheDriveIsNotOperatingAndRecoverAsAfterATimeout()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        assertThat(watchdog.driveNotOperating(now)).as("not RUNNING yet").isFalse();
        frames(watchdog, M);
        assertThat(watchdog.driveNotOperating(now)).isTrue();
        assertThat(watchdog.state()).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.driveNotOperating(now)).as("only from RUNNING").isFalse();
        assertThat(watchdog.trips()).isEqualTo(1);
        assertThat(watchdog.driveTrips()).isEqualTo(1);
        assertThat(watchdog.latched()).isFalse();
        assertThat(frames(watchdog, M - 1)).isEqualTo(AxisState.RECOVERING);
        assertThat(frames(watchdog, 1)).isEqualTo(AxisState.RUNNING);
        assertThat(transitions).contains("RUNNING->SAFE DRIVE_NOT_OPERATING @" + M);
    }

    @Test
    void shouldAcceptARecoveryCommandUpToExactlyKPeriodsAfterTheLastFrame()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.COMMANDED);
        frames(watchdog, M);
        watchdog.commandSafe(now);
        final long last = now;
        assertThat(watchdog.lastFrameNanos()).isEqualTo(last);
        assertThat(watchdog.commandRecovery(last + K * PERIOD + 1)).as("one ns past K periods: stale").isFalse();
        assertThat(watchdog.state()).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.commandRecovery(last + K * PERIOD)).as("exactly K periods: still fresh").isTrue();
        assertThat(watchdog.state()).isEqualTo(AxisState.RECOVERING);
    }

    @Test
    void shouldTripOnARecoveryCommandThatFindsTheStreamSilent()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        // no poll since the last frame: the command itself sees the silence
        assertThat(watchdog.commandRecovery(now + (K + 1) * PERIOD)).isFalse();
        assertThat(watchdog.state()).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.trips()).isEqualTo(1);
        assertThat(transitions).last().asString().startsWith("RUNNING->SAFE SENSOR_TIMEOUT");
    }

    @Test
    void shouldIgnoreADuplicateOrReorderedFrame()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        assertThat(watchdog.config().goodFramesToRecover()).isEqualTo(M);
        frames(watchdog, M);
        assertThat(watchdog.frames()).isEqualTo(M);
        assertThat(watchdog.lastCycle()).isEqualTo(M);
        assertThat(watchdog.goodFrames()).isEqualTo(M);
        assertThat(watchdog.onFrame(M, now, now + 1)).as("the same cycle again").isEqualTo(AxisState.RUNNING);
        assertThat(watchdog.onFrame(M - 3, now, now + 2)).as("an older cycle").isEqualTo(AxisState.RUNNING);
        assertThat(watchdog.frames()).isEqualTo(M);
        assertThat(watchdog.lastCycle()).isEqualTo(M);
        assertThat(watchdog.lastFrameNanos()).isEqualTo(now);
    }

    @Test
    void shouldTripOnAFrameStampedMoreThanKPeriodsBeforeItIsSeen()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        // the stream is fresh (the newest stamp is one period old) but this frame's own stamp is K + 1 periods old
        now += PERIOD;
        assertThat(watchdog.onFrame(M + 1, now - (K + 1) * PERIOD, now)).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.staleTrips()).isEqualTo(1);
        assertThat(watchdog.staleFrames()).isEqualTo(1);
        assertThat(watchdog.trips()).isEqualTo(1);
        assertThat(watchdog.goodFrames()).isZero();
        assertThat(transitions).last().asString().startsWith("RUNNING->SAFE SENSOR_FRAME_STALE");
        // exactly K periods old is still good
        now += PERIOD;
        assertThat(watchdog.onFrame(M + 2, now - K * PERIOD, now)).isEqualTo(AxisState.RECOVERING);
        assertThat(watchdog.staleFrames()).isEqualTo(1);
        assertThat(watchdog.goodFrames()).isEqualTo(1);
        // a stale frame ends a recovery the same way
        now += PERIOD;
        assertThat(watchdog.onFrame(M + 3, now - (K + 1) * PERIOD, now)).isEqualTo(AxisState.SAFE);
        assertThat(watchdog.staleTrips()).isEqualTo(2);
        assertThat(transitions).last().asString().startsWith("RECOVERING->SAFE SENSOR_FRAME_STALE");
    }

    @Test
    void shouldEndARecoveryOnASensorCycleGap()
    {
        final Watchdog watchdog = watchdog(WatchdogConfig.Recovery.AUTOMATIC);
        frames(watchdog, M);
        silence(watchdog, K + 1);
        assertThat(frames(watchdog, 2)).isEqualTo(AxisState.RECOVERING);
        now += PERIOD;
        final long cycle = watchdog.lastCycle() + K + 1;
        // a trip, and the frame after the gap starts the recovery again from its first good frame
        assertThat(watchdog.onFrame(cycle, now, now)).isEqualTo(AxisState.RECOVERING);
        assertThat(watchdog.gapTrips()).isEqualTo(1);
        assertThat(watchdog.trips()).isEqualTo(2);
        assertThat(watchdog.goodFrames()).isEqualTo(1);
        assertThat(transitions).extracting(t -> t.substring(0, t.indexOf(" @"))).endsWith(
            "RECOVERING->SAFE SENSOR_CYCLE_GAP", "SAFE->RECOVERING SENSOR_FRAMES_RETURNED");
    }
}
