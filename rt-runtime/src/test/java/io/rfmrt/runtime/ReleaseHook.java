package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;

/** The receiving card, with an action run right after each descriptor is given back. */
final class ReleaseHook implements DmaEngine
{
    private final DmaEngine dma;
    private final Runnable afterRelease;

    ReleaseHook(final RfmDevice device, final Runnable afterRelease)
    {
        this.dma = device.dma();
        this.afterRelease = afterRelease;
    }

    @Override
    public DmaMode mode()
    {
        return dma.mode();
    }

    @Override
    public DmaRingFullPolicy policy()
    {
        return dma.policy();
    }

    @Override
    public int slotCount()
    {
        return dma.slotCount();
    }

    @Override
    public int slotSize()
    {
        return dma.slotSize();
    }

    @Override
    public RfmStatus submit(final long rfmOffset, final int length, final int destOffset)
    {
        return dma.submit(rfmOffset, length, destOffset);
    }

    @Override
    public boolean takeCompleted(final DmaCompletion into)
    {
        return dma.takeCompleted(into);
    }

    @Override
    public void release(final DmaCompletion done)
    {
        dma.release(done);
        afterRelease.run();
    }

    @Override
    public long hardwareIndex()
    {
        return dma.hardwareIndex();
    }

    @Override
    public long completedIndex()
    {
        return dma.completedIndex();
    }

    @Override
    public long freeIndex()
    {
        return dma.freeIndex();
    }
}
