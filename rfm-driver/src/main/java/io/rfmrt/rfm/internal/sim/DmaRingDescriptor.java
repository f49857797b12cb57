package io.rfmrt.rfm.internal.sim;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.align;

/**
 * Layout of a node's DMA file, {@code dma-NNN} in the network folder: a descriptor ring and the host buffers it
 * points at. The holder of the node creates it; senders map it to fill it in auto mode.
 * <pre>
 * Header, 4096 bytes
 *   0 | magic (int64) "RFMRTDMA", written last                              |
 *   8 | layout version (int32)        | slot count (int32), power of two       |
 *  16 | slot size (int32)             | mode (int32) 0 auto, 1 on-demand       |
 *  24 | policy (int32) 0 drop, 1 back | node id (int32)                        |
 *  32 | backpressure time-out ns (int64)                                       |
 *  64 | hardware index (int64): descriptors filled, CAS by fillers             |
 * 128 | completed index (int64): descriptors taken by the ISR side             |
 * 192 | free index (int64): descriptors given back by the consumer             |
 * Descriptors, from 4096, 64 bytes each; descriptor i owns host buffer i
 *   0 | rfm offset (int64)            |                                        |
 *   8 | slot (int32)                  | length (int32)                         |
 *  16 | dest offset (int32)           | status (int32) 0 ok                    |
 *  24 | completion nanos (int64)                                               |
 *  32 | source node (int32)           | event data (int32)                     |
 *  40 | completion sequence (int64): index + 1 once filled, release-stored     |
 * Host buffers, from align(4096 + slots * 64, 4096): buffer i at BUFFERS + i * slot size (page aligned)
 * </pre>
 */
public final class DmaRingDescriptor
{
    /** "RFMRTDMA" as a little-endian int64. */
    public static final long MAGIC = 0x414d4454524d4652L;
    /** Bumped whenever any offset in this file changes. */
    public static final int LAYOUT_VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_LONG;
    public static final int SLOT_COUNT_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int SLOT_SIZE_OFFSET = SLOT_COUNT_OFFSET + SIZE_OF_INT;
    public static final int MODE_OFFSET = SLOT_SIZE_OFFSET + SIZE_OF_INT;
    public static final int POLICY_OFFSET = MODE_OFFSET + SIZE_OF_INT;
    public static final int NODE_OFFSET = POLICY_OFFSET + SIZE_OF_INT;
    public static final int BACKPRESSURE_TIMEOUT_OFFSET = NODE_OFFSET + SIZE_OF_INT;
    public static final int HARDWARE_INDEX_OFFSET = 64;
    public static final int COMPLETED_INDEX_OFFSET = 128;
    public static final int FREE_INDEX_OFFSET = 192;
    public static final int HEADER_SIZE = 4096;

    public static final int DESC_RFM_OFFSET_OFFSET = 0;
    public static final int DESC_SLOT_OFFSET = DESC_RFM_OFFSET_OFFSET + SIZE_OF_LONG;
    public static final int DESC_LENGTH_OFFSET = DESC_SLOT_OFFSET + SIZE_OF_INT;
    public static final int DESC_DEST_OFFSET_OFFSET = DESC_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int DESC_STATUS_OFFSET = DESC_DEST_OFFSET_OFFSET + SIZE_OF_INT;
    public static final int DESC_COMPLETION_NANOS_OFFSET = DESC_STATUS_OFFSET + SIZE_OF_INT;
    public static final int DESC_SOURCE_NODE_OFFSET = DESC_COMPLETION_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int DESC_EVENT_DATA_OFFSET = DESC_SOURCE_NODE_OFFSET + SIZE_OF_INT;
    public static final int DESC_COMPLETION_SEQUENCE_OFFSET = DESC_EVENT_DATA_OFFSET + SIZE_OF_INT;
    public static final int DESCRIPTOR_SIZE = 64;

    /** Page size the host buffers are aligned to. */
    public static final int PAGE_SIZE = 4096;

    private DmaRingDescriptor()
    {
    }

    /**
     * @param slotCount descriptors.
     * @return offset of the first host buffer.
     */
    public static int buffersOffset(final int slotCount)
    {
        return align(HEADER_SIZE + slotCount * DESCRIPTOR_SIZE, PAGE_SIZE);
    }

    /**
     * @param slotCount descriptors.
     * @param slotSize  bytes per host buffer.
     * @return size of the whole file.
     */
    public static long fileSize(final int slotCount, final int slotSize)
    {
        return align(buffersOffset(slotCount) + (long)slotCount * slotSize, PAGE_SIZE);
    }

    /**
     * @param slot descriptor number.
     * @return offset of the descriptor.
     */
    public static int descriptorOffset(final int slot)
    {
        return HEADER_SIZE + slot * DESCRIPTOR_SIZE;
    }
}
