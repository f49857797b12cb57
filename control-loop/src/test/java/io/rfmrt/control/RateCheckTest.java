package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RateCheckTest
{
    @Test
    void shouldAcceptTheDemoRates()
    {
        for (final int hz : new int[]{1000, 2000, 4000, 10_000})
        {
            assertThat(RateCheck.problems(hz)).as(hz + " Hz").isEmpty();
        }
    }

    @Test
    void shouldRefuse100HzForTheSubStepsAndTheUnstableVelocityLoop()
    {
        final String line = RateCheck.refusal(100);
        assertThat(line).contains("axis.subSteps 10 is too few").contains("Kv/J = 375 rad/s")
            .contains("Kv*dt/J = 3.75 >= 1: unstable").contains("use at least 598 Hz").doesNotContain("\n");
    }

    @Test
    void shouldDrawTheLineAtThePhaseMarginOnTheNominalModel()
    {
        // 90 - atan(40/375) - 375 * 1.5 / rate (rad -> deg) >= 30 holds from 598 Hz
        assertThat(RateCheck.problems(598)).isEmpty();
        assertThat(RateCheck.refusal(597)).contains("phase margin 29.9").doesNotContain("unstable")
            .doesNotContain("axis.subSteps");
        final ControllerGains g = ControllerGains.standard();
        // 1 kHz: the documented 11 deg of hold and 21 deg of one period of delay, 6 deg of the PI zero
        assertThat(g.velocityPhaseMarginDegrees(2e-4, 1.0)).isBetween(51.0, 52.5);
        assertThat(g.velocityPhaseMarginDegrees(2e-4, 0.0)).isBetween(72.5, 74.0);
    }
}
