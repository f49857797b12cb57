package io.rfmrt.control.journal;

/**
 * A typed view of a CONTROL_INPUT sample ({@link ControlJournal#SAMPLE_CONTROL_INPUT}): what the controller stepped
 * on in one cycle, so that a replay can run the step again bit for bit: the integrator before the step, the
 * setpoint's velocity, acceleration and jerk, the sensor's position and velocity; the record's {@code nanos} is
 * the sensor frame's send time. A flyweight, as {@link ControlSample}.
 */
public final class ControlInputSample extends SampleView
{
    /** Index of the integrator before the step, N·m. */
    public static final int INTEGRATOR = 0;
    /** Index of the setpoint velocity, rad/s. */
    public static final int SETPOINT_VELOCITY = 1;
    /** Index of the setpoint acceleration, rad/s². */
    public static final int SETPOINT_ACCELERATION = 2;
    /** Index of the setpoint jerk, rad/s³. */
    public static final int SETPOINT_JERK = 3;
    /** Index of the sensor position, rad. */
    public static final int SENSOR_POSITION = 4;
    /** Index of the sensor velocity, rad/s. */
    public static final int SENSOR_VELOCITY = 5;
    /** Value names in record order, as registered with a replay (index = the constants above). */
    static final String[] VALUES = {"integrator", "setpoint_velocity", "setpoint_acceleration", "setpoint_jerk",
        "sensor_position", "sensor_velocity"};

    /** A view wrapping nothing yet. */
    public ControlInputSample()
    {
        super(ControlJournal.SAMPLE_CONTROL_INPUT, "CONTROL_INPUT");
    }

    /**
     * @return the sensor frame's send time, the plant's {@code System.nanoTime()}.
     */
    public long sendNanos()
    {
        return recordNanos();
    }

    /**
     * @return the integrator before the step, N·m.
     */
    public double integrator()
    {
        return value(INTEGRATOR);
    }

    /**
     * @return the setpoint velocity, rad/s.
     */
    public double setpointVelocity()
    {
        return value(SETPOINT_VELOCITY);
    }

    /**
     * @return the setpoint acceleration, rad/s².
     */
    public double setpointAcceleration()
    {
        return value(SETPOINT_ACCELERATION);
    }

    /**
     * @return the setpoint jerk, rad/s³.
     */
    public double setpointJerk()
    {
        return value(SETPOINT_JERK);
    }

    /**
     * @return the sensor position, rad.
     */
    public double sensorPosition()
    {
        return value(SENSOR_POSITION);
    }

    /**
     * @return the sensor velocity, rad/s.
     */
    public double sensorVelocity()
    {
        return value(SENSOR_VELOCITY);
    }
}
