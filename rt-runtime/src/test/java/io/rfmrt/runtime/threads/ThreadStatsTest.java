package io.rfmrt.runtime.threads;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadStatsTest
{
    @Test
    void shouldReadMinorFaultsAfterACommandNameWithSpacesAndParentheses()
    {
        final String stat = "4242 (rfmrt (isr) x) S 1 4200 4200 0 -1 4194368 377 0 2 0 12 3 0 0 -11 0 1 0 99 0 0";
        assertThat(ThreadStats.minorFaults(stat)).isEqualTo(377);
        assertThat(ThreadStats.minorFaults("garbage")).isEqualTo(-1);
        assertThat(ThreadStats.minorFaults("1 (x) S 1 2")).isEqualTo(-1);
    }

    @Test
    void shouldReadInvoluntarySwitchesFromStatus()
    {
        assertThat(ThreadStats.involuntary("Name:\tx\nvoluntary_ctxt_switches:\t10\nnonvoluntary_ctxt_switches:\t7\n"))
            .isEqualTo(7);
        assertThat(ThreadStats.involuntary("Name:\tx\n")).isEqualTo(-1);
        assertThat(ThreadStats.involuntary("nonvoluntary_ctxt_switches:\t-3\n")).isEqualTo(-1);
    }

    @Test
    void shouldReadThisThreadAndSubtract()
    {
        final int tid = io.rfmrt.runtime.threads.internal.ThreadPlacer.tid();
        final ThreadStats before = ThreadStats.of(tid);
        assertThat(before.minorFaults()).isNotNegative();
        assertThat(before.involuntarySwitches()).isNotNegative();
        final ThreadStats delta = ThreadStats.of(tid).minus(before);
        assertThat(delta.minorFaults()).isNotNegative();
        assertThat(ThreadStats.of(-1)).isEqualTo(ThreadStats.UNKNOWN);
        assertThat(before.minus(ThreadStats.UNKNOWN)).isEqualTo(ThreadStats.UNKNOWN);
    }
}
