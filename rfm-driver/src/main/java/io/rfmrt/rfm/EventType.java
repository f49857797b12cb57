package io.rfmrt.rfm;

/**
 * The events an RFM card raises on its host, named after the RFM2g event types.
 * <p>
 * Only {@link #RESET} and {@link #INTR1}..{@link #INTR4} travel the ring: they are sent by one node to another
 * node or to all. The rest are raised by the receiving card itself about its own condition. Each type has its own
 * bounded FIFO on the card ({@value #FIFO_CAPACITY} entries, as on the PCIE-5565) and its own interrupt line in the
 * emulator.
 */
public enum EventType
{
    /** Network reset request, sendable. */
    RESET(true),
    /** Network interrupt 1, sendable, carries 32 bits of data. */
    INTR1(true),
    /** Network interrupt 2, sendable, carries 32 bits of data. */
    INTR2(true),
    /** Network interrupt 3, sendable, carries 32 bits of data. */
    INTR3(true),
    /** Network interrupt 4, sendable, carries 32 bits of data. */
    INTR4(true),
    /** The card received a packet with bad data. Disables itself when it fires. */
    BAD_DATA(false),
    /** An event FIFO overflowed; the data word is the id of the overflowing event type. */
    RXFIFO_FULL(false),
    /** A packet went round the ring without being removed. */
    ROGUE_PKT(false),
    /** The ring is open (link down). Disables itself when it fires. */
    SYNC_LOSS(false);

    /** Entries per event FIFO, as on the hardware. */
    public static final int FIFO_CAPACITY = 127;

    private static final EventType[] VALUES = values();

    /** Number of event types, the size of per-type arrays. */
    public static final int COUNT = VALUES.length;

    private final boolean sendable;

    EventType(final boolean sendable)
    {
        this.sendable = sendable;
    }

    /**
     * @return true for the types a node can send over the ring (RESET, INTR1..INTR4).
     */
    public boolean sendable()
    {
        return sendable;
    }

    /**
     * @return true for the types that disable themselves on the receiving card when they fire.
     */
    public boolean selfDisabling()
    {
        return this == BAD_DATA || this == SYNC_LOSS;
    }

    /**
     * @return the bit of this type in an event mask.
     */
    public int mask()
    {
        return 1 << ordinal();
    }

    /**
     * @param id the ordinal of a type.
     * @return the type with that id.
     * @throws IllegalArgumentException if no type has it.
     */
    public static EventType fromId(final int id)
    {
        if (id < 0 || id >= COUNT)
        {
            throw new IllegalArgumentException("no event type with id " + id);
        }
        return VALUES[id];
    }

    /**
     * Parse a type name as users write it (case-insensitive).
     *
     * @param name e.g. {@code INTR1} or {@code intr1}.
     * @return the type.
     * @throws IllegalArgumentException naming the bad value and the valid ones.
     */
    public static EventType parse(final String name)
    {
        for (final EventType type : VALUES)
        {
            if (type.name().equalsIgnoreCase(name.trim()))
            {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown event type '" + name + "' (one of " +
            java.util.Arrays.toString(VALUES) + ")");
    }
}
