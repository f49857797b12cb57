package io.rfmrt.control;

/**
 * A simulated axis (DC servo motor on a current-controlled drive, rigid load, viscous and Coulomb friction), advanced
 * one loop period at a time with fixed RK4 sub-steps. The model and its units are in {@link AxisParameters}.
 * <p>
 * Deterministic: the state after a sequence of {@link #step(double, double)} and {@link #brake(double)} calls depends
 * only on the parameters, the initial state and the arguments (plain IEEE-754 double arithmetic and
 * {@link Math#sqrt}, which is exactly rounded; no clock, no randomness), so two runs give bit-identical results.
 * Allocation free.
 * <p>
 * Not thread safe: one thread (the plant node's cycle) owns an instance.
 */
public final class AxisPlant implements SimulatedAxis
{
    private final AxisParameters parameters;
    private final int subSteps;
    private final double inverseInertia;
    private final double viscous;
    private final double coulomb;
    private final double coulombVelocitySquared;
    private final double peakTorque;
    private final double inverseLag;
    private final double holdingTorque;

    private double position;
    private double velocity;
    private double torque;
    private double commandedTorque;
    private long nanCommands;

    /**
     * A plant at rest at position 0.
     *
     * @param parameters the axis; validated here.
     * @throws IllegalArgumentException naming every bad parameter.
     */
    public AxisPlant(final AxisParameters parameters)
    {
        this.parameters = parameters.validate();
        this.subSteps = parameters.subSteps();
        this.inverseInertia = 1.0 / parameters.inertiaKgM2();
        this.viscous = parameters.viscousFrictionNmSPerRad();
        this.coulomb = parameters.coulombFrictionNm();
        this.coulombVelocitySquared = parameters.coulombVelocityRadPerS() * parameters.coulombVelocityRadPerS();
        this.peakTorque = parameters.peakTorqueNm();
        this.inverseLag = parameters.currentLagSeconds() > 0.0 ? 1.0 / parameters.currentLagSeconds() : 0.0;
        this.holdingTorque = parameters.brakeTorqueNm() + parameters.coulombFrictionNm();
    }

    /**
     * Put the axis at a position and velocity, with no motor torque.
     *
     * @param positionRad       rad.
     * @param velocityRadPerS   rad/s.
     */
    public void reset(final double positionRad, final double velocityRadPerS)
    {
        position = positionRad;
        velocity = velocityRadPerS;
        torque = 0.0;
        commandedTorque = 0.0;
    }

    @Override
    public void reset(final double positionRad)
    {
        reset(positionRad, 0.0);
    }

    /**
     * Advance the axis by one period with the motor driven by a torque command held constant over it (zero-order
     * hold). The drive clamps the command to ±peak torque; a NaN command is applied as 0 and counted
     * ({@link #nanCommands()}).
     *
     * @param torqueCommandNm the commanded motor torque, N·m.
     * @param dtSeconds       the period, s, split into {@link AxisParameters#subSteps()} RK4 steps; should not exceed
     *                        {@link AxisParameters#maxPeriodSeconds()}.
     */
    @Override
    public void step(final double torqueCommandNm, final double dtSeconds)
    {
        double command = torqueCommandNm;
        if (command != command)
        {
            nanCommands++;
            command = 0.0;
        }
        command = Math.max(-peakTorque, Math.min(peakTorque, command));
        commandedTorque = command;
        final double h = dtSeconds / subSteps;
        if (inverseLag == 0.0)
        {
            torque = command;
            for (int i = 0; i < subSteps; i++)
            {
                rk4(h, command);
            }
        }
        else
        {
            for (int i = 0; i < subSteps; i++)
            {
                rk4WithLag(h, command);
            }
        }
    }

    /**
     * Advance the axis by one period with the drive disabled (no motor torque) and the holding brake engaged: the
     * brake torque plus Coulomb friction (plus viscous friction) decelerate the axis at a constant rate until it
     * stops within a sub-step, exactly, and then hold it there. What the plant node applies when commands go stale.
     *
     * @param dtSeconds the period, s.
     */
    @Override
    public void brake(final double dtSeconds)
    {
        torque = 0.0;
        commandedTorque = 0.0;
        final double h = dtSeconds / subSteps;
        for (int i = 0; i < subSteps; i++)
        {
            final double speed = Math.abs(velocity);
            if (speed == 0.0)
            {
                return;
            }
            final double deceleration = (holdingTorque + viscous * speed) * inverseInertia;
            if (speed <= deceleration * h)
            {
                // stops inside this sub-step: travel v²/(2a)
                position += velocity * (speed / deceleration) * 0.5;
                velocity = 0.0;
                return;
            }
            final double next = velocity - Math.copySign(deceleration * h, velocity);
            position += (velocity + next) * 0.5 * h;
            velocity = next;
        }
    }

    /**
     * Advance the axis by one period with no motor torque and the brake open: it coasts on its friction.
     *
     * @param dtSeconds the period, s.
     */
    @Override
    public void coast(final double dtSeconds)
    {
        step(0.0, dtSeconds);
    }

    /**
     * @return the axis position, rad.
     */
    @Override
    public double position()
    {
        return position;
    }

    /**
     * @return the axis velocity, rad/s.
     */
    @Override
    public double velocity()
    {
        return velocity;
    }

    /**
     * @return the motor torque at the end of the last step, N·m (0 while braking).
     */
    @Override
    public double torque()
    {
        return torque;
    }

    /**
     * @return the position exactly (an ideal sensor).
     */
    @Override
    public double measuredPosition()
    {
        return position;
    }

    /**
     * @return the velocity exactly (an ideal sensor).
     */
    @Override
    public double measuredVelocity()
    {
        return velocity;
    }

    @Override
    public double peakTorqueNm()
    {
        return peakTorque;
    }

    @Override
    public double inertiaKgM2()
    {
        return parameters.inertiaKgM2();
    }

    /**
     * @return the motor current at the end of the last step, A (torque / Kt).
     */
    public double current()
    {
        return torque / parameters.torqueConstantNmPerA();
    }

    /**
     * @return the torque command of the last step after the drive's clamp, N·m.
     */
    public double commandedTorque()
    {
        return commandedTorque;
    }

    /**
     * @return NaN torque commands seen (each applied as 0).
     */
    public long nanCommands()
    {
        return nanCommands;
    }

    /**
     * @return the parameters.
     */
    public AxisParameters parameters()
    {
        return parameters;
    }

    private double acceleration(final double omega, final double motorTorque)
    {
        final double friction = viscous * omega + coulomb * omega / Math.sqrt(omega * omega + coulombVelocitySquared);
        return (motorTorque - friction) * inverseInertia;
    }

    private void rk4(final double h, final double motorTorque)
    {
        final double w0 = velocity;
        final double a1 = acceleration(w0, motorTorque);
        final double w1 = w0 + 0.5 * h * a1;
        final double a2 = acceleration(w1, motorTorque);
        final double w2 = w0 + 0.5 * h * a2;
        final double a3 = acceleration(w2, motorTorque);
        final double w3 = w0 + h * a3;
        final double a4 = acceleration(w3, motorTorque);
        position += h / 6.0 * (w0 + 2.0 * w1 + 2.0 * w2 + w3);
        velocity = w0 + h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    }

    private void rk4WithLag(final double h, final double command)
    {
        final double w0 = velocity;
        final double t0 = torque;
        final double a1 = acceleration(w0, t0);
        final double d1 = (command - t0) * inverseLag;
        final double w1 = w0 + 0.5 * h * a1;
        final double t1 = t0 + 0.5 * h * d1;
        final double a2 = acceleration(w1, t1);
        final double d2 = (command - t1) * inverseLag;
        final double w2 = w0 + 0.5 * h * a2;
        final double t2 = t0 + 0.5 * h * d2;
        final double a3 = acceleration(w2, t2);
        final double d3 = (command - t2) * inverseLag;
        final double w3 = w0 + h * a3;
        final double t3 = t0 + h * d3;
        final double a4 = acceleration(w3, t3);
        final double d4 = (command - t3) * inverseLag;
        position += h / 6.0 * (w0 + 2.0 * w1 + 2.0 * w2 + w3);
        velocity = w0 + h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
        torque = t0 + h / 6.0 * (d1 + 2.0 * d2 + 2.0 * d3 + d4);
    }
}
