package io.rfmrt.control.journal;

import io.rfmrt.control.AxisState;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;

/**
 * A typed view of a CONTROL_INPUT sample ({@link ControlJournal#SAMPLE_CONTROL_INPUT}): what the controller stepped
 * on in one cycle, so that a replay can run the step again bit for bit: the integrator before the step, the
 * setpoint's velocity, acceleration and jerk, the sensor's position and velocity; the record's {@code nanos} is
 * the sensor frame's send time. A flyweight, as {@link ControlSample}.
 */
public final class ControlInputSample
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

    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);

    private JournalRecord record;

    /**
     * @param record a record.
     * @return whether it is a CONTROL_INPUT sample; only then does this view read it.
     */
    public boolean wrap(final JournalRecord record)
    {
        if (record.kind() == RecordKind.SAMPLE && record.sampleKind() == ControlJournal.SAMPLE_CONTROL_INPUT)
        {
            this.record = record;
            return true;
        }
        this.record = null;
        return false;
    }

    /**
     * @return the control cycle.
     */
    public long cycle()
    {
        return record().cycle();
    }

    /**
     * @return the sensor frame's send time, the plant's {@code System.nanoTime()}.
     */
    public long sendNanos()
    {
        return record().nanos();
    }

    /**
     * @return the axis state id of the cycle.
     */
    public int stateId()
    {
        return record().state();
    }

    /**
     * @return whether the controller drove the axis in this cycle (RUNNING).
     */
    public boolean running()
    {
        return record().state() == RUNNING;
    }

    /**
     * @return the integrator before the step, N·m.
     */
    public double integrator()
    {
        return record().value(INTEGRATOR);
    }

    /**
     * @return the setpoint velocity, rad/s.
     */
    public double setpointVelocity()
    {
        return record().value(SETPOINT_VELOCITY);
    }

    /**
     * @return the setpoint acceleration, rad/s².
     */
    public double setpointAcceleration()
    {
        return record().value(SETPOINT_ACCELERATION);
    }

    /**
     * @return the setpoint jerk, rad/s³.
     */
    public double setpointJerk()
    {
        return record().value(SETPOINT_JERK);
    }

    /**
     * @return the sensor position, rad.
     */
    public double sensorPosition()
    {
        return record().value(SENSOR_POSITION);
    }

    /**
     * @return the sensor velocity, rad/s.
     */
    public double sensorVelocity()
    {
        return record().value(SENSOR_VELOCITY);
    }

    private JournalRecord record()
    {
        if (record == null)
        {
            throw new IllegalStateException("no CONTROL_INPUT sample wrapped");
        }
        return record;
    }
}
