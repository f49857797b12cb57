package io.rfmrt.control.replay;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.excite.InjectionPoint;
import io.rfmrt.control.journal.ControlInputSample;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.journal.ControlSample;
import io.rfmrt.control.journal.ExcitationSample;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.ReplayListener;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * Re-executes {@link AxisController#step}, or any {@link ControlLaw}, over the control cycles of a journal, as a {@link ReplayListener} of the
 * replay's single pass: it collects the CONTROL ({@value ControlJournal#SAMPLE_CONTROL}) and CONTROL_INPUT
 * ({@value ControlJournal#SAMPLE_CONTROL_INPUT}) samples, pairs them by cycle, and then
 * <ul>
 *   <li>{@link #compare}: for each input cycle in recorded order, state = the recorded integrator before the step,
 *   sample = (cycle, sendNanos, sensor position, sensor velocity), setpoint = (CONTROL position, input velocity,
 *   acceleration, jerk); the controller runs for RUNNING cycles, every other cycle is a zero torque; the torque is
 *   compared bit for bit ({@link Double#doubleToRawLongBits}) with the recorded one; in a cycle an excitation
 *   injected in (its EXCITATION sample), a velocity-reference injection is given to the law again
 *   ({@link ControlLaw#velocityReferenceOffset}) and with a torque injection the law's own torque (the sample's
 *   value before the injection) is what is compared;</li>
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
    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);
    /** Values kept per CONTROL cycle: setpoint, position, command, error. */
    private static final int C_SETPOINT = 0;
    private static final int C_POSITION = 1;
    private static final int C_COMMAND = 2;
    private static final int C_ERROR = 3;
    private static final int C_WIDTH = 4;
    /** Values kept per CONTROL_INPUT cycle: integrator, setpoint v/a/j, sensor position, velocity. */
    private static final int I_INTEGRATOR = 0;
    private static final int I_VELOCITY = 1;
    private static final int I_ACCELERATION = 2;
    private static final int I_JERK = 3;
    private static final int I_POSITION = 4;
    private static final int I_SENSOR_VELOCITY = 5;
    private static final int I_WIDTH = 6;

    private final ControlSample controlSample = new ControlSample();
    private final ControlInputSample inputSample = new ControlInputSample();
    private final ExcitationSample excitationSample = new ExcitationSample();
    /** Per excited cycle: the injection point's id, the injected value, the value before it. */
    private final Long2LongHashMap excitationByCycle = new Long2LongHashMap(-1);
    private int[] excitationPoint = new int[256];
    private double[] excitationInjected = new double[256];
    private double[] excitationBefore = new double[256];
    private int excitations;

    private final Long2LongHashMap controlByCycle = new Long2LongHashMap(-1);
    private double[] control = new double[C_WIDTH * 1024];
    private int controls;
    private long[] inputCycle = new long[1024];
    private long[] inputSend = new long[1024];
    private int[] inputState = new int[1024];
    private double[] input = new double[I_WIDTH * 1024];
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
    public void sample(final NodeAnalysis node, final JournalRecord record)
    {
        if (controlSample.wrap(record))
        {
            final ControlSample c = controlSample;
            if (C_WIDTH * (controls + 1) > control.length)
            {
                control = Arrays.copyOf(control, control.length * 2);
            }
            final int at = C_WIDTH * controls;
            control[at + C_SETPOINT] = c.setpoint();
            control[at + C_POSITION] = c.position();
            control[at + C_COMMAND] = c.command();
            control[at + C_ERROR] = c.error();
            controlByCycle.put(c.cycle(), controls);
            controls++;
        }
        else if (excitationSample.wrap(record))
        {
            if (excitations == excitationPoint.length)
            {
                final int n = excitations * 2;
                excitationPoint = Arrays.copyOf(excitationPoint, n);
                excitationInjected = Arrays.copyOf(excitationInjected, n);
                excitationBefore = Arrays.copyOf(excitationBefore, n);
            }
            excitationPoint[excitations] = excitationSample.stateId();
            excitationInjected[excitations] = excitationSample.injected();
            excitationBefore[excitations] = excitationSample.before();
            excitationByCycle.put(excitationSample.cycle(), excitations);
            excitations++;
        }
        else if (inputSample.wrap(record))
        {
            final ControlInputSample in = inputSample;
            if (inputs == inputCycle.length)
            {
                final int n = inputs * 2;
                inputCycle = Arrays.copyOf(inputCycle, n);
                inputSend = Arrays.copyOf(inputSend, n);
                inputState = Arrays.copyOf(inputState, n);
                input = Arrays.copyOf(input, I_WIDTH * n);
            }
            inputCycle[inputs] = in.cycle();
            inputSend[inputs] = in.sendNanos();
            inputState[inputs] = in.stateId();
            final int at = I_WIDTH * inputs;
            input[at + I_INTEGRATOR] = in.integrator();
            input[at + I_VELOCITY] = in.setpointVelocity();
            input[at + I_ACCELERATION] = in.setpointAcceleration();
            input[at + I_JERK] = in.setpointJerk();
            input[at + I_POSITION] = in.sensorPosition();
            input[at + I_SENSOR_VELOCITY] = in.sensorVelocity();
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
        final ControlCommand command = new ControlCommand();
        return compare((integrator, sample, setpoint, velocityOffset) ->
        {
            state.set(integrator);
            controller.step(state, sample, setpoint, velocityOffset, next, command);
            return command.torqueNm();
        });
    }

    /**
     * Re-run a law over the recorded inputs and compare its torques with the recorded: before each RUNNING cycle the
     * law's journaled state is put back ({@link ControlLaw#restoreState}), then it is updated with the recorded sensor
     * sample and setpoint at the sensor's time (cycle × period).
     *
     * @param law           the law, configured as it ran.
     * @param periodSeconds the loop period it ran at, s.
     * @return the comparison.
     */
    public Comparison compare(final ControlLaw law, final double periodSeconds)
    {
        final ControlCommand command = new ControlCommand();
        return compare((journaled, sample, setpoint, velocityOffset) ->
        {
            law.restoreState(journaled);
            law.velocityReferenceOffset(velocityOffset);
            law.update(sample, setpoint, sample.cycle() * periodSeconds, periodSeconds, command);
            law.velocityReferenceOffset(0.0);
            return command.torqueNm();
        });
    }

    /**
     * The torque of one RUNNING cycle re-run from its journaled state, sample and setpoint (with the offset an
     * excitation at the velocity reference added to it, 0 otherwise).
     */
    @FunctionalInterface
    private interface Step
    {
        double torque(double journaledState, SensorSample sample, Setpoint setpoint, double velocityOffset);
    }

    private Comparison compare(final Step step)
    {
        final SensorSample sample = new SensorSample();
        final Setpoint setpoint = new Setpoint();
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
            final int at = I_WIDTH * i;
            final int c = C_WIDTH * (int)j;
            // an excited cycle: its setpoint already holds a position injection; a velocity injection is given to the
            // law again; with a torque injection the law's own torque (journaled before it) is what is compared
            final int x = (int)excitationByCycle.get(inputCycle[i]);
            final int point = x < 0 ? 0 : excitationPoint[x];
            final double recorded = point == InjectionPoint.TORQUE.id() ? excitationBefore[x] : control[c + C_COMMAND];
            final double torque;
            if (inputState[i] == RUNNING)
            {
                running++;
                sample.set(inputCycle[i], inputSend[i], input[at + I_POSITION], input[at + I_SENSOR_VELOCITY]);
                setpoint.set(control[c + C_SETPOINT], input[at + I_VELOCITY], input[at + I_ACCELERATION],
                    input[at + I_JERK]);
                torque = step.torque(input[at + I_INTEGRATOR], sample, setpoint,
                    point == InjectionPoint.VELOCITY.id() ? excitationInjected[x] : 0.0);
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
            plant.reset(input[I_POSITION], input[I_SENSOR_VELOCITY]);
            state.set(input[I_INTEGRATOR]);
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
            final int at = I_WIDTH * i;
            sample.set(inputCycle[i], inputSend[i], plant.position(), plant.velocity());
            setpoint.set(control[C_WIDTH * (int)j + C_SETPOINT], input[at + I_VELOCITY], input[at + I_ACCELERATION],
                input[at + I_JERK]);
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
            columns[0][i] = control[C_WIDTH * i + C_SETPOINT];
            columns[1][i] = control[C_WIDTH * i + C_POSITION];
            columns[2][i] = control[C_WIDTH * i + C_ERROR];
        }
        return columns;
    }
}
