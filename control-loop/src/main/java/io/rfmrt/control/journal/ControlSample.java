package io.rfmrt.control.journal;

/**
 * A typed view of a CONTROL sample ({@link ControlJournal#SAMPLE_CONTROL}), one control cycle as the controller
 * journals it: the setpoint position, the measured position and velocity, the torque commanded, the position error
 * and the cycle latency (sensor send to command written). A flyweight: {@link #wrap} a record, read, wrap the next;
 * it allocates nothing and is valid as long as the record is.
 * <pre>{@code
 * if (sample.wrap(record)) { squares += sample.error() * sample.error(); }
 * }</pre>
 */
public final class ControlSample extends SampleView
{
    /** Index of the setpoint position, rad. */
    public static final int SETPOINT = 0;
    /** Index of the measured position, rad. */
    public static final int POSITION = 1;
    /** Index of the measured velocity, rad/s. */
    public static final int VELOCITY = 2;
    /** Index of the torque commanded, N·m. */
    public static final int COMMAND = 3;
    /** Index of the position error, setpoint − position, rad. */
    public static final int ERROR = 4;
    /** Index of the cycle latency, µs. */
    public static final int LATENCY = 5;
    /** Value names in record order, as registered with a replay (index = the constants above). */
    static final String[] VALUES = {"setpoint", "position", "velocity", "command", "error", "latency_us"};

    /** A view wrapping nothing yet. */
    public ControlSample()
    {
        super(ControlJournal.SAMPLE_CONTROL, "CONTROL");
    }

    /**
     * @return when the command was written, the controller's {@code System.nanoTime()}.
     */
    public long nanos()
    {
        return recordNanos();
    }

    /**
     * @return the setpoint position, rad.
     */
    public double setpoint()
    {
        return value(SETPOINT);
    }

    /**
     * @return the measured position, rad.
     */
    public double position()
    {
        return value(POSITION);
    }

    /**
     * @return the measured velocity, rad/s.
     */
    public double velocity()
    {
        return value(VELOCITY);
    }

    /**
     * @return the torque commanded, N·m.
     */
    public double command()
    {
        return value(COMMAND);
    }

    /**
     * @return the position error, setpoint − position, rad.
     */
    public double error()
    {
        return value(ERROR);
    }

    /**
     * @return the cycle latency, sensor send to command written, µs.
     */
    public double latencyMicros()
    {
        return value(LATENCY);
    }
}
