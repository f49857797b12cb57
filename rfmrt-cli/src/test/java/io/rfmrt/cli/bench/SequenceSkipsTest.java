package io.rfmrt.cli.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SequenceSkipsTest
{
    @Test
    void shouldCountNothingAndSayNothingWhenEveryNumberArrives()
    {
        final SequenceSkips skips = new SequenceSkips(3);
        for (long n = 1; n <= 10; n++)
        {
            skips.onFrame(n, 1_000 * n);
        }
        assertThat(skips.figures()).isEqualTo(new SequenceSkips.Figures(0, 0, null, null));
        assertThat(skips.figures().line()).isEmpty();
    }

    @Test
    void shouldSplitASkipAcrossTheEndOfTheWarmUpAndTimeTheFirstAndLastFromTheFirstFrame()
    {
        final SequenceSkips skips = new SequenceSkips(100);
        skips.onFrame(1, 5_000_000_000L);
        // 2..97 handled, 98..104 missing: 98, 99, 100 in the warm-up, 101..104 after it
        for (long n = 2; n <= 97; n++)
        {
            skips.onFrame(n, 5_000_000_000L + n);
        }
        skips.onFrame(105, 5_250_000_000L);
        skips.onFrame(106, 5_260_000_000L);
        // 107..109 missing, seen 1.5 s after the first frame
        skips.onFrame(110, 6_500_000_000L);
        final SequenceSkips.Figures f = skips.figures();
        assertThat(f).isEqualTo(new SequenceSkips.Figures(3, 4 + 3, 0.25, 1.5));
        assertThat(f.line()).isEqualTo("by number 3 in the warm-up, 7 after it, seen from 0.25 s to 1.5 s after the " +
            "first frame");
    }

    @Test
    void shouldCountTheFramesBeforeTheFirstOneHandledAndIgnoreOneHandledLate()
    {
        final SequenceSkips skips = new SequenceSkips(2);
        skips.onFrame(4, 0);
        skips.onFrame(3, 10);
        skips.onFrame(5, 20);
        assertThat(skips.figures()).isEqualTo(new SequenceSkips.Figures(2, 1, 0.0, 0.0));
    }
}
