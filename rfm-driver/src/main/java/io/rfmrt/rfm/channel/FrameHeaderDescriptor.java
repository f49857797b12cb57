package io.rfmrt.rfm.channel;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.SIZE_OF_SHORT;

/**
 * Layout of one channel slot in reflective memory: a 32-byte header and the payload. Little-endian.
 * <pre>
 *   0 +-----------------------------------------------------------------+
 *     | seq (int64): frame number, 1, 2, 3 ... ; -seq while being written |
 *   8 | length (int32): payload bytes   | crc32c (int32) of the payload   |
 *  16 | source (int16) | flags (int16)  | incarnation (int32)             |
 *  24 | sendNanos (int64): publisher's System.nanoTime() at publish      |
 *  32 +-----------------------------------------------------------------+
 *     | payload, length bytes, padded to 8 for DMA                       |
 *     +-----------------------------------------------------------------+
 * </pre>
 * Publish: store {@code -seq} (then a store-store fence), write payload and header fields, then release-store
 * {@code seq} last, then send the event with {@code (int) seq} as data. Read: load seq (acquire), copy, load seq
 * again: a change, or a negative value, means the publisher lapped the reader (torn).
 * <p>
 * {@code incarnation} (offset 20, 4 bytes, the field that was reserved) tells apart the starts of a publisher, as
 * Aeron's session id does: each {@code FramePublisher} picks a fresh non-zero value when it is made and writes it into
 * every frame. A receiver that sees a source's incarnation change forgets that source's sequence numbers (its new
 * numbers start again at 1), counts a publisher restart and takes the frame as the first of the new incarnation.
 * 0 means "not known" (a writer that does not fill the field) and never counts as a change. The old incarnation's frames
 * stay in the slots after it is gone; a reader that finds frames by number in the slots tells them from the current
 * one's by this field, and finds the newest incarnation in the slot of seq 1, which every start writes first
 * ({@link FrameReceiver#nextToRead()}, docs/protocol.md "Finding frames by number").
 */
public final class FrameHeaderDescriptor
{
    public static final int SEQ_OFFSET = 0;
    public static final int LENGTH_OFFSET = SEQ_OFFSET + SIZE_OF_LONG;
    public static final int CRC_OFFSET = LENGTH_OFFSET + SIZE_OF_INT;
    public static final int SOURCE_OFFSET = CRC_OFFSET + SIZE_OF_INT;
    public static final int FLAGS_OFFSET = SOURCE_OFFSET + SIZE_OF_SHORT;
    /** The publisher's incarnation: a fresh non-zero int32 per publisher start. */
    public static final int INCARNATION_OFFSET = FLAGS_OFFSET + SIZE_OF_SHORT;
    public static final int SEND_NANOS_OFFSET = INCARNATION_OFFSET + SIZE_OF_INT;
    /** Header bytes; the payload starts here. */
    public static final int HEADER_SIZE = SEND_NANOS_OFFSET + SIZE_OF_LONG;
    /** Slot sizes are a multiple of this. */
    public static final int SLOT_ALIGNMENT = 64;

    private FrameHeaderDescriptor()
    {
    }

    /**
     * @param payloadLength payload bytes.
     * @return bytes a DMA transfer of the frame moves: header plus payload, padded to 8.
     */
    public static int transferLength(final int payloadLength)
    {
        return (HEADER_SIZE + payloadLength + 7) & ~7;
    }
}
