package io.rfmrt.rfm;

/**
 * One received event, filled in place by {@link RfmDevice#awaitEvent} so the receive path allocates nothing.
 * Mirrors {@code RFM2GEVENTINFO}: type, source node id, 32-bit data word, plus the time the event reached the card.
 * <p>
 * Not thread safe: each waiting thread owns its instance.
 */
public final class EventInfo
{
    private EventType type;
    private int sourceNode;
    private int data;
    private long arrivalNanos;

    /**
     * Fill this instance; used by device backends.
     *
     * @param type         the event type.
     * @param sourceNode   node id of the sender (this node's own id for card-raised events).
     * @param data         the 32-bit data word.
     * @param arrivalNanos {@link System#nanoTime()} when the event was put in the card's FIFO.
     * @return this.
     */
    public EventInfo set(final EventType type, final int sourceNode, final int data, final long arrivalNanos)
    {
        this.type = type;
        this.sourceNode = sourceNode;
        this.data = data;
        this.arrivalNanos = arrivalNanos;
        return this;
    }

    /**
     * @return the event type, null before the first event.
     */
    public EventType type()
    {
        return type;
    }

    /**
     * @return node id of the sender.
     */
    public int sourceNode()
    {
        return sourceNode;
    }

    /**
     * @return the 32-bit data word.
     */
    public int data()
    {
        return data;
    }

    /**
     * @return {@link System#nanoTime()} (CLOCK_MONOTONIC) when the event reached the card.
     */
    public long arrivalNanos()
    {
        return arrivalNanos;
    }

    /**
     * @return the line the diagnostic utility prints, e.g. {@code event INTR1 from node 1 data 0x0000cafe}.
     */
    @Override
    public String toString()
    {
        return String.format("event %s from node %d data 0x%08x", type, sourceNode, data);
    }
}
