package io.rfmrt.control;

/**
 * The control law of one axis: cascaded position P → velocity PI, with velocity and acceleration feed-forward from
 * the setpoint, a clamp on the velocity reference, torque saturation and anti-windup. Equations in
 * {@link ControllerGains}; block diagram in docs/control.md.
 * <p>
 * {@link #step} is a pure function of (gains, state, sample, setpoint): no hidden fields, no clock, no randomness,
 * only IEEE-754 double arithmetic. A replay that feeds the journaled state, samples and setpoints back in gets the
 * same commands bit for bit. It allocates nothing. The gains are final; an instance can be shared between threads,
 * the flyweights it reads and writes cannot.
 */
public final class AxisController
{
    private final ControllerGains gains;
    private final double positionGain;
    private final double velocityGain;
    private final double integralStep;
    private final double velocityFeedForward;
    private final double accelerationFeedForward;
    private final double velocityLimit;
    private final double torqueLimit;
    private final ControllerGains.AntiWindup antiWindup;
    private final double backCalculationStep;

    /**
     * @param gains the gains; validated here.
     * @throws IllegalArgumentException naming every bad setting.
     */
    public AxisController(final ControllerGains gains)
    {
        this.gains = gains.validate();
        this.positionGain = gains.positionGainPerS();
        this.velocityGain = gains.velocityGainNmSPerRad();
        this.integralStep = gains.velocityGainNmSPerRad() * gains.velocityIntegralGainPerS() * gains.periodSeconds();
        this.velocityFeedForward = gains.velocityFeedForward();
        this.accelerationFeedForward = gains.accelerationFeedForwardKgM2();
        this.velocityLimit = gains.velocityLimitRadPerS();
        this.torqueLimit = gains.torqueLimitNm();
        this.antiWindup = gains.antiWindup();
        this.backCalculationStep = gains.backCalculationGainPerS() * gains.periodSeconds();
    }

    /**
     * One control cycle: read the state, the sensor sample and the setpoint; write the command and the next state.
     * {@code next} may be the same instance as {@code state} (in-place update): all of {@code state} is read before
     * {@code next} is written. A sample or setpoint that makes the torque NaN or infinite gives a zero-torque command
     * (marked saturated) and carries the state over unchanged, so one bad frame cannot poison the integrator.
     *
     * @param state    the controller state before this cycle; read only.
     * @param sample   the sensor sample (position rad, velocity rad/s); read only.
     * @param setpoint the setpoint for this cycle (position, velocity, acceleration); read only.
     * @param next     receives the state after this cycle.
     * @param out      receives the command.
     */
    public void step(final ControllerState state, final SensorSample sample, final Setpoint setpoint,
        final ControllerState next, final ControlCommand out)
    {
        step(state, sample, setpoint, 0.0, next, out);
    }

    /**
     * {@link #step(ControllerState, SensorSample, Setpoint, ControllerState, ControlCommand)} with an offset added to
     * the velocity reference inside its clamp (an excitation at the velocity reference); an offset of 0 gives the
     * same bits as no offset.
     *
     * @param state                   the controller state before this cycle; read only.
     * @param sample                  the sensor sample; read only.
     * @param setpoint                the setpoint; read only.
     * @param velocityReferenceOffset added to the velocity reference, rad/s.
     * @param next                    receives the state after this cycle.
     * @param out                     receives the command.
     */
    public void step(final ControllerState state, final SensorSample sample, final Setpoint setpoint,
        final double velocityReferenceOffset, final ControllerState next, final ControlCommand out)
    {
        final double integrator = state.integratorNm();
        final double positionError = setpoint.position() - sample.position();
        final double positionLoop = velocityFeedForward * setpoint.velocity() + positionGain * positionError;
        final double velocityReference = clamp(velocityReferenceOffset == 0.0 ? positionLoop :
            positionLoop + velocityReferenceOffset, velocityLimit);
        final double velocityError = velocityReference - sample.velocity();
        final double feedForward = accelerationFeedForward * setpoint.acceleration();
        final double unsaturated = feedForward + velocityGain * velocityError + integrator;
        if (!(Math.abs(unsaturated) <= Double.MAX_VALUE))
        {
            next.set(integrator);
            out.set(sample.cycle(), 0.0, unsaturated, feedForward, velocityReference, positionError, velocityError,
                true);
            return;
        }
        final double torque = clamp(unsaturated, torqueLimit);
        final boolean saturated = torque != unsaturated;

        final double integrated = integrator + integralStep * velocityError;
        final boolean windingUp = saturated && (unsaturated > 0.0) == (velocityError > 0.0);
        final double nextIntegrator = switch (antiWindup)
        {
            // stop integrating while the error pushes further into the clamp; keep |I| within the clamp too
            case CLAMPING -> clamp(windingUp ? integrator : integrated, torqueLimit);
            case BACK_CALCULATION -> integrated + backCalculationStep * (torque - unsaturated);
            case NONE -> integrated;
        };
        next.set(nextIntegrator);
        out.set(sample.cycle(), torque, unsaturated, feedForward, velocityReference, positionError, velocityError,
            saturated);
    }

    /**
     * Fill a zero-torque command for a cycle the axis is held safe (the drive disabled and braked): the
     * torque and every term are 0, the errors are those of the sample against the setpoint.
     *
     * @param sample   the latest sensor sample.
     * @param setpoint the setpoint (e.g. held).
     * @param out      receives the command.
     */
    public static void zeroTorque(final SensorSample sample, final Setpoint setpoint, final ControlCommand out)
    {
        out.set(sample.cycle(), 0.0, 0.0, 0.0, 0.0, setpoint.position() - sample.position(),
            -sample.velocity(), false);
    }

    /**
     * @return the gains.
     */
    public ControllerGains gains()
    {
        return gains;
    }

    private static double clamp(final double value, final double limit)
    {
        return Math.max(-limit, Math.min(limit, value));
    }
}
