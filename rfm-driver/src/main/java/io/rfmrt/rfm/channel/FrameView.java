package io.rfmrt.rfm.channel;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import static io.rfmrt.rfm.channel.FrameHeaderDescriptor.*;
import static io.rfmrt.rfm.RfmWindow.BYTE_ORDER;

/**
 * A flyweight over one validated frame in host memory (a DMA buffer or the receiver's copy). Valid until the next
 * receive on the same receiver, or until its DMA descriptor is released.
 */
public final class FrameView
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private int base;

    /**
     * Point the view at a frame; used by the receiver.
     *
     * @param source buffer holding the frame.
     * @param offset offset of its header.
     * @return this.
     */
    public FrameView wrap(final DirectBuffer source, final int offset)
    {
        if (source.byteArray() == null)
        {
            // off-heap (a mapped window, a DMA ring): by address, which compares nothing with what the view held
            // before. Wrapping the buffer itself asks whether it is the one held already, and the answer changes
            // when the same code first serves another device's buffer: the warm-up's compiled code, profiled on
            // the warm-up's buffer only, would then be thrown away at the run's first frame
            buffer.wrap(source.addressOffset(), source.capacity());
        }
        else
        {
            buffer.wrap(source);
        }
        base = offset;
        return this;
    }

    /**
     * @return the frame number.
     */
    public long seq()
    {
        return buffer.getLong(base + SEQ_OFFSET, BYTE_ORDER);
    }

    /**
     * @return payload bytes.
     */
    public int length()
    {
        return buffer.getInt(base + LENGTH_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the CRC32C of the payload as sent.
     */
    public int crc32c()
    {
        return buffer.getInt(base + CRC_OFFSET, BYTE_ORDER);
    }

    /**
     * @return publisher node id.
     */
    public int source()
    {
        return buffer.getShort(base + SOURCE_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @return application flags.
     */
    public int flags()
    {
        return buffer.getShort(base + FLAGS_OFFSET, BYTE_ORDER) & 0xFFFF;
    }

    /**
     * @return the publisher's {@link System#nanoTime()} at publish.
     */
    public long sendNanos()
    {
        return buffer.getLong(base + SEND_NANOS_OFFSET, BYTE_ORDER);
    }

    /**
     * @return the buffer that holds the payload at {@link #payloadOffset()}.
     */
    public DirectBuffer buffer()
    {
        return buffer;
    }

    /**
     * @return offset of the payload in {@link #buffer()}.
     */
    public int payloadOffset()
    {
        return base + HEADER_SIZE;
    }
}
