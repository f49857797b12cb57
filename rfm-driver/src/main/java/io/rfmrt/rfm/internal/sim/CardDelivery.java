package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;

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
        // the card moves data only for interrupts the receiving host takes: nothing fills a ring nobody drains
        if (rfmOffset >= 0 && (network.card(to).flags() & FLAG_DMA_AUTO) != 0 &&
            (network.card(to).enabledMask() & type.mask()) != 0)
        {
            final DmaRing ring = ringOf(to);
            if (ring != null && ring.destinationProblem(length, 0) == null)
            {
                ring.fill(network.memory(), rfmOffset, length, 0, from, data);
            }
            else if (ring != null)
            {
                network.card(to).addCounter(RfmCounter.DMA_REJECTED.id(), 1);
            }
        }
        return network.deliver(to, type, from, data);
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
            }
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
