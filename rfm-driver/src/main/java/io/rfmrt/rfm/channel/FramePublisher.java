package io.rfmrt.rfm.channel;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.security.SecureRandom;
import java.util.zip.CRC32C;

import static io.rfmrt.rfm.channel.FrameHeaderDescriptor.*;

/**
 * Publishes frames into one channel: payload and header first, the sequence number last with a release store, then
 * the event that announces it. Sequence numbers are 64-bit and start at 1.
 * <p>
 * Single-threaded: one publisher per channel, on the channel's node. Allocation-free after construction.
 */
public final class FramePublisher
{
    private final RfmDevice device;
    private final RfmWindow window;
    private final ChannelSpec channel;
    private final NanoClock clock;
    private final byte[] crcScratch;
    private final CRC32C crc = new CRC32C();
    private final int incarnation = freshIncarnation();
    private long seq;
    private long lastSendNanos;

    /**
     * @param device  the publishing node's device; its node id must be the channel's.
     * @param channel the channel.
     */
    public FramePublisher(final RfmDevice device, final ChannelSpec channel)
    {
        this(device, channel, SystemNanoClock.INSTANCE);
    }

    /**
     * @param device  the publishing node's device; its node id must be the channel's.
     * @param channel the channel.
     * @param clock   source of {@code sendNanos}.
     */
    public FramePublisher(final RfmDevice device, final ChannelSpec channel, final NanoClock clock)
    {
        if (device.nodeId() != channel.node())
        {
            throw new IllegalArgumentException("channel '" + channel.name() + "' is published by node " +
                channel.node() + ", not by node " + device.nodeId());
        }
        if (channel.offset() + channel.length() > device.memorySize())
        {
            throw new IllegalArgumentException("channel '" + channel.name() + "' ends beyond the device memory of " +
                device.memorySize() + " bytes");
        }
        this.device = device;
        this.window = device.window();
        this.channel = channel;
        this.clock = clock;
        this.crcScratch = new byte[channel.maxPayload()];
    }

    /**
     * @return the channel.
     */
    public ChannelSpec channel()
    {
        return channel;
    }

    /**
     * @return this publisher's incarnation, written into every frame (fresh and non-zero for each publisher).
     */
    public int incarnation()
    {
        return incarnation;
    }

    private static int freshIncarnation()
    {
        int value;
        do
        {
            value = new SecureRandom().nextInt();
        }
        while (value == 0);
        return value;
    }

    /**
     * @return the number of the last frame published, 0 before the first.
     */
    public long lastSeq()
    {
        return seq;
    }

    /**
     * @return the {@code sendNanos} written into the last frame published (its header's stamp: the frame is in
     * memory from then on, before its event is sent), 0 before the first.
     */
    public long lastSendNanos()
    {
        return lastSendNanos;
    }

    /**
     * Continue numbering after {@code seq}, e.g. after a restart; the next frame gets {@code seq + 1}.
     *
     * @param seq the last number used.
     */
    public void resumeAfter(final long seq)
    {
        this.seq = seq;
    }

    /**
     * Publish one frame and send its event.
     *
     * @param src    payload source.
     * @param index  payload offset in src.
     * @param length payload bytes, at most {@link ChannelSpec#maxPayload()}.
     * @param flags  application flags (16 bits).
     * @return the status of the event send; the frame is in memory either way.
     * @throws IllegalArgumentException if the payload does not fit a slot.
     */
    public RfmStatus publish(final DirectBuffer src, final int index, final int length, final int flags)
    {
        if (length < 0 || length > channel.maxPayload())
        {
            throw new IllegalArgumentException("payload of " + length + " bytes does not fit channel '" +
                channel.name() + "' (max " + channel.maxPayload() + ")");
        }
        final long sendNanos = clock.nanoTime();
        final long next = seq + 1;
        final long slot = channel.slotOffset(next);
        window.putLongThenStoreStoreFence(slot + SEQ_OFFSET, -next);
        window.putBytes(slot + HEADER_SIZE, src, index, length);
        // the checksum of the caller's bytes through a heap copy, not of the mapped slot: reflective memory cut short
        // under the node (a truncated file) then faults in a plain copy, which the JVM reports as an InternalError,
        // rather than inside the checksum's stub, which would crash the JVM
        src.getBytes(index, crcScratch, 0, length);
        crc.reset();
        crc.update(crcScratch, 0, length);
        window.putInt(slot + LENGTH_OFFSET, length);
        window.putInt(slot + CRC_OFFSET, (int)crc.getValue());
        window.putShort(slot + SOURCE_OFFSET, (short)channel.node());
        window.putShort(slot + FLAGS_OFFSET, (short)flags);
        window.putInt(slot + INCARNATION_OFFSET, incarnation);
        window.putLong(slot + SEND_NANOS_OFFSET, sendNanos);
        window.putLongRelease(slot + SEQ_OFFSET, next);
        seq = next;
        lastSendNanos = sendNanos;
        return device.sendEvent(channel.target(), channel.event(), (int)next, slot, transferLength(length));
    }
}
