package io.rfmrt.rfm;

import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameStatus;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ids of every enum that reaches shared memory, the wire or disk, pinned: renumbering one fails here. A new
 * constant needs a new row (and a new id), never a changed one.
 */
class StableIdsTest
{
    private static <E extends Enum<E>> Map<String, Integer> table(final Object... nameThenId)
    {
        final Map<String, Integer> table = new LinkedHashMap<>();
        for (int i = 0; i < nameThenId.length; i += 2)
        {
            table.put((String)nameThenId[i], (Integer)nameThenId[i + 1]);
        }
        return table;
    }

    private static <E extends Enum<E>> Map<String, Integer> actual(final E[] values,
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
    void shouldKeepEventTypeIds()
    {
        assertThat(actual(EventType.values(), EventType::id)).containsExactlyInAnyOrderEntriesOf(table(
            "RESET", 0, "INTR1", 1, "INTR2", 2, "INTR3", 3, "INTR4", 4, "BAD_DATA", 5, "RXFIFO_FULL", 6,
            "ROGUE_PKT", 7, "SYNC_LOSS", 8));
        assertThat(EventType.ID_LIMIT).isEqualTo(16);
        for (final EventType type : EventType.values())
        {
            assertThat(EventType.fromId(type.id())).isSameAs(type);
            assertThat(type.mask()).isEqualTo(1 << type.id());
        }
        assertThat(EventType.fromIdOrNull(9)).isNull();
        assertThat(EventType.fromIdOrNull(-1)).isNull();
        assertThatThrownBy(() -> EventType.fromId(9)).hasMessage("no event type with id 9");
        assertThatThrownBy(() -> EventType.fromId(16)).hasMessage("no event type with id 16");
    }

    @Test
    void shouldKeepCounterIdsAndSlots()
    {
        assertThat(actual(RfmCounter.values(), RfmCounter::id)).containsExactlyInAnyOrderEntriesOf(table(
            "EVENTS_SENT", 0, "EVENTS_RECEIVED", 16, "FIFO_OVERFLOWS", 32, "EVENTS_DISABLED", 48,
            "SENDS_REFUSED", 64, "SENDS_UNDELIVERED", 65, "AWAIT_TIMEOUTS", 66, "AWAIT_CANCELS", 67,
            "INTERRUPTS_RAISED", 68, "DMA_COMPLETED", 69, "DMA_DROPPED", 70, "DMA_BACKPRESSURE_STALLS", 71,
            "DMA_REJECTED", 72, "SYNC_LOSSES", 73, "FIFO_FAULTS", 74));
        assertThat(RfmCounter.SLOT_COUNT).isEqualTo(128);
        // the slot of a type depends on its id only, not on how many types exist
        assertThat(RfmCounter.EVENTS_RECEIVED.slot(EventType.SYNC_LOSS)).isEqualTo(16 + 8);
        assertThat(RfmCounter.FIFO_OVERFLOWS.slot(EventType.INTR1)).isEqualTo(33);
        assertThat(RfmCounter.SENDS_REFUSED.slot(EventType.INTR4)).isEqualTo(64);
        for (final RfmCounter counter : RfmCounter.values())
        {
            assertThat(counter.perType()).as(counter.name()).isEqualTo(counter.id() < 64);
            assertThat(RfmCounter.fromId(counter.id())).isSameAs(counter);
            assertThat(RfmCounter.ofSlot(counter.id() + (counter.perType() ? 15 : 0))).isSameAs(counter);
        }
        assertThat(RfmCounter.fromId(17)).as("inside EVENTS_RECEIVED, not a first slot").isNull();
        assertThat(RfmCounter.ofSlot(17)).isSameAs(RfmCounter.EVENTS_RECEIVED);
        assertThat(RfmCounter.fromId(75)).isNull();
        assertThat(RfmCounter.ofSlot(127)).isNull();
        assertThat(RfmCounter.fromId(128)).isNull();
    }

    @Test
    void shouldKeepFrameStatusIds()
    {
        assertThat(actual(FrameStatus.values(), FrameStatus::id)).containsExactlyInAnyOrderEntriesOf(table(
            "OK", 0, "TORN", 1, "CRC_ERROR", 2, "DUPLICATE", 3, "STALE", 4, "SELF", 5, "BAD_HEADER", 6,
            "DMA_MISSING", 7, "OVERWRITTEN", 8));
        for (final FrameStatus status : FrameStatus.values())
        {
            assertThat(FrameStatus.fromId(status.id())).isSameAs(status);
        }
        assertThat(FrameStatus.fromId(9)).isNull();
        assertThat(FrameStatus.fromId(-1)).isNull();
    }

    @Test
    void shouldKeepFrameCounterIds()
    {
        assertThat(actual(FrameCounter.values(), FrameCounter::id)).containsExactlyInAnyOrderEntriesOf(table(
            "FRAMES", 0, "TORN", 1, "CRC_ERRORS", 2, "GAPS", 3, "DUPLICATES", 4, "STALE", 5, "SELF_FILTERED", 6,
            "BAD_HEADER", 7, "DMA_MISSING", 8, "PUBLISHER_RESTARTS", 9));
    }

    @Test
    void shouldKeepDmaModeAndPolicyIds()
    {
        assertThat(actual(DmaMode.values(), DmaMode::id)).containsExactlyInAnyOrderEntriesOf(table(
            "AUTO", 0, "ON_DEMAND", 1));
        assertThat(actual(DmaRingFullPolicy.values(), DmaRingFullPolicy::id)).containsExactlyInAnyOrderEntriesOf(
            table("DROP_NEWEST", 0, "BACKPRESSURE", 1));
        assertThat(DmaMode.fromId(1)).isSameAs(DmaMode.ON_DEMAND);
        assertThat(DmaMode.fromId(2)).isNull();
        assertThat(DmaRingFullPolicy.fromId(1)).isSameAs(DmaRingFullPolicy.BACKPRESSURE);
        assertThat(DmaRingFullPolicy.fromId(-1)).isNull();
    }
}
