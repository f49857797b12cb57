package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmStatus;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_COUNT;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_DMA_AUTO;

/**
 * What the receiving card does with an event that reached it: the DMA on arrival into the receiver's ring (when it
 * is in auto mode and takes the type), then the FIFO and the interrupt line ({@link NetworkImage#deliver}). Used by
 * a sending card for the nodes of its host, and by the bridge for events that came from another host, after the
 * data written before them. Keeps the other nodes' DMA rings mapped, re-mapping one when its claim generation moves.
 * <p>
 * Single-threaded per instance (a device's senders share one: the mapping cache is only ever filled, never torn
 * down while in use); allocation-free once a ring is mapped.
 */
public final class CardDelivery implements AutoCloseable
{
    /** {@link #deliverWithOutcome}: the event is in the card's FIFO (and its frame in the ring, if any). */
    public static final int QUEUED = 0;
    /** {@link #deliverWithOutcome} bit: the frame was not moved, the receiver's DMA ring stayed full. */
    public static final int DMA_DROPPED = 1;
    /** {@link #deliverWithOutcome} bit: the event was dropped, the card's FIFO for its type was full. */
    public static final int FIFO_FULL = 2;
    /** {@link #deliverWithOutcome} bit: the card does not take the type (not enabled); nothing moved. */
    public static final int NOT_ENABLED = 4;

    private final NetworkImage network;
    private final int ownNode;
    private final DmaRing ownRing;
    private final DmaRing[] rings = new DmaRing[CARD_COUNT];
    private final int[] generations = new int[CARD_COUNT];

    /**
     * @param network the network.
     * @param ownNode the node of the delivering card, or -1 (a bridge).
     * @param ownRing that node's own ring (for loopback), or null.
     */
    public CardDelivery(final NetworkImage network, final int ownNode, final DmaRing ownRing)
    {
        this.network = network;
        this.ownNode = ownNode;
        this.ownRing = ownRing;
    }

    /**
     * Deliver one event on card {@code to}.
     *
     * @param from      sending node.
     * @param to        receiving node, present on this host.
     * @param type      event type.
     * @param data      data word.
     * @param rfmOffset frame offset for DMA on arrival, or -1.
     * @param length    frame length.
     * @return whether the event was queued.
     */
    public boolean deliver(final int from, final int to, final EventType type, final int data, final long rfmOffset,
        final int length)
    {
        return (deliverWithOutcome(from, to, type, data, rfmOffset, length) & (FIFO_FULL | NOT_ENABLED)) == 0;
    }

    /**
     * Deliver one event on card {@code to} and say what the card could not do (each already counted on the card):
     * how a bridge tells a node that does not keep up from one that does.
     *
     * @param from      sending node.
     * @param to        receiving node, present on this host.
     * @param type      event type.
     * @param data      data word.
     * @param rfmOffset frame offset for DMA on arrival, or -1.
     * @param length    frame length.
     * @return {@link #QUEUED}, or {@link #DMA_DROPPED}, {@link #FIFO_FULL}, {@link #NOT_ENABLED} bits.
     */
    public int deliverWithOutcome(final int from, final int to, final EventType type, final int data,
        final long rfmOffset, final int length)
    {
        int outcome = QUEUED;
        final boolean enabled = (network.card(to).enabledMask() & type.mask()) != 0;
        // the card moves data only for interrupts the receiving host takes: nothing fills a ring nobody drains
        if (rfmOffset >= 0 && (network.card(to).flags() & FLAG_DMA_AUTO) != 0 && enabled)
        {
            final DmaRing ring = ringOf(to);
            if (ring != null && ring.destinationProblem(length, 0) == null)
            {
                if (ring.fill(network.memory(), rfmOffset, length, 0, from, data) != RfmStatus.SUCCESS)
                {
                    outcome |= DMA_DROPPED;
                }
            }
            else if (ring != null)
            {
                network.card(to).addCounter(RfmCounter.DMA_REJECTED.id(), 1);
            }
        }
        if (!network.deliver(to, type, from, data))
        {
            outcome |= enabled ? FIFO_FULL : NOT_ENABLED;
        }
        return outcome;
    }

    private DmaRing ringOf(final int to)
    {
        if (to == ownNode)
        {
            return ownRing;
        }
        final int generation = network.card(to).claimGeneration();
        DmaRing ring = rings[to];
        if (ring == null || generations[to] != generation)
        {
            if (ring != null)
            {
                ring.close();
                rings[to] = null;
            }
            // a ring file this build cannot fill is refused here, in one line, and looked at again on the next send
            ring = DmaRing.attach(network, to);
            rings[to] = ring;
            generations[to] = generation;
        }
        return ring;
    }

    /**
     * Unmap the other nodes' rings.
     */
    @Override
    public void close()
    {
        for (int i = 0; i < rings.length; i++)
        {
            if (rings[i] != null)
            {
                rings[i].close();
                rings[i] = null;
            }
        }
    }
}
