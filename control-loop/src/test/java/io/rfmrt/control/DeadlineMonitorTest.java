package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Deadline accounting with injected times.
 */
class DeadlineMonitorTest
{
    private static final long PERIOD = 1_000_000L;

    @Test
    void shouldPutTheDefaultDeadlineAtHalfThePeriod()
    {
        final DeadlineMonitor monitor = new DeadlineMonitor(PERIOD);
        assertThat(monitor.deadlineNanos()).isEqualTo(500_000L);
        assertThat(monitor.deadlineFraction()).isEqualTo(0.5);
        assertThat(new DeadlineMonitor(250_000L, 0.8).deadlineNanos()).isEqualTo(200_000L);
    }

    @Test
    void shouldCountMissesAndKeepTheWorstLateness()
    {
        final DeadlineMonitor monitor = new DeadlineMonitor(PERIOD);
        long send = 10_000_000L;
        final long[] latencies = {120_000, 500_000, 500_001, 80_000, 900_000, 1_700_000, 60_000};
        int missed = 0;
        for (final long latency : latencies)
        {
            missed += monitor.record(send, send + latency) ? 1 : 0;
            send += PERIOD;
        }
        assertThat(missed).isEqualTo(3);
        assertThat(monitor.cycles()).isEqualTo(7);
        assertThat(monitor.misses()).isEqualTo(3);
        assertThat(monitor.worstLatencyNanos()).isEqualTo(1_700_000L);
        assertThat(monitor.worstLatenessNanos()).isEqualTo(1_200_000L);
        assertThat(monitor.maxConsecutiveMisses()).isEqualTo(2);
        assertThat(monitor.consecutiveMisses()).isZero();
        assertThat(monitor.lastLatencyNanos()).isEqualTo(60_000L);
        assertThat(monitor.periodNanos()).isEqualTo(PERIOD);
        assertThat(monitor.record(send, send + PERIOD)).isTrue();
        assertThat(monitor.consecutiveMisses()).isEqualTo(1);
    }

    @Test
    void shouldCountAZeroLatencyAsAHit()
    {
        final DeadlineMonitor monitor = new DeadlineMonitor(PERIOD);
        assertThat(monitor.record(1_000, 1_000)).isFalse();
        assertThat(monitor.cycles()).isEqualTo(1);
        assertThat(monitor.negativeLatencies()).isZero();
        assertThat(monitor.misses()).isZero();
    }

    @Test
    void shouldCountNegativeLatenciesApart()
    {
        final DeadlineMonitor monitor = new DeadlineMonitor(PERIOD);
        assertThat(monitor.record(1_000, 500)).isFalse();
        assertThat(monitor.negativeLatencies()).isEqualTo(1);
        assertThat(monitor.misses()).isZero();
        assertThat(monitor.worstLatencyNanos()).isZero();
    }

    @Test
    void shouldResetEveryCount()
    {
        final DeadlineMonitor monitor = new DeadlineMonitor(PERIOD);
        monitor.record(0, 2 * PERIOD);
        monitor.record(0, -1);
        monitor.reset();
        assertThat(monitor.cycles()).isZero();
        assertThat(monitor.misses()).isZero();
        assertThat(monitor.worstLatenessNanos()).isZero();
        assertThat(monitor.worstLatencyNanos()).isZero();
        assertThat(monitor.negativeLatencies()).isZero();
        assertThat(monitor.maxConsecutiveMisses()).isZero();
    }

    @Test
    void shouldNameBadSettings()
    {
        assertThatThrownBy(() -> new DeadlineMonitor(0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("deadline.periodNanos must be > 0, was 0");
        assertThatThrownBy(() -> new DeadlineMonitor(PERIOD, 1.5)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("deadline.fraction must be in (0, 1], was 1.5");
        assertThatThrownBy(() -> new DeadlineMonitor(PERIOD, 0.0)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("deadline.fraction must be in (0, 1], was 0.0");
        assertThat(new DeadlineMonitor(PERIOD, 1.0).deadlineNanos()).as("the whole period").isEqualTo(PERIOD);
    }
}
