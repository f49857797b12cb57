package io.rfmrt.rfm.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.internal.sim.ControlBlockDescriptor;
import io.rfmrt.rfm.internal.sim.DmaRing;
import io.rfmrt.rfm.internal.sim.NetworkImage;

import java.nio.file.Files;

/**
 * A read-only look at an emulated network from outside the processes that use it, for a sampler that runs beside
 * them: each card's owner, counters and queued events, and the DMA ring of a node that has one (how far the card
 * filled it, the node took and released it), read in place with nothing copied. Not a card: it opens nothing and
 * changes nothing. One thread.
 */
public final class SimProbe implements AutoCloseable
{
    /** Cards a network can hold (node ids 0 ..). */
    public static final int CARD_COUNT = ControlBlockDescriptor.CARD_COUNT;

    private final NetworkImage image;
    private final DmaRing[] rings = new DmaRing[CARD_COUNT];

    private SimProbe(final NetworkImage image)
    {
        this.image = image;
    }

    /**
     * @param network an existing network's name.
     * @return a probe of it; close it to unmap.
     */
    public static SimProbe attach(final String network)
    {
        return new SimProbe(NetworkImage.attach(SimNetwork.dir(network), network));
    }

    /**
     * @param node 0 .. {@link #CARD_COUNT} - 1.
     * @return the pid of the process that holds the card, 0 if none.
     */
    public long ownerPid(final int node)
    {
        return image.card(node).ownerPid();
    }

    /**
     * @param node 0 .. {@link #CARD_COUNT} - 1.
     * @return whether the node is on the ring.
     */
    public boolean isPresent(final int node)
    {
        return image.isPresent(node);
    }

    /**
     * @param node 0 .. {@link #CARD_COUNT} - 1.
     * @param type the event type.
     * @return events of that type waiting in the card's FIFO.
     */
    public int queued(final int node, final EventType type)
    {
        return image.fifo(node, type).size();
    }

    /**
     * @param node    0 .. {@link #CARD_COUNT} - 1.
     * @param counter the card's counter.
     * @param type    its event type for a counter per type, else null.
     * @return its value.
     */
    public long counter(final int node, final RfmCounter counter, final EventType type)
    {
        return image.card(node).counter(counter.slot(type));
    }

    /**
     * Map the node's DMA ring if it has one and it is not mapped yet.
     *
     * @param node 0 .. {@link #CARD_COUNT} - 1.
     * @return whether the ring is mapped now.
     */
    public boolean attachRing(final int node)
    {
        if (rings[node] == null && Files.exists(DmaRing.file(image, node)))
        {
            rings[node] = DmaRing.attach(image, node);
        }
        return rings[node] != null;
    }

    /**
     * @param node a node whose ring {@link #attachRing} mapped.
     * @return descriptors the card has filled, since the ring was made.
     */
    public long ringFilled(final int node)
    {
        return rings[node].hardwareIndex();
    }

    /**
     * @param node a node whose ring {@link #attachRing} mapped.
     * @return completed descriptors the node has taken.
     */
    public long ringTaken(final int node)
    {
        return rings[node].completedIndex();
    }

    /**
     * @param node a node whose ring {@link #attachRing} mapped.
     * @return descriptors the node has released to the card again.
     */
    public long ringReleased(final int node)
    {
        return rings[node].freeIndex();
    }

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
        image.close();
    }
}
