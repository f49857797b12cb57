package io.rfmrt.rfm.bridge;

import io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor;
import io.rfmrt.rfm.internal.bridge.BridgeMessages;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the bridge writes into its file and onto the wire stays where docs/protocol.md says: ids of the enums it
 * writes, and the offsets of the bridge file and the messages.
 */
class BridgeLayoutTest
{
    private static <E extends Enum<E>> Map<String, Integer> ids(final E[] values,
        final java.util.function.ToIntFunction<E> id)
    {
        final Map<String, Integer> table = new LinkedHashMap<>();
        for (final E value : values)
        {
            table.put(value.name(), id.applyAsInt(value));
        }
        return table;
    }

    @Test
    void shouldKeepTheIdsOfStatesCountersRecordsAndReasons()
    {
        assertThat(ids(BridgeState.values(), BridgeState::id)).containsExactly(Map.entry("STOPPED", 0),
            Map.entry("CONNECTING", 1), Map.entry("SYNCING", 2), Map.entry("UP", 3));
        assertThat(ids(BridgeCounter.values(), BridgeCounter::id)).containsExactly(Map.entry("WRITES_SENT", 0),
            Map.entry("EVENTS_SENT", 1), Map.entry("WRITES_APPLIED", 2), Map.entry("EVENTS_DELIVERED", 3),
            Map.entry("EVENTS_UNDELIVERED", 4), Map.entry("MESSAGES_SENT", 5), Map.entry("MESSAGES_RECEIVED", 6),
            Map.entry("BYTES_SENT", 7), Map.entry("BYTES_RECEIVED", 8), Map.entry("BACK_PRESSURE", 9),
            Map.entry("PEER_LOSSES", 10), Map.entry("DIVERGENCES", 11), Map.entry("CONVERGENCES", 12),
            Map.entry("RESYNCS_REQUESTED", 13), Map.entry("RESYNCS_SERVED", 14), Map.entry("RESYNC_BYTES_SENT", 15),
            Map.entry("RESYNC_BYTES_APPLIED", 16), Map.entry("RESYNC_CONFLICTS", 17), Map.entry("LOG_OVERFLOWS", 18),
            Map.entry("LOG_EVENT_REFUSALS", 19), Map.entry("OVERFLOW_WORDS_RESENT", 20),
            Map.entry("STALE_EVENTS_DROPPED", 21), Map.entry("DUPLICATE_NODE_IDS", 22), Map.entry("BAD_MESSAGES", 23),
            Map.entry("LOG_UNBLOCKS", 24), Map.entry("PUBLICATION_ERRORS", 25), Map.entry("AERON_ERRORS", 26),
            Map.entry("RESYNCS_ASKED_AGAIN", 27), Map.entry("EVENTS_DROPPED_NODE_BEHIND", 28),
            Map.entry("DMA_DROPPED_NODE_BEHIND", 29), Map.entry("FORMER_WORDS_TAKEN_BACK", 30),
            Map.entry("INBOUND_POLLS_CUT", 31));
        assertThat(ids(BridgeRecordKind.values(), BridgeRecordKind::id)).containsExactly(Map.entry("STARTED", 1),
            Map.entry("STOPPED", 2), Map.entry("PEER_LOST", 3), Map.entry("PEER_CONNECTED", 4),
            Map.entry("PEER_SYNCED", 5), Map.entry("DIVERGED", 6), Map.entry("CONVERGED", 7),
            Map.entry("DUPLICATE_NODE", 8), Map.entry("RESYNC_CONFLICT", 9), Map.entry("LOG_OVERFLOW", 10),
            Map.entry("PEER_REFUSED", 11), Map.entry("NODE_BEHIND", 12));
        assertThat(ids(BridgeRecordKind.LossReason.values(), BridgeRecordKind.LossReason::id)).containsExactly(
            Map.entry("SILENCE", 1), Map.entry("IMAGE_GONE", 2), Map.entry("NEW_SESSION", 3),
            Map.entry("PUBLICATION", 4), Map.entry("BYE", 5),
            Map.entry("RESYNC_UNANSWERED", 6));
        for (final BridgeCounter counter : BridgeCounter.values())
        {
            assertThat(BridgeCounter.fromId(counter.id())).isSameAs(counter);
        }
        assertThat(BridgeCounter.fromId(32)).isNull();
        assertThat(BridgeState.fromId(4)).isNull();
        assertThat(BridgeRecordKind.fromId(0)).isNull();
    }

    @Test
    void shouldPlaceTheBridgeFileAsDocumented()
    {
        assertThat(BridgeFileDescriptor.MAGIC).isEqualTo(0x4752425452_4d4652L);
        assertThat(new String(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putLong(BridgeFileDescriptor.MAGIC).array(), java.nio.charset.StandardCharsets.US_ASCII))
            .isEqualTo("RFMRTBRG");
        assertThat(new int[]{BridgeFileDescriptor.VERSION_OFFSET, BridgeFileDescriptor.HOST_ID_OFFSET,
            BridgeFileDescriptor.MEMORY_SIZE_OFFSET, BridgeFileDescriptor.LOG_CAPACITY_OFFSET,
            BridgeFileDescriptor.WORD_SIZE_OFFSET, BridgeFileDescriptor.CREATED_OFFSET,
            BridgeFileDescriptor.BRIDGE_PID_OFFSET, BridgeFileDescriptor.BRIDGE_START_OFFSET,
            BridgeFileDescriptor.BRIDGE_INCARNATION_OFFSET, BridgeFileDescriptor.BRIDGE_STARTED_MS_OFFSET,
            BridgeFileDescriptor.STREAM_EPOCH_OFFSET, BridgeFileDescriptor.LEASE_OFFSET,
            BridgeFileDescriptor.STATE_OFFSET, BridgeFileDescriptor.PEER_COUNT_OFFSET,
            BridgeFileDescriptor.OVERFLOW_FLAG_OFFSET, BridgeFileDescriptor.HOST_NAME_OFFSET,
            BridgeFileDescriptor.CHANNEL_OFFSET, BridgeFileDescriptor.COUNTERS_OFFSET})
            .containsExactly(8, 12, 16, 24, 28, 32, 64, 72, 80, 88, 96, 128, 192, 196, 256, 320, 384, 512);
        assertThat(new int[]{BridgeFileDescriptor.PEERS_OFFSET, BridgeFileDescriptor.NODES_OFFSET,
            BridgeFileDescriptor.RECORDS_OFFSET, BridgeFileDescriptor.RECORD_ENTRIES_OFFSET,
            BridgeFileDescriptor.BITMAP_OFFSET}).containsExactly(4096, 8192, 16384, 16448, 28672);
        assertThat(new int[]{BridgeFileDescriptor.PEER_STATE_OFFSET, BridgeFileDescriptor.PEER_PID_OFFSET,
            BridgeFileDescriptor.PEER_INCARNATION_OFFSET, BridgeFileDescriptor.PEER_LAST_HEARD_OFFSET,
            BridgeFileDescriptor.PEER_VIEW_OF_US_OFFSET, BridgeFileDescriptor.PEER_SESSION_OFFSET,
            BridgeFileDescriptor.PEER_MESSAGES_OFFSET, BridgeFileDescriptor.PEER_BYTES_OFFSET,
            BridgeFileDescriptor.PEER_RESYNCS_OFFSET, BridgeFileDescriptor.PEER_LOSSES_OFFSET,
            BridgeFileDescriptor.PEER_ENDPOINT_OFFSET, BridgeFileDescriptor.PEER_NAME_OFFSET})
            .containsExactly(4, 8, 16, 24, 32, 36, 40, 48, 56, 64, 128, 192);
        // 16 MiB: bitmap 256 KiB, owner table 2 MiB; 1 GiB: 16 MiB and 128 MiB
        assertThat(BridgeFileDescriptor.ownerTableOffset(16 << 20)).isEqualTo(28672 + (16 << 20) / 64);
        assertThat(BridgeFileDescriptor.logOffset(16 << 20)).isEqualTo(28672 + (16 << 20) / 64 + (16 << 20) / 8);
        assertThat(BridgeFileDescriptor.fileSize(16 << 20, 8 << 20))
            .isEqualTo(28672 + (16 << 20) / 64 + (16 << 20) / 8 + (8 << 20) + 4096);
        assertThat(BridgeFileDescriptor.logOffset(1L << 30)).isEqualTo(28672 + (1 << 24) + (1 << 27));
        assertThat(new int[]{BridgeFileDescriptor.EVENT_TARGET_OFFSET, BridgeFileDescriptor.EVENT_TYPE_OFFSET,
            BridgeFileDescriptor.EVENT_DATA_OFFSET, BridgeFileDescriptor.EVENT_DMA_OFFSET_OFFSET,
            BridgeFileDescriptor.EVENT_DMA_LENGTH_OFFSET, BridgeFileDescriptor.EVENT_SEND_NANOS_OFFSET,
            BridgeFileDescriptor.EVENT_LENGTH, BridgeFileDescriptor.WRITE_SOURCE_OFFSET,
            BridgeFileDescriptor.WRITE_LENGTH_OFFSET, BridgeFileDescriptor.WRITE_DATA_OFFSET})
            .containsExactly(4, 8, 12, 16, 24, 32, 40, 8, 12, 16);
    }

    @Test
    void shouldPlaceTheMessagesAsDocumented()
    {
        assertThat(new int[]{BridgeMessages.TYPE_OFFSET, BridgeMessages.SOURCE_OFFSET, BridgeMessages.TARGET_OFFSET,
            BridgeMessages.FLAGS_OFFSET, BridgeMessages.INCARNATION_OFFSET, BridgeMessages.SEQUENCE_OFFSET,
            BridgeMessages.EPOCH_OFFSET, BridgeMessages.HEADER_LENGTH}).containsExactly(1, 2, 4, 6, 8, 16, 24, 32);
        assertThat(new int[]{BridgeMessages.HELLO_PID_OFFSET, BridgeMessages.HELLO_MEMORY_SIZE_OFFSET,
            BridgeMessages.HELLO_SENT_MS_OFFSET, BridgeMessages.HELLO_LINK_UP_OFFSET,
            BridgeMessages.HELLO_NODE_COUNT_OFFSET, BridgeMessages.HELLO_PEER_COUNT_OFFSET,
            BridgeMessages.HELLO_NAME_OFFSET, BridgeMessages.HELLO_ENTRIES_OFFSET})
            .containsExactly(32, 40, 48, 56, 60, 64, 72, 136);
        assertThat(new int[]{BridgeMessages.REQUEST_ID_OFFSET, BridgeMessages.RESYNC_RUNS_OFFSET,
            BridgeMessages.RUN_LENGTH_OFFSET, BridgeMessages.RUN_HEADER_LENGTH, BridgeMessages.END_WORDS_OFFSET,
            BridgeMessages.END_LENGTH}).containsExactly(32, 40, 8, 16, 40, 48);
        assertThat(BridgeMessages.RUN_OWNER_OFFSET).isEqualTo(12);
        assertThat(BridgeMessages.FLAG_FORMER_WORDS).isEqualTo((short)1);
        assertThat(new int[]{BridgeFileDescriptor.STARTED_EMPTY_OFFSET, BridgeFileDescriptor.FORMER_ANSWERED_OFFSET})
            .containsExactly(1024, 1056);
        assertThat(new int[]{BridgeMessages.HELLO, BridgeMessages.DATA, BridgeMessages.RESYNC_REQUEST,
            BridgeMessages.RESYNC_DATA, BridgeMessages.RESYNC_END, BridgeMessages.BYE})
            .containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(BridgeMessages.STREAM_ID).isEqualTo(0x52464d);
    }
}
