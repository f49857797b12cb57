package io.rfmrt.rfm;

import java.util.Arrays;

/**
 * The events an RFM card raises on its host, named after the RFM2g event types.
 * <p>
 * Only {@link #RESET} and {@link #INTR1}..{@link #INTR4} travel the ring: they are sent by one node to another
 * node or to all. The rest are raised by the receiving card itself about its own condition. Each type has its own
 * bounded FIFO on the card ({@value #FIFO_CAPACITY} entries, as on the PCIE-5565) and its own interrupt line in the
 * emulator.
 * <p>
 * Every type has a stable {@link #id()}: the id, never the declaration order, places the type's counter slots, its
 * FIFO in an emulated card, its bit in an event mask and the data word of RXFIFO_FULL. Ids never change meaning;
 * a new type (the card's RXFIFO_AFULL, say) takes a free id below {@link #ID_LIMIT}, so the positions of the
 * existing types stay where they are.
 */
public enum EventType
{
    /** Network reset request, sendable. */
    RESET(0, true),
    /** Network interrupt 1, sendable, carries 32 bits of data. */
    INTR1(1, true),
    /** Network interrupt 2, sendable, carries 32 bits of data. */
    INTR2(2, true),
    /** Network interrupt 3, sendable, carries 32 bits of data. */
    INTR3(3, true),
    /** Network interrupt 4, sendable, carries 32 bits of data. */
    INTR4(4, true),
    /** The card received a packet with bad data. Disables itself when it fires. */
    BAD_DATA(5, false),
    /** An event FIFO overflowed; the data word is the id of the overflowing event type. */
    RXFIFO_FULL(6, false),
    /** A packet went round the ring without being removed. */
    ROGUE_PKT(7, false),
    /** The ring is open (link down). Disables itself when it fires. */
    SYNC_LOSS(8, false);

    /** Entries per event FIFO, as on the hardware. */
    public static final int FIFO_CAPACITY = 127;

    /**
     * Ids are below this: every per-type region (counter slots, FIFOs, mask bits) reserves this many places, so that
     * a new type fits without moving the others.
     */
    public static final int ID_LIMIT = 16;

    private static final EventType[] VALUES = values();

    /** Number of event types. */
    public static final int COUNT = VALUES.length;

    private static final EventType[] BY_ID = new EventType[ID_LIMIT];

    static
    {
        for (final EventType type : VALUES)
        {
            if (type.id < 0 || type.id >= ID_LIMIT || BY_ID[type.id] != null)
            {
                throw new AssertionError("event type id " + type.id + " of " + type + " is taken or out of range");
            }
            BY_ID[type.id] = type;
        }
    }

    private final int id;
    private final boolean sendable;

    EventType(final int id, final boolean sendable)
    {
        this.id = id;
        this.sendable = sendable;
    }

    /**
     * @return the stable id, 0 to {@link #ID_LIMIT} - 1.
     */
    public int id()
    {
        return id;
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
        return 1 << id;
    }

    /**
     * Allocation-free lookup (allocates only to refuse).
     *
     * @param id a type id.
     * @return the type with that id.
     * @throws IllegalArgumentException if no type has it.
     */
    public static EventType fromId(final int id)
    {
        final EventType type = id >= 0 && id < ID_LIMIT ? BY_ID[id] : null;
        if (type == null)
        {
            throw new IllegalArgumentException("no event type with id " + id);
        }
        return type;
    }

    /**
     * @param id a type id.
     * @return the type with that id, or {@code null} when no type has it (allocation-free).
     */
    public static EventType fromIdOrNull(final int id)
    {
        return id >= 0 && id < ID_LIMIT ? BY_ID[id] : null;
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
            Arrays.toString(VALUES) + ")");
    }
}
