package io.rfmrt.control;

import io.rfmrt.control.excite.Excitation;

/**
 * A law's closed loop in a JUnit test: a simulated axis ({@link SimulatedAxis}), a {@link ControlLaw} and a setpoint
 * source, stepped in time with no threads, no network and no clock. Cycle k: the axis is sampled at t = k·period (what
 * its drive measures), the setpoint is taken at t, the law computes a command (the first cycle, and each
 * {@link #activate}, calls {@link ControlLaw#activate} first), and the axis is advanced over [t, t + period] under the
 * command of {@code delayCycles} cycles before (0: this cycle's, as when the controller answers well inside the
 * period). The delay may change between runs ({@link #delayCycles(int)}, up to the capacity given): the axis keeps the
 * command it holds until a newer one is due, as a drive does, so a longer delay holds the command for the extra
 * cycles and never goes back to an older one. Tracking (RMS and largest |setpoint − position| at the samples) and the
 * largest torque are kept.
 * <pre>
 * ClosedLoopHarness loop = new ClosedLoopHarness(new AxisPlant(AxisParameters.standard()), law, 1e-3, 0);
 * loop.run(DemoProfile.standard()::setpoint, 3000);
 * assertThat(loop.rmsErrorRad()).isLessThan(1e-4);
 * </pre>
 * An {@link Excitation} given with {@link #excite} is run in the loop as the controller runs it: decided each cycle
 * (the harness's axis is always driven and supervised), added to the setpoint or the law's velocity reference before
 * the law and to its torque after; the axis gets the excited torque.
 * <p>
 * Preallocated: {@link #run} allocates nothing of its own, so a law's zero-allocation test can use it too.
 * Threading: one thread at a time.
 */
public final class ClosedLoopHarness
{
    /** Where the setpoint comes from. */
    @FunctionalInterface
    public interface SetpointSource
    {
        /**
         * @param tSeconds the time, s.
         * @param out      receives the setpoint.
         */
        void sample(double tSeconds, Setpoint out);
    }

    /** Told of each cycle, after the law and before the axis step. */
    @FunctionalInterface
    public interface Observer
    {
        /**
         * @param sample   the sample the law saw.
         * @param setpoint the setpoint.
         * @param command  the law's command.
         */
        void cycle(SensorSample sample, Setpoint setpoint, ControlCommand command);
    }

    private final SimulatedAxis axis;
    private final ControlLaw law;
    private final double periodSeconds;
    private final long periodNanos;
    private final double[] delayLine;
    private final SensorSample sample = new SensorSample();
    private final Setpoint setpoint = new Setpoint();
    private final ControlCommand command = new ControlCommand();
    private int delayCycles;
    /** The cycle of the command the axis holds (−1: none yet, it is driven with no torque), and its torque. */
    private long heldCycle = -1;
    private double heldTorque;
    private boolean active;
    private Excitation excitation;
    private long cycle;
    private long tracked;
    private double sumSquaredError;
    private double maxError;
    private double peakTorque;

    /**
     * @param axis          the simulated axis, where it should start (see {@link SimulatedAxis#reset}).
     * @param law           the law, configured for {@code periodSeconds}.
     * @param periodSeconds the loop period, s.
     * @param delayCycles   whole periods between a command and the axis applying it (0..1000).
     */
    public ClosedLoopHarness(final SimulatedAxis axis, final ControlLaw law, final double periodSeconds,
        final int delayCycles)
    {
        this(axis, law, periodSeconds, delayCycles, delayCycles);
    }

    /**
     * @param axis           the simulated axis, where it should start (see {@link SimulatedAxis#reset}).
     * @param law            the law, configured for {@code periodSeconds}.
     * @param periodSeconds  the loop period, s.
     * @param delayCycles    whole periods between a command and the axis applying it, at the start (0..maxDelayCycles).
     * @param maxDelayCycles the longest delay {@link #delayCycles(int)} may set later, the delay line's capacity
     *                       (delayCycles..1000).
     */
    public ClosedLoopHarness(final SimulatedAxis axis, final ControlLaw law, final double periodSeconds,
        final int delayCycles, final int maxDelayCycles)
    {
        if (!(periodSeconds > 0) || delayCycles < 0 || maxDelayCycles < delayCycles || maxDelayCycles > 1000)
        {
            throw new IllegalArgumentException("periodSeconds " + periodSeconds + " must be > 0, delayCycles " +
                delayCycles + " 0..1000 and maxDelayCycles " + maxDelayCycles + " delayCycles..1000");
        }
        this.axis = axis;
        this.law = law;
        this.periodSeconds = periodSeconds;
        this.periodNanos = Math.round(periodSeconds * 1e9);
        this.delayLine = new double[maxDelayCycles + 1];
        this.delayCycles = delayCycles;
    }

    /**
     * Run {@code cycles} cycles.
     *
     * @param source the setpoints.
     * @param cycles how many.
     * @return this.
     */
    public ClosedLoopHarness run(final SetpointSource source, final long cycles)
    {
        return run(source, cycles, null);
    }

    /**
     * Run {@code cycles} cycles, telling {@code observer} of each.
     *
     * @param source   the setpoints.
     * @param cycles   how many.
     * @param observer told of each cycle, or null.
     * @return this.
     */
    public ClosedLoopHarness run(final SetpointSource source, final long cycles, final Observer observer)
    {
        for (long i = 0; i < cycles; i++)
        {
            final double t = cycle * periodSeconds;
            sample.set(cycle, cycle * periodNanos, axis.measuredPosition(), axis.measuredVelocity());
            source.sample(t, setpoint);
            if (!active)
            {
                law.activate(sample);
                active = true;
            }
            if (excitation != null)
            {
                excitation.cycle(cycle, true, true);
                excitation.beforeLaw(setpoint, law);
            }
            law.update(sample, setpoint, t, periodSeconds, command);
            if (excitation != null)
            {
                excitation.afterLaw(command);
            }
            if (observer != null)
            {
                observer.cycle(sample, setpoint, command);
            }
            final double error = setpoint.position() - axis.position();
            sumSquaredError += error * error;
            maxError = Math.max(maxError, Math.abs(error));
            peakTorque = Math.max(peakTorque, Math.abs(command.torqueNm()));
            tracked++;
            final int slots = delayLine.length;
            delayLine[(int)(cycle % slots)] = command.torqueNm();
            // the newest command due (delayCycles before this one), held until a newer one is due: after a longer
            // delay is set the axis keeps the command it has for the extra cycles, never an older one
            final long due = cycle - delayCycles;
            if (due > heldCycle)
            {
                heldCycle = due;
                heldTorque = delayLine[(int)(due % slots)];
            }
            axis.step(heldTorque, periodSeconds);
            cycle++;
        }
        return this;
    }

    /**
     * Change the delay from the next cycle on, as a transport delay that grows or shrinks mid-run. Each cycle the axis
     * applies the newest command at least {@code delayCycles} cycles old and holds it until a newer one is that old:
     * from a delay of d to d + n it holds the command it has for n more cycles; from d + n to d it moves on to the
     * newer one at once. Allocates nothing.
     *
     * @param delayCycles whole periods between a command and the axis applying it (0 to the capacity given to the
     *                    constructor).
     * @return this.
     */
    public ClosedLoopHarness delayCycles(final int delayCycles)
    {
        if (delayCycles < 0 || delayCycles > delayLine.length - 1)
        {
            throw new IllegalArgumentException("delayCycles " + delayCycles + " is not 0.." + (delayLine.length - 1));
        }
        this.delayCycles = delayCycles;
        return this;
    }

    /**
     * @return whole periods between a command and the axis applying it, now.
     */
    public int delayCycles()
    {
        return delayCycles;
    }

    /**
     * The next cycle activates the law again (as the safety layer does after a recovery); the axis stays where it is.
     *
     * @return this.
     */
    public ClosedLoopHarness activate()
    {
        law.deactivate();
        active = false;
        return this;
    }

    /**
     * Run an excitation in the loop from the next cycle on (its start counted from that cycle).
     *
     * @param excitation the excitation, made for this loop's period; null for none.
     * @return this.
     */
    public ClosedLoopHarness excite(final Excitation excitation)
    {
        this.excitation = excitation;
        return this;
    }

    /**
     * @return the excitation, or null.
     */
    public Excitation excitation()
    {
        return excitation;
    }

    /**
     * @return cycles run.
     */
    public long cycles()
    {
        return cycle;
    }

    /**
     * @return RMS of setpoint − true position over the cycles run, rad.
     */
    public double rmsErrorRad()
    {
        return tracked == 0 ? 0.0 : Math.sqrt(sumSquaredError / tracked);
    }

    /**
     * @return the largest |setpoint − true position| over the cycles run, rad.
     */
    public double maxErrorRad()
    {
        return maxError;
    }

    /**
     * @return the largest |torque| commanded, N·m.
     */
    public double peakTorqueNm()
    {
        return peakTorque;
    }

    /**
     * @return the axis.
     */
    public SimulatedAxis axis()
    {
        return axis;
    }

    /**
     * @return the last command.
     */
    public ControlCommand command()
    {
        return command;
    }
}
