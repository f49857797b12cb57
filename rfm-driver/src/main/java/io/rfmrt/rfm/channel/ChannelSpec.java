package io.rfmrt.rfm.channel;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;

/**
 * One transmit channel of a layout: a ring of slots in reflective memory that one node publishes into.
 *
 * @param name     unique name.
 * @param node     node id of the publisher.
 * @param offset   offset of slot 0, 64-byte aligned.
 * @param slots    slot count, a power of two ≥ 2.
 * @param slotSize bytes per slot (header + payload), a multiple of 64.
 * @param event    event type that announces a frame.
 * @param target   node id the event goes to, or {@link RfmDevice#ALL_NODES}.
 */
public record ChannelSpec(String name, int node, long offset, int slots, int slotSize, EventType event, int target)
{
    /**
     * @return bytes the channel occupies.
     */
    public long length()
    {
        return (long)slots * slotSize;
    }

    /**
     * @return the largest payload a slot holds.
     */
    public int maxPayload()
    {
        return slotSize - FrameHeaderDescriptor.HEADER_SIZE;
    }

    /**
     * @param seq a frame number.
     * @return offset of the slot that frame lands in.
     */
    public long slotOffset(final long seq)
    {
        return offset + (seq & (slots - 1)) * (long)slotSize;
    }
}
