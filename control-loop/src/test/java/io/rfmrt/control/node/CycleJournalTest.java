package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.journal.ControlInputSample;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.journal.ControlSample;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cycle journaled to a real journal and read back: the CONTROL and CONTROL_INPUT samples carry what a re-run needs
 * (the law's state, the setpoint, the sensor values), the faults their cycles and values.
 */
class CycleJournalTest
{
    @TempDir
    Path temp;

    @Test
    void shouldJournalWhatAReRunNeeds()
    {
        final Path dir = temp.resolve("journal");
        final int running = ControlJournal.stateId(AxisState.RUNNING);
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2)))
        {
            final CycleJournal j = new CycleJournal(journal.newWriter("controller"));
            final SensorSample sample = new SensorSample().set(41, 900, 1.25, 0.5);
            final Setpoint setpoint = new Setpoint().set(1.5, 2.0, 3.0, 4.0);
            j.cycle(1_900, running, sample, setpoint, -0.75, 0.25, 1_000, 0.125);
            j.skipped(42, 3, 2_000);
            j.deadlineMiss(43, 7_000, 3_000);
            j.followingError(44, -0.006, 4_000);
        }
        final ControlSample control = new ControlSample();
        final ControlInputSample input = new ControlInputSample();
        final List<String> faults = new ArrayList<>();
        int samples = 0;
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord r = new JournalRecord();
            while (reader.next(r))
            {
                if (control.wrap(r))
                {
                    samples++;
                    assertThat(control.cycle()).isEqualTo(41);
                    assertThat(control.nanos()).isEqualTo(1_900);
                    assertThat(control.stateId()).isEqualTo(running);
                    assertThat(control.setpoint()).isEqualTo(1.5);
                    assertThat(control.position()).isEqualTo(1.25);
                    assertThat(control.velocity()).isEqualTo(0.5);
                    assertThat(control.command()).isEqualTo(-0.75);
                    assertThat(control.error()).isEqualTo(0.25);
                    assertThat(control.latencyMicros()).isEqualTo(1.0);
                }
                else if (input.wrap(r))
                {
                    samples++;
                    assertThat(input.cycle()).isEqualTo(41);
                    assertThat(input.sendNanos()).isEqualTo(900);
                    assertThat(input.integrator()).isEqualTo(0.125);
                    assertThat(input.setpointVelocity()).isEqualTo(2.0);
                    assertThat(input.setpointAcceleration()).isEqualTo(3.0);
                    assertThat(input.setpointJerk()).isEqualTo(4.0);
                    assertThat(input.sensorPosition()).isEqualTo(1.25);
                    assertThat(input.sensorVelocity()).isEqualTo(0.5);
                }
                else if (r.kind() == RecordKind.FAULT)
                {
                    faults.add(r.code() + "/" + r.seq() + "/" + r.value() + "@" + r.nanos());
                }
            }
        }
        assertThat(samples).isEqualTo(2);
        assertThat(faults).containsExactly(
            ControlJournal.FAULT_FRAME_SKIPPED + "/42/3@2000",
            ControlJournal.FAULT_DEADLINE_MISS + "/43/7000@3000",
            ControlJournal.FAULT_FOLLOWING_ERROR + "/44/6000000@4000");
    }
}
