package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The simulated axis: integration against closed-form solutions, friction near standstill, the brake, the drive's
 * clamp, the current lag and parameter validation.
 */
class AxisPlantTest
{
    private static final double DT = 1e-3;

    private static AxisParameters axis(final double viscous, final double coulomb)
    {
        final AxisParameters p = AxisParameters.standard();
        return new AxisParameters(p.torqueConstantNmPerA(), p.inertiaKgM2(), viscous, coulomb,
            p.coulombVelocityRadPerS(), p.peakTorqueNm(), p.currentLagSeconds(), p.brakeTorqueNm(), p.subSteps());
    }

    @Test
    void shouldMatchClosedFormSolutionWithViscousFrictionOnly()
    {
        final AxisParameters p = axis(1e-4, 0.0);
        final AxisPlant plant = new AxisPlant(p);
        final double torque = 0.01;
        for (int k = 0; k < 1000; k++)
        {
            plant.step(torque, DT);
        }
        final double t = 1.0;
        final double tau = p.inertiaKgM2() / p.viscousFrictionNmSPerRad();
        final double velocity = torque / p.viscousFrictionNmSPerRad() * (1.0 - Math.exp(-t / tau));
        final double position = torque / p.viscousFrictionNmSPerRad() * (t - tau * (1.0 - Math.exp(-t / tau)));
        assertThat(plant.velocity()).isCloseTo(velocity, within(velocity * 1e-9));
        assertThat(plant.position()).isCloseTo(position, within(position * 1e-9));
        assertThat(plant.torque()).isEqualTo(torque);
        assertThat(plant.current()).isCloseTo(torque / p.torqueConstantNmPerA(), within(1e-15));
    }

    @Test
    void shouldConvergeWithMoreSubSteps()
    {
        final AxisPlant coarse = new AxisPlant(AxisParameters.standard());
        final AxisPlant fine = new AxisPlant(AxisParameters.standard().withSubSteps(200));
        for (int k = 0; k < 500; k++)
        {
            final double torque = 0.02 * Math.sin(k * 0.01) + (k % 100 < 50 ? 0.004 : -0.004);
            coarse.step(torque, DT);
            fine.step(torque, DT);
        }
        assertThat(coarse.position()).isCloseTo(fine.position(), within(1e-6));
        assertThat(coarse.velocity()).isCloseTo(fine.velocity(), within(1e-5));
    }

    @Test
    void shouldCoastToRestOnFrictionWithoutChatteringThroughZero()
    {
        final AxisPlant plant = new AxisPlant(AxisParameters.standard());
        plant.reset(0.0, 5.0);
        double previous = plant.velocity();
        for (int k = 0; k < 2000; k++)
        {
            plant.step(0.0, DT);
            assertThat(plant.velocity()).as("velocity at cycle %d", k).isGreaterThanOrEqualTo(0.0)
                .isLessThanOrEqualTo(previous);
            previous = plant.velocity();
        }
        assertThat(plant.velocity()).isLessThan(1e-6);
        // decelerating at about (Tc + b·ω)/J from 5 rad/s: v²/(2a) with a ≥ Tc/J
        assertThat(plant.position()).isBetween(0.0, 25.0 / (2.0 * 5e-3 / 2e-4));
    }

    @Test
    void shouldCreepUnderHoldingTorqueBelowCoulombFrictionAsDocumented()
    {
        final AxisParameters p = axis(0.0, 5e-3);
        final AxisPlant plant = new AxisPlant(p);
        final double ratio = 0.5;
        for (int k = 0; k < 200; k++)
        {
            plant.step(ratio * p.coulombFrictionNm(), DT);
        }
        final double creep = p.coulombVelocityRadPerS() * ratio / Math.sqrt(1.0 - ratio * ratio);
        assertThat(plant.velocity()).isCloseTo(creep, within(creep * 1e-6));
    }

    @Test
    void shouldBrakeToAnExactStopAndHold()
    {
        final AxisParameters p = AxisParameters.standard();
        final AxisPlant plant = new AxisPlant(p);
        final double v0 = 20.0;
        plant.reset(1.0, v0);
        int cycles = 0;
        while (plant.velocity() != 0.0)
        {
            plant.brake(DT);
            cycles++;
            assertThat(cycles).isLessThan(20);
        }
        final double deceleration = (p.brakeTorqueNm() + p.coulombFrictionNm()) / p.inertiaKgM2();
        assertThat(cycles).isEqualTo((int)Math.ceil(v0 / deceleration / DT));
        final double travel = plant.position() - 1.0;
        assertThat(travel).isCloseTo(v0 * v0 / (2.0 * deceleration), within(0.01 * travel));
        final double stopped = plant.position();
        for (int k = 0; k < 100; k++)
        {
            plant.brake(DT);
        }
        assertThat(plant.position()).isEqualTo(stopped);
        assertThat(plant.velocity()).isZero();
        assertThat(plant.torque()).isZero();
    }

    @Test
    void shouldBrakeInEitherDirection()
    {
        final AxisPlant plant = new AxisPlant(AxisParameters.standard());
        plant.reset(0.0, -3.0);
        for (int k = 0; k < 10; k++)
        {
            plant.brake(DT);
        }
        assertThat(plant.velocity()).isZero();
        assertThat(plant.position()).isNegative();
    }

    @Test
    void shouldClampTheTorqueCommandAtThePeakTorqueAndTreatNanAsZero()
    {
        final AxisPlant plant = new AxisPlant(AxisParameters.standard());
        plant.step(7.0, DT);
        assertThat(plant.commandedTorque()).isEqualTo(0.5);
        plant.step(Double.NEGATIVE_INFINITY, DT);
        assertThat(plant.commandedTorque()).isEqualTo(-0.5);
        assertThat(plant.nanCommands()).isZero();
        plant.step(Double.NaN, DT);
        assertThat(plant.commandedTorque()).isZero();
        assertThat(plant.nanCommands()).isEqualTo(1);
        assertThat(plant.position()).isFinite();
        assertThat(plant.velocity()).isFinite();
    }

    @Test
    void shouldFollowTheCommandWithTheCurrentLag()
    {
        final double tau = 0.5e-3;
        final AxisPlant plant = new AxisPlant(AxisParameters.standard().withCurrentLagSeconds(tau));
        final double period = 0.1e-3;
        for (int k = 0; k < 5; k++)
        {
            plant.step(0.1, period);
        }
        assertThat(plant.torque()).isCloseTo(0.1 * (1.0 - Math.exp(-1.0)), within(1e-6));
        final AxisPlant ideal = new AxisPlant(AxisParameters.standard());
        ideal.step(0.1, 5 * period);
        assertThat(plant.velocity()).isLessThan(ideal.velocity());
    }

    @Test
    void shouldNameEveryBadParameter()
    {
        final AxisParameters bad = new AxisParameters(0.0, -2e-4, Double.NaN, -1.0, 0.0, 0.5, -1e-3, 0.5, 0);
        assertThat(bad.problems()).hasSize(7);
        assertThatThrownBy(bad::validate).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("axis.torqueConstantNmPerA must be > 0, was 0.0")
            .hasMessageContaining("axis.inertiaKgM2 must be > 0, was -2.0E-4")
            .hasMessageContaining("axis.viscousFrictionNmSPerRad must be >= 0, was NaN")
            .hasMessageContaining("axis.coulombFrictionNm must be >= 0, was -1.0")
            .hasMessageContaining("axis.coulombVelocityRadPerS must be > 0, was 0.0")
            .hasMessageContaining("axis.currentLagSeconds must be >= 0, was -0.001")
            .hasMessageContaining("axis.subSteps must be 1..1000, was 0");
        assertThatThrownBy(() -> new AxisPlant(bad)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseTooFewSubStepsForThePeriod()
    {
        final AxisParameters p = AxisParameters.standard();
        assertThat(p.problemsFor(1e-3)).isEmpty();
        assertThat(p.problemsFor(250e-6)).isEmpty();
        assertThat(p.maxPeriodSeconds()).isCloseTo(10 * 2.5 / ((1e-4 + 5e-3 / 0.01) / 2e-4), within(1e-12));
        assertThatThrownBy(() -> p.withSubSteps(1).validateFor(1e-3)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("axis.subSteps 1 is too few for a 0.001 s period");
        assertThat(p.problemsFor(0.0)).containsExactly("loop period must be > 0 s, was 0.0");
    }
}
