package io.rfmrt.runtime.journal.internal;

import java.nio.ByteOrder;

import static org.agrona.BitUtil.SIZE_OF_DOUBLE;
import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.SIZE_OF_SHORT;

/**
 * Layout of one journal record: the same <em>body</em> travels as an Agrona ring-buffer message from a
 * {@code JournalWriter} to the journal thread, which writes it into one Chronicle Queue document behind a 16-byte
 * <em>record header</em>. All fields are little-endian ({@link #BYTE_ORDER}); bodies start 8-aligned.
 *
 * <p>In the SPSC ring (Agrona {@code OneToOneRingBuffer}) the body follows Agrona's own 8-byte message header, whose
 * type id is the record kind id, and the message is padded to 8 bytes:
 * <pre>
 *   0 +--------------------------------+--------------------------------+
 *     | length (int32, Agrona)         | msgTypeId (int32) = kind id    |
 *   8 +--------------------------------+--------------------------------+
 *     | body (one of the layouts below), padded to 8                    |
 *     +-----------------------------------------------------------------+
 * </pre>
 * In Chronicle Queue every document (written with {@code writingDocument()}, raw bytes, no field names) is:
 * <pre>
 *   0 +-------------+-------------+--------------+-----------------------+
 *     | version u8  | kind u8     | writerId u16 | nodeId (int32)        |
 *   8 +-------------+-------------+--------------+-----------------------+
 *     | journalNanos (int64): System.nanoTime() when the journal thread  |
 *     | wrote the record                                                 |
 *  16 +------------------------------------------------------------------+
 *     | body                                                             |
 *     +------------------------------------------------------------------+
 * </pre>
 * Bodies, offsets from the start of the body:
 * <pre>
 * FRAME (kind 1), 64 bytes + payload          FAULT (kind 2), 32 bytes
 *   0 seq (int64)                               0 nanos (int64)
 *   8 sendNanos (int64)                         8 seq (int64)
 *  16 wokeNanos (int64)                        16 value (int64)
 *  24 validatedNanos (int64)                   24 code (int32) | reserved (int32)
 *  32 consumerStartNanos (int64)
 *  40 handlerEndNanos (int64)                 STATE (kind 3), 16 bytes
 *  48 source (int32) | flags (int32)            0 nanos (int64)
 *  56 crc32c (int32) | payloadLength (int32)    8 from (int32) | to (int32)
 *  64 payload, payloadLength bytes
 *                                             COUNTERS (kind 4), 16 + 8 * count bytes
 * SAMPLE (kind 5), 72 bytes                     0 nanos (int64)
 *   0 nanos (int64)                             8 count (int32) | reserved (int32)
 *   8 cycle (int64)                            16 value[0 .. count-1] (int64 each)
 *  16 sampleKind (int32) | state (int32)
 *  24 value[0 .. 5] (float64 each)
 * </pre>
 * The journal header record (kind {@link #HEADER_KIND_ID}, writerId {@link #NO_WRITER}) is internal: the journal
 * thread writes it first in every session, again whenever a writer is added and at the start of every roll cycle,
 * so that a reader can name the writers of any file on its own:
 * <pre>
 *   0 magic (int64) "RFMRTJNL"
 *   8 epochMillis (int64) | 16 nanos (int64): one reading of both clocks, to map nanos to wall time
 *  24 writerCount (int32) | 28 layoutLength (int32; version 2: reserved, 0)
 *  32 writerCount entries, packed: writerId (u16) | nameLength (u16) | name (US-ASCII, nameLength bytes)
 *   . layout, layoutLength bytes (UTF-8): the node's channels as ChannelLayout YAML (version 3; absent in 2)
 * </pre>
 * The layout is what the node received on (its input channels) and published with its built-in publisher, the
 * memory size, as {@code ChannelLayout.toYaml()} writes it; 0 bytes when the node gave the journal none. Playback
 * reads it to publish a recording through the channels that carried it.
 * <p>
 * Versions: the bodies of version 2 and 3 are the same; version 3 adds the layout to the journal header. A reader
 * reads both and refuses others: a version it does not know is damage, version 1 is refused at open.
 */
public final class JournalRecordDescriptor
{
    /** Byte order of every field, in the ring and on disk. */
    public static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    /**
     * Record layout version written by this code. Version 1 wrote frame fault codes and counter slots by enum
     * declaration order; version 2 writes explicit ids ({@code FrameStatus.id()}, {@code RfmCounter.slot()} with
     * {@code EventType.ID_LIMIT} slots per per-type counter); version 3 adds the node's channel layout to the journal
     * header. A reader refuses version 1 journals and reads 2 and 3.
     */
    public static final int VERSION = 3;
    /** The version before the journal header carried the channel layout: read, but it cannot be played back. */
    public static final int VERSION_WITHOUT_LAYOUT = 2;
    /** The version before explicit ids, which a reader names in its refusal. */
    public static final int VERSION_BY_POSITION = 1;

    // record header
    public static final int VERSION_OFFSET = 0;
    public static final int KIND_OFFSET = VERSION_OFFSET + 1;
    public static final int WRITER_ID_OFFSET = KIND_OFFSET + 1;
    public static final int NODE_ID_OFFSET = WRITER_ID_OFFSET + SIZE_OF_SHORT;
    public static final int JOURNAL_NANOS_OFFSET = NODE_ID_OFFSET + SIZE_OF_INT;
    /** Bytes of the record header; the body starts here. */
    public static final int RECORD_HEADER_LENGTH = JOURNAL_NANOS_OFFSET + SIZE_OF_LONG;

    // FRAME body
    public static final int FRAME_SEQ_OFFSET = 0;
    public static final int FRAME_SEND_NANOS_OFFSET = FRAME_SEQ_OFFSET + SIZE_OF_LONG;
    public static final int FRAME_WOKE_NANOS_OFFSET = FRAME_SEND_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int FRAME_VALIDATED_NANOS_OFFSET = FRAME_WOKE_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int FRAME_CONSUMER_START_NANOS_OFFSET = FRAME_VALIDATED_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int FRAME_HANDLER_END_NANOS_OFFSET = FRAME_CONSUMER_START_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int FRAME_SOURCE_OFFSET = FRAME_HANDLER_END_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int FRAME_FLAGS_OFFSET = FRAME_SOURCE_OFFSET + SIZE_OF_INT;
    public static final int FRAME_CRC_OFFSET = FRAME_FLAGS_OFFSET + SIZE_OF_INT;
    public static final int FRAME_PAYLOAD_LENGTH_OFFSET = FRAME_CRC_OFFSET + SIZE_OF_INT;
    public static final int FRAME_PAYLOAD_OFFSET = FRAME_PAYLOAD_LENGTH_OFFSET + SIZE_OF_INT;
    /** FRAME body bytes without the payload. */
    public static final int FRAME_FIXED_LENGTH = FRAME_PAYLOAD_OFFSET;

    // FAULT body
    public static final int FAULT_NANOS_OFFSET = 0;
    public static final int FAULT_SEQ_OFFSET = FAULT_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int FAULT_VALUE_OFFSET = FAULT_SEQ_OFFSET + SIZE_OF_LONG;
    public static final int FAULT_CODE_OFFSET = FAULT_VALUE_OFFSET + SIZE_OF_LONG;
    public static final int FAULT_LENGTH = FAULT_CODE_OFFSET + SIZE_OF_INT + SIZE_OF_INT;

    // STATE body
    public static final int STATE_NANOS_OFFSET = 0;
    public static final int STATE_FROM_OFFSET = STATE_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int STATE_TO_OFFSET = STATE_FROM_OFFSET + SIZE_OF_INT;
    public static final int STATE_LENGTH = STATE_TO_OFFSET + SIZE_OF_INT;

    // COUNTERS body
    public static final int COUNTERS_NANOS_OFFSET = 0;
    public static final int COUNTERS_COUNT_OFFSET = COUNTERS_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int COUNTERS_VALUES_OFFSET = COUNTERS_COUNT_OFFSET + SIZE_OF_INT + SIZE_OF_INT;
    /** COUNTERS body bytes without the values. */
    public static final int COUNTERS_FIXED_LENGTH = COUNTERS_VALUES_OFFSET;

    // SAMPLE body
    public static final int SAMPLE_NANOS_OFFSET = 0;
    public static final int SAMPLE_CYCLE_OFFSET = SAMPLE_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int SAMPLE_KIND_OFFSET = SAMPLE_CYCLE_OFFSET + SIZE_OF_LONG;
    public static final int SAMPLE_STATE_OFFSET = SAMPLE_KIND_OFFSET + SIZE_OF_INT;
    public static final int SAMPLE_VALUES_OFFSET = SAMPLE_STATE_OFFSET + SIZE_OF_INT;
    /** Number of values in a SAMPLE. */
    public static final int SAMPLE_VALUE_COUNT = 6;
    public static final int SAMPLE_LENGTH = SAMPLE_VALUES_OFFSET + SAMPLE_VALUE_COUNT * SIZE_OF_DOUBLE;

    // journal header body
    /** Kind id of the internal journal header record. */
    public static final int HEADER_KIND_ID = 127;
    /** writerId of records that no writer produced (the journal header). */
    public static final int NO_WRITER = 0xFFFF;
    /** "RFMRTJNL" read as a little-endian int64. */
    public static final long MAGIC = 0x4C4E4A54524D4652L;
    public static final int HEADER_MAGIC_OFFSET = 0;
    public static final int HEADER_EPOCH_MILLIS_OFFSET = HEADER_MAGIC_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_NANOS_OFFSET = HEADER_EPOCH_MILLIS_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_WRITER_COUNT_OFFSET = HEADER_NANOS_OFFSET + SIZE_OF_LONG;
    /** Bytes of the layout after the writer entries (version 3; reserved and 0 in version 2). */
    public static final int HEADER_LAYOUT_LENGTH_OFFSET = HEADER_WRITER_COUNT_OFFSET + SIZE_OF_INT;
    public static final int HEADER_WRITERS_OFFSET = HEADER_LAYOUT_LENGTH_OFFSET + SIZE_OF_INT;
    /** Longest layout a journal header carries, in bytes. */
    public static final int MAX_LAYOUT_LENGTH = 1 << 16;
    /** Bytes of one writer entry before its name. */
    public static final int HEADER_WRITER_ENTRY_FIXED_LENGTH = SIZE_OF_SHORT + SIZE_OF_SHORT;

    /** Longest writer name, in US-ASCII characters. */
    public static final int MAX_WRITER_NAME_LENGTH = 64;
    /** Most writers one journal can have (writerId is 16 bits and {@link #NO_WRITER} is taken). */
    public static final int MAX_WRITERS = NO_WRITER;

    private JournalRecordDescriptor()
    {
    }

    /**
     * @param version a record's version byte.
     * @return whether this code reads records of that version.
     */
    public static boolean readable(final int version)
    {
        return version == VERSION || version == VERSION_WITHOUT_LAYOUT;
    }

    /**
     * @param count counter values.
     * @return COUNTERS body bytes.
     */
    public static int countersLength(final int count)
    {
        return COUNTERS_FIXED_LENGTH + count * SIZE_OF_LONG;
    }

    /**
     * @param payloadLength payload bytes.
     * @return FRAME body bytes.
     */
    public static int frameLength(final int payloadLength)
    {
        return FRAME_FIXED_LENGTH + payloadLength;
    }
}
