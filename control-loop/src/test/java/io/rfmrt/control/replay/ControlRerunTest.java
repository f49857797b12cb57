package io.rfmrt.control.replay;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.GainsFile;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A controller journal made by running the plant and the controller in closed loop re-runs with 0 divergences;
 * other gains diverge and track differently.
 */
public class ControlRerunTest
{
    public static final int CYCLES = 1_500;

    @TempDir
    Path temp;

    private static void retry(final BooleanSupplier write)
    {
        while (!write.getAsBoolean())
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Closed loop at 1 kHz: cycles 0-19 STARTING (zero torque), then RUNNING; a smooth move to 1 rad. Journals
     * FRAME (sensor payload), CONTROL_INPUT and CONTROL per cycle as the controller node does.
     */
    public static void writeControlJournal(final Path dir)
    {
        final ControllerGains gains = ControllerGains.standard();
        final AxisController controller = new AxisController(gains);
        final AxisPlant plant = new AxisPlant(AxisParameters.standard());
        final ControllerState state = new ControllerState();
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint();
        final ControlCommand command = new ControlCommand();
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[32]);
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2)))
        {
            final JournalWriter w = journal.newWriter("consumer");
            final long base = System.nanoTime();
            for (long k = 0; k < CYCLES; k++)
            {
                final long send = base + k * 1_000_000L;
                final double t = k * 1e-3;
                final double s = Math.min(1.0, t / 1.0);
                final double p = s * s * (3 - 2 * s);
                final double v = t < 1.0 ? 6 * s * (1 - s) : 0.0;
                final double a = t < 1.0 ? 6 - 12 * s : 0.0;
                setpoint.set(p, v, a, t < 1.0 ? -12 : 0.0);
                sample.set(k, send, plant.position(), plant.velocity());
                payload.putDouble(0, sample.position());
                payload.putDouble(8, sample.velocity());
                payload.putLong(16, k);
                payload.putLong(24, send);
                final long seq = k + 1;
                retry(() -> w.frame(seq, 1, 0, 0, send, send + 20_000, send + 22_000, send + 25_000, send + 40_000,
                    payload, 0, 32));
                final int axis = ControlJournal.stateId(k < 20 ? AxisState.STARTING : AxisState.RUNNING);
                final double integrator = state.integratorNm();
                final double torque;
                if (axis == ControlJournal.stateId(AxisState.RUNNING))
                {
                    controller.step(state, sample, setpoint, state, command);
                    torque = command.torqueNm();
                }
                else
                {
                    AxisController.zeroTorque(sample, setpoint, command);
                    torque = 0.0;
                }
                final long cycle = k;
                final double pos = sample.position();
                final double vel = sample.velocity();
                retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL_INPUT, send, cycle, axis, integrator, v, a,
                    setpoint.jerk(), pos, vel));
                retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, send + 40_000, cycle, axis, p, pos, vel, torque,
                    p - pos, 40.0));
                plant.step(torque, gains.periodSeconds());
            }
        }
    }

    @Test
    void shouldRerunBitExactAndDivergeWithOtherGains() throws Exception
    {
        final Path dir = temp.resolve("journal").resolve("node-2");
        writeControlJournal(dir);
        final ControlRerun rerun = new ControlRerun();
        Replay.run(temp, ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(rerun));
        assertThat(rerun.inputCycles()).isEqualTo(CYCLES);

        final ControlRerun.Comparison same = rerun.compare(ControllerGains.standard());
        assertThat(same.compared()).isEqualTo(CYCLES);
        assertThat(same.running()).isEqualTo(CYCLES - 20);
        assertThat(same.divergences()).isZero();
        assertThat(same.firstCycle()).isEqualTo(-1);

        final ControllerGains soft = ControllerGains.standard().withGains(40.0, 0.05, 20.0);
        final ControlRerun.Comparison other = rerun.compare(soft);
        assertThat(other.divergences()).isPositive();
        assertThat(other.firstCycle()).isEqualTo(20);
        final ControlRerun.Tracking recorded = rerun.closedLoop(ControllerGains.standard(), AxisParameters.standard());
        final ControlRerun.Tracking changed = rerun.closedLoop(soft, AxisParameters.standard());
        assertThat(recorded.cycles()).isEqualTo(CYCLES);
        assertThat(changed.rmsRad()).isNotEqualTo(recorded.rmsRad());
        assertThat(changed.maxRad()).isNotEqualTo(recorded.maxRad());
    }

    @Test
    void shouldNameBadGainKeysAndValues() throws Exception
    {
        final Path good = temp.resolve("good.yaml");
        Files.writeString(good, "positionGainPerS: 60\nantiWindup: back_calculation\n");
        final ControllerGains gains = GainsFile.load(good, ControllerGains.standard());
        assertThat(gains.positionGainPerS()).isEqualTo(60.0);
        assertThat(gains.antiWindup()).isEqualTo(ControllerGains.AntiWindup.BACK_CALCULATION);
        final Path bad = temp.resolve("bad.yaml");
        Files.writeString(bad, "kp: 3\nvelocityGainNmSPerRad: fast\ntorqueLimitNm: -1\n");
        assertThatThrownBy(() -> GainsFile.load(bad, ControllerGains.standard()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("unknown key 'kp'").hasMessageContaining("velocityGainNmSPerRad 'fast'");
    }
}
