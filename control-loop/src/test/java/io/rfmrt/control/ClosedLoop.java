package io.rfmrt.control;

/**
 * Test harness: the plant and the controller in one loop, with injected time and no threads. Cycle k: the plant's
 * state is sampled at t = k·period, the controller computes a command from it, and the plant is advanced over
 * [t, t + period] with the command of {@code delayCycles} cycles before (0: the command of this cycle, as when the
 * controller answers well inside the period and the plant applies the newest command at its next tick).
 */
final class ClosedLoop
{
    /** Where the setpoint comes from. */
    @FunctionalInterface
    interface SetpointSource
    {
        void sample(double tSeconds, Setpoint out);
    }

    /** Told of each cycle, after the controller and before the plant step. */
    @FunctionalInterface
    interface Observer
    {
        void cycle(long k, double tSeconds, SensorSample sample, Setpoint setpoint, ControlCommand command);
    }

    final SimulatedAxis plant;
    final AxisController controller;
    final ControllerState state = new ControllerState();
    final SensorSample sample = new SensorSample();
    final Setpoint setpoint = new Setpoint();
    final ControlCommand command = new ControlCommand();
    final double periodSeconds;
    final long periodNanos;
    private final double[] delayLine;
    private long cycle;

    ClosedLoop(final AxisParameters axis, final ControllerGains gains, final int delayCycles)
    {
        this(new AxisPlant(axis), gains, delayCycles);
    }

    ClosedLoop(final SimulatedAxis axis, final ControllerGains gains, final int delayCycles)
    {
        plant = axis;
        controller = new AxisController(gains);
        periodSeconds = gains.periodSeconds();
        periodNanos = Math.round(periodSeconds * 1e9);
        delayLine = new double[delayCycles + 1];
    }

    ClosedLoop(final int delayCycles)
    {
        this(AxisParameters.standard(), ControllerGains.standard(), delayCycles);
    }

    /**
     * Run {@code cycles} cycles.
     */
    void run(final long cycles, final SetpointSource source, final Observer observer)
    {
        for (long i = 0; i < cycles; i++)
        {
            final double t = cycle * periodSeconds;
            sample.set(cycle, cycle * periodNanos, plant.measuredPosition(), plant.measuredVelocity());
            source.sample(t, setpoint);
            controller.step(state, sample, setpoint, state, command);
            observer.cycle(cycle, t, sample, setpoint, command);
            final int slot = (int)(cycle % delayLine.length);
            delayLine[slot] = command.torqueNm();
            final double applied = delayLine[(int)((cycle + 1) % delayLine.length)];
            plant.step(delayLine.length == 1 ? command.torqueNm() : applied, periodSeconds);
            cycle++;
        }
    }

    /**
     * Step response from rest at 0 to {@code target}, sampled each cycle: {overshoot fraction, 2 % settling time s,
     * max |torque| N·m}.
     */
    static double[] stepResponse(final ClosedLoop loop, final double target, final double seconds)
    {
        final long cycles = Math.round(seconds / loop.periodSeconds);
        final double[] peak = {0.0, 0.0, 0.0};
        loop.run(cycles, (t, out) -> out.hold(target), (k, t, s, sp, c) ->
        {
            peak[0] = Math.max(peak[0], s.position());
            if (Math.abs(s.position() - target) > 0.02 * Math.abs(target))
            {
                peak[1] = t + loop.periodSeconds;
            }
            peak[2] = Math.max(peak[2], Math.abs(c.torqueNm()));
        });
        return new double[] {(peak[0] - target) / target, peak[1], peak[2]};
    }
}
