package io.rfmrt.rfm.internal.rfm2g;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The RFM2g card's DMA as a {@link DmaEngine}: on-demand only. {@link #submit} is one {@code RFM2gRead} of the
 * frame into the next free host buffer; the driver moves it by DMA when the length reaches the threshold and the
 * buffers lie in the boot-reserved DMA buffer, by PIO otherwise. The card cannot copy into a host buffer on
 * arrival, so {@link DmaMode#AUTO} is not offered ({@link #supports}).
 * <p>
 * The ring's indexes are this process's own ({@code hardware} and {@code completed} advanced by the ISR side,
 * {@code free} by the consumer), published with release stores as the emulated ring's.
 */
final class Rfm2gDmaEngine implements DmaEngine
{
    private final long handle;
    private final ByteBuffer mapping;
    private final long baseAddress;
    private final int slotCount;
    private final int slotSize;
    private final long memorySize;
    private final int node;
    private final AtomicLongArray counters;
    private final long[] rfmOffsets;
    private final int[] lengths;
    private final int[] destOffsets;
    private final long[] completionNanos;
    private final AtomicLong hardware = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong free = new AtomicLong();

    /**
     * @param handle      the open card.
     * @param mapping     a direct buffer over the host buffers (slotCount × slotSize bytes).
     * @param baseAddress address of the mapping.
     * @param slotCount   host buffers, a power of two.
     * @param slotSize    bytes per host buffer, a multiple of 64.
     * @param memorySize  bytes of reflective memory.
     * @param node        this card's node id.
     * @param counters    the card's counters, indexed by counter slot.
     */
    Rfm2gDmaEngine(final long handle, final ByteBuffer mapping, final long baseAddress, final int slotCount,
        final int slotSize, final long memorySize, final int node, final AtomicLongArray counters)
    {
        this.handle = handle;
        this.mapping = mapping;
        this.baseAddress = baseAddress;
        this.slotCount = slotCount;
        this.slotSize = slotSize;
        this.memorySize = memorySize;
        this.node = node;
        this.counters = counters;
        this.rfmOffsets = new long[slotCount];
        this.lengths = new int[slotCount];
        this.destOffsets = new int[slotCount];
        this.completionNanos = new long[slotCount];
    }

    @Override
    public DmaMode mode()
    {
        return DmaMode.ON_DEMAND;
    }

    @Override
    public boolean supports(final DmaMode mode)
    {
        return mode == DmaMode.ON_DEMAND;
    }

    @Override
    public DmaRingFullPolicy policy()
    {
        return DmaRingFullPolicy.DROP_NEWEST;
    }

    @Override
    public int slotCount()
    {
        return slotCount;
    }

    @Override
    public int slotSize()
    {
        return slotSize;
    }

    @Override
    public RfmStatus submit(final long rfmOffset, final int length, final int destOffset)
    {
        if ((rfmOffset & (RFM_OFFSET_ALIGNMENT - 1)) != 0 || (destOffset & (DESTINATION_ALIGNMENT - 1)) != 0 ||
            length <= 0 || length % LENGTH_MULTIPLE != 0 || destOffset < 0 || destOffset > slotSize - length ||
            rfmOffset < 0 || rfmOffset > memorySize - length)
        {
            counters.incrementAndGet(RfmCounter.DMA_REJECTED.id());
            throw new RfmException(rfmOffset % RFM_OFFSET_ALIGNMENT != 0 || destOffset % DESTINATION_ALIGNMENT != 0 ?
                RfmStatus.UNALIGNED_OFFSET : RfmStatus.OUT_OF_RANGE, String.format(
                "DMA read of %d bytes at RFM offset 0x%x into slot offset %d breaks the card's rules (RFM offset " +
                "8-byte aligned, destination 16-byte aligned, length a multiple of 8, inside the memory and the " +
                "%d-byte slot)", length, rfmOffset, destOffset, slotSize));
        }
        final long index = hardware.get();
        if (index - free.get() >= slotCount)
        {
            counters.incrementAndGet(RfmCounter.DMA_DROPPED.id());
            return RfmStatus.DMA_FAILED;
        }
        final int slot = (int)(index & (slotCount - 1));
        final int code = Rfm2gLibrary.RFM2gRead(handle, (int)rfmOffset,
            baseAddress + (long)slot * slotSize + destOffset, length);
        if (code != Rfm2gCodes.SUCCESS)
        {
            counters.incrementAndGet(RfmCounter.DMA_REJECTED.id());
            return RfmStatus.DMA_FAILED;
        }
        rfmOffsets[slot] = rfmOffset;
        lengths[slot] = length;
        destOffsets[slot] = destOffset;
        completionNanos[slot] = System.nanoTime();
        counters.incrementAndGet(RfmCounter.DMA_COMPLETED.id());
        hardware.lazySet(index + 1);
        return RfmStatus.SUCCESS;
    }

    @Override
    public boolean takeCompleted(final DmaCompletion into)
    {
        final long index = completed.get();
        if (index == hardware.get())
        {
            return false;
        }
        final int slot = (int)(index & (slotCount - 1));
        into.set(index, slot, mapping, slot * slotSize, slotSize, rfmOffsets[slot], lengths[slot], destOffsets[slot],
            node, 0, completionNanos[slot], 0);
        completed.lazySet(index + 1);
        return true;
    }

    @Override
    public void release(final DmaCompletion done)
    {
        final long index = free.get();
        if (done.descriptorIndex() != index || index >= completed.get())
        {
            throw new IllegalStateException("DMA descriptor " + done.descriptorIndex() +
                " released out of order (next to release: " + index + ")");
        }
        free.lazySet(index + 1);
    }

    @Override
    public long hardwareIndex()
    {
        return hardware.get();
    }

    @Override
    public long completedIndex()
    {
        return completed.get();
    }

    @Override
    public long freeIndex()
    {
        return free.get();
    }
}
