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

    @Test
    void shouldRefuseARateOutsideTheLayoutsRangeAloneOnOneLine()
    {
        assertThat(RateCheck.problems(0)).containsExactly("rate 0 Hz is not 1..10000 (the control layout's rings are " +
            "sized for 10000 Hz)");
        assertThat(RateCheck.refusal(20_000)).startsWith("rate 20000 Hz is not 1..10000");
        assertThat(RateCheck.refusal(1000)).isNull();
    }

    @Test
    void shouldCheckTheRealisticAxisWithItsInertiaAndDelays()
    {
        // J = 3e-4: Kv/J = 250 rad/s; hold, one period of transport, half a period of differencing, 0.1 ms of lag
        final ControllerGains g = ControllerGains.standard();
        final double atOneKilohertz = g.velocityPhaseMarginDegrees(3e-4, 2.1 - 0.5);
        assertThat(atOneKilohertz).isBetween(50.0, 51.5);
        assertThat(RateCheck.realisticProblems(1000, 1)).isEmpty();
        assertThat(RateCheck.realisticProblems(4000, 1)).isEmpty();
        // its stiffer friction (breakaway on the motor's inertia) needs a period under 2.14 ms; its loop, 574 Hz
        // (below the nominal axis's 598, which the demo checks first)
        assertThat(RateCheck.realisticProblems(400, 1)).hasSize(2).first().asString()
            .startsWith("realistic.subSteps 10 is too few for a 0.0025 s period");
        assertThat(RateCheck.realisticProblems(400, 1).get(1)).contains("1.54 periods of delay")
            .contains("use at least 574 Hz");
        // with the latency fault's delay on top, the margin goes
        assertThat(String.join("; ", RateCheck.realisticProblems(1000, 4))).contains("phase margin")
            .contains("4.60 periods of delay");
    }
}
