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

    @Test
    void shouldForgetEveryFrameOnReset()
    {
        final SequenceSkips skips = new SequenceSkips(100);
        skips.onFrame(1, 1_000);
        skips.onFrame(50, 2_000);
        skips.reset();
        skips.onFrame(1, 10_000_000_000L);
        skips.onFrame(3, 10_500_000_000L);
        assertThat(skips.figures()).isEqualTo(new SequenceSkips.Figures(1, 0, 0.5, 0.5));
    }

    @Test
    void shouldNumberTheWarmUpsFramesInRunsThatSkipInAcrossAndAfterTheWarmUp()
    {
        final long warmup = 200_000;
        final SequenceSkips skips = new SequenceSkips(warmup);
        int restarts = 0;
        for (long frame = 0; frame < 2L * SequenceSkips.WARMUP_RUN; frame++)
        {
            final long number = SequenceSkips.warmUpNumber(frame, warmup);
            if (number == SequenceSkips.RESTART)
            {
                restarts++;
                skips.reset();
            }
            else
            {
                assertThat(number).isPositive();
                skips.onFrame(number, 1_000_000_000L + frame);
            }
        }
        assertThat(restarts).isEqualTo(2);
        // the last run: 199 -> W-200 (all in the warm-up), W-51 -> W+10 (51 in it, 9 after), W+109 -> W+120 (10 after)
        final SequenceSkips.Figures f = skips.figures();
        assertThat(f.inWarmup()).isEqualTo(warmup - 200 - 200 + 51);
        assertThat(f.afterWarmup()).isEqualTo(9 + 10);
    }
}
