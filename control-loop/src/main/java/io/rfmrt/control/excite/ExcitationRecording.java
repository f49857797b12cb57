package io.rfmrt.control.excite;

import io.rfmrt.control.ClosedLoopHarness;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.SimulatedAxis;
import io.rfmrt.control.law.CascadedPidLaw;

import java.util.Arrays;

/**
 * An excited closed loop's cycles as arrays, the same figures the controller journals (a CONTROL sample's time,
 * measured position and velocity, torque; an EXCITATION sample's injected value and the value before it), for an
 * analysis to be tested on without processes or files. A {@link ClosedLoopHarness.Observer}: it records every cycle
 * the harness runs, excited or not ({@link #excited} says which), up to its capacity.
 * <pre>
 * ExcitationRecording r = ExcitationRecording.realisticTorqueChirp(4000, 5, 400, 0.1, 4.0);
 * double[] t = r.timeSeconds(), u = r.injected(), torque = r.torqueNm(), v = r.velocityRadPerS(), x = r.positionRad();
 * // the excited cycles: r.firstExcited() .. r.lastExcited()
 * </pre>
 * Threading: one thread.
 */
public final class ExcitationRecording implements ClosedLoopHarness.Observer
{
    private final Excitation excitation;
    private final double periodSeconds;
    private final double[] time;
    private final double[] injected;
    private final double[] before;
    private final double[] frequency;
    private final double[] torque;
    private final double[] velocity;
    private final double[] position;
    private final double[] setpointPosition;
    private final boolean[] excited;
    private int count;
    private int firstExcited = -1;
    private int lastExcited = -1;

    /**
     * @param excitation    the excitation run in the loop (read after each cycle).
     * @param periodSeconds the loop period, s.
     * @param capacity      how many cycles to keep.
     */
    public ExcitationRecording(final Excitation excitation, final double periodSeconds, final int capacity)
    {
        this.excitation = excitation;
        this.periodSeconds = periodSeconds;
        time = new double[capacity];
        injected = new double[capacity];
        before = new double[capacity];
        frequency = new double[capacity];
        torque = new double[capacity];
        velocity = new double[capacity];
        position = new double[capacity];
        setpointPosition = new double[capacity];
        excited = new boolean[capacity];
    }

    /**
     * Run an excitation on a closed loop from rest and record it.
     *
     * @param axis          the simulated axis, at rest where it should start.
     * @param law           the law, configured for the period.
     * @param periodSeconds the loop period, s.
     * @param delayCycles   the command's delay, whole periods (the realistic drive's: 1).
     * @param spec          the excitation.
     * @param limits        what may be injected.
     * @param setpoints     the trajectory.
     * @param cycles        how many cycles to run (and keep).
     * @return the recording.
     */
    public static ExcitationRecording record(final SimulatedAxis axis, final ControlLaw law, final double periodSeconds,
        final int delayCycles, final ExcitationSpec spec, final ExcitationLimits limits,
        final ClosedLoopHarness.SetpointSource setpoints, final int cycles)
    {
        final Excitation excitation = new Excitation(spec, limits, periodSeconds);
        final ExcitationRecording recording = new ExcitationRecording(excitation, periodSeconds, cycles);
        new ClosedLoopHarness(axis, law, periodSeconds, delayCycles).excite(excitation)
            .run(setpoints, cycles, recording);
        return recording;
    }

    /**
     * The plant measurement the analysis is checked against: the realistic axis ({@link RealisticAxisParameters}
     * standard: two masses, 251.6 Hz resonance, stiction, gravity, the current loop's lag, its seeded noise) behind
     * one period of delay, held at 0 rad by the shipped law with the standard tune, and a logarithmic chirp added to
     * the torque command from 0.5 s on; the run ends 0.1 s after the fade. Deterministic: the same arguments give the
     * same arrays bit for bit.
     *
     * @param rateHz       the loop rate, Hz (e.g. 4000).
     * @param f0Hz         the sweep's start frequency, Hz.
     * @param f1Hz         its end frequency, Hz (below rateHz / 2).
     * @param amplitudeNm  its amplitude on the torque command, N·m (at most half the peak torque, 0.25).
     * @param seconds      its duration, s.
     * @return the recording.
     */
    public static ExcitationRecording realisticTorqueChirp(final int rateHz, final double f0Hz, final double f1Hz,
        final double amplitudeNm, final double seconds)
    {
        final double dt = 1.0 / rateHz;
        final ExcitationSpec spec = ExcitationSpec.parse("chirp:point=torque,f0=" + f0Hz + ",f1=" + f1Hz + ",amp=" +
            amplitudeNm + ",seconds=" + seconds + ",start=0.5");
        final RealisticAxisPlant axis = new RealisticAxisPlant(RealisticAxisParameters.standard());
        final CascadedPidLaw law = new CascadedPidLaw(ControllerGains.standard().withPeriodSeconds(dt));
        final int cycles = (int)Math.round((0.5 + seconds + spec.fadeMs() * 1e-3 + 0.1) / dt);
        return record(axis, law, dt, 1, spec, ExcitationLimits.defaults(), (t, out) -> out.hold(0.0), cycles);
    }

    @Override
    public void cycle(final SensorSample sample, final Setpoint setpoint, final ControlCommand command)
    {
        if (count == time.length)
        {
            return;
        }
        final int i = count++;
        time[i] = sample.cycle() * periodSeconds;
        final boolean on = excitation.active();
        excited[i] = on;
        injected[i] = on ? excitation.value() : 0.0;
        before[i] = on ? excitation.before() : Double.NaN;
        frequency[i] = on ? excitation.frequencyHz() : 0.0;
        torque[i] = command.torqueNm();
        velocity[i] = sample.velocity();
        position[i] = sample.position();
        setpointPosition[i] = setpoint.position();
        if (on)
        {
            firstExcited = firstExcited < 0 ? i : firstExcited;
            lastExcited = i;
        }
    }

    /**
     * @return the cycles kept.
     */
    public int count()
    {
        return count;
    }

    /**
     * @return the excitation.
     */
    public Excitation excitation()
    {
        return excitation;
    }

    /**
     * @return the index of the first excited cycle, −1 for none.
     */
    public int firstExcited()
    {
        return firstExcited;
    }

    /**
     * @return the index of the last excited cycle (the fade's last), −1 for none.
     */
    public int lastExcited()
    {
        return lastExcited;
    }

    /**
     * @return each cycle's sensor time (cycle × period), s.
     */
    public double[] timeSeconds()
    {
        return Arrays.copyOf(time, count);
    }

    /**
     * @return each cycle's injected value, in the point's unit (0 where not excited).
     */
    public double[] injected()
    {
        return Arrays.copyOf(injected, count);
    }

    /**
     * @return the value at the injection point before the injection (NaN where not excited).
     */
    public double[] before()
    {
        return Arrays.copyOf(before, count);
    }

    /**
     * @return the chirp's instantaneous frequency, Hz (0 elsewhere).
     */
    public double[] frequencyHz()
    {
        return Arrays.copyOf(frequency, count);
    }

    /**
     * @return the torque command the axis was given (law plus injection, clamped), N·m.
     */
    public double[] torqueNm()
    {
        return Arrays.copyOf(torque, count);
    }

    /**
     * @return the measured velocity the law saw, rad/s.
     */
    public double[] velocityRadPerS()
    {
        return Arrays.copyOf(velocity, count);
    }

    /**
     * @return the measured position the law saw, rad.
     */
    public double[] positionRad()
    {
        return Arrays.copyOf(position, count);
    }

    /**
     * @return the position setpoint the law was given (shifted by an excitation at the position point), rad.
     */
    public double[] setpointRad()
    {
        return Arrays.copyOf(setpointPosition, count);
    }

    /**
     * @return whether each cycle was excited.
     */
    public boolean[] excited()
    {
        return Arrays.copyOf(excited, count);
    }
}
