package io.rfmrt.rfm.channel;

/**
 * Outcome of receiving one frame. Only {@link #OK} hands a frame on; every other outcome is counted.
 */
public enum FrameStatus
{
    /** Valid and new. */
    OK(0),
    /** Overwritten while read. */
    TORN(1),
    /** Checksum mismatch. */
    CRC_ERROR(2),
    /** Seen before. */
    DUPLICATE(3),
    /** Older than what was seen. */
    STALE(4),
    /** Own frame. */
    SELF(5),
    /** Impossible header or empty slot. */
    BAD_HEADER(6),
    /** No DMA completion for the event. */
    DMA_MISSING(7),
    /**
     * A reader by number found the frame complete, and it was written over before the read ended (a lap, or a new
     * incarnation): not counted and never journaled; the reader looks at the slot again.
     */
    OVERWRITTEN(8);

    private static final FrameStatus[] BY_ID = new FrameStatus[9];

    static
    {
        for (final FrameStatus value : values())
        {
            BY_ID[value.id] = value;
        }
    }

    private final int id;

    FrameStatus(final int id)
    {
        this.id = id;
    }

    /**
     * @return the stable id: the fault code of a frame fault in a journal.
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
    public static FrameStatus fromId(final int id)
    {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

}
