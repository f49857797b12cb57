package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.align;

/**
 * Layout of an emulated network's control block, the file {@code control} in the network folder. All values are
 * native (little-endian) order; every field that other processes write concurrently sits on its own cache line.
 * <pre>
 * Header, 4096 bytes
 *   0 +---------------------------------------------------------------+
 *     | magic (int64) "RFMRTSIM", written last by the creator          |
 *   8 | layout version (int32)      | card count (int32) = 256         |
 *  16 | memory size (int64)                                           |
 *  24 | card size (int32)           | FIFO capacity (int32) = 127      |
 *  32 | created, epoch ms (int64)                                     |
 *  64 +---------------------------------------------------------------+
 *     | link state (int32) 1 = up   | link generation (int32)          |
 * 128 +---------------------------------------------------------------+
 *     | present bitmap: 4 x int64, bit n = node n holds its card       |
 * 192 +---------------------------------------------------------------+
 *     | network resets (int64)      | link downs (int64)               |
 *     +---------------------------------------------------------------+
 * Cards, from 4096: card n at 4096 + n * CARD_SIZE
 *   0 | owner pid (int64, 0 = free) | owner start, epoch ms (int64)    |
 *  16 | flags (int32)               | enabled event mask (int32)       |
 *  24 | board id (int32)            | claim generation (int32)         |
 *  64 | counters: 128 x int64, slot = {@link RfmCounter#slot}          |
 *1088 | pad                                                            |
 *2048 | event FIFOs by type id: FIFO t at 2048 + t * FIFO_SIZE, for    |
 *     | t = 0 .. 15 ({@link EventType#ID_LIMIT}); unused ids are unused |
 * Event FIFO, FIFO_SIZE bytes
 *   0 | head (int64): next entry the owner takes                        |
 *  64 | tail (int64): next entry a sender claims (CAS)                  |
 * 128 | line (int32): the interrupt line, a futex word | waiters (int32)|
 * 256 | 128 entries x 32 bytes:                                        |
 *     |   sequence (int64) | arrival nanos (int64) | data (int32) | source node (int32) | pad |
 * </pre>
 * The FIFO is a bounded multi-producer queue (a sequence per entry says whose turn it is) that holds at most
 * {@link EventType#FIFO_CAPACITY} entries, like the card's.
 */
public final class ControlBlockDescriptor
{
    /** File name of the memory image in the network folder. */
    public static final String MEMORY_FILE = "memory";
    /** File name of the lock that creators of the network take, in the network folder. */
    public static final String CREATE_LOCK_FILE = ".create.lock";
    /** File name of the control block in the network folder. */
    public static final String CONTROL_FILE = "control";
    /** "RFMRTSIM" as a little-endian int64. */
    public static final long MAGIC = 0x4d49535452_4d4652L;
    /**
     * Bumped whenever any offset in this file changes. Version 1 placed counter slots and FIFOs by event type
     * declaration order; version 2 places them by {@link EventType#id()} with room for {@link EventType#ID_LIMIT}
     * types.
     */
    public static final int LAYOUT_VERSION = 2;
    /** The layout before explicit event type ids, named when an attacher refuses it. */
    public static final int LAYOUT_VERSION_BY_POSITION = 1;
    /** Node ids 0..255. */
    public static final int CARD_COUNT = 256;
    /** Cache line size used for padding. */
    public static final int CACHE_LINE = 64;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_LONG;
    public static final int CARD_COUNT_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int MEMORY_SIZE_OFFSET = CARD_COUNT_OFFSET + SIZE_OF_INT;
    public static final int CARD_SIZE_OFFSET = MEMORY_SIZE_OFFSET + SIZE_OF_LONG;
    public static final int FIFO_CAPACITY_OFFSET = CARD_SIZE_OFFSET + SIZE_OF_INT;
    public static final int CREATED_OFFSET = FIFO_CAPACITY_OFFSET + SIZE_OF_INT;
    public static final int LINK_STATE_OFFSET = 64;
    public static final int LINK_GENERATION_OFFSET = LINK_STATE_OFFSET + SIZE_OF_INT;
    public static final int PRESENT_OFFSET = 128;
    public static final int NETWORK_RESETS_OFFSET = 192;
    public static final int LINK_DOWNS_OFFSET = NETWORK_RESETS_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_SIZE = 4096;

    public static final int CARD_OWNER_PID_OFFSET = 0;
    public static final int CARD_OWNER_START_OFFSET = CARD_OWNER_PID_OFFSET + SIZE_OF_LONG;
    public static final int CARD_FLAGS_OFFSET = CARD_OWNER_START_OFFSET + SIZE_OF_LONG;
    public static final int CARD_ENABLED_MASK_OFFSET = CARD_FLAGS_OFFSET + SIZE_OF_INT;
    public static final int CARD_BOARD_ID_OFFSET = CARD_ENABLED_MASK_OFFSET + SIZE_OF_INT;
    public static final int CARD_CLAIM_GENERATION_OFFSET = CARD_BOARD_ID_OFFSET + SIZE_OF_INT;
    public static final int CARD_COUNTERS_OFFSET = 64;
    public static final int CARD_FIFOS_OFFSET = 2048;

    /** Card flag: receive own sends. */
    public static final int FLAG_LOOPBACK = 1;
    /** Card flag: transmitter disabled (0 = enabled, the power-on state). */
    public static final int FLAG_TRANSMIT_OFF = 2;
    /** Card flag: LED on. */
    public static final int FLAG_LED = 4;
    /** Card flag: DMA engine in auto mode. */
    public static final int FLAG_DMA_AUTO = 8;
    /**
     * Card flag: a stand-in the host's bridge holds for a node of another host (the owner pid is the bridge's):
     * sends to it go into the outbound log, nothing is delivered here.
     */
    public static final int FLAG_REMOTE = 16;
    /** Card flag: the holder appends its writes and its events for other hosts to the host's outbound log. */
    public static final int FLAG_BRIDGED = 32;

    public static final int FIFO_HEAD_OFFSET = 0;
    public static final int FIFO_TAIL_OFFSET = CACHE_LINE;
    public static final int FIFO_LINE_OFFSET = 2 * CACHE_LINE;
    public static final int FIFO_WAITERS_OFFSET = FIFO_LINE_OFFSET + SIZE_OF_INT;
    public static final int FIFO_ENTRIES_OFFSET = 4 * CACHE_LINE;
    /** Entries in the FIFO array, a power of two above the capacity. */
    public static final int FIFO_SLOTS = 128;
    public static final int FIFO_SLOT_MASK = FIFO_SLOTS - 1;
    public static final int ENTRY_SEQUENCE_OFFSET = 0;
    public static final int ENTRY_ARRIVAL_OFFSET = ENTRY_SEQUENCE_OFFSET + SIZE_OF_LONG;
    public static final int ENTRY_DATA_OFFSET = ENTRY_ARRIVAL_OFFSET + SIZE_OF_LONG;
    public static final int ENTRY_SOURCE_OFFSET = ENTRY_DATA_OFFSET + SIZE_OF_INT;
    public static final int ENTRY_SIZE = 32;
    public static final int FIFO_SIZE = FIFO_ENTRIES_OFFSET + FIFO_SLOTS * ENTRY_SIZE;

    public static final int CARD_SIZE = align(CARD_FIFOS_OFFSET + EventType.ID_LIMIT * FIFO_SIZE, 4096);
    public static final int FILE_SIZE = HEADER_SIZE + CARD_COUNT * CARD_SIZE;

    static
    {
        if (CARD_COUNTERS_OFFSET + RfmCounter.SLOT_COUNT * SIZE_OF_LONG > CARD_FIFOS_OFFSET)
        {
            throw new AssertionError("counters overlap the FIFOs");
        }
        for (final RfmCounter counter : RfmCounter.values())
        {
            final int last = counter.id() + (counter.perType() ? EventType.ID_LIMIT - 1 : 0);
            if (last >= RfmCounter.SLOT_COUNT)
            {
                throw new AssertionError("counter " + counter + " outside the counter block");
            }
        }
    }

    private ControlBlockDescriptor()
    {
    }

    /**
     * @param node node id.
     * @return offset of the node's card.
     */
    public static int cardOffset(final int node)
    {
        return HEADER_SIZE + node * CARD_SIZE;
    }

    /**
     * @param node node id.
     * @param slot counter slot.
     * @return offset of the counter.
     */
    public static int counterOffset(final int node, final int slot)
    {
        return cardOffset(node) + CARD_COUNTERS_OFFSET + slot * SIZE_OF_LONG;
    }

    /**
     * @param node node id.
     * @param type event type.
     * @return offset of the type's FIFO on the node's card.
     */
    public static int fifoOffset(final int node, final EventType type)
    {
        return fifoOffset(node, type.id());
    }

    /**
     * @param node   node id.
     * @param typeId event type id, below {@link EventType#ID_LIMIT}.
     * @return offset of the FIFO of that type id on the node's card.
     */
    public static int fifoOffset(final int node, final int typeId)
    {
        return cardOffset(node) + CARD_FIFOS_OFFSET + typeId * FIFO_SIZE;
    }

    /**
     * @param fifoOffset offset of a FIFO.
     * @param index      running index.
     * @return offset of the entry that index lands on.
     */
    public static int entryOffset(final int fifoOffset, final long index)
    {
        return fifoOffset + FIFO_ENTRIES_OFFSET + (int)(index & FIFO_SLOT_MASK) * ENTRY_SIZE;
    }
}
