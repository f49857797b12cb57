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
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.ReplayCodes;
import io.rfmrt.runtime.replay.ReplayListener;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * Re-executes {@link AxisController#step} over the control cycles of a journal, as a {@link ReplayListener} of the
 * replay's single pass: it collects the CONTROL ({@value ReplayCodes#SAMPLE_CONTROL}) and CONTROL_INPUT
 * ({@value ReplayCodes#SAMPLE_CONTROL_INPUT}) samples, pairs them by cycle, and then
 * <ul>
 *   <li>{@link #compare}: for each input cycle in recorded order, state = the recorded integrator before the step,
 *   sample = (cycle, sendNanos, sensor position, sensor velocity), setpoint = (CONTROL position, input velocity,
 *   acceleration, jerk); the controller runs for RUNNING cycles, every other cycle is a zero torque; the torque is
 *   compared bit for bit ({@link Double#doubleToRawLongBits}) with the recorded one;</li>
 *   <li>{@link #closedLoop}: a what-if: the recorded setpoints drive a simulated axis ({@link AxisPlant},
 *   {@link AxisParameters#standard()}) in closed loop under some gains, giving tracking RMS and max error. Once the
 *   commands differ from the recorded ones the recorded sensor inputs no longer apply, so other gains can only be
 *   judged on a simulated plant.</li>
 * </ul>
 * Journals of other nodes (without control samples) add nothing.
 *
 * <p>Threading: one thread at a time.
 */
public final class ControlRerun implements ReplayListener
{
    private static final int RUNNING = AxisState.RUNNING.id();

    private final Long2LongHashMap controlByCycle = new Long2LongHashMap(-1);
    private double[] control = new double[6 * 1024];
    private int controls;
    private long[] inputCycle = new long[1024];
    private long[] inputSend = new long[1024];
    private int[] inputState = new int[1024];
    private double[] input = new double[6 * 1024];
    private int inputs;

    /**
     * Bit-exact comparison result.
     *
     * @param cycles        input cycles in the journal.
     * @param compared      cycles compared (with a CONTROL sample of the same cycle).
     * @param running       of them, cycles in RUNNING (the controller ran).
     * @param divergences   cycles whose torque differs in any bit.
     * @param firstCycle    the first divergent cycle, -1 when none.
     * @param firstRecorded its recorded torque, N·m.
     * @param firstRerun    its re-run torque, N·m.
     */
    public record Comparison(long cycles, long compared, long running, long divergences, long firstCycle,
        double firstRecorded, double firstRerun)
    {
    }

    /**
     * Closed-loop tracking.
     *
     * @param cycles   cycles simulated.
     * @param rmsRad   RMS of setpoint − position, rad.
     * @param maxRad   largest |setpoint − position|, rad.
     */
    public record Tracking(long cycles, double rmsRad, double maxRad)
    {
    }

    @Override
    public void record(final NodeAnalysis node, final JournalRecord record)
    {
        if (record.kind() != RecordKind.SAMPLE)
        {
            return;
        }
        final int kind = record.sampleKind();
        if (kind == ReplayCodes.SAMPLE_CONTROL)
        {
            if (6 * (controls + 1) > control.length)
            {
                control = Arrays.copyOf(control, control.length * 2);
            }
            for (int i = 0; i < 6; i++)
            {
                control[6 * controls + i] = record.value(i);
            }
            controlByCycle.put(record.cycle(), controls);
            controls++;
        }
        else if (kind == ReplayCodes.SAMPLE_CONTROL_INPUT)
        {
            if (inputs == inputCycle.length)
            {
                final int n = inputs * 2;
                inputCycle = Arrays.copyOf(inputCycle, n);
                inputSend = Arrays.copyOf(inputSend, n);
                inputState = Arrays.copyOf(inputState, n);
                input = Arrays.copyOf(input, 6 * n);
            }
            inputCycle[inputs] = record.cycle();
            inputSend[inputs] = record.nanos();
            inputState[inputs] = record.state();
            for (int i = 0; i < 6; i++)
            {
                input[6 * inputs + i] = record.value(i);
            }
            inputs++;
        }
    }

    /**
     * @return CONTROL_INPUT cycles collected.
     */
    public int inputCycles()
    {
        return inputs;
    }

    /**
     * @return CONTROL cycles collected.
     */
    public int controlCycles()
    {
        return controls;
    }

    /**
     * Re-run the controller with these gains over the recorded inputs and compare its torques with the recorded.
     *
     * @param gains the gains.
     * @return the comparison.
     */
    public Comparison compare(final ControllerGains gains)
    {
        final AxisController controller = new AxisController(gains);
        final ControllerState state = new ControllerState();
        final ControllerState next = new ControllerState();
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint();
        final ControlCommand command = new ControlCommand();
        long compared = 0;
        long running = 0;
        long divergences = 0;
        long firstCycle = -1;
        double firstRecorded = 0.0;
        double firstRerun = 0.0;
        for (int i = 0; i < inputs; i++)
        {
            final long j = controlByCycle.get(inputCycle[i]);
            if (j < 0)
            {
                continue;
            }
            compared++;
            final int at = 6 * i;
            final double recorded = control[6 * (int)j + 3];
            final double torque;
            if (inputState[i] == RUNNING)
            {
                running++;
                state.set(input[at]);
                sample.set(inputCycle[i], inputSend[i], input[at + 4], input[at + 5]);
                setpoint.set(control[6 * (int)j], input[at + 1], input[at + 2], input[at + 3]);
                controller.step(state, sample, setpoint, next, command);
                torque = command.torqueNm();
            }
            else
            {
                torque = 0.0;
            }
            if (Double.doubleToRawLongBits(torque) != Double.doubleToRawLongBits(recorded))
            {
                if (divergences++ == 0)
                {
                    firstCycle = inputCycle[i];
                    firstRecorded = recorded;
                    firstRerun = torque;
                }
            }
        }
        return new Comparison(inputs, compared, running, divergences, firstCycle, firstRecorded, firstRerun);
    }

    /**
     * Drive a simulated axis with the recorded setpoints in closed loop: cycle k samples the plant, runs the
     * controller (RUNNING cycles; others command zero torque and empty the integrator), then advances the plant
     * one period with the command. The plant starts at the first recorded sensor position and velocity, the
     * integrator at the first recorded value.
     *
     * @param gains the gains.
     * @param axis  the plant model.
     * @return the tracking.
     */
    public Tracking closedLoop(final ControllerGains gains, final AxisParameters axis)
    {
        final AxisController controller = new AxisController(gains);
        final AxisPlant plant = new AxisPlant(axis);
        final ControllerState state = new ControllerState();
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint();
        final ControlCommand command = new ControlCommand();
        final double period = gains.periodSeconds();
        if (inputs > 0)
        {
            plant.reset(input[4], input[5]);
            state.set(input[0]);
        }
        long cycles = 0;
        double squares = 0.0;
        double max = 0.0;
        for (int i = 0; i < inputs; i++)
        {
            final long j = controlByCycle.get(inputCycle[i]);
            if (j < 0)
            {
                continue;
            }
            final int at = 6 * i;
            sample.set(inputCycle[i], inputSend[i], plant.position(), plant.velocity());
            setpoint.set(control[6 * (int)j], input[at + 1], input[at + 2], input[at + 3]);
            final double torque;
            if (inputState[i] == RUNNING)
            {
                controller.step(state, sample, setpoint, state, command);
                torque = command.torqueNm();
            }
            else
            {
                state.reset();
                torque = 0.0;
            }
            final double error = setpoint.position() - sample.position();
            squares += error * error;
            max = Math.max(max, Math.abs(error));
            cycles++;
            plant.step(torque, period);
        }
        return new Tracking(cycles, cycles == 0 ? 0.0 : Math.sqrt(squares / cycles), max);
    }

    /**
     * @return per CONTROL cycle in recorded order: {setpoint position, measured position, position error} columns,
     *     for plots.
     */
    public double[][] tracking()
    {
        final double[][] columns = new double[3][controls];
        for (int i = 0; i < controls; i++)
        {
            columns[0][i] = control[6 * i];
            columns[1][i] = control[6 * i + 1];
            columns[2][i] = control[6 * i + 4];
        }
        return columns;
    }
}
