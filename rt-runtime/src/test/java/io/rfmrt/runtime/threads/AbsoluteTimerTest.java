package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.ZeroAllocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

class AbsoluteTimerTest
{
    @Test
    void shouldBindTheKernelTimerOnLinux()
    {
        assertThat(AbsoluteTimer.isKernelTimer()).isTrue();
    }

    @Test
    void shouldNotReturnBeforeTheDeadline()
    {
        final AbsoluteTimer timer = new AbsoluteTimer();
        for (int i = 0; i < 50; i++)
        {
            final long deadline = System.nanoTime() + 200_000;
            timer.sleepUntil(deadline);
            assertThat(System.nanoTime()).isGreaterThanOrEqualTo(deadline);
        }
    }

    @Test
    @Timeout(10)
    void shouldReturnForADeadlineThatHasPassed()
    {
        final AbsoluteTimer timer = new AbsoluteTimer();
        final long before = System.nanoTime();
        // an hour ago: were the timespec wrong (a relative time, a bad tv_nsec) this would sleep, or return early
        timer.sleepUntil(before - 3_600_000_000_000L);
        timer.sleepUntil(Long.MIN_VALUE / 2);
        assertThat(System.nanoTime() - before).isLessThan(10_000_000_000L);
    }

    @Test
    void shouldSleepWithoutAllocating()
    {
        final AbsoluteTimer timer = new AbsoluteTimer();
        final ZeroAllocation.Result r = ZeroAllocation.measure((first, count) ->
        {
            for (int i = 0; i < count; i++)
            {
                // a deadline passed: the whole path, the kernel call included, without the wait
                timer.sleepUntil(first + i);
            }
        }, 50_000, 50_000, 5);
        assertThat(r.lastWindowBytes()).as(r.toString()).isZero();
    }
}
