package io.rfmrt.control;

/**
 * What {@link AxisController#step} computes in one cycle: the torque command for the plant and the intermediate
 * values a journal or a plot wants (errors, references, feed-forward, saturation). A flyweight, filled in place.
 * <p>
 * Units: N·m, rad, rad/s.
 * <p>
 * Not thread safe: each thread owns its instance.
 */
public final class ControlCommand
{
    private long cycle;
    private double torqueNm;
    private double unsaturatedTorqueNm;
    private double feedForwardTorqueNm;
    private double velocityReferenceRadPerS;
    private double positionErrorRad;
    private double velocityErrorRadPerS;
    private boolean saturated;

    /**
     * Fill this instance.
     *
     * @param cycle                    the sensor cycle the command answers.
     * @param torque                   the torque command after the clamp, N·m.
     * @param unsaturatedTorque        the torque before the clamp, N·m.
     * @param feedForwardTorque        the acceleration feed-forward part, N·m.
     * @param velocityReference        the position loop's output after its clamp, rad/s.
     * @param positionError            setpoint − measured position, rad.
     * @param velocityError            velocity reference − measured velocity, rad/s.
     * @param saturated                whether the torque clamp was active.
     * @return this.
     */
    public ControlCommand set(final long cycle, final double torque, final double unsaturatedTorque,
        final double feedForwardTorque, final double velocityReference, final double positionError,
        final double velocityError, final boolean saturated)
    {
        this.cycle = cycle;
        this.torqueNm = torque;
        this.unsaturatedTorqueNm = unsaturatedTorque;
        this.feedForwardTorqueNm = feedForwardTorque;
        this.velocityReferenceRadPerS = velocityReference;
        this.positionErrorRad = positionError;
        this.velocityErrorRadPerS = velocityError;
        this.saturated = saturated;
        return this;
    }

    /**
     * @param other the command to copy.
     * @return this.
     */
    public ControlCommand copyFrom(final ControlCommand other)
    {
        return set(other.cycle, other.torqueNm, other.unsaturatedTorqueNm, other.feedForwardTorqueNm,
            other.velocityReferenceRadPerS, other.positionErrorRad, other.velocityErrorRadPerS, other.saturated);
    }

    /**
     * @return the sensor cycle this command answers.
     */
    public long cycle()
    {
        return cycle;
    }

    /**
     * @return the torque command after the clamp, N·m: what goes to the plant.
     */
    public double torqueNm()
    {
        return torqueNm;
    }

    /**
     * @return the torque before the clamp, N·m.
     */
    public double unsaturatedTorqueNm()
    {
        return unsaturatedTorqueNm;
    }

    /**
     * @return the acceleration feed-forward torque, N·m.
     */
    public double feedForwardTorqueNm()
    {
        return feedForwardTorqueNm;
    }

    /**
     * @return the velocity reference (position loop output), rad/s.
     */
    public double velocityReferenceRadPerS()
    {
        return velocityReferenceRadPerS;
    }

    /**
     * @return setpoint − measured position, rad: the tracking error.
     */
    public double positionErrorRad()
    {
        return positionErrorRad;
    }

    /**
     * @return velocity reference − measured velocity, rad/s.
     */
    public double velocityErrorRadPerS()
    {
        return velocityErrorRadPerS;
    }

    /**
     * @return whether the torque clamp was active.
     */
    public boolean saturated()
    {
        return saturated;
    }

    /**
     * @param other another command.
     * @return whether every field is bit for bit the same ({@link Double#doubleToRawLongBits}), as a replay checks.
     */
    public boolean sameBitsAs(final ControlCommand other)
    {
        return cycle == other.cycle && saturated == other.saturated &&
            same(torqueNm, other.torqueNm) && same(unsaturatedTorqueNm, other.unsaturatedTorqueNm) &&
            same(feedForwardTorqueNm, other.feedForwardTorqueNm) &&
            same(velocityReferenceRadPerS, other.velocityReferenceRadPerS) &&
            same(positionErrorRad, other.positionErrorRad) && same(velocityErrorRadPerS, other.velocityErrorRadPerS);
    }

    @Override
    public String toString()
    {
        return "ControlCommand{cycle=" + cycle + ", torqueNm=" + torqueNm + ", unsaturatedTorqueNm=" +
            unsaturatedTorqueNm + ", feedForwardTorqueNm=" + feedForwardTorqueNm + ", velocityReferenceRadPerS=" +
            velocityReferenceRadPerS + ", positionErrorRad=" + positionErrorRad + ", velocityErrorRadPerS=" +
            velocityErrorRadPerS + ", saturated=" + saturated + '}';
    }

    private static boolean same(final double a, final double b)
    {
        return Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
    }
}
