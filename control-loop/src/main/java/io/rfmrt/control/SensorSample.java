package io.rfmrt.control;

/**
 * One sensor reading of an axis, as the plant publishes it each period: cycle number, send time, position and
 * velocity. A flyweight, filled in place by whoever decodes the sensor frame, so the control path allocates nothing.
 * <p>
 * Units: position in rad (a rotary axis, multi-turn, never wrapped), velocity in rad/s, time in ns of
 * {@link System#nanoTime()} (CLOCK_MONOTONIC on the plant's host).
 * <p>
 * Not thread safe: each thread owns its instance.
 */
public final class SensorSample
{
    private long cycle;
    private long sendNanos;
    private double position;
    private double velocity;

    /**
     * Fill this instance.
     *
     * @param cycle     the plant's cycle number, from 0.
     * @param sendNanos when the plant published the frame, ns.
     * @param position  axis position, rad.
     * @param velocity  axis velocity, rad/s.
     * @return this.
     */
    public SensorSample set(final long cycle, final long sendNanos, final double position, final double velocity)
    {
        this.cycle = cycle;
        this.sendNanos = sendNanos;
        this.position = position;
        this.velocity = velocity;
        return this;
    }

    /**
     * @param other the sample to copy.
     * @return this.
     */
    public SensorSample copyFrom(final SensorSample other)
    {
        return set(other.cycle, other.sendNanos, other.position, other.velocity);
    }

    /**
     * @return the plant's cycle number.
     */
    public long cycle()
    {
        return cycle;
    }

    /**
     * @return when the plant published the frame, ns.
     */
    public long sendNanos()
    {
        return sendNanos;
    }

    /**
     * @return axis position, rad.
     */
    public double position()
    {
        return position;
    }

    /**
     * @return axis velocity, rad/s.
     */
    public double velocity()
    {
        return velocity;
    }

    @Override
    public String toString()
    {
        return "SensorSample{cycle=" + cycle + ", sendNanos=" + sendNanos + ", position=" + position +
            ", velocity=" + velocity + '}';
    }
}
