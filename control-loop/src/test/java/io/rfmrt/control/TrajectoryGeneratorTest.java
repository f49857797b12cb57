package io.rfmrt.control;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Trapezoidal and S-curve moves: continuity, limits (checked numerically on samples), short moves, exact ends, the
 * sequencing of segments and the demo profile.
 */
class TrajectoryGeneratorTest
{
    private static final double V = 0.6;
    private static final double A = 3.0;
    private static final double J = 30.0;
    /** Relative slack for floating-point rounding in the limit checks. */
    private static final double SLACK = 1e-9;

    static Stream<Arguments> moves()
    {
        return Stream.of(
            Arguments.of("long S-curve", MoveProfile.sCurve(0.0, 1.0, V, A, J)),
            Arguments.of("long S-curve backwards", MoveProfile.sCurve(0.75, -0.5, V, A, J)),
            Arguments.of("S-curve below v_max", MoveProfile.sCurve(0.0, 0.1, V, A, J)),
            Arguments.of("S-curve below a_max", MoveProfile.sCurve(0.0, 0.005, V, A, J)),
            Arguments.of("S-curve with v·j < a²", MoveProfile.sCurve(0.0, 2.0, 0.2, A, J)),
            Arguments.of("long trapezoid", MoveProfile.trapezoidal(0.0, 1.0, V, A)),
            Arguments.of("triangular trapezoid", MoveProfile.trapezoidal(0.2, 0.1, V, A)),
            Arguments.of("fast S-curve", MoveProfile.sCurve(0.0, 3.0, 50.0, 2000.0, 1e5)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("moves")
    void shouldRespectLimitsAndStayContinuous(final String name, final MoveProfile move)
    {
        final double vMax = name.contains("fast") ? 50.0 : name.contains("v·j") ? 0.2 : V;
        final double aMax = name.contains("fast") ? 2000.0 : A;
        final double jMax = name.contains("fast") ? 1e5 : J;
        final boolean sCurve = move.kind() == MoveProfile.Kind.S_CURVE;
        for (final double dt : new double[] {1e-3, 1e-4})
        {
            final Setpoint previous = new Setpoint();
            final Setpoint current = new Setpoint();
            move.sample(0.0, previous);
            assertThat(previous.position()).isEqualTo(move.startPosition());
            final long samples = (long)Math.ceil(move.durationSeconds() / dt) + 2;
            double peakVelocity = 0.0;
            for (long k = 1; k <= samples; k++)
            {
                move.sample(k * dt, current);
                atMost("|v|", Math.abs(current.velocity()), vMax * (1 + SLACK), k);
                atMost("|a|", Math.abs(current.acceleration()), aMax * (1 + SLACK), k);
                atMost("|dp|", Math.abs(current.position() - previous.position()), vMax * dt * (1 + SLACK), k);
                atMost("|dv|", Math.abs(current.velocity() - previous.velocity()), aMax * dt * (1 + SLACK) + 1e-15, k);
                if (sCurve)
                {
                    atMost("|j|", Math.abs(current.jerk()), jMax, k);
                    atMost("|da|", Math.abs(current.acceleration() - previous.acceleration()),
                        jMax * dt * (1 + SLACK) + 1e-12, k);
                }
                // the sampled velocity is the derivative of the sampled position (trapezoidal rule, O(dt³·j))
                final double mean = 0.5 * (current.velocity() + previous.velocity());
                atMost("|dp/dt - mean v|", Math.abs((current.position() - previous.position()) / dt - mean),
                    sCurve ? jMax * dt * dt + 1e-9 : aMax * dt + 1e-9, k);
                peakVelocity = Math.max(peakVelocity, Math.abs(current.velocity()));
                previous.copyFrom(current);
            }
            assertThat(previous.position()).isEqualTo(move.endPosition());
            assertThat(previous.velocity()).isZero();
            assertThat(previous.acceleration()).isZero();
            assertThat(peakVelocity).isCloseTo(move.peakVelocity(), within(move.peakVelocity() * 0.01));
        }
    }

    @Test
    void shouldTakeTheTimeTheLimitsAllow()
    {
        final MoveProfile s = MoveProfile.sCurve(0.0, 1.0, V, A, J);
        assertThat(s.durationSeconds()).isCloseTo(1.0 / V + V / A + A / J, within(1e-12));
        assertThat(s.peakVelocity()).isEqualTo(V);
        assertThat(s.peakAcceleration()).isEqualTo(A);

        final MoveProfile t = MoveProfile.trapezoidal(0.0, 1.0, V, A);
        assertThat(t.durationSeconds()).isCloseTo(1.0 / V + V / A, within(1e-12));

        final MoveProfile triangle = MoveProfile.trapezoidal(0.0, 0.1, V, A);
        assertThat(triangle.peakVelocity()).isCloseTo(Math.sqrt(0.1 * A), within(1e-12));
        assertThat(triangle.durationSeconds()).isCloseTo(2.0 * Math.sqrt(0.1 / A), within(1e-12));

        // below v_max with a_max reached: v²/a + v·a/j = d
        final MoveProfile shortMove = MoveProfile.sCurve(0.0, 0.1, V, A, J);
        final double v = shortMove.peakVelocity();
        assertThat(v).isLessThan(V);
        assertThat(v * v / A + v * A / J).isCloseTo(0.1, within(1e-12));
        assertThat(shortMove.peakAcceleration()).isEqualTo(A);

        // a_max not reached either: d = 2·j·Tj³, duration 4·Tj
        final MoveProfile tiny = MoveProfile.sCurve(0.0, 0.005, V, A, J);
        final double tj = Math.cbrt(0.005 / (2.0 * J));
        assertThat(tiny.peakAcceleration()).isCloseTo(J * tj, within(1e-12)).isLessThan(A);
        assertThat(tiny.durationSeconds()).isCloseTo(4.0 * tj, within(1e-12));
    }

    @Test
    void shouldHoldTheEndsOutsideTheMove()
    {
        final MoveProfile move = MoveProfile.sCurve(0.5, -0.25, V, A, J);
        final Setpoint out = new Setpoint();
        move.sample(-1.0, out);
        assertThat(out.position()).isEqualTo(0.5);
        assertThat(out.velocity()).isZero();
        move.sample(Double.NaN, out);
        assertThat(out.position()).isEqualTo(0.5);
        move.sample(move.durationSeconds() + 5.0, out);
        assertThat(out.position()).isEqualTo(-0.25);
        assertThat(out.velocity()).isZero();
        move.sample(0.5 * move.durationSeconds(), out);
        assertThat(out.position()).isCloseTo(0.125, within(1e-12));
        assertThat(out.velocity()).isNegative();
    }

    @Test
    void shouldPlanAZeroMoveAsAnEmptySegment()
    {
        final MoveProfile move = MoveProfile.sCurve(0.3, 0.3, V, A, J);
        assertThat(move.durationSeconds()).isZero();
        final Setpoint out = new Setpoint();
        move.sample(0.1, out);
        assertThat(out.position()).isEqualTo(0.3);
        assertThat(MoveProfile.trapezoidal(0.3, 0.3, V, A).durationSeconds()).isZero();
    }

    @Test
    void shouldReplanTheSameInstance()
    {
        final MoveProfile move = MoveProfile.trapezoidal(0.0, 1.0, V, A);
        assertThat(move.planSCurve(2.0, 1.0, V, A, J)).isSameAs(move);
        assertThat(move.kind()).isEqualTo(MoveProfile.Kind.S_CURVE);
        assertThat(move.durationSeconds()).isCloseTo(1.0 / V + V / A + A / J, within(1e-12));
        final Setpoint out = new Setpoint();
        move.sample(10.0, out);
        assertThat(out.position()).isEqualTo(1.0);
        assertThat(move.planDwell(1.5, 0.25).kind()).isEqualTo(MoveProfile.Kind.DWELL);
        assertThat(move.durationSeconds()).isEqualTo(0.25);
    }

    @Test
    void shouldRefuseBadLimits()
    {
        assertThatThrownBy(() -> MoveProfile.sCurve(0.0, 1.0, 0.0, A, J))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("vMax must be > 0, was 0.0");
        assertThatThrownBy(() -> MoveProfile.sCurve(0.0, 1.0, V, A, Double.NaN))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("jMax must be > 0, was NaN");
        assertThatThrownBy(() -> MoveProfile.trapezoidal(0.0, Double.POSITIVE_INFINITY, V, A))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("to must be a finite position, was Infinity");
        assertThatThrownBy(() -> MoveProfile.dwell(0.0, -1.0))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("dwell time must be >= 0 s, was -1.0");
    }

    @Test
    void shouldSequenceMovesAndDwellsWithoutJumps()
    {
        final TrajectoryGenerator trajectory = TrajectoryGenerator.builder(0.2)
            .dwell(0.1)
            .sCurveTo(1.0, V, A, J)
            .dwell(0.2)
            .trapezoidalTo(-0.5, V, A)
            .build();
        assertThat(trajectory.segmentCount()).isEqualTo(4);
        assertThat(trajectory.startPosition()).isEqualTo(0.2);
        assertThat(trajectory.endPosition()).isEqualTo(-0.5);
        assertThat(trajectory.moveDistance()).isCloseTo(0.8 + 1.5, within(1e-12));
        assertThat(trajectory.segmentKind(3)).isEqualTo(MoveProfile.Kind.TRAPEZOIDAL);
        final Setpoint previous = new Setpoint();
        final Setpoint current = new Setpoint();
        trajectory.sample(0.0, previous);
        for (int k = 1; k < (int)(trajectory.durationSeconds() * 1000) + 100; k++)
        {
            trajectory.sample(k * 1e-3, current);
            atMost("|dp|", Math.abs(current.position() - previous.position()), V * 1e-3 * (1 + SLACK), k);
            atMost("|dv|", Math.abs(current.velocity() - previous.velocity()), A * 1e-3 * (1 + SLACK), k);
            previous.copyFrom(current);
        }
        trajectory.sample(trajectory.segmentStartSeconds(2) + 0.1, current);
        assertThat(current.position()).isEqualTo(1.0);
        assertThat(current.velocity()).isZero();
        assertThat(previous.position()).isEqualTo(-0.5);
    }

    @Test
    void shouldCountOnlyTheDistanceTravelledByThenInAShortRun()
    {
        final DemoProfile demo = DemoProfile.standard();
        final TrajectoryGenerator trajectory = demo.trajectory();
        assertThat(demo.distanceCovered(0.0)).isZero();
        assertThat(demo.distanceCovered(0.4)).as("still in the first dwell").isZero();
        final double firstMoveEnd = trajectory.segmentStartSeconds(2);
        assertThat(demo.distanceCovered(firstMoveEnd)).isCloseTo(1.0, within(1e-12));
        assertThat(demo.distanceCovered(firstMoveEnd + 0.1)).as("dwell after the first move")
            .isCloseTo(1.0, within(1e-12));
        final double partial = demo.distanceCovered(3.0);
        final Setpoint at = new Setpoint();
        demo.setpoint(3.0, at);
        assertThat(partial).isCloseTo(1.0 + (1.0 - at.position()), within(1e-12)).isGreaterThan(1.0).isLessThan(1.75);
        assertThat(demo.distanceCovered(demo.durationSeconds())).isCloseTo(demo.moveDistance(), within(1e-12));
        assertThat(demo.distanceCovered(1e6)).isCloseTo(3.0, within(1e-12));
        double last = 0.0;
        for (double t = 0.0; t < demo.durationSeconds(); t += 0.01)
        {
            final double d = demo.distanceCovered(t);
            assertThat(d).isGreaterThanOrEqualTo(last - 1e-12);
            last = d;
        }
    }

    @Test
    void shouldDescribeTheStandardDemoProfile()
    {
        final DemoProfile demo = DemoProfile.standard();
        assertThat(demo.durationSeconds()).isBetween(8.0, 10.0);
        assertThat(demo.moveDistance()).isCloseTo(3.0, within(1e-12));
        final TrajectoryGenerator trajectory = demo.trajectory();
        assertThat(trajectory.segmentCount()).isEqualTo(9);
        final double[] dwellPositions = {0.0, 1.0, 0.25, 0.75, 0.0};
        final Setpoint out = new Setpoint();
        for (int i = 0; i < trajectory.segmentCount(); i += 2)
        {
            assertThat(trajectory.segmentKind(i)).isEqualTo(MoveProfile.Kind.DWELL);
            demo.setpoint(trajectory.segmentStartSeconds(i) + 0.01, out);
            assertThat(out.position()).isEqualTo(dwellPositions[i / 2]);
        }
        for (int i = 1; i < trajectory.segmentCount(); i += 2)
        {
            assertThat(trajectory.segmentKind(i)).isEqualTo(MoveProfile.Kind.S_CURVE);
        }
        demo.setpoint(100.0, out);
        assertThat(out.position()).isZero();
        final Setpoint repeated = new Setpoint();
        demo.setpoint(3.21, out);
        demo.setpointRepeating(3.21 + 2 * demo.durationSeconds(), repeated);
        assertThat(repeated.position()).isCloseTo(out.position(), within(1e-9));
    }

    /** A bound check cheap enough for every sample (AssertJ only when it fails). */
    private static void atMost(final String what, final double actual, final double limit, final long sample)
    {
        if (!(actual <= limit))
        {
            assertThat(actual).as("%s at sample %d", what, sample).isLessThanOrEqualTo(limit);
        }
    }
}
