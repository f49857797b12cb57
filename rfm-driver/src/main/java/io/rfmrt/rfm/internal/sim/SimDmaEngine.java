package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmStatus;

/**
 * The emulated card's DMA engine over the node's own {@link DmaRing}. In on-demand mode {@link #submit} performs the
 * copy at once, as a card does a read above its DMA threshold; in auto mode senders' cards fill the ring.
 */
final class SimDmaEngine implements DmaEngine
{
    private final NetworkImage network;
    private final DmaRing ring;
    private final int node;

    SimDmaEngine(final NetworkImage network, final DmaRing ring, final int node)
    {
        this.network = network;
        this.ring = ring;
        this.node = node;
    }

    DmaRing ring()
    {
        return ring;
    }

    @Override
    public DmaMode mode()
    {
        return ring.mode();
    }

    @Override
    public DmaRingFullPolicy policy()
    {
        return ring.policy();
    }

    @Override
    public int slotCount()
    {
        return ring.slotCount();
    }

    @Override
    public int slotSize()
    {
        return ring.slotSize();
    }

    @Override
    public RfmStatus submit(final long rfmOffset, final int length, final int destOffset)
    {
        ring.checkRules(rfmOffset, length, destOffset, network.memorySize());
        return ring.fill(network.memory(), rfmOffset, length, destOffset, node, 0);
    }

    @Override
    public boolean takeCompleted(final DmaCompletion into)
    {
        return ring.takeCompleted(into);
    }

    @Override
    public void release(final DmaCompletion done)
    {
        ring.release(done);
    }

    @Override
    public long hardwareIndex()
    {
        return ring.hardwareIndex();
    }

    @Override
    public long completedIndex()
    {
        return ring.completedIndex();
    }

    @Override
    public long freeIndex()
    {
        return ring.freeIndex();
    }
}
