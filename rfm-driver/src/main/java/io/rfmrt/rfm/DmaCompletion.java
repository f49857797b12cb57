package io.rfmrt.rfm;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A flyweight over one completed DMA descriptor and its host buffer, reused for every completion so taking one
 * allocates nothing. Valid until the descriptor is released.
 */
public final class DmaCompletion
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private ByteBuffer mapping;
    private ByteBuffer view;
    private int viewOffset;
    private long descriptorIndex = -1;
    private int slot;
    private long rfmOffset;
    private int length;
    private int destOffset;
    private int sourceNode;
    private int eventData;
    private long completionNanos;
    private int status;

    /**
     * Fill the flyweight; used by engines.
     *
     * @param descriptorIndex running index of the descriptor.
     * @param slot            host buffer number.
     * @param mapping         the engine's mapping that holds the host buffers.
     * @param bufferOffset    offset of the host buffer in the mapping.
     * @param slotSize        size of the host buffer.
     * @param rfmOffset       source offset in reflective memory.
     * @param length          bytes moved.
     * @param destOffset      offset of the data in the host buffer.
     * @param sourceNode      node whose card moved the data (this node in on-demand mode).
     * @param eventData       data word of the event that came with the transfer.
     * @param completionNanos {@link System#nanoTime()} when the copy finished.
     * @param status          0 = ok.
     */
    public void set(
        final long descriptorIndex,
        final int slot,
        final ByteBuffer mapping,
        final int bufferOffset,
        final int slotSize,
        final long rfmOffset,
        final int length,
        final int destOffset,
        final int sourceNode,
        final int eventData,
        final long completionNanos,
        final int status)
    {
        this.descriptorIndex = descriptorIndex;
        this.slot = slot;
        if (this.mapping != mapping)
        {
            // once per engine: a private view so that position/limit changes stay this thread's
            this.mapping = mapping;
            this.view = mapping.duplicate();
        }
        this.viewOffset = bufferOffset;
        this.buffer.wrap(mapping, bufferOffset, slotSize);
        this.rfmOffset = rfmOffset;
        this.length = length;
        this.destOffset = destOffset;
        this.sourceNode = sourceNode;
        this.eventData = eventData;
        this.completionNanos = completionNanos;
        this.status = status;
    }

    /**
     * @return running index of the descriptor.
     */
    public long descriptorIndex()
    {
        return descriptorIndex;
    }

    /**
     * @return the host buffer number.
     */
    public int slot()
    {
        return slot;
    }

    /**
     * @return the whole host buffer; the data starts at {@link #destOffset()}.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return a byte-buffer view of the engine's mapping, for checksums; the host buffer starts at
     * {@link #byteBufferOffset()}. Position and limit are the caller's to set.
     */
    public ByteBuffer byteBuffer()
    {
        return view;
    }

    /**
     * @return offset of the host buffer in {@link #byteBuffer()}.
     */
    public int byteBufferOffset()
    {
        return viewOffset;
    }

    /**
     * @return the source offset in reflective memory.
     */
    public long rfmOffset()
    {
        return rfmOffset;
    }

    /**
     * @return bytes moved.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return offset of the data in the host buffer.
     */
    public int destOffset()
    {
        return destOffset;
    }

    /**
     * @return node id whose card did the transfer.
     */
    public int sourceNode()
    {
        return sourceNode;
    }

    /**
     * @return the data word of the event that came with the transfer.
     */
    public int eventData()
    {
        return eventData;
    }

    /**
     * @return {@link System#nanoTime()} when the copy finished.
     */
    public long completionNanos()
    {
        return completionNanos;
    }

    /**
     * @return 0 when the transfer succeeded.
     */
    public int status()
    {
        return status;
    }
}
