package io.rfmrt.rfm;

/**
 * The counters every card keeps, with stable ids: the id is the counter's slot in the card's shared counter block,
 * so other processes ({@code rfmrt rfm status}) read them by id. Ids never change meaning; new counters get new ids.
 * <p>
 * A counter marked per-type reserves {@link EventType#ID_LIMIT} slots, one per possible event type id: slot
 * {@code id + type.id()}. The slot of a type therefore never depends on which other types exist.
 */
public enum RfmCounter
{
    /** Events this card sent, per type. */
    EVENTS_SENT(0, true, "events sent"),
    /** Events put in this card's FIFOs, per type. */
    EVENTS_RECEIVED(16, true, "events received"),
    /** Events lost because the type's FIFO was full, per type (each one also raises RXFIFO_FULL). */
    FIFO_OVERFLOWS(32, true, "FIFO overflows"),
    /** Events that arrived for a type this card has not enabled, per type. */
    EVENTS_DISABLED(48, true, "events dropped, type disabled"),
    /** Sends refused: link down, transmitter off, or addressed to self. */
    SENDS_REFUSED(64, false, "sends refused"),
    /** Sends addressed to a node id no card holds. */
    SENDS_UNDELIVERED(65, false, "sends to absent nodes"),
    /** Waits that ran out of time. */
    AWAIT_TIMEOUTS(66, false, "wait time-outs"),
    /** Waits ended by cancel. */
    AWAIT_CANCELS(67, false, "wait cancels"),
    /** Kernel wake-ups issued on this card's interrupt lines. */
    INTERRUPTS_RAISED(68, false, "interrupts raised"),
    /** DMA descriptors completed into this card's host buffers. */
    DMA_COMPLETED(69, false, "DMA completed"),
    /** DMA transfers dropped because the descriptor ring was full. */
    DMA_DROPPED(70, false, "DMA dropped, ring full"),
    /** Times a sender waited for ring space under the backpressure policy. */
    DMA_BACKPRESSURE_STALLS(71, false, "DMA backpressure stalls"),
    /** DMA submissions rejected by the alignment / length rules. */
    DMA_REJECTED(72, false, "DMA rejected"),
    /** Times the ring went down while this card was attached. */
    SYNC_LOSSES(73, false, "sync losses"),
    /**
     * Events lost because their type's FIFO in shared memory was corrupt: head, tail or an entry's sequence in a
     * state no sender or taker leaves (each one also raises BAD_DATA, whose data word is the type's id).
     */
    FIFO_FAULTS(74, false, "FIFO faults");

    /** Number of 64-bit counter slots a card reserves; slots are below this. */
    public static final int SLOT_COUNT = 128;

    private static final RfmCounter[] VALUES = values();
    private static final RfmCounter[] BY_ID = new RfmCounter[SLOT_COUNT];

    static
    {
        for (final RfmCounter counter : VALUES)
        {
            final int width = counter.perType ? EventType.ID_LIMIT : 1;
            for (int slot = counter.id; slot < counter.id + width; slot++)
            {
                if (slot >= SLOT_COUNT || BY_ID[slot] != null)
                {
                    throw new AssertionError("counter " + counter + " overlaps another or leaves the block");
                }
                BY_ID[slot] = counter;
            }
        }
    }

    private final int id;
    private final boolean perType;
    private final String label;

    RfmCounter(final int id, final boolean perType, final String label)
    {
        this.id = id;
        this.perType = perType;
        this.label = label;
    }

    /**
     * @return the stable id, the first slot of this counter.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return true when the counter has one slot per event type.
     */
    public boolean perType()
    {
        return perType;
    }

    /**
     * @return a short human label.
     */
    public String label()
    {
        return label;
    }

    /**
     * @param type the event type, ignored for counters that are not per type.
     * @return the slot that holds this counter for the type.
     */
    public int slot(final EventType type)
    {
        return perType ? id + type.id() : id;
    }

    /**
     * Allocation-free lookup by id (the first slot of a counter).
     *
     * @param id a counter id.
     * @return the counter whose first slot it is, or {@code null} when none starts there.
     */
    public static RfmCounter fromId(final int id)
    {
        final RfmCounter counter = id >= 0 && id < SLOT_COUNT ? BY_ID[id] : null;
        return counter != null && counter.id == id ? counter : null;
    }

    /**
     * @param slot a counter slot.
     * @return the counter that owns the slot, or {@code null} when the slot is free.
     */
    public static RfmCounter ofSlot(final int slot)
    {
        return slot >= 0 && slot < SLOT_COUNT ? BY_ID[slot] : null;
    }
}
