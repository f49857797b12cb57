package io.rfmrt.control;

/**
 * Everything {@link AxisController} carries from one cycle to the next: the velocity integrator. The controller reads
 * one state and writes the next ({@link AxisController#step}); nothing else is remembered, so a replay that starts
 * from a journaled state re-runs the controller exactly. A flyweight, reused every cycle.
 * <p>
 * Not thread safe: each thread owns its instance.
 */
public final class ControllerState
{
    private double integratorNm;

    /**
     * Back to the initial state (integrator empty), e.g. when the axis leaves a safe state.
     *
     * @return this.
     */
    public ControllerState reset()
    {
        integratorNm = 0.0;
        return this;
    }

    /**
     * @param integrator the velocity integrator, N·m.
     * @return this.
     */
    public ControllerState set(final double integrator)
    {
        integratorNm = integrator;
        return this;
    }

    /**
     * @param other the state to copy.
     * @return this.
     */
    public ControllerState copyFrom(final ControllerState other)
    {
        integratorNm = other.integratorNm;
        return this;
    }

    /**
     * @return the velocity integrator: the torque the I term contributes, N·m.
     */
    public double integratorNm()
    {
        return integratorNm;
    }

    /**
     * @param other another state.
     * @return whether the two are bit for bit the same ({@link Double#doubleToRawLongBits}).
     */
    public boolean sameBitsAs(final ControllerState other)
    {
        return Double.doubleToRawLongBits(integratorNm) == Double.doubleToRawLongBits(other.integratorNm);
    }

    @Override
    public String toString()
    {
        return "ControllerState{integratorNm=" + integratorNm + '}';
    }
}
