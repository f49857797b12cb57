package io.rfmrt.control.journal;

import io.rfmrt.control.AxisState;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.replay.ReplayVocabulary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The control codes as a replay learns them, and the control-sample flyweights: every typed accessor reads the value
 * the vocabulary names, from a record written to a real journal.
 */
class ControlJournalTest
{
    @TempDir
    Path temp;

    private static void retry(final BooleanSupplier write)
    {
        while (!write.getAsBoolean())
        {
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldRegisterTheControlCodesBesideTheRuntimes()
    {
        final ReplayVocabulary vocabulary = ControlJournal.vocabulary();
        assertThat(vocabulary.faultName(ControlJournal.FAULT_DEADLINE_MISS)).isEqualTo("DEADLINE_MISS");
        assertThat(vocabulary.faultName(ControlJournal.FAULT_COMMAND_STALE)).isEqualTo("COMMAND_STALE");
        assertThat(vocabulary.faultName(ControlJournal.FAULT_STALL)).isEqualTo("STALL");
        assertThat(vocabulary.faultName(JournalCodes.FAULT_THREAD_FAILED)).isEqualTo("THREAD_FAILED");
        for (final AxisState state : AxisState.values())
        {
            assertThat(vocabulary.stateName(ControlJournal.stateId(state))).isEqualTo(state.name());
            assertThat(ControlJournal.state(ControlJournal.stateId(state))).isSameAs(state);
        }
        assertThat(ControlJournal.state(AxisState.values().length)).isNull();
        assertThat(ControlJournal.state(-1)).isNull();
        assertThat(vocabulary.sampleName(ControlJournal.SAMPLE_CONTROL)).isEqualTo("CONTROL");
        assertThat(vocabulary.sampleName(ControlJournal.SAMPLE_CONTROL_INPUT)).isEqualTo("CONTROL_INPUT");
        assertThat(vocabulary.sample(ControlJournal.SAMPLE_PLANT).values())
            .containsExactly("position", "velocity", "torque", "braking", "measured_position", "status_word");
        assertThat(vocabulary.faultName(ControlJournal.FAULT_DRIVE_FAULT)).isEqualTo("DRIVE_FAULT");
        assertThat(vocabulary.sample(ControlJournal.SAMPLE_LOOP_PERIOD).values()).containsExactly("period_p50_us",
            "period_p99_us", "period_max_us", "period_min_us", "jitter_p99_us", "jitter_max_us");
        assertThat(vocabulary.sample(ControlJournal.SAMPLE_LOOP_EXECUTION).values()).containsExactly(
            "execution_p50_us", "execution_p99_us", "execution_max_us", "overruns", "skipped_frames", "late_commands");
        // registering twice is harmless; a vocabulary that gives a control code another name is refused
        ControlJournal.register(vocabulary);
        assertThatThrownBy(() -> ControlJournal.register(ReplayVocabulary.runtime().fault(104, "OVERHEAT")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("fault code 104 is registered as OVERHEAT; cannot register it as STALL");
    }

    @Test
    void shouldReadControlSamplesByName()
    {
        final Path dir = temp.resolve("journal");
        final int running = ControlJournal.stateId(AxisState.RUNNING);
        final int safe = ControlJournal.stateId(AxisState.SAFE);
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2)))
        {
            final JournalWriter w = journal.newWriter("controller");
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, 1_000, 41, running, 1.5, 1.25, 0.5, -0.75, 0.25,
                42.0));
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL_INPUT, 900, 41, running, 0.125, 2.0, 3.0, 4.0, 1.25,
                0.5));
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, 2_000, 42, safe, 0, 0, 0, 0, 0, 0));
            retry(() -> w.state(running, safe, 1_500));
        }
        final ReplayVocabulary vocabulary = ControlJournal.vocabulary();
        final ControlSample control = new ControlSample();
        final ControlInputSample input = new ControlInputSample();
        int controls = 0;
        int inputs = 0;
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord r = new JournalRecord();
            while (reader.next(r))
            {
                if (control.wrap(r))
                {
                    assertThat(input.wrap(r)).isFalse();
                    if (controls++ == 0)
                    {
                        assertThat(control.cycle()).isEqualTo(41);
                        assertThat(control.nanos()).isEqualTo(1_000);
                        assertThat(control.running()).isTrue();
                        assertThat(control.stateId()).isEqualTo(running);
                        assertThat(control.setpoint()).isEqualTo(1.5).isEqualTo(vocabulary.value(r, "setpoint"));
                        assertThat(control.position()).isEqualTo(1.25).isEqualTo(vocabulary.value(r, "position"));
                        assertThat(control.velocity()).isEqualTo(0.5).isEqualTo(vocabulary.value(r, "velocity"));
                        assertThat(control.command()).isEqualTo(-0.75).isEqualTo(vocabulary.value(r, "command"));
                        assertThat(control.error()).isEqualTo(0.25).isEqualTo(vocabulary.value(r, "error"));
                        assertThat(control.latencyMicros()).isEqualTo(42.0)
                            .isEqualTo(vocabulary.value(r, "latency_us"));
                    }
                    else
                    {
                        assertThat(control.running()).isFalse();
                    }
                }
                else if (input.wrap(r))
                {
                    inputs++;
                    assertThat(input.cycle()).isEqualTo(41);
                    assertThat(input.sendNanos()).isEqualTo(900);
                    assertThat(input.running()).isTrue();
                    assertThat(input.integrator()).isEqualTo(0.125).isEqualTo(vocabulary.value(r, "integrator"));
                    assertThat(input.setpointVelocity()).isEqualTo(2.0)
                        .isEqualTo(vocabulary.value(r, "setpoint_velocity"));
                    assertThat(input.setpointAcceleration()).isEqualTo(3.0)
                        .isEqualTo(vocabulary.value(r, "setpoint_acceleration"));
                    assertThat(input.setpointJerk()).isEqualTo(4.0).isEqualTo(vocabulary.value(r, "setpoint_jerk"));
                    assertThat(input.sensorPosition()).isEqualTo(1.25)
                        .isEqualTo(vocabulary.value(r, "sensor_position"));
                    assertThat(input.sensorVelocity()).isEqualTo(0.5)
                        .isEqualTo(vocabulary.value(r, "sensor_velocity"));
                }
                else
                {
                    assertThat(r.kind()).isEqualTo(RecordKind.STATE);
                    // a view that did not take a record refuses to read rather than read another kind
                    assertThatThrownBy(control::error).isInstanceOf(IllegalStateException.class)
                        .hasMessage("no CONTROL sample wrapped");
                }
            }
        }
        assertThat(controls).isEqualTo(2);
        assertThat(inputs).isEqualTo(1);
    }
}
