package io.rfmrt.cli.bench;

import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The paced sender's hold-ups, on a clock of the test's: how late the latest send was, and the longest run of sends
 * late by more than a period, and when each was from the first send.
 */
class SenderHoldUpsTest
{
    private static final long MS = 1_000_000L;

    @Test
    void shouldSayNeverLateWhenEverySendWentOnTime()
    {
        final SenderHoldUps holdUps = new SenderHoldUps(100 * MS);
        for (long i = 1; i <= 10; i++)
        {
            holdUps.onSend(i * 100 * MS, i * 100 * MS);
        }
        assertThat(holdUps.figures()).isEqualTo(new SenderHoldUps.Figures(0, null, 0, null));
        assertThat(holdUps.figures().line()).isEqualTo("never late");
    }

    @Test
    void shouldKeepTheLatestSendAndTheLongestRunLateByMoreThanAPeriod()
    {
        final SenderHoldUps holdUps = new SenderHoldUps(100 * MS);
        holdUps.onSend(100 * MS, 100 * MS);
        // held up 1 s: four sends back to back, each late by more than the period
        holdUps.onSend(200 * MS, 1_200 * MS);
        holdUps.onSend(300 * MS, 1_201 * MS);
        holdUps.onSend(400 * MS, 1_202 * MS);
        holdUps.onSend(500 * MS, 1_203 * MS);
        // late by less than a period: the run ends
        holdUps.onSend(1_150 * MS, 1_210 * MS);
        // a shorter run later does not replace it
        holdUps.onSend(1_300 * MS, 1_500 * MS);
        holdUps.onSend(1_350 * MS, 1_501 * MS);
        holdUps.onSend(1_600 * MS, 1_600 * MS);

        final SenderHoldUps.Figures f = holdUps.figures();
        assertThat(f).isEqualTo(new SenderHoldUps.Figures(1_000 * MS, 1.1, 4, 1.1));
        assertThat(f.line()).isEqualTo("longest late 1000.0 ms at 1.1 s, largest catch-up burst 4 frames at 1.1 s " +
            "after the first frame");
    }

    @Test
    void shouldSayNoBurstWhenNoSendWasLateByMoreThanAPeriod()
    {
        final SenderHoldUps holdUps = new SenderHoldUps(100 * MS);
        holdUps.onSend(100 * MS, 100 * MS);
        holdUps.onSend(200 * MS, 250 * MS);
        holdUps.onSend(300 * MS, 300 * MS);
        assertThat(holdUps.figures()).isEqualTo(new SenderHoldUps.Figures(50 * MS, 0.15, 0, null));
        assertThat(holdUps.figures().line()).isEqualTo("longest late 50.0 ms at 0.15 s after the first frame, " +
            "no catch-up burst");
    }

    @Test
    void shouldSendEveryFrameThatFellDueInAHoldUpBackToBackAndCountThem()
    {
        // 100 kHz (10 us period) from 0; the clock moves 1 us at each read, and frame 50,000's send holds the
        // sender up for 5 ms
        final long[] now = {0};
        final NanoClock clock = () ->
        {
            final long t = now[0];
            now[0] += 1_000;
            return t;
        };
        final long[] sent = {0};
        final SenderHoldUps holdUps = new SenderHoldUps(10_000);
        BenchRun.pace(BenchRun.Traffic.steady(BenchRun.FIXED_PERIOD, 100_000, 0, 64), 0, clock, holdUps, i ->
        {
            assertThat(i).isEqualTo(sent[0] + 1);
            sent[0] = i;
            if (i == 50_000)
            {
                now[0] += 5 * MS;
            }
        });

        assertThat(sent[0]).isEqualTo(100_000);
        // the first send at 10 us; frame 50,001 (due at 500.01 ms) goes at 505.001 ms, 4.991 ms late; each next one
        // 1 us after the one before, 9 us less late, until one is late by no more than the 10-us period: 554 of them
        assertThat(holdUps.figures()).isEqualTo(new SenderHoldUps.Figures(4_991_000, 0.505, 554, 0.505));
        assertThat(holdUps.figures().line()).isEqualTo("longest late 5.0 ms at 0.505 s, largest catch-up burst 554 " +
            "frames at 0.505 s after the first frame");
    }
}
