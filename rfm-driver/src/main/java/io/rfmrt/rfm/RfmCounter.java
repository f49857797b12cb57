package io.rfmrt.rfm;

/**
 * The counters every card keeps, with stable ids: the id is the counter's slot in the card's shared counter block,
 * so other processes ({@code rfmrt rfm status}) read them by id. Ids never change meaning; new counters get new ids.
 * <p>
 * A counter marked per-type has one slot for each {@link EventType}: slot {@code id + type.ordinal()}.
 */
public enum RfmCounter
{
    /** Events this card sent, per type. */
    EVENTS_SENT(0, true, "events sent"),
    /** Events put in this card's FIFOs, per type. */
    EVENTS_RECEIVED(EventType.COUNT, true, "events received"),
    /** Events lost because the type's FIFO was full, per type (each one also raises RXFIFO_FULL). */
    FIFO_OVERFLOWS(2 * EventType.COUNT, true, "FIFO overflows"),
    /** Events that arrived for a type this card has not enabled, per type. */
    EVENTS_DISABLED(3 * EventType.COUNT, true, "events dropped, type disabled"),
    /** Sends refused: link down, transmitter off, or addressed to self. */
    SENDS_REFUSED(4 * EventType.COUNT, false, "sends refused"),
    /** Sends addressed to a node id no card holds. */
    SENDS_UNDELIVERED(4 * EventType.COUNT + 1, false, "sends to absent nodes"),
    /** Waits that ran out of time. */
    AWAIT_TIMEOUTS(4 * EventType.COUNT + 2, false, "wait time-outs"),
    /** Waits ended by cancel. */
    AWAIT_CANCELS(4 * EventType.COUNT + 3, false, "wait cancels"),
    /** Kernel wake-ups issued on this card's interrupt lines. */
    INTERRUPTS_RAISED(4 * EventType.COUNT + 4, false, "interrupts raised"),
    /** DMA descriptors completed into this card's host buffers. */
    DMA_COMPLETED(4 * EventType.COUNT + 5, false, "DMA completed"),
    /** DMA transfers dropped because the descriptor ring was full. */
    DMA_DROPPED(4 * EventType.COUNT + 6, false, "DMA dropped, ring full"),
    /** Times a sender waited for ring space under the backpressure policy. */
    DMA_BACKPRESSURE_STALLS(4 * EventType.COUNT + 7, false, "DMA backpressure stalls"),
    /** DMA submissions rejected by the alignment / length rules. */
    DMA_REJECTED(4 * EventType.COUNT + 8, false, "DMA rejected"),
    /** Times the ring went down while this card was attached. */
    SYNC_LOSSES(4 * EventType.COUNT + 9, false, "sync losses");

    /** Number of 64-bit counter slots a card reserves; ids are below this. */
    public static final int SLOT_COUNT = 64;

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
        return perType ? id + type.ordinal() : id;
    }
}
