package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The loop's periodicity and execution figures from recorded cycles with made-up times: period, jitter, execution,
 * overruns, over an interval and since the start.
 */
class CycleStatisticsTest
{
    private static final long PERIOD = 1_000_000L;

    @Test
    void shouldReportPeriodJitterExecutionAndOverrunsPerIntervalAndInTotal()
    {
        final CycleStatistics stats = new CycleStatistics(PERIOD);
        long t = 5_000_000L;
        for (int k = 0; k < 100; k++)
        {
            // on time, 10 us of CPU, 20 us of wall time
            stats.record(t, 10_000L, 20_000L);
            t += PERIOD;
        }
        final CycleStatistics.Figures first = stats.sample();
        assertThat(first.cycles()).isEqualTo(100);
        assertThat(first.periodP50Us()).isCloseTo(1000.0, within(1.0));
        assertThat(first.periodMaxUs()).isCloseTo(1000.0, within(1.0));
        assertThat(first.jitterMaxUs()).isLessThan(0.01);
        assertThat(first.executionP99Us()).isCloseTo(10.0, within(0.1));
        assertThat(first.overruns()).isZero();

        // one cycle 3 ms late that overran (2 ms of wall time, 150 us of CPU), then one on its schedule again
        t += 2 * PERIOD;
        stats.record(t, 150_000L, 2_000_000L);
        t += PERIOD;
        stats.record(t, 10_000L, 20_000L);
        final CycleStatistics.Figures second = stats.sample();
        assertThat(second.cycles()).isEqualTo(2);
        assertThat(second.periodMaxUs()).isCloseTo(3000.0, within(3.0));
        assertThat(second.jitterMaxUs()).isCloseTo(2000.0, within(2.0));
        assertThat(second.executionMaxUs()).isCloseTo(150.0, within(0.2));
        assertThat(second.overruns()).isEqualTo(1);

        final CycleStatistics.Figures total = stats.total();
        assertThat(total.cycles()).isEqualTo(102);
        assertThat(total.periodP50Us()).isCloseTo(1000.0, within(1.0));
        assertThat(total.periodMaxUs()).isCloseTo(3000.0, within(3.0));
        assertThat(total.periodMinUs()).isCloseTo(1000.0, within(1.0));
        assertThat(total.executionMaxUs()).isCloseTo(150.0, within(0.2));
        assertThat(total.overruns()).isEqualTo(1);
        assertThat(stats.sample().cycles()).as("nothing new").isZero();
    }

    @Test
    void shouldSkipAnUnknownExecutionTime()
    {
        final CycleStatistics stats = new CycleStatistics(PERIOD);
        stats.record(PERIOD, -1, 0);
        stats.record(2 * PERIOD, -1, 0);
        final CycleStatistics.Figures f = stats.sample();
        assertThat(f.cycles()).isEqualTo(2);
        assertThat(f.executionMaxUs()).isZero();
        assertThat(f.periodMaxUs()).isCloseTo(1000.0, within(1.0));
    }
}
