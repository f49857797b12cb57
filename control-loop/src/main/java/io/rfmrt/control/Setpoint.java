package io.rfmrt.control;

/**
 * Where the axis should be at one instant: position, velocity, acceleration and jerk, as a trajectory generator
 * samples them. A flyweight, filled in place, so sampling allocates nothing.
 * <p>
 * Units: rad, rad/s, rad/s², rad/s³.
 * <p>
 * Not thread safe: each thread owns its instance.
 */
public final class Setpoint
{
    private double position;
    private double velocity;
    private double acceleration;
    private double jerk;

    /**
     * Fill this instance.
     *
     * @param position     rad.
     * @param velocity     rad/s.
     * @param acceleration rad/s².
     * @param jerk         rad/s³.
     * @return this.
     */
    public Setpoint set(final double position, final double velocity, final double acceleration, final double jerk)
    {
        this.position = position;
        this.velocity = velocity;
        this.acceleration = acceleration;
        this.jerk = jerk;
        return this;
    }

    /**
     * Stand still at a position (velocity, acceleration and jerk zero), e.g. to hold the axis where it is.
     *
     * @param position rad.
     * @return this.
     */
    public Setpoint hold(final double position)
    {
        return set(position, 0.0, 0.0, 0.0);
    }

    /**
     * @param other the setpoint to copy.
     * @return this.
     */
    public Setpoint copyFrom(final Setpoint other)
    {
        return set(other.position, other.velocity, other.acceleration, other.jerk);
    }

    /**
     * @return position, rad.
     */
    public double position()
    {
        return position;
    }

    /**
     * @return velocity, rad/s.
     */
    public double velocity()
    {
        return velocity;
    }

    /**
     * @return acceleration, rad/s².
     */
    public double acceleration()
    {
        return acceleration;
    }

    /**
     * @return jerk, rad/s³ (0 inside the constant-acceleration phases of a trapezoidal move, whose acceleration
     *     steps).
     */
    public double jerk()
    {
        return jerk;
    }

    @Override
    public String toString()
    {
        return "Setpoint{position=" + position + ", velocity=" + velocity + ", acceleration=" + acceleration +
            ", jerk=" + jerk + '}';
    }
}
