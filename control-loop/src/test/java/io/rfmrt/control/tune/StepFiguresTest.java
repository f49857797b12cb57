package io.rfmrt.control.tune;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

/**
 * Step figures of a second-order system with known answers: ζ = 0.5, ωn = 2π·10 rad/s, overshoot
 * e^(−πζ/√(1−ζ²)) = 16.3 %, 2 % settling where the response last leaves the band (the envelope's rule of thumb
 * 4/(ζ·ωn) is only near it).
 */
class StepFiguresTest
{
    @Test
    void shouldReadRiseOvershootAndSettlingOfASecondOrderStep()
    {
        final double zeta = 0.5;
        final double wn = 2 * Math.PI * 10;
        final double wd = wn * Math.sqrt(1 - zeta * zeta);
        final double dt = 1e-5;
        final double[] y = new double[(int)(0.5 / dt)];
        double last = 0;
        for (int i = 0; i < y.length; i++)
        {
            final double t = i * dt;
            y[i] = 3.0 + 2.0 * (1 - Math.exp(-zeta * wn * t) * (Math.cos(wd * t) + zeta / Math.sqrt(1 - zeta * zeta) *
                Math.sin(wd * t)));
            if (Math.abs(y[i] - 5.0) > 0.02 * 2.0)
            {
                last = t + dt;
            }
        }
        final StepFigures f = StepFigures.of(y, dt, 2.0, StepFigures.BAND_DEFAULT);
        assertThat(f.overshootPercent()).isCloseTo(100 * Math.exp(-Math.PI * zeta / Math.sqrt(1 - zeta * zeta)),
            offset(0.01));
        assertThat(f.settlingSeconds()).isCloseTo(last, offset(dt));
        // 10-90 % rise of ζ = 0.5: 1.64/ωn (a tabulated value)
        assertThat(f.riseSeconds()).isCloseTo(1.64 / wn, offset(0.01 / wn));
    }

    @Test
    void shouldSayWhenAResponseNeverSettles()
    {
        final double[] y = {0, 0.5, 0.7, 0.8, 0.85};
        final StepFigures f = StepFigures.of(y, 1e-3, 1.0, 0.02);
        assertThat(f.settlingSeconds()).isNaN();
        assertThat(f.riseSeconds()).isNaN();
        assertThat(f.overshootPercent()).isZero();
    }
}
