package io.rfmrt.control.replay;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.journal.ControlJournal;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cycle-by-cycle comparison of two controller runs and where their comparable window ends.
 */
class ControlCompareTest
{
    private static final int STARTING = ControlJournal.stateId(AxisState.STARTING);
    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);
    private static final int SAFE = ControlJournal.stateId(AxisState.SAFE);

    @Test
    void shouldFindEqualRunsBitEqualToTheEnd()
    {
        final List<ControlCompare.Cycle> seen = new ArrayList<>();
        final ControlCompare.Comparison c = ControlCompare.compare(run(100, 10, -1), run(100, 10, -1), seen::add);
        assertThat(c.common()).isEqualTo(100);
        assertThat(seen).hasSize(100);
        assertThat(c.equal()).isEqualTo(100);
        assertThat(c.differing()).isZero();
        assertThat(c.statesAgree()).isEqualTo(100);
        assertThat(c.positionsEqual()).isEqualTo(100);
        assertThat(c.windowFirst()).isEqualTo(1);
        assertThat(c.windowLast()).isEqualTo(100);
        assertThat(c.windowEnd()).isEqualTo("the end of the cycles in both");
        assertThat(c.windowRunning()).isEqualTo(90);
        assertThat(c.a().running()).isEqualTo(90);
    }

    @Test
    void shouldKeepTheWindowWhenOneRunWentRunningACycleLaterWithTheSameZeroTorque()
    {
        final ControlCompare.Comparison c = ControlCompare.compare(run(100, 10, -1), run(100, 11, -1), null);
        assertThat(c.statesAgree()).isEqualTo(99);
        assertThat(c.firstStateDiff().cycle()).isEqualTo(11);
        assertThat(c.differing()).isZero();
        assertThat(c.windowLast()).isEqualTo(100);
    }

    @Test
    void shouldEndTheWindowAtATripAMissingRunningCycleOrAnotherSetpoint()
    {
        final ControlCompare.Comparison trip = ControlCompare.compare(run(100, 10, -1), run(100, 10, 40), null);
        assertThat(trip.windowLast()).isEqualTo(39);
        assertThat(trip.windowEnd()).isEqualTo("B SAFE at cycle 40");
        assertThat(trip.differing()).isPositive();
        assertThat(trip.windowDiffering()).isZero();

        final ControlCompare.Series skipped = run(100, 10, -1);
        remove(skipped, 60);
        final ControlCompare.Comparison missing = ControlCompare.compare(run(100, 10, -1), skipped, null);
        assertThat(missing.onlyA()).isEqualTo(1);
        assertThat(missing.windowEnd()).isEqualTo("cycle 60 only in A, RUNNING");
        assertThat(missing.windowLast()).isEqualTo(59);

        final ControlCompare.Series early = run(100, 10, -1);
        remove(early, 5);
        assertThat(ControlCompare.compare(run(100, 10, -1), early, null).windowLast())
            .as("a frame skipped while STARTING changes nothing").isEqualTo(100);
        final ControlCompare.Series rest = run(100, 10, -1);
        remove(rest, 30);
        assertThat(ControlCompare.compare(run(100, 10, -1), rest, null).windowLast())
            .as("nor one skipped while RUNNING at rest with nothing to correct").isEqualTo(100);

        final ControlCompare.Series shifted = run(100, 10, -1);
        shifted.setpoint[70] = 0.5;
        final ControlCompare.Comparison other = ControlCompare.compare(run(100, 10, -1), shifted, null);
        assertThat(other.windowEnd()).isEqualTo("another setpoint at cycle 71");
        assertThat(other.windowLast()).isEqualTo(70);
    }

    @Test
    void shouldCountTheCommandsThatDifferAndTheFirst()
    {
        final ControlCompare.Series b = run(100, 10, -1);
        for (int i = 50; i < 100; i++)
        {
            b.torque[i] *= 1.5;
        }
        final ControlCompare.Comparison c = ControlCompare.compare(run(100, 10, -1), b, null);
        assertThat(c.differing()).isEqualTo(50);
        assertThat(c.windowDiffering()).isEqualTo(50);
        assertThat(c.firstDiff().cycle()).isEqualTo(51);
        assertThat(c.maxDifference()).isPositive();
    }

    /** Cycles 1..n, STARTING until running, then RUNNING (SAFE from trip on, when not -1). */
    private static ControlCompare.Series run(final int n, final int running, final int trip)
    {
        final ControlCompare.Series s = new ControlCompare.Series();
        for (int c = 1; c <= n; c++)
        {
            final int state = trip > 0 && c >= trip ? SAFE : c > running ? RUNNING : STARTING;
            // the lead-in (setpoint 0, axis at rest) commands exactly 0 whatever the state
            final double torque = state == RUNNING && c > 50 ? 0.001 * c : 0.0;
            final double setpoint = c > 50 ? 0.01 * (c - 50) : 0.0;
            // at rest in the lead-in: no error, no speed
            final boolean rest = c <= 50;
            s.add(c, state, state == SAFE ? 0.0 : torque, rest ? 0.0 : 1e-5 * c, rest ? 0.0 : 0.001 * c, setpoint,
                rest ? 0.0 : 0.01);
        }
        s.finish(Path.of("run"), ".");
        return s;
    }

    private static void remove(final ControlCompare.Series s, final long cycle)
    {
        final ControlCompare.Series copy = new ControlCompare.Series();
        for (int i = 0; i < s.count; i++)
        {
            if (s.cycle[i] != cycle)
            {
                copy.add(s.cycle[i], s.state[i], s.torque[i], s.error[i], s.position[i], s.setpoint[i],
                    s.velocity[i]);
            }
        }
        s.cycle = copy.cycle;
        s.state = copy.state;
        s.torque = copy.torque;
        s.error = copy.error;
        s.position = copy.position;
        s.setpoint = copy.setpoint;
        s.velocity = copy.velocity;
        s.count = copy.count;
    }
}
