package io.rfmrt.control;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The cascaded controller against the default axis at 1 kHz: the stated step-response spec, saturation, anti-windup,
 * feed-forward and the pure-function contract.
 */
class AxisControllerTest
{
    /** The spec of the default tune (docs/control.md): a 0.05 rad step, below the torque limit. */
    static final double SMALL_STEP_RAD = 0.05;
    static final double SMALL_STEP_MAX_OVERSHOOT = 0.02;
    static final double SMALL_STEP_MAX_SETTLING_SECONDS = 0.040;
    /** A 1 rad step saturates the torque for most of the move. */
    static final double LARGE_STEP_RAD = 1.0;
    static final double LARGE_STEP_MAX_OVERSHOOT = 0.25;
    static final double LARGE_STEP_MAX_SETTLING_SECONDS = 0.100;

    @Test
    void shouldMeetTheStepResponseSpecWithTheDefaultTune()
    {
        final double[] r = ClosedLoop.stepResponse(new ClosedLoop(0), SMALL_STEP_RAD, 0.5);
        System.out.printf("default tune, %.2f rad step at 1 kHz: overshoot %.2f %%, 2 %% settling %.0f ms, " +
            "peak torque %.3f N·m%n", SMALL_STEP_RAD, 100 * r[0], 1e3 * r[1], r[2]);
        assertThat(r[0]).as("overshoot").isBetween(0.0, SMALL_STEP_MAX_OVERSHOOT);
        assertThat(r[1]).as("2 %% settling time, s").isLessThanOrEqualTo(SMALL_STEP_MAX_SETTLING_SECONDS);
        assertThat(r[2]).as("the small step stays below the torque limit").isLessThan(0.5);
    }

    @Test
    void shouldMeetTheStepResponseSpecWithOneMorePeriodOfDelay()
    {
        final double[] r = ClosedLoop.stepResponse(new ClosedLoop(1), SMALL_STEP_RAD, 0.5);
        System.out.printf("default tune, %.2f rad step, one period of extra delay: overshoot %.2f %%, " +
            "settling %.0f ms%n", SMALL_STEP_RAD, 100 * r[0], 1e3 * r[1]);
        assertThat(r[0]).isBetween(0.0, SMALL_STEP_MAX_OVERSHOOT);
        assertThat(r[1]).isLessThanOrEqualTo(SMALL_STEP_MAX_SETTLING_SECONDS);
    }

    @Test
    void shouldBoundTheSaturatedLargeStep()
    {
        final double[] r = ClosedLoop.stepResponse(new ClosedLoop(0), LARGE_STEP_RAD, 1.0);
        System.out.printf("default tune, %.1f rad step (saturated): overshoot %.1f %%, settling %.0f ms%n",
            LARGE_STEP_RAD, 100 * r[0], 1e3 * r[1]);
        assertThat(r[0]).isLessThanOrEqualTo(LARGE_STEP_MAX_OVERSHOOT);
        assertThat(r[1]).isLessThanOrEqualTo(LARGE_STEP_MAX_SETTLING_SECONDS);
        assertThat(r[2]).isEqualTo(0.5);
    }

    @Test
    void shouldNeverCommandMoreThanTheTorqueLimit()
    {
        final double limit = 0.2;
        final ControllerGains gains = ControllerGains.standard().withTorqueLimit(limit);
        final AxisController controller = new AxisController(gains);
        assertThat(controller.gains()).isSameAs(gains);
        final SplittableRandom random = new SplittableRandom(42);
        final ControllerState state = new ControllerState();
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint();
        final ControlCommand command = new ControlCommand();
        int saturated = 0;
        for (int k = 0; k < 100_000; k++)
        {
            sample.set(k, k, random.nextDouble(-10, 10), random.nextDouble(-200, 200));
            setpoint.set(random.nextDouble(-10, 10), random.nextDouble(-200, 200), random.nextDouble(-1e5, 1e5), 0);
            controller.step(state, sample, setpoint, state, command);
            if (Math.abs(command.torqueNm()) > limit)
            {
                throw new AssertionError("torque " + command.torqueNm() + " beyond " + limit + " at " + k);
            }
            saturated += command.saturated() ? 1 : 0;
            assertThat(Math.abs(state.integratorNm())).isLessThanOrEqualTo(limit);
        }
        assertThat(saturated).as("random inputs mostly saturate").isGreaterThan(50_000);
    }

    @Test
    void shouldKeepTheTorqueWithinTheLimitInClosedLoop()
    {
        final ClosedLoop loop = new ClosedLoop(0);
        final double[] peak = {0.0};
        final long[] saturatedCycles = {0};
        loop.run(2000, (t, out) -> out.hold(t < 1.0 ? 3.0 : -2.0), (k, t, s, sp, c) ->
        {
            peak[0] = Math.max(peak[0], Math.abs(c.torqueNm()));
            saturatedCycles[0] += c.saturated() ? 1 : 0;
        });
        assertThat(peak[0]).isEqualTo(0.5);
        assertThat(saturatedCycles[0]).isGreaterThan(50);
        assertThat(loop.plant.position()).isCloseTo(-2.0, within(0.002));
    }

    @Test
    void shouldBoundOvershootAfterAStallWithAntiWindup()
    {
        final double[] none = overshootAfterStall(ControllerGains.standard()
            .withAntiWindup(ControllerGains.AntiWindup.NONE));
        final double[] clamping = overshootAfterStall(ControllerGains.standard()
            .withAntiWindup(ControllerGains.AntiWindup.CLAMPING));
        final double[] backCalculation = overshootAfterStall(ControllerGains.standard()
            .withAntiWindup(ControllerGains.AntiWindup.BACK_CALCULATION, 100.0));
        System.out.printf("0.1 rad after a 300 ms stall: overshoot none %.0f %%, clamping %.2f %%, " +
            "back-calculation %.2f %%%n", 100 * none[0], 100 * clamping[0], 100 * backCalculation[0]);
        assertThat(none[0]).as("the unclamped integrator winds up").isGreaterThan(10.0);
        assertThat(clamping[0]).isLessThan(0.01);
        assertThat(clamping[1]).as("settled 1 s after the release").isLessThan(0.02);
        assertThat(backCalculation[0]).isLessThan(0.01);
        assertThat(backCalculation[1]).isLessThan(0.02);
    }

    @Test
    void shouldBoundOvershootOfALongSaturatedStepWithAntiWindup()
    {
        final double none = ClosedLoop.stepResponse(new ClosedLoop(AxisParameters.standard(),
            ControllerGains.standard().withAntiWindup(ControllerGains.AntiWindup.NONE), 0), LARGE_STEP_RAD, 1.0)[0];
        final double clamped = ClosedLoop.stepResponse(new ClosedLoop(0), LARGE_STEP_RAD, 1.0)[0];
        assertThat(none).isGreaterThan(2.0);
        assertThat(clamped).isLessThan(none / 10.0).isLessThanOrEqualTo(LARGE_STEP_MAX_OVERSHOOT);
    }

    @Test
    void shouldFeedForwardVelocityAndAcceleration()
    {
        final ControllerGains gains = ControllerGains.standard();
        final AxisController controller = new AxisController(gains);
        final ControllerState state = new ControllerState().set(0.001);
        final ControllerState next = new ControllerState();
        final ControlCommand command = new ControlCommand();
        // on the setpoint, moving at its velocity: only the feed-forward and the integrator drive the axis
        controller.step(state, new SensorSample().set(7, 70, 0.3, 0.6), new Setpoint().set(0.3, 0.6, 3.0, 30.0),
            next, command);
        assertThat(command.cycle()).isEqualTo(7);
        assertThat(command.positionErrorRad()).isZero();
        assertThat(command.velocityReferenceRadPerS()).isEqualTo(0.6);
        assertThat(command.velocityErrorRadPerS()).isZero();
        assertThat(command.feedForwardTorqueNm()).isEqualTo(gains.accelerationFeedForwardKgM2() * 3.0);
        assertThat(command.torqueNm()).isEqualTo(command.feedForwardTorqueNm() + 0.001);
        assertThat(command.saturated()).isFalse();
        assertThat(next.integratorNm()).isEqualTo(0.001);

        controller.step(state, new SensorSample().set(8, 80, 0.29, 0.6), new Setpoint().set(0.3, 0.6, 0.0, 0.0),
            next, command);
        assertThat(command.velocityReferenceRadPerS()).isCloseTo(0.6 + gains.positionGainPerS() * 0.01,
            within(1e-12));
        assertThat(next.integratorNm()).isGreaterThan(0.001);
    }

    @Test
    void shouldClampTheVelocityReference()
    {
        final AxisController controller = new AxisController(ControllerGains.standard().withVelocityLimit(5.0));
        final ControlCommand command = new ControlCommand();
        controller.step(new ControllerState(), new SensorSample().set(0, 0, 0, 0), new Setpoint().hold(10.0),
            new ControllerState(), command);
        assertThat(command.velocityReferenceRadPerS()).isEqualTo(5.0);
        controller.step(new ControllerState(), new SensorSample().set(0, 0, 0, 0), new Setpoint().hold(-10.0),
            new ControllerState(), command);
        assertThat(command.velocityReferenceRadPerS()).isEqualTo(-5.0);
    }

    @Test
    void shouldGiveTheSameResultInPlaceAsIntoAnotherState()
    {
        final AxisController controller = new AxisController(ControllerGains.standard());
        final SensorSample sample = new SensorSample().set(1, 1, 0.01, -0.2);
        final Setpoint setpoint = new Setpoint().set(0.02, 0.1, 1.0, 0.0);
        final ControllerState inPlace = new ControllerState().set(0.002);
        final ControllerState before = new ControllerState().set(0.002);
        final ControllerState after = new ControllerState();
        final ControlCommand a = new ControlCommand();
        final ControlCommand b = new ControlCommand();
        controller.step(inPlace, sample, setpoint, inPlace, a);
        controller.step(before, sample, setpoint, after, b);
        assertThat(a.sameBitsAs(b)).isTrue();
        assertThat(inPlace.sameBitsAs(after)).isTrue();
        assertThat(before.integratorNm()).as("the input state is not touched").isEqualTo(0.002);
    }

    @Test
    void shouldNotLetANanSamplePoisonTheIntegrator()
    {
        final AxisController controller = new AxisController(ControllerGains.standard());
        final ControllerState state = new ControllerState().set(0.003);
        final ControlCommand command = new ControlCommand();
        controller.step(state, new SensorSample().set(3, 3, Double.NaN, 0.0), new Setpoint().hold(0.0), state,
            command);
        assertThat(command.torqueNm()).isZero();
        assertThat(command.saturated()).isTrue();
        assertThat(state.integratorNm()).isEqualTo(0.003);
    }

    @Test
    void shouldWriteAZeroTorqueCommandForTheSafeState()
    {
        final ControlCommand command = new ControlCommand();
        AxisController.zeroTorque(new SensorSample().set(9, 9, 0.4, 0.1), new Setpoint().hold(0.5), command);
        assertThat(command.cycle()).isEqualTo(9);
        assertThat(command.torqueNm()).isZero();
        assertThat(command.positionErrorRad()).isCloseTo(0.1, within(1e-15));
        assertThat(command.velocityErrorRadPerS()).as("a held setpoint against a moving axis").isEqualTo(-0.1);
        assertThat(command.saturated()).isFalse();
    }

    @Test
    void shouldNameEveryBadGain()
    {
        final ControllerGains bad = new ControllerGains(0.0, -1.0, Double.NaN, 40.0, Double.POSITIVE_INFINITY, 0.0,
            0.0, -0.5, null, 100.0);
        assertThatThrownBy(() -> new AxisController(bad)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("controller.periodSeconds must be > 0, was 0.0")
            .hasMessageContaining("controller.positionGainPerS must be >= 0, was -1.0")
            .hasMessageContaining("controller.velocityGainNmSPerRad must be >= 0, was NaN")
            .hasMessageContaining("controller.velocityFeedForward must be a finite number, was Infinity")
            .hasMessageContaining("controller.velocityLimitRadPerS must be > 0, was 0.0")
            .hasMessageContaining("controller.torqueLimitNm must be > 0, was -0.5")
            .hasMessageContaining("controller.antiWindup must be one of NONE, CLAMPING, BACK_CALCULATION");
        assertThat(ControllerGains.standard().withAntiWindup(ControllerGains.AntiWindup.BACK_CALCULATION, 2000.0)
            .problems()).containsExactly("controller.backCalculationGainPerS times controller.periodSeconds must " +
            "be in (0, 1], was 2000.0 * 0.001");
        assertThat(ControllerGains.standard().problems()).isEmpty();
    }

    /**
     * Hold the axis with the brake for 300 ms while the controller pushes it toward 0.1 rad, then release: the
     * overshoot past 0.1 rad and the error 1 s after the release, as fractions of 0.1 rad.
     */
    private static double[] overshootAfterStall(final ControllerGains gains)
    {
        final double target = 0.1;
        final AxisPlant plant = new AxisPlant(AxisParameters.standard());
        final AxisController controller = new AxisController(gains);
        final ControllerState state = new ControllerState();
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint().hold(target);
        final ControlCommand command = new ControlCommand();
        double peak = 0.0;
        for (int k = 0; k < 1300; k++)
        {
            sample.set(k, k, plant.position(), plant.velocity());
            controller.step(state, sample, setpoint, state, command);
            if (k < 300)
            {
                assertThat(command.saturated()).isTrue();
                plant.brake(gains.periodSeconds());
            }
            else
            {
                plant.step(command.torqueNm(), gains.periodSeconds());
                peak = Math.max(peak, plant.position());
            }
        }
        return new double[] {(peak - target) / target, Math.abs(plant.position() - target) / target};
    }
}
