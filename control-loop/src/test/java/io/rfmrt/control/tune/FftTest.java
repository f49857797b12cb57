package io.rfmrt.control.tune;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FftTest
{
    @Test
    void shouldMatchTheDirectDftAtEverySize()
    {
        final Random random = new Random(32);
        for (int n = 2; n <= 4096; n <<= 1)
        {
            final double[] re = new double[n];
            final double[] im = new double[n];
            for (int i = 0; i < n; i++)
            {
                re[i] = random.nextGaussian();
                im[i] = random.nextGaussian();
            }
            final double[] dr = new double[n];
            final double[] di = new double[n];
            double scale = 0;
            for (int k = 0; k < n; k++)
            {
                for (int t = 0; t < n; t++)
                {
                    // the angle reduced mod n first, so the reference's own error stays small
                    final double angle = -2 * Math.PI * ((long)k * t % n) / n;
                    dr[k] += re[t] * Math.cos(angle) - im[t] * Math.sin(angle);
                    di[k] += re[t] * Math.sin(angle) + im[t] * Math.cos(angle);
                }
                scale = Math.max(scale, Math.hypot(dr[k], di[k]));
            }
            new Fft(n).forward(re, im);
            for (int k = 0; k < n; k++)
            {
                assertThat(Math.hypot(re[k] - dr[k], im[k] - di[k])).as("n %d bin %d", n, k)
                    .isLessThan(1e-12 * scale * Math.log(n) + 1e-12);
            }
        }
    }

    @Test
    void shouldPutASineInItsBin()
    {
        final int n = 256;
        final double[] re = new double[n];
        final double[] im = new double[n];
        for (int i = 0; i < n; i++)
        {
            re[i] = Math.cos(2 * Math.PI * 10 * i / n);
        }
        new Fft(n).forward(re, im);
        assertThat(re[10]).isCloseTo(n / 2.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(re[n - 10]).isCloseTo(n / 2.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(Math.hypot(re[11], im[11])).isLessThan(1e-9);
    }

    @Test
    void shouldRefuseASizeThatIsNotAPowerOfTwo()
    {
        assertThatThrownBy(() -> new Fft(1000)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("FFT size 1000 must be a power of two from 2 to 16777216");
        assertThatThrownBy(() -> new Fft(8).forward(new double[4], new double[8]))
            .hasMessage("FFT of 8 points given arrays of 4 and 8");
    }
}
