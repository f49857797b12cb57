package io.rfmrt.cli.demo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The demo's plot points: bounded however long the run, in time order, spikes and gaps kept.
 */
class PlotPointsTest
{
    @Test
    void shouldKeepEverySampleWhileThereIsRoom()
    {
        final PlotPoints points = new PlotPoints(2, 1, 8);
        for (int i = 0; i < 8; i++)
        {
            points.add(i, 10 + i);
        }
        assertThat(points.series(0)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(points.series(1)).containsExactly(10, 11, 12, 13, 14, 15, 16, 17);
    }

    @Test
    void shouldStayBoundedInTimeOrderAndKeepTheSpikeAndTheGapOfSixMillionSamples()
    {
        final PlotPoints points = new PlotPoints(2, 1, 1 << 10);
        final int samples = 6_000_000;
        for (int i = 0; i < samples; i++)
        {
            final double value = i == 4_321_987 ? -50.0 : i == 1_234_567 ? Double.NaN : Math.sin(i * 1e-4);
            points.add(i, value);
        }
        assertThat(points.size()).isBetween(1 << 9, 1 << 10);
        final double[] t = points.series(0);
        final double[] y = points.series(1);
        for (int i = 1; i < t.length; i++)
        {
            assertThat(t[i]).isGreaterThan(t[i - 1]);
        }
        // a point stands for a run of samples and keeps the one of largest magnitude: the first lies in the first run
        assertThat(t[0]).isLessThan(samples / (1 << 9));
        assertThat(t[t.length - 1]).isGreaterThan(samples - samples / (1 << 9) - 1);
        assertThat(y).contains(-50.0);
        assertThat(java.util.Arrays.stream(y).filter(Double::isNaN).count()).isEqualTo(1);
        assertThat(java.util.Arrays.stream(y).filter(v -> !Double.isNaN(v)).map(Math::abs).max().orElseThrow())
            .isEqualTo(50.0);
    }

    @Test
    void shouldRefuseACapacityThatCannotBeHalved()
    {
        assertThatThrownBy(() -> new PlotPoints(2, 1, 7)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("capacity 7 is not an even number >= 2");
    }
}
