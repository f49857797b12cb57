package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.sim.HostBridge;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.charset.StandardCharsets;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.align;

/**
 * Layout of a host's bridge file, {@code bridge} in the network folder: what the node processes of the host share
 * with its bridge process. Little-endian; fields other processes write sit on their own cache line.
 * <pre>
 * Header, 4096 bytes
 *    0 | magic (int64) "RFMRTBRG", written last                                       |
 *    8 | layout version (int32) = 1      | host id (int32) 1..255                     |
 *   16 | memory size (int64) of the image the file serves                             |
 *   24 | log capacity (int32), power of 2 | word size (int32) = 8                     |
 *   32 | created, epoch ms (int64)                                                     |
 *   64 | bridge pid (int64), 0 = none; claimed by CAS                                  |
 *   72 | bridge start time (int64), clock ticks after boot (/proc stat)                |
 *   80 | bridge incarnation (int64), random, non-zero, new at every start              |
 *   88 | bridge started, epoch ms (int64)                                              |
 *   96 | stream epoch (int64): publications the bridges of this file started, ever      |
 *  128 | lease (int64): CLOCK_MONOTONIC ns until which the bridge is known to run      |
 *  192 | state (int32): BridgeState id    | configured peers (int32)                   |
 *  256 | overflow flag (int32): set by a writer whose write did not fit the log         |
 *  264 | doorbell (int32): a futex word writers bump | bridge sleepers (int32)          |
 *  320 | host name (64 bytes, UTF-8, NUL padded)                                       |
 *  384 | listen channel (128 bytes, ASCII, NUL padded)                                 |
 *  512 | counters: 64 x int64, slot = BridgeCounter id                                 |
 * 1024 | started empty (int32): 1 when this file was made, so the image's own former     |
 *      | words are asked of every peer (RESYNC_REQUEST flag) until each has answered     |
 * 1056 | former words answered: 4 x int64, bit (id &amp; 63) of long id &gt;&gt; 6 per host id      |
 * 4096 | peers: 16 x 256 bytes (below)                                                 |
 * 8192 | remote nodes: 256 x 32 bytes, entry n for node id n (below)                   |
 *16384 | records: next index (int64), then from 16448 128 x 64 bytes (below)           |
 *28672 | overflow bitmap: 1 bit per 8-byte word of memory (memory size / 64 bytes)      |
 *   O  | owner table: 1 byte per 8-byte word, the host id that wrote it last (0: none)  |
 *   L  | outbound log: an Agrona many-to-one ring buffer, capacity + trailer            |
 * O = align(28672 + memory size / 64, 4096), L = align(O + memory size / 8, 4096)
 *
 * Peer entry, 256 bytes                      Remote node entry, 32 bytes
 *   0 | host id (int32), 0 = empty              0 | host id (int32), 0 = not remote
 *   4 | state (int32): BridgeState id           4 | holder pid on that host (int32)
 *   8 | bridge pid (int64)                      8 | last heard, epoch ms (int64)
 *  16 | incarnation (int64)                    16 | held since, epoch ms (int64)
 *  24 | last heard, epoch ms (int64)
 *  32 | its state for us (int32)               Record, 64 bytes
 *  36 | session id (int32)                       0 | sequence (int64) = index + 1, last
 *  40 | messages received (int64)                8 | epoch ms (int64)
 *  48 | bytes received (int64)                  16 | kind (int32): BridgeRecordKind id
 *  56 | resyncs completed (int64)               20 | peer host id (int32), 0 = none
 *  64 | losses (int64)                          24 | value (int64)
 * 128 | endpoint (64 bytes, ASCII)              32 | value2 (int64)
 * 192 | host name (64 bytes, UTF-8)
 * </pre>
 * Log records (type id, body):
 * <pre>
 *   1 WRITE: 0 offset (int64) | 8 source node (int32) | 12 length (int32) | 16 the bytes written
 *   2 EVENT: 0 source node (int32) | 4 target (int32, 0xFFFF all) | 8 type id (int32) | 12 data (int32)
 *            16 DMA offset (int64, -1 none) | 24 DMA length (int32) | 28 pad | 32 send nanos (int64)
 * </pre>
 */
public final class BridgeFileDescriptor
{
    /** "RFMRTBRG" as a little-endian int64. */
    public static final long MAGIC = 0x4752425452_4d4652L;
    /** Bumped whenever any offset in this file changes. */
    public static final int LAYOUT_VERSION = 1;
    /** File name in the network folder. */
    public static final String FILE_NAME = HostBridge.FILE;
    /** The bridge's media driver folder in the network folder (removed when the bridge stops). */
    public static final String AERON_DIR = HostBridge.AERON_DIR;
    /** Resynchronisation unit and owner-table granularity: an aligned 8-byte word. */
    public static final int WORD_SIZE = 8;
    /** Peers a bridge can have. */
    public static final int MAX_PEERS = 16;
    /** Records kept in the ring. */
    public static final int RECORD_COUNT = 128;
    /** Host ids are 1..255 (the owner table holds one byte). */
    public static final int MAX_HOST_ID = 255;
    /** Default outbound log capacity, 8 MiB. */
    public static final int DEFAULT_LOG_CAPACITY = 8 << 20;
    /** Smallest outbound log capacity. */
    public static final int MIN_LOG_CAPACITY = 64 << 10;
    /** Largest outbound log capacity. */
    public static final int MAX_LOG_CAPACITY = 256 << 20;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = MAGIC_OFFSET + SIZE_OF_LONG;
    public static final int HOST_ID_OFFSET = VERSION_OFFSET + SIZE_OF_INT;
    public static final int MEMORY_SIZE_OFFSET = HOST_ID_OFFSET + SIZE_OF_INT;
    public static final int LOG_CAPACITY_OFFSET = MEMORY_SIZE_OFFSET + SIZE_OF_LONG;
    public static final int WORD_SIZE_OFFSET = LOG_CAPACITY_OFFSET + SIZE_OF_INT;
    public static final int CREATED_OFFSET = WORD_SIZE_OFFSET + SIZE_OF_INT;
    public static final int BRIDGE_PID_OFFSET = 64;
    public static final int BRIDGE_START_OFFSET = BRIDGE_PID_OFFSET + SIZE_OF_LONG;
    public static final int BRIDGE_INCARNATION_OFFSET = BRIDGE_START_OFFSET + SIZE_OF_LONG;
    public static final int BRIDGE_STARTED_MS_OFFSET = BRIDGE_INCARNATION_OFFSET + SIZE_OF_LONG;
    public static final int STREAM_EPOCH_OFFSET = BRIDGE_STARTED_MS_OFFSET + SIZE_OF_LONG;
    public static final int LEASE_OFFSET = 128;
    public static final int STATE_OFFSET = 192;
    public static final int PEER_COUNT_OFFSET = STATE_OFFSET + SIZE_OF_INT;
    public static final int OVERFLOW_FLAG_OFFSET = 256;
    public static final int DOORBELL_OFFSET = 264;
    public static final int DOORBELL_WAITERS_OFFSET = DOORBELL_OFFSET + SIZE_OF_INT;
    public static final int HOST_NAME_OFFSET = 320;
    public static final int NAME_LENGTH = 64;
    public static final int CHANNEL_OFFSET = 384;
    public static final int CHANNEL_LENGTH = 128;
    public static final int COUNTERS_OFFSET = 512;
    public static final int STARTED_EMPTY_OFFSET = COUNTERS_OFFSET + 64 * SIZE_OF_LONG;
    public static final int FORMER_ANSWERED_OFFSET = STARTED_EMPTY_OFFSET + 32;
    public static final int HEADER_SIZE = 4096;

    public static final int PEERS_OFFSET = HEADER_SIZE;
    public static final int PEER_SIZE = 256;
    public static final int PEER_HOST_ID_OFFSET = 0;
    public static final int PEER_STATE_OFFSET = 4;
    public static final int PEER_PID_OFFSET = 8;
    public static final int PEER_INCARNATION_OFFSET = 16;
    public static final int PEER_LAST_HEARD_OFFSET = 24;
    public static final int PEER_VIEW_OF_US_OFFSET = 32;
    public static final int PEER_SESSION_OFFSET = 36;
    public static final int PEER_MESSAGES_OFFSET = 40;
    public static final int PEER_BYTES_OFFSET = 48;
    public static final int PEER_RESYNCS_OFFSET = 56;
    public static final int PEER_LOSSES_OFFSET = 64;
    public static final int PEER_ENDPOINT_OFFSET = 128;
    public static final int PEER_NAME_OFFSET = 192;

    public static final int NODES_OFFSET = PEERS_OFFSET + MAX_PEERS * PEER_SIZE;
    public static final int NODE_ENTRY_SIZE = 32;
    public static final int NODE_HOST_ID_OFFSET = 0;
    public static final int NODE_PID_OFFSET = 4;
    public static final int NODE_LAST_HEARD_OFFSET = 8;
    public static final int NODE_SINCE_OFFSET = 16;

    public static final int RECORDS_OFFSET = NODES_OFFSET + 256 * NODE_ENTRY_SIZE;
    public static final int RECORD_NEXT_OFFSET = RECORDS_OFFSET;
    public static final int RECORD_ENTRIES_OFFSET = RECORDS_OFFSET + 64;
    public static final int RECORD_SIZE = 64;
    public static final int RECORD_SEQUENCE_OFFSET = 0;
    public static final int RECORD_MILLIS_OFFSET = 8;
    public static final int RECORD_KIND_OFFSET = 16;
    public static final int RECORD_PEER_OFFSET = 20;
    public static final int RECORD_VALUE_OFFSET = 24;
    public static final int RECORD_VALUE2_OFFSET = 32;

    public static final int BITMAP_OFFSET = align(RECORD_ENTRIES_OFFSET + RECORD_COUNT * RECORD_SIZE, 4096);

    /** Log record type: a write of the host's memory. */
    public static final int LOG_WRITE = 1;
    /** Log record type: an event for another host's node(s). */
    public static final int LOG_EVENT = 2;
    public static final int WRITE_OFFSET_OFFSET = 0;
    public static final int WRITE_SOURCE_OFFSET = 8;
    public static final int WRITE_LENGTH_OFFSET = 12;
    public static final int WRITE_DATA_OFFSET = 16;
    /** Bytes of memory one write record carries at most; longer writes are split. */
    public static final int WRITE_CHUNK = 4096;
    public static final int EVENT_SOURCE_OFFSET = 0;
    public static final int EVENT_TARGET_OFFSET = 4;
    public static final int EVENT_TYPE_OFFSET = 8;
    public static final int EVENT_DATA_OFFSET = 12;
    public static final int EVENT_DMA_OFFSET_OFFSET = 16;
    public static final int EVENT_DMA_LENGTH_OFFSET = 24;
    public static final int EVENT_SEND_NANOS_OFFSET = 32;
    public static final int EVENT_LENGTH = 40;

    static
    {
        if (COUNTERS_OFFSET + BridgeCounter.SLOT_COUNT * SIZE_OF_LONG > HEADER_SIZE)
        {
            throw new AssertionError("bridge counters leave the header");
        }
        if (BITMAP_OFFSET != 28672)
        {
            throw new AssertionError("bridge file sections moved: " + BITMAP_OFFSET);
        }
    }

    private BridgeFileDescriptor()
    {
    }

    /**
     * @param memorySize bytes of memory.
     * @return offset of the owner table.
     */
    public static int ownerTableOffset(final long memorySize)
    {
        return (int)align(BITMAP_OFFSET + memorySize / (WORD_SIZE * 8), 4096);
    }

    /**
     * @param memorySize bytes of memory.
     * @return offset of the outbound log.
     */
    public static int logOffset(final long memorySize)
    {
        return (int)align(ownerTableOffset(memorySize) + memorySize / WORD_SIZE, 4096);
    }

    /**
     * @param memorySize  bytes of memory.
     * @param logCapacity log capacity, a power of two.
     * @return bytes of the whole file.
     */
    public static long fileSize(final long memorySize, final int logCapacity)
    {
        return align(logOffset(memorySize) + (long)logCapacity + RingBufferDescriptor.TRAILER_LENGTH, 4096);
    }

    /**
     * @param index peer entry 0..15.
     * @return its offset.
     */
    public static int peerOffset(final int index)
    {
        return PEERS_OFFSET + index * PEER_SIZE;
    }

    /**
     * @param node node id.
     * @return offset of its remote node entry.
     */
    public static int nodeOffset(final int node)
    {
        return NODES_OFFSET + node * NODE_ENTRY_SIZE;
    }

    /**
     * @param index running record index.
     * @return offset of the record it lands on.
     */
    public static int recordOffset(final long index)
    {
        return RECORD_ENTRIES_OFFSET + (int)(index % RECORD_COUNT) * RECORD_SIZE;
    }

    /**
     * @param counter a counter.
     * @return its offset.
     */
    public static int counterOffset(final BridgeCounter counter)
    {
        return COUNTERS_OFFSET + counter.id() * SIZE_OF_LONG;
    }

    /**
     * Write a text field: UTF-8, cut to {@code length - 1} bytes, NUL padded.
     *
     * @param buffer the file's mapping.
     * @param at     where the field starts.
     * @param length its bytes.
     * @param text   the text.
     */
    static void putText(final UnsafeBuffer buffer, final int at, final int length, final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        final int n = Math.min(bytes.length, length - 1);
        buffer.setMemory(at, length, (byte)0);
        buffer.putBytes(at, bytes, 0, n);
    }

    /**
     * @param buffer the file's mapping.
     * @param at     where a text field starts.
     * @param length its bytes.
     * @return its text, up to the first NUL.
     */
    static String text(final UnsafeBuffer buffer, final int at, final int length)
    {
        int n = 0;
        while (n < length && buffer.getByte(at + n) != 0)
        {
            n++;
        }
        final byte[] bytes = new byte[n];
        buffer.getBytes(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
