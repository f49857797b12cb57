package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TickScheduleTest
{
    private static final long PERIOD = 250_000; // 4 kHz

    /**
     * Drives a schedule as the plant's loop does: wake at the due time plus whatever hold-up the test injects for
     * that tick, skip, wait again when the new due time is ahead, take.
     */
    private static final class Loop
    {
        final TickSchedule schedule = new TickSchedule(PERIOD).start(0);
        final List<Long> takenAt = new ArrayList<>();
        final List<Long> taken = new ArrayList<>();
        long now;

        void run(final int ticks, final long holdAtTick, final long holdNanos)
        {
            while (taken.size() < ticks)
            {
                now = Math.max(now, schedule.dueNanos());
                if (schedule.nextTick() == holdAtTick)
                {
                    now += holdNanos;
                }
                if (schedule.skipLate(now) > 0)
                {
                    now = Math.max(now, schedule.dueNanos());
                }
                taken.add(schedule.take());
                takenAt.add(now);
            }
        }
    }

    @Test
    void shouldTakeEveryTickOnTimeWhenNothingHoldsTheLoopUp()
    {
        final Loop loop = new Loop();
        loop.run(1000, -1, 0);

        assertThat(loop.schedule.missed()).isZero();
        assertThat(loop.taken.get(999)).isEqualTo(1000);
        assertThat(loop.takenAt.get(999)).isEqualTo(1000 * PERIOD);
    }

    @Test
    void shouldMissTheTicksOfAStallAndNeverTakeTwoTicksCloserThanHalfAPeriod()
    {
        // a 115 ms hold-up at 4 kHz: 460 periods
        final Loop loop = new Loop();
        loop.run(2000, 100, 115_000_000);

        assertThat(loop.schedule.missed()).isEqualTo(460);
        assertThat(loop.schedule.missedEvents()).isEqualTo(1);
        long shortest = Long.MAX_VALUE;
        for (int i = 1; i < loop.takenAt.size(); i++)
        {
            shortest = Math.min(shortest, loop.takenAt.get(i) - loop.takenAt.get(i - 1));
        }
        assertThat(shortest).isGreaterThanOrEqualTo(PERIOD / 2);
        // the tick after the stall carries the number of its time, not of the next tick in line
        final int after = loop.taken.indexOf(99L) + 1;
        assertThat(loop.taken.get(after)).isEqualTo(100 + 460);
        assertThat(loop.takenAt.get(after)).isEqualTo((100 + 460) * PERIOD);
        // every tick taken within half a period of when it was due
        for (int i = 0; i < loop.taken.size(); i++)
        {
            assertThat(loop.takenAt.get(i) - loop.taken.get(i) * PERIOD).isBetween(0L, PERIOD / 2);
        }
    }

    @Test
    void shouldTakeATickUpToHalfAPeriodLateAndMissItBeyond()
    {
        final TickSchedule s = new TickSchedule(PERIOD).start(0);
        assertThat(s.skipLate(PERIOD + PERIOD / 2)).isZero();
        assertThat(s.take()).isEqualTo(1);

        // tick 2 due at 2 periods: woken 0.6 of a period late, it is missed and tick 3 (0.4 ahead) is next
        assertThat(s.skipLate(2 * PERIOD + PERIOD * 6 / 10)).isEqualTo(1);
        assertThat(s.nextTick()).isEqualTo(3);
        assertThat(s.dueNanos()).isEqualTo(3 * PERIOD);
        assertThat(s.take()).isEqualTo(3);

        // woken 2.5 periods + 1 ns late for tick 4: ticks 4, 5, 6 missed, tick 7 is half a period ahead... taken on time
        assertThat(s.skipLate(4 * PERIOD + 5 * PERIOD / 2 + 1)).isEqualTo(3);
        assertThat(s.nextTick()).isEqualTo(7);
        assertThat(s.missed()).isEqualTo(4);
        assertThat(s.missedEvents()).isEqualTo(2);
    }

    @Test
    void shouldRefuseAPeriodTooShortToHalve()
    {
        assertThatThrownBy(() -> new TickSchedule(1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("period 1 ns");
    }
}
