package io.rfmrt.control.tune;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

/**
 * Welch's H1 on systems whose response is known exactly: a first-order low-pass y[k] = a·y[k−1] + (1 − a)·x[k]
 * (H(z) = (1 − a)/(1 − a·z^−1)) and a pure delay of 3 samples, driven by white noise.
 */
class FrequencyResponseTest
{
    private static final double RATE = 1000.0;

    private static double[] noise(final int n, final long seed)
    {
        final Random random = new Random(seed);
        final double[] x = new double[n];
        for (int i = 0; i < n; i++)
        {
            x[i] = random.nextGaussian();
        }
        return x;
    }

    @Test
    void shouldEstimateAFilterAndItsCoherence()
    {
        final double a = 0.9;
        final double[] x = noise(1 << 16, 1);
        final double[] y = new double[x.length];
        for (int k = 0; k < x.length; k++)
        {
            y[k] = (k == 0 ? 0 : a * y[k - 1]) + (1 - a) * x[k];
        }
        final FrequencyResponse h = FrequencyResponse.welch(x, y, RATE, 1024, 0.5);
        assertThat(h.segments()).isEqualTo(127);
        assertThat(h.size()).isEqualTo(512);
        assertThat(h.hz(0)).isEqualTo(RATE / 1024);
        for (int i = 0; i < h.size(); i += 7)
        {
            final double w = 2 * Math.PI * h.hz(i) / RATE;
            final double dr = 1 - a * Math.cos(w);
            final double di = a * Math.sin(w);
            final double exact = (1 - a) / Math.hypot(dr, di);
            assertThat(h.magnitude(i) / exact).as("%.1f Hz", h.hz(i)).isCloseTo(1.0, offset(0.01));
            // not quite 1: part of each segment's output answers input from before the segment (the filter's memory,
            // about 10 samples of 1024), which the estimate cannot see
            assertThat(h.coherence(i)).as("%.1f Hz", h.hz(i)).isGreaterThan(0.99);
        }
    }

    @Test
    void shouldReadADelayOffThePhaseSlopeAndLoseCoherenceToNoise()
    {
        final double[] x = noise(1 << 16, 2);
        final double[] n = noise(1 << 16, 3);
        final double[] y = new double[x.length];
        for (int k = 3; k < x.length; k++)
        {
            y[k] = x[k - 3] + n[k];
        }
        final FrequencyResponse h = FrequencyResponse.welch(x, y, RATE, 1024, 0.5);
        // equal signal and noise power: γ² = 1/2 everywhere
        double mean = 0;
        for (int i = 0; i < h.size(); i++)
        {
            mean += h.coherence(i) / h.size();
        }
        assertThat(mean).isCloseTo(0.5, offset(0.02));
        final LoopFigures.Delay delay = LoopFigures.delay(h, 1, 400, 0.3);
        assertThat(delay.seconds()).isCloseTo(3 / RATE, offset(0.02 / RATE));
        assertThat(delay.interceptDeg()).isCloseTo(0.0, offset(2.0));
    }

    @Test
    void shouldTakeSegmentsOnlyInsideRuns()
    {
        // y = 2·x delayed 3 samples, sampled in 21 runs of 1,500 samples with 37 missing between them (a loop that
        // was held up): a segment across a break would hold samples 37 periods apart as neighbours
        final double[] whole = noise(1 << 15, 3);
        final int runs = 21;
        final int n = runs * 1500;
        final double[] x = new double[n];
        final double[] y = new double[n];
        final int[] runStarts = new int[runs];
        for (int r = 0, at = 0; r < runs; r++)
        {
            runStarts[r] = at;
            for (int k = r * 1537; k < r * 1537 + 1500; k++, at++)
            {
                x[at] = whole[k];
                y[at] = k >= 3 ? 2 * whole[k - 3] : 0;
            }
        }
        final FrequencyResponse h = FrequencyResponse.welch(x, y, runStarts, RATE, 1024, 0.5);
        // one segment of 1,024 in each run of 1,500 (the next would start at 512 and end past it)
        assertThat(h.segments()).isEqualTo(runs).isEqualTo(FrequencyResponse.segments(runStarts, n, 1024, 0.5));
        // taken as one stretch, the same samples give 60 segments, 39 of them across a break
        assertThat(FrequencyResponse.welch(x, y, RATE, 1024, 0.5).segments()).isEqualTo(60);
        for (int i = 0; i < h.size(); i++)
        {
            assertThat(h.magnitude(i)).as("%.1f Hz", h.hz(i)).isCloseTo(2.0, offset(0.05));
            assertThat(h.coherence(i)).as("%.1f Hz", h.hz(i)).isGreaterThan(0.98);
        }
        assertThatThrownBy(() -> FrequencyResponse.welch(x, y, new int[] {0, 9000, 8000}, RATE, 1024, 0.5))
            .hasMessage("run 1 begins at sample 9000 and ends at 8000 of " + n + ": the run starts must ascend " +
            "within the samples");
        assertThatThrownBy(() -> FrequencyResponse.welch(Arrays.copyOf(x, 1500), Arrays.copyOf(y, 1500),
            new int[] {0, 500, 1000}, RATE, 1024, 0.5))
            .hasMessageStartingWith("no run of the 3 holds a segment of 1024 points");
    }

    @Test
    void shouldNameWhatIsWrongWithItsInput()
    {
        assertThatThrownBy(() -> FrequencyResponse.welch(new double[10], new double[9], RATE, 8, 0.5))
            .hasMessage("input and output differ in length: 10 and 9");
        assertThatThrownBy(() -> FrequencyResponse.welch(new double[10], new double[10], RATE, 16, 0.5))
            .hasMessage("segment of 16 points is longer than the 10 samples");
        assertThatThrownBy(() -> FrequencyResponse.welch(new double[10], new double[10], RATE, 8, 1.0))
            .hasMessage("overlap 1.0 must be 0 <= overlap < 1");
        assertThatThrownBy(() -> FrequencyResponse.measured(new double[] {1, 600}, new double[2], new double[2],
            new double[] {1, 1}, RATE, 8, 0.5, 3)).hasMessage("frequency 600.0 Hz lies above half the sample rate " +
            "1000.0 Hz");
        assertThatThrownBy(() -> FrequencyResponse.of(new double[] {2, 1}, new double[2], new double[2],
            new double[] {1, 1})).hasMessageStartingWith("frequency response point 1 (1.0 Hz");
    }
}
