package io.rfmrt.cli.common;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Progress} on a clock the test steps: what each line says, and when a line is due.
 */
class ProgressTest
{
    private final StringWriter text = new StringWriter();
    private final PrintWriter err = new PrintWriter(text);
    private long nowNs = 1_000_000_000_000L;

    @Test
    void shouldCountStepsAndEstimateTimeLeftFromTheStepsRunSoFar()
    {
        final Progress progress = Progress.steps(err, 4, 11, () -> nowNs);

        progress.step("interrupt at 1000 Hz for 10 s ...");
        advanceSeconds(12);
        progress.step("interrupt at 2000 Hz for 10 s ...");
        advanceSeconds(14);
        progress.step("floors ...");
        advanceSeconds(90);
        progress.step("last ...");
        advanceSeconds(4);
        progress.finish();

        assertThat(text.toString().lines()).containsExactly(
            "[1/4, elapsed 0:00, left ~0:44] interrupt at 1000 Hz for 10 s ...",
            "[2/4, elapsed 0:12, left ~0:36] interrupt at 2000 Hz for 10 s ...",
            "[3/4, elapsed 0:26, left ~0:26] floors ...",
            "[4/4, elapsed 1:56, left ~0:38] last ...",
            "[4/4, elapsed 2:00, left 0:00] done");
        assertThat(text.toString().lines()).allMatch(l -> Progress.LINE.matcher(l).find());
    }

    @Test
    void shouldSayTheTimeLeftIsUnknownWhenNoStepIsPlannedOrRun()
    {
        final Progress progress = Progress.steps(err, 2, 0, () -> nowNs);

        progress.step("first");

        assertThat(text.toString()).isEqualTo("[1/2, elapsed 0:00, left ?] first\n");
    }

    @Test
    void shouldCountSkippedStepsAsDoneWithoutTime()
    {
        final Progress progress = Progress.steps(err, 6, 0, () -> nowNs);

        progress.step("a at 1000 Hz");
        advanceSeconds(10);
        // a stops at its first step: its other two are skipped
        progress.skip(2);
        progress.step("b at 1000 Hz");
        advanceSeconds(10);
        progress.step("b at 2000 Hz");
        advanceSeconds(10);
        progress.skip(1);
        progress.finish();

        assertThat(text.toString().lines()).containsExactly(
            "[1/6, elapsed 0:00, left ?] a at 1000 Hz",
            "[4/6, elapsed 0:10, left ~0:30] b at 1000 Hz",
            "[5/6, elapsed 0:20, left ~0:20] b at 2000 Hz",
            "[6/6, elapsed 0:30, left 0:00] done");
    }

    @Test
    void shouldPrintASecondsRunAtItsStartAndThenEveryInterval()
    {
        final Progress progress = Progress.seconds(err, 60, "soaking interrupt at 1000 Hz", () -> nowNs);

        assertThat(progress.doWork()).isZero();
        advanceSeconds(9);
        assertThat(progress.doWork()).isZero();
        advanceSeconds(1);
        assertThat(progress.doWork()).isOne();
        assertThat(progress.doWork()).isZero();
        advanceSeconds(55);
        assertThat(progress.doWork()).isOne();

        assertThat(text.toString().lines()).containsExactly(
            "[0/60 s, elapsed 0:00, left 1:00] soaking interrupt at 1000 Hz",
            "[10/60 s, elapsed 0:10, left 0:50] soaking interrupt at 1000 Hz",
            "[60/60 s, elapsed 1:05, left 0:00] soaking interrupt at 1000 Hz");
        assertThat(text.toString().lines()).allMatch(l -> Progress.LINE.matcher(l).find());
    }

    @Test
    void shouldPrintAboutSixtyLinesAtMostForALongRun()
    {
        assertThat(Progress.secondsLineInterval(10)).isEqualTo(10);
        assertThat(Progress.secondsLineInterval(600)).isEqualTo(10);
        assertThat(Progress.secondsLineInterval(601)).isEqualTo(11);
        assertThat(Progress.secondsLineInterval(36_000)).isEqualTo(600);

        final Progress progress = Progress.seconds(err, 36_000, "soaking", () -> nowNs);
        int lines = 1;
        for (int s = 0; s < 36_000; s++)
        {
            advanceSeconds(1);
            lines += progress.doWork();
        }
        assertThat(lines).isEqualTo(61);
        assertThat(text.toString().lines().toList().get(60))
            .isEqualTo("[36000/36000 s, elapsed 10:00:00, left 0:00] soaking");
    }

    @Test
    void shouldTakeTheTimeLeftAnotherProgramEstimates()
    {
        final Progress progress = Progress.estimates(err, () -> nowNs);
        advanceSeconds(40);

        progress.estimate("running WriterBench.frame ...", 85);

        assertThat(text.toString()).isEqualTo("[40/125 s, elapsed 0:40, left ~1:25] running WriterBench.frame ...\n");
        assertThat(Progress.LINE.matcher(text.toString()).find()).isTrue();
    }

    @Test
    void shouldWriteDurationsAsMinutesAndSecondsThenHours()
    {
        assertThat(Progress.clock(0)).isEqualTo("0:00");
        assertThat(Progress.clock(TimeUnit.MILLISECONDS.toNanos(59_999))).isEqualTo("0:59");
        assertThat(Progress.clock(TimeUnit.SECONDS.toNanos(3599))).isEqualTo("59:59");
        assertThat(Progress.clock(TimeUnit.SECONDS.toNanos(3600 + 62))).isEqualTo("1:01:02");
        assertThat(Progress.clock(-5)).isEqualTo("0:00");
    }

    private void advanceSeconds(final long seconds)
    {
        nowNs += TimeUnit.SECONDS.toNanos(seconds);
    }
}
