package io.rfmrt.control.journal;

import io.rfmrt.control.AxisState;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;

/**
 * A typed view of a CONTROL sample ({@link ControlJournal#SAMPLE_CONTROL}), one control cycle as the controller
 * journals it: the setpoint position, the measured position and velocity, the torque commanded, the position error
 * and the cycle latency (sensor send to command written). A flyweight: {@link #wrap} a record, read, wrap the next;
 * it allocates nothing and is valid as long as the record is.
 * <pre>{@code
 * if (sample.wrap(record)) { squares += sample.error() * sample.error(); }
 * }</pre>
 */
public final class ControlSample
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

    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);

    private JournalRecord record;

    /**
     * @param record a record.
     * @return whether it is a CONTROL sample; only then does this view read it.
     */
    public boolean wrap(final JournalRecord record)
    {
        if (record.kind() == RecordKind.SAMPLE && record.sampleKind() == ControlJournal.SAMPLE_CONTROL)
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
     * @return when the command was written, the controller's {@code System.nanoTime()}.
     */
    public long nanos()
    {
        return record().nanos();
    }

    /**
     * @return the axis state id of the cycle ({@link ControlJournal#state(int)}).
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
     * @return the setpoint position, rad.
     */
    public double setpoint()
    {
        return record().value(SETPOINT);
    }

    /**
     * @return the measured position, rad.
     */
    public double position()
    {
        return record().value(POSITION);
    }

    /**
     * @return the measured velocity, rad/s.
     */
    public double velocity()
    {
        return record().value(VELOCITY);
    }

    /**
     * @return the torque commanded, N·m.
     */
    public double command()
    {
        return record().value(COMMAND);
    }

    /**
     * @return the position error, setpoint − position, rad.
     */
    public double error()
    {
        return record().value(ERROR);
    }

    /**
     * @return the cycle latency, sensor send to command written, µs.
     */
    public double latencyMicros()
    {
        return record().value(LATENCY);
    }

    private JournalRecord record()
    {
        if (record == null)
        {
            throw new IllegalStateException("no CONTROL sample wrapped");
        }
        return record;
    }
}
