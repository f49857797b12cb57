package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stall is a wake-up later than one period; the catch-up after it belongs to the same stall.
 */
class WakeLatenessTest
{
    private static final long P = 100_000L;

    @Test
    void shouldCountOneStallForAHoldUpAndTheCatchUpAfterIt()
    {
        final List<long[]> sunk = new ArrayList<>();
        final WakeLateness l = new WakeLateness(P, 8, (seq, start, duration) -> sunk.add(new long[] {seq, start,
            duration}));
        long t = 1_000_000;
        for (int k = 1; k <= 10; k++, t += P)
        {
            l.wake(k, t, t + 2_000);
        }
        // tick 11 wakes 3 ms late; ticks 12.. run back to back (each 5 µs after the last) until on time again
        final long held = t;
        long now = held + 3_000_000;
        int k = 11;
        while (now > t)
        {
            l.wake(k++, t, now);
            now += 5_000;
            t += P;
        }
        for (int i = 0; i < 100; i++, t += P)
        {
            l.wake(k++, t, t + 1_000);
        }
        assertThat(l.stalls()).isEqualTo(1);
        assertThat(sunk).hasSize(1);
        assertThat(sunk.get(0)[0]).isEqualTo(11);
        assertThat(sunk.get(0)[1]).isEqualTo(held);
        assertThat(sunk.get(0)[2]).isGreaterThanOrEqualTo(3_000_000);
        assertThat(l.start(0)).isEqualTo(held);
        assertThat(l.end(0) - l.start(0)).isEqualTo(l.longestNanos());
        assertThat(l.maxLatenessNanos()).isBetween(3_000_000L - 10_000, 3_000_000L + 10_000);
        assertThat(l.latenessAtPercentile(50)).isLessThan(P);
    }

    @Test
    void shouldNotCountAWakeExactlyOnePeriodLateAndCountOneMore()
    {
        final WakeLateness l = new WakeLateness(P, 8, null);
        l.wake(1, 0, P);
        l.wake(2, 10 * P, 10 * P);
        assertThat(l.stalls()).isZero();
        l.wake(3, 20 * P, 21 * P + 1);
        l.wake(4, 30 * P, 30 * P);
        assertThat(l.stalls()).isEqualTo(1);
        assertThat(l.longestNanos()).isEqualTo(P + 1);
    }

    @Test
    void shouldCloseAnOpenStallAtTheEndAndCountStallsBeyondTheCapacity()
    {
        final WakeLateness l = new WakeLateness(P, 2, null);
        for (int i = 0; i < 3; i++)
        {
            l.wake(i, i * 100 * P, i * 100 * P + 2 * P);
        }
        l.finish();
        l.finish();
        assertThat(l.stalls()).isEqualTo(3);
        assertThat(l.kept()).isEqualTo(2);
        assertThat(l.stallsNotKept()).isEqualTo(1);
        assertThat(l.start(1)).isEqualTo(100 * P);
    }
}
