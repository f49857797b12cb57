package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The realistic axis: what the drive reports (whole encoder counts, a velocity differenced from them), the inertia
 * the tune does not know, the resonance, stiction, gravity and the brake; bit-identical runs.
 */
class RealisticAxisPlantTest
{
    private static final double DT = 1e-3;
    private static final RealisticAxisParameters STANDARD = RealisticAxisParameters.standard();

    /** The standard axis with some of its effects turned off. */
    private static RealisticAxisParameters without(final boolean gravity, final boolean noise, final boolean friction)
    {
        final RealisticAxisParameters p = STANDARD;
        return new RealisticAxisParameters(p.motorInertiaKgM2(), p.loadInertiaKgM2(), p.couplingStiffnessNmPerRad(),
            p.couplingDampingNmSPerRad(), friction ? 0.0 : p.viscousFrictionNmSPerRad(),
            friction ? 0.0 : p.coulombFrictionNm(), friction ? 0.0 : p.breakawayTorqueNm(),
            p.stribeckVelocityRadPerS(), p.coulombVelocityRadPerS(), gravity ? 0.0 : p.gravityTorqueNm(),
            p.peakTorqueNm(), p.currentLagSeconds(), p.brakeTorqueNm(), p.encoderBits(),
            noise ? 0.0 : p.positionNoiseCounts(), noise ? 0.0 : p.torqueNoiseNm(), p.seed(), p.subSteps());
    }

    @Test
    void shouldReportWholeEncoderCountsAndAVelocityDifferencedFromThem()
    {
        final RealisticAxisPlant plant = new RealisticAxisPlant(STANDARD);
        final double count = STANDARD.countRad();
        assertThat(count).isCloseTo(2 * Math.PI / 131_072, within(1e-15));
        long previous = plant.counts();
        double worst = 0;
        for (int k = 0; k < 500; k++)
        {
            plant.step(0.05 * Math.sin(k * 0.02), DT);
            assertThat(plant.measuredPosition()).isEqualTo(plant.counts() * count);
            assertThat(plant.measuredVelocity()).isEqualTo((plant.counts() - previous) * count / DT);
            worst = Math.max(worst, Math.abs(plant.measuredPosition() - plant.position()));
            previous = plant.counts();
        }
        // quantisation (one count) and 0.5 counts rms of noise: within a few counts, never exact
        assertThat(worst).isGreaterThan(0.5 * count).isLessThan(5 * count);
    }

    @Test
    void shouldCarryFiftyPercentMoreInertiaThanTheNominalAxis()
    {
        assertThat(STANDARD.totalInertiaKgM2()).isCloseTo(1.5 * AxisParameters.standard().inertiaKgM2(),
            within(1e-12));
        final RealisticAxisPlant plant = new RealisticAxisPlant(without(true, true, true));
        for (int k = 0; k < 100; k++)
        {
            plant.step(0.3, DT);
        }
        // 0.3 N·m on 3e-4 kg·m² for 0.1 s: 100 rad/s (the current lag costs 0.1 ms of it)
        assertThat(plant.velocity()).isCloseTo(100.0, within(1.0));
    }

    @Test
    void shouldRingAtItsCouplingResonance()
    {
        final RealisticAxisParameters p = without(true, true, true);
        assertThat(p.resonanceRadPerS() / (2 * Math.PI)).isCloseTo(251.6, within(0.5));
        assertThat(p.antiResonanceRadPerS() / (2 * Math.PI)).isCloseTo(159.2, within(0.5));
        final RealisticAxisPlant plant = new RealisticAxisPlant(p);
        final double h = 1e-5;
        for (int k = 0; k < 100; k++)
        {
            plant.step(0.2, h);
        }
        // after a 1 ms torque pulse the motor's velocity rings against the load: count its turning points
        int crossings = 0;
        double previous = Double.NaN;
        final int steps = 5_000;
        double last = plant.velocity();
        for (int k = 0; k < steps; k++)
        {
            plant.step(0.0, h);
            final double slope = plant.velocity() - last;
            last = plant.velocity();
            if (previous == previous && Math.signum(slope) != Math.signum(previous) && slope != 0)
            {
                crossings++;
            }
            previous = slope;
        }
        final double hz = crossings / 2.0 / (steps * h);
        assertThat(hz).isCloseTo(251.6, within(10.0));
    }

    @Test
    void shouldStickBelowItsBreakawayTorqueAndSlideAboveIt()
    {
        final RealisticAxisPlant creeping = new RealisticAxisPlant(without(true, true, false));
        final RealisticAxisPlant sliding = new RealisticAxisPlant(without(true, true, false));
        for (int k = 0; k < 500; k++)
        {
            // above the Coulomb level (8 mN·m), below breakaway (14 mN·m); and above breakaway
            creeping.step(0.010, DT);
            sliding.step(0.020, DT);
        }
        // the regularised breakaway lets a held axis creep at about ws·(T/Ts)/√(1 − (T/Ts)²): 0.01 rad/s
        assertThat(creeping.velocity()).isBetween(0.0, 0.02);
        assertThat(sliding.velocity()).isGreaterThan(5.0);
    }

    @Test
    void shouldFallUnderItsLoadWhenNeitherDrivenNorBrakedAndHoldOnTheBrake()
    {
        final RealisticAxisPlant braked = new RealisticAxisPlant(without(false, true, false));
        final RealisticAxisPlant coasting = new RealisticAxisPlant(without(false, true, false));
        for (int k = 0; k < 50; k++)
        {
            braked.brake(DT);
            coasting.coast(DT);
        }
        assertThat(braked.position()).isZero();
        assertThat(braked.velocity()).isZero();
        // 30 mN·m less friction on 3e-4 kg·m² for 50 ms: well over 20 mrad down
        assertThat(coasting.position()).isLessThan(-0.02);
        // and held by the brake once it engages, however it was moving
        for (int k = 0; k < 200; k++)
        {
            coasting.brake(DT);
        }
        final double stopped = coasting.position();
        coasting.brake(DT);
        assertThat(coasting.velocity()).isZero();
        assertThat(coasting.position()).isEqualTo(stopped);
    }

    @Test
    void shouldRunBitIdenticallyFromTheSameSeed()
    {
        final RealisticAxisPlant a = new RealisticAxisPlant(STANDARD);
        final RealisticAxisPlant b = new RealisticAxisPlant(STANDARD);
        for (int k = 0; k < 2000; k++)
        {
            final double torque = 0.2 * Math.sin(k * 0.01);
            a.step(torque, DT);
            b.step(torque, DT);
        }
        assertThat(Double.doubleToRawLongBits(a.position())).isEqualTo(Double.doubleToRawLongBits(b.position()));
        assertThat(a.counts()).isEqualTo(b.counts());
        a.reset(0.0);
        final RealisticAxisPlant c = new RealisticAxisPlant(STANDARD);
        a.step(0.1, DT);
        c.step(0.1, DT);
        assertThat(a.counts()).as("reset restarts the noise").isEqualTo(c.counts());
    }

    @Test
    void shouldNameEveryBadSettingAndTheSubStepBound()
    {
        final RealisticAxisParameters p = STANDARD;
        final RealisticAxisParameters bad = new RealisticAxisParameters(0, p.loadInertiaKgM2(),
            p.couplingStiffnessNmPerRad(), p.couplingDampingNmSPerRad(), p.viscousFrictionNmSPerRad(),
            0.02, 0.01, p.stribeckVelocityRadPerS(), p.coulombVelocityRadPerS(), p.gravityTorqueNm(),
            p.peakTorqueNm(), p.currentLagSeconds(), p.brakeTorqueNm(), 40, p.positionNoiseCounts(),
            p.torqueNoiseNm(), p.seed(), p.subSteps());
        assertThatThrownBy(() -> new RealisticAxisPlant(bad)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("realistic.motorInertiaKgM2 must be > 0, was 0.0")
            .hasMessageContaining("realistic.breakawayTorqueNm must be >= realistic.coulombFrictionNm 0.02")
            .hasMessageContaining("realistic.encoderBits must be 8..32, was 40");
        assertThat(STANDARD.problemsFor(1e-3)).isEmpty();
        assertThat(STANDARD.maxPeriodSeconds()).isBetween(1.5e-3, 2.5e-3);
        assertThat(STANDARD.problemsFor(5e-3)).singleElement().asString()
            .startsWith("realistic.subSteps 10 is too few for a 0.005 s period");
    }
}
