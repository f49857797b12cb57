package io.rfmrt.rfm.internal.bridge;

import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;
import static org.agrona.BitUtil.SIZE_OF_SHORT;

/**
 * The bridge's messages on the wire: the payload of one Aeron message (the bridge publishes one ordered, reliable
 * stream to each peer, stream id {@value #STREAM_ID}). Little-endian.
 * <p>
 * A receiver follows one stream (Aeron session) per peer. A message on another session of the same bridge
 * (incarnation) is followed instead only when its stream epoch is higher: a closed stream lingers in the sender's
 * media driver for a while and must not be taken for the new one. A new incarnation (the peer's bridge restarted) is
 * followed at once.
 * <pre>
 * Header, 24 bytes
 *   0 | version (int8) = 1 | type (int8) | source host id (int16)                      |
 *   4 | target host id (int16), 0 = any | flags (int16): bits by type, 0 unless below   |
 *   8 | incarnation (int64) of the source bridge                                       |
 *  16 | sequence (int64): message number on this publication, from 1                   |
 *  24 | stream epoch (int64): numbers the source's publications, new ones higher          |
 *  32 | body
 *
 * HELLO (1), every heartbeat and at once when something changed
 *   0 | bridge pid (int64)                                                             |
 *   8 | memory size (int64)                                                            |
 *  16 | sent, epoch ms (int64)                                                         |
 *  24 | link up (int32) 0/1     | node count N (int32)                                 |
 *  32 | peer count P (int32)    | pad (int32)                                          |
 *  40 | host name (64 bytes, UTF-8, NUL padded)                                        |
 * 104 | P x {host id (int32), state (int32): its BridgeState id for that host}          |
 *     | N x {node id (int32), holder pid (int32)}: the nodes held on the source host     |
 *
 * DATA (2): records taken from the source's outbound log, in log order, each
 *   0 | type (int32): 1 WRITE, 2 EVENT | length (int32) of the body                    |
 *   8 | body as in the log (BridgeFileDescriptor), padded to 8                          |
 *
 * RESYNC_REQUEST (3), target = the peer asked: 0 | request id (int64)
 *   flags bit 0 (FLAG_FORMER_WORDS): the asker's image started empty; send the words you hold that it owns too
 * RESYNC_DATA (4), target = the asker: 0 | request id (int64), then runs of words, each
 *   0 | offset (int64) | length (int32) | owner (int32) | the bytes now in memory, a multiple of 8
 *   owner 0: the source's own words; the asker's host id: the asker's former words (asked with the flag only)
 * RESYNC_END (5), target = the asker: 0 | request id (int64) | 8 | words sent (int64)
 * BYE (6): the source stops cleanly; no body.
 * </pre>
 * Version 1 throughout: the flag and the run's owner were written 0 and never read before they had a meaning, so a
 * bridge that knows neither answers a flagged request with its own words only, as it always did.
 * <p>
 * A receiver drops (and counts) a message of another version, of an unknown type, with a length that does not fit
 * its type, from a host id it was not told of, or addressed to another host.
 */
public final class BridgeMessages
{
    /** Aeron stream id of the bridge's messages. */
    public static final int STREAM_ID = 0x52464d;
    public static final int MESSAGE_VERSION = 1;

    public static final int HELLO = 1;
    public static final int DATA = 2;
    public static final int RESYNC_REQUEST = 3;
    public static final int RESYNC_DATA = 4;
    public static final int RESYNC_END = 5;
    public static final int BYE = 6;

    public static final int MESSAGE_VERSION_OFFSET = 0;
    public static final int TYPE_OFFSET = 1;
    public static final int SOURCE_OFFSET = 2;
    public static final int TARGET_OFFSET = SOURCE_OFFSET + SIZE_OF_SHORT;
    public static final int FLAGS_OFFSET = TARGET_OFFSET + SIZE_OF_SHORT;
    public static final int INCARNATION_OFFSET = 8;
    public static final int SEQUENCE_OFFSET = INCARNATION_OFFSET + SIZE_OF_LONG;
    public static final int EPOCH_OFFSET = SEQUENCE_OFFSET + SIZE_OF_LONG;
    public static final int HEADER_LENGTH = EPOCH_OFFSET + SIZE_OF_LONG;

    public static final int HELLO_PID_OFFSET = HEADER_LENGTH;
    public static final int HELLO_MEMORY_SIZE_OFFSET = HELLO_PID_OFFSET + SIZE_OF_LONG;
    public static final int HELLO_SENT_MS_OFFSET = HELLO_MEMORY_SIZE_OFFSET + SIZE_OF_LONG;
    public static final int HELLO_LINK_UP_OFFSET = HELLO_SENT_MS_OFFSET + SIZE_OF_LONG;
    public static final int HELLO_NODE_COUNT_OFFSET = HELLO_LINK_UP_OFFSET + SIZE_OF_INT;
    public static final int HELLO_PEER_COUNT_OFFSET = HELLO_NODE_COUNT_OFFSET + SIZE_OF_INT;
    public static final int HELLO_NAME_OFFSET = HELLO_PEER_COUNT_OFFSET + 2 * SIZE_OF_INT;
    public static final int HELLO_NAME_LENGTH = 64;
    public static final int HELLO_ENTRIES_OFFSET = HELLO_NAME_OFFSET + HELLO_NAME_LENGTH;
    public static final int HELLO_ENTRY_SIZE = 2 * SIZE_OF_INT;

    public static final int RECORD_TYPE_OFFSET = 0;
    public static final int RECORD_LENGTH_OFFSET = SIZE_OF_INT;
    public static final int RECORD_HEADER_LENGTH = 2 * SIZE_OF_INT;

    public static final int REQUEST_ID_OFFSET = HEADER_LENGTH;
    public static final int RESYNC_RUNS_OFFSET = REQUEST_ID_OFFSET + SIZE_OF_LONG;
    public static final int RUN_OFFSET_OFFSET = 0;
    public static final int RUN_LENGTH_OFFSET = SIZE_OF_LONG;
    public static final int RUN_OWNER_OFFSET = RUN_LENGTH_OFFSET + SIZE_OF_INT;
    public static final int RUN_HEADER_LENGTH = 2 * SIZE_OF_LONG;
    /** RESYNC_REQUEST flag: the asker's image started empty; its former words are asked for too. */
    public static final short FLAG_FORMER_WORDS = 1;
    /** A run's owner: the source's own words. */
    public static final int RUN_OWNER_SOURCE = 0;
    public static final int END_WORDS_OFFSET = REQUEST_ID_OFFSET + SIZE_OF_LONG;
    public static final int END_LENGTH = END_WORDS_OFFSET + SIZE_OF_LONG;

    /** Largest message the bridge builds (Aeron fragments it by the MTU and reassembles it). */
    public static final int MAX_MESSAGE = 64 * 1024;

    private BridgeMessages()
    {
    }

    /**
     * @param offset   where a write starts in the memory.
     * @param length   its bytes.
     * @param capacity bytes of the memory.
     * @return whether the write is not empty and lies within the memory (a bound on what a log record or a peer
     *         names).
     */
    public static boolean writeInBounds(final long offset, final int length, final int capacity)
    {
        return length > 0 && offset >= 0 && offset <= capacity - (long)length;
    }
}
