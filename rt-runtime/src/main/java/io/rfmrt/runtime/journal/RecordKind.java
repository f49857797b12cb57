package io.rfmrt.runtime.journal;

/**
 * The kinds of journal record, with stable ids: the id is the kind byte of every record on disk and the message type
 * of the ring between a {@link JournalWriter} and the journal thread. Ids never change meaning; new kinds get new ids.
 */
public enum RecordKind
{
    /** A received frame: header, the five latency-stage stamps and the payload. */
    FRAME(1),
    /** A fault: a code, the sequence number it concerns, a value. */
    FAULT(2),
    /** A state change: from, to. */
    STATE(3),
    /** A snapshot of counter values. */
    COUNTERS(4),
    /** A numeric sample (control loop cycle, latency): a kind, a cycle, a state and six values. */
    SAMPLE(5);

    private static final RecordKind[] BY_ID = new RecordKind[6];

    static
    {
        for (final RecordKind kind : values())
        {
            BY_ID[kind.id] = kind;
        }
    }

    private final int id;

    RecordKind(final int id)
    {
        this.id = id;
    }

    /**
     * @return the stable id, 1-126.
     */
    public int id()
    {
        return id;
    }

    /**
     * Allocation-free lookup.
     *
     * @param id a kind id.
     * @return the kind, or {@code null} when no kind has this id.
     */
    public static RecordKind fromId(final int id)
    {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }
}
