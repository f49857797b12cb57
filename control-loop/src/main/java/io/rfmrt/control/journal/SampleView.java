package io.rfmrt.control.journal;

import io.rfmrt.control.AxisState;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;

/**
 * What the typed views of the control loop's SAMPLE records share: {@link #wrap} a record of the view's sample kind,
 * read its cycle, state and values, wrap the next. A flyweight: it allocates nothing and is valid as long as the
 * record is.
 */
public abstract class SampleView
{
    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);

    private final int sampleKind;
    private final String name;
    private JournalRecord record;

    SampleView(final int sampleKind, final String name)
    {
        this.sampleKind = sampleKind;
        this.name = name;
    }

    /**
     * @param record a record.
     * @return whether it is a sample of this view's kind; only then does this view read it.
     */
    public final boolean wrap(final JournalRecord record)
    {
        if (record.kind() == RecordKind.SAMPLE && record.sampleKind() == sampleKind)
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
    public final long cycle()
    {
        return record().cycle();
    }

    /**
     * @return the axis state id of the cycle ({@link ControlJournal#state(int)}).
     */
    public final int stateId()
    {
        return record().state();
    }

    /**
     * @return whether the controller drove the axis in this cycle (RUNNING).
     */
    public final boolean running()
    {
        return record().state() == RUNNING;
    }

    final long recordNanos()
    {
        return record().nanos();
    }

    final double value(final int index)
    {
        return record().value(index);
    }

    private JournalRecord record()
    {
        if (record == null)
        {
            throw new IllegalStateException("no " + name + " sample wrapped");
        }
        return record;
    }
}
