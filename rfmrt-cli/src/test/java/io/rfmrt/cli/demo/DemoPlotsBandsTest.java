package io.rfmrt.cli.demo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded bands of the tracking plot: a run of times is one interval, a close starts the next, and a full set
 * stretches its last interval instead of growing.
 */
class DemoPlotsBandsTest
{
    @Test
    void shouldMakeOneIntervalPerRunOfTimes()
    {
        final DemoPlots.Bands bands = new DemoPlots.Bands(4);
        bands.add(1.0, 1.0);
        bands.add(1.001, 1.001);
        bands.add(1.002, 1.002);
        bands.close();
        bands.add(4.0, 5.5);
        bands.close();

        assertThat(bands.size()).isEqualTo(2);
        assertThat(bands.start(0)).isEqualTo(1.0);
        assertThat(bands.end(0)).isEqualTo(1.002);
        assertThat(bands.start(1)).isEqualTo(4.0);
        assertThat(bands.end(1)).isEqualTo(5.5);
    }

    @Test
    void shouldStretchTheLastIntervalWhenFull()
    {
        final DemoPlots.Bands bands = new DemoPlots.Bands(2);
        for (int i = 0; i < 10; i++)
        {
            bands.add(i, i + 0.5);
            bands.close();
        }

        assertThat(bands.size()).isEqualTo(2);
        assertThat(bands.start(0)).isEqualTo(0.0);
        assertThat(bands.end(0)).isEqualTo(0.5);
        assertThat(bands.start(1)).isEqualTo(1.0);
        assertThat(bands.end(1)).as("every later interval inside the last").isEqualTo(9.5);
    }
}
