package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The matching rule: an event coincides with a stall when they overlap with one period of slack on each side.
 */
class StallMatcherTest
{
    private static final long P = 1_000_000L;

    @Test
    void shouldMatchMissesThatOverlapOrLieWithinOnePeriodOfAStallAndLeaveTheRestUnexplained()
    {
        // stalls given out of order, one of them long and covering a later short one
        final long[] starts = {50 * P, 10 * P, 12 * P};
        final long[] ends = {53 * P, 30 * P, 13 * P};
        final StallMatcher m = new StallMatcher(starts, ends, 3, P);

        final long[] from = {
            20 * P,             // inside the long stall
            31 * P,             // starts 1 period after its end: within the slack
            31 * P + 1,         // 1 ns beyond the slack: unexplained
            48 * P,             // ends 1 period before the next stall starts (to = 49 P): within the slack
            5 * P,              // far from every stall: unexplained
            52 * P};            // inside the last one
        final long[] to = {20 * P + 60_000, 31 * P + 60_000, 31 * P + 60_000, 49 * P, 5 * P + 60_000, 52 * P + 1};

        assertThat(m.coincides(from[0], to[0])).isTrue();
        assertThat(m.coincides(from[1], to[1])).isTrue();
        assertThat(m.coincides(from[2], to[2])).isFalse();
        assertThat(m.coincides(from[3], to[3])).isTrue();
        assertThat(m.coincides(48 * P - 1, 49 * P - 1)).isFalse();
        assertThat(m.coincides(from[4], to[4])).isFalse();
        assertThat(m.coincides(from[5], to[5])).isTrue();
        assertThat(m.matched(from, to, from.length)).isEqualTo(4);
    }

    @Test
    void shouldMatchAWatchdogTripWhoseSilentWindowHoldsAStall()
    {
        // a trip at 120 P after K = 10 silent periods: its window is [109 P, 120 P]; a plant stall 100..111 P reaches it
        final StallMatcher m = new StallMatcher(new long[] {100 * P}, new long[] {111 * P}, 1, P);
        assertThat(m.coincides(109 * P, 120 * P)).isTrue();
        // the same trip a second later is unexplained
        assertThat(m.coincides(1109 * P, 1120 * P)).isFalse();
    }

    @Test
    void shouldFindNothingWithoutStallsAndRejectNegativeSlack()
    {
        final StallMatcher none = new StallMatcher(new long[0], new long[0], 0, P);
        assertThat(none.coincides(0, P)).isFalse();
        assertThat(none.matched(new long[] {1, 2}, new long[] {3, 4}, 2)).isZero();
        assertThatThrownBy(() -> new StallMatcher(new long[0], new long[0], 0, -1))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSortEachMissOnceIntoAStallALateWakeAPreemptionOrUnexplained()
    {
        // a stall 100..110 P; the deadline is half a period; each miss ends 10 µs past it
        final StallMatcher m = new StallMatcher(new long[] {100 * P}, new long[] {110 * P}, 1, P);
        final long deadline = P / 2;
        final long over = 10_000;
        final long[] from = {105 * P, 200 * P, 300 * P, 400 * P, 108 * P, 500 * P, 600 * P};
        final long[] to = new long[from.length];
        for (int i = 0; i < from.length; i++)
        {
            to[i] = from[i] + deadline + over;
        }
        final long[] wake = {
            105 * P + P,            // in the stall (and woken late too): counted once, as matched
            200 * P + deadline + 1, // no stall, woken just past the deadline: late wake
            300 * P + deadline,     // woken exactly at the deadline: not past it, so the cycle's own time
            400 * P + 1,            // woken at once, on the cpu throughout, still late: unexplained
            108 * P,
            500 * P + 1,            // woken at once, off the cpu for exactly the time it missed by: pre-empted
            600 * P + 1};           // off the cpu 1 ns less than it missed by: it would have missed anyway
        final long[] offCpu = {0, 0, 0, 0, 0, over, over - 1};

        final StallMatcher.Misses misses = m.classify(from, to, wake, offCpu, from.length, deadline);

        assertThat(misses).isEqualTo(new StallMatcher.Misses(2, 1, 1, 3));
        assertThat(m.classify(from, to, wake, offCpu, 3, deadline)).as("only the first three")
            .isEqualTo(new StallMatcher.Misses(1, 1, 0, 1));
        assertThat(misses.matched() + misses.lateWake() + misses.preempted() + misses.unexplained())
            .isEqualTo(from.length);
    }
}
