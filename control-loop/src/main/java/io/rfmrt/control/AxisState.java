package io.rfmrt.control;

/**
 * The state of an axis as the {@link Watchdog} sees its sensor stream.
 */
public enum AxisState
{
    /** Waiting for a steady sensor stream; the axis is not driven (zero torque). */
    STARTING(0),
    /** Sensor frames arrive on time; the controller drives the axis. */
    RUNNING(1),
    /** Sensor frames stopped (or a stop was commanded); the axis is held safe: the drive disabled, its brake on. */
    SAFE(2),
    /** Sensor frames are back; the axis stays safe until enough good frames in a row have arrived. */
    RECOVERING(3),
    /**
     * The axis faulted (its following error stayed above the limit): the drive is quick-stopped and braked. Latched:
     * neither frames nor time leave it, only an explicit fault reset ({@link Watchdog#resetFault(long)}).
     */
    FAULT(4);

    private static final AxisState[] BY_ID = new AxisState[5];

    static
    {
        for (final AxisState value : values())
        {
            BY_ID[value.id] = value;
        }
    }

    private final int id;

    AxisState(final int id)
    {
        this.id = id;
    }

    /**
     * @return the stable id: the state word of a command frame and the from/to of a STATE journal record.
     */
    public int id()
    {
        return id;
    }

    /**
     * Allocation-free lookup.
     *
     * @param id an id.
     * @return the value with this id, or {@code null} when none has it.
     */
    public static AxisState fromId(final int id)
    {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

}
