package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmConfig;
import io.rfmrt.rfm.RfmCounter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flyweights over the control block, each on a plain buffer laid out as {@link ControlBlockDescriptor} says.
 */
class ControlBlockFlyweightsTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(
        BufferUtil.allocateDirectAligned(HEADER_SIZE + 2 * CARD_SIZE, CACHE_LINE));

    @Test
    void shouldPinTheLayout()
    {
        assertThat(LAYOUT_VERSION).isEqualTo(2);
        assertThat(CARD_COUNTERS_OFFSET).isEqualTo(64);
        assertThat(CARD_FIFOS_OFFSET).isEqualTo(2048);
        assertThat(FIFO_SIZE).isEqualTo(4352);
        assertThat(CARD_SIZE).isEqualTo(73728);
        assertThat(FILE_SIZE).isEqualTo(4096 + 256 * 73728);
        assertThat(fifoOffset(3, EventType.SYNC_LOSS)).isEqualTo(4096 + 3 * 73728 + 2048 + 8 * 4352);
        assertThat(fifoOffset(0, 15) + FIFO_SIZE).isLessThanOrEqualTo(cardOffset(1));
        assertThat(counterOffset(1, RfmCounter.SYNC_LOSSES.id())).isEqualTo(4096 + 73728 + 64 + 73 * 8);
    }

    @Test
    void shouldQueueInOrderUpToTheCapacity()
    {
        final int offset = fifoOffset(0, EventType.INTR1);
        EventFifo.init(buffer, offset);
        final EventFifo fifo = new EventFifo().wrap(buffer, offset);
        final EventInfo info = new EventInfo();
        assertThat(fifo.size()).isZero();
        assertThat(fifo.poll(EventType.INTR1, info)).isFalse();
        for (int i = 0; i < EventType.FIFO_CAPACITY; i++)
        {
            assertThat(fifo.offer(7, i, 1000 + i)).as("entry " + i).isEqualTo(EventFifo.OFFERED);
        }
        assertThat(fifo.size()).isEqualTo(127);
        assertThat(fifo.offer(7, -1, 0)).as("the 128th entry").isEqualTo(EventFifo.FULL);
        // the entries land where the descriptor says
        assertThat(buffer.getInt(entryOffset(offset, 5) + ENTRY_DATA_OFFSET)).isEqualTo(5);
        assertThat(buffer.getInt(entryOffset(offset, 5) + ENTRY_SOURCE_OFFSET)).isEqualTo(7);
        assertThat(buffer.getLong(entryOffset(offset, 5) + ENTRY_SEQUENCE_OFFSET)).isEqualTo(6);
        for (int i = 0; i < 200; i++)
        {
            assertThat(fifo.poll(EventType.INTR1, info)).isTrue();
            assertThat(info.data()).isEqualTo(i);
            assertThat(info.sourceNode()).isEqualTo(7);
            assertThat(info.arrivalNanos()).isEqualTo(1000 + i);
            assertThat(info.type()).isEqualTo(EventType.INTR1);
            assertThat(fifo.offer(7, EventType.FIFO_CAPACITY + i, 1000 + EventType.FIFO_CAPACITY + i))
                .isEqualTo(EventFifo.OFFERED);
        }
        assertThat(fifo.size()).isEqualTo(127);
        assertThat(buffer.getLong(offset + FIFO_HEAD_OFFSET)).isEqualTo(200);
        assertThat(buffer.getLong(offset + FIFO_TAIL_OFFSET)).isEqualTo(327);
    }

    @Test
    void shouldNeverWriteOverAnEntryOfThePreviousLapThatIsNotTakenYet()
    {
        // the slot the tail points at still holds the entry written a lap before, not taken: a FIFO whose head or tail
        // another process left wrong; the sender is refused, the entry is left as it is, nothing is claimed
        final int offset = fifoOffset(0, EventType.INTR3);
        EventFifo.init(buffer, offset);
        final EventFifo fifo = new EventFifo().wrap(buffer, offset);
        assertThat(fifo.offer(4, 41, 1000)).isEqualTo(EventFifo.OFFERED);
        buffer.putLong(offset + FIFO_HEAD_OFFSET, FIFO_SLOTS - 1);
        buffer.putLong(offset + FIFO_TAIL_OFFSET, FIFO_SLOTS);
        assertThat(fifo.offer(5, 52, 2000)).as("full: the previous lap's entry is in the way")
            .isEqualTo(EventFifo.FULL);
        assertThat(buffer.getLong(offset + FIFO_TAIL_OFFSET)).isEqualTo(FIFO_SLOTS);
        assertThat(buffer.getInt(entryOffset(offset, 0) + ENTRY_DATA_OFFSET)).isEqualTo(41);
        assertThat(buffer.getInt(entryOffset(offset, 0) + ENTRY_SOURCE_OFFSET)).isEqualTo(4);
        assertThat(buffer.getLong(entryOffset(offset, 0) + ENTRY_SEQUENCE_OFFSET)).isEqualTo(1);
    }

    @Test
    void shouldRefuseAnEntryWhoseSequenceIsAheadOfAStillTailInsteadOfWaitingForIt()
    {
        // the FIFO is not full, but the entry at the tail says a later sender already wrote it: no sender can, with
        // the tail unmoved, so no wait would ever end; the offer returns at once and changes nothing
        final int offset = fifoOffset(0, EventType.INTR1);
        EventFifo.init(buffer, offset);
        final EventFifo fifo = new EventFifo().wrap(buffer, offset);
        assertThat(fifo.offer(3, 30, 100)).isEqualTo(EventFifo.OFFERED);
        buffer.putLong(entryOffset(offset, 1) + ENTRY_SEQUENCE_OFFSET, 2);
        assertThat(fifo.offer(3, 31, 200)).isEqualTo(EventFifo.CORRUPT);
        buffer.putLong(entryOffset(offset, 1) + ENTRY_SEQUENCE_OFFSET, 1 + FIFO_SLOTS);
        assertThat(fifo.offer(3, 32, 300)).as("a sequence a lap ahead").isEqualTo(EventFifo.CORRUPT);
        assertThat(buffer.getLong(offset + FIFO_TAIL_OFFSET)).as("nothing claimed").isEqualTo(1);
        assertThat(buffer.getInt(entryOffset(offset, 1) + ENTRY_DATA_OFFSET)).as("nothing written").isZero();
        // the entry the owner can still take is there
        final EventInfo info = new EventInfo();
        assertThat(fifo.poll(EventType.INTR1, info)).isTrue();
        assertThat(info.data()).isEqualTo(30);
        // put right, the FIFO takes entries again
        buffer.putLong(entryOffset(offset, 1) + ENTRY_SEQUENCE_OFFSET, 1);
        assertThat(fifo.offer(3, 33, 400)).isEqualTo(EventFifo.OFFERED);
    }

    @Test
    void shouldRefuseAHeadAndTailNoSenderOrTakerLeaves()
    {
        final int offset = fifoOffset(0, EventType.INTR2);
        EventFifo.init(buffer, offset);
        final EventFifo fifo = new EventFifo().wrap(buffer, offset);
        buffer.putLong(offset + FIFO_HEAD_OFFSET, 0);
        buffer.putLong(offset + FIFO_TAIL_OFFSET, EventType.FIFO_CAPACITY + 1);
        assertThat(fifo.offer(1, 1, 1)).as("more entries than the capacity").isEqualTo(EventFifo.CORRUPT);
        buffer.putLong(offset + FIFO_TAIL_OFFSET, Long.MAX_VALUE);
        assertThat(fifo.offer(1, 1, 1)).isEqualTo(EventFifo.CORRUPT);
        buffer.putLong(offset + FIFO_TAIL_OFFSET, EventType.FIFO_CAPACITY);
        assertThat(fifo.offer(1, 1, 1)).as("exactly the capacity is full, not corrupt").isEqualTo(EventFifo.FULL);
        buffer.putLong(offset + FIFO_HEAD_OFFSET, 10);
        buffer.putLong(offset + FIFO_TAIL_OFFSET, 3);
        assertThat(fifo.offer(1, 1, 1)).as("the head past the tail").isEqualTo(EventFifo.CORRUPT);
        assertThat(buffer.getLong(offset + FIFO_TAIL_OFFSET)).as("nothing claimed").isEqualTo(3);
    }

    @Test
    void shouldStartEveryEntryAtItsOwnIndex()
    {
        final int offset = fifoOffset(1, 12);
        buffer.setMemory(offset, FIFO_SIZE, (byte)0x55);
        buffer.putInt(offset + FIFO_LINE_OFFSET, 9);
        EventFifo.init(buffer, offset);
        assertThat(buffer.getLong(offset + FIFO_HEAD_OFFSET)).isZero();
        assertThat(buffer.getLong(offset + FIFO_TAIL_OFFSET)).isZero();
        assertThat(buffer.getInt(offset + FIFO_WAITERS_OFFSET)).isZero();
        assertThat(buffer.getInt(offset + FIFO_LINE_OFFSET)).as("the line is left alone").isEqualTo(9);
        for (int i = 0; i < FIFO_SLOTS; i++)
        {
            assertThat(buffer.getLong(entryOffset(offset, i) + ENTRY_SEQUENCE_OFFSET)).isEqualTo(i);
        }
    }

    @Test
    void shouldRaiseTheLineAndWakeOnlyWhenSomeoneWaits()
    {
        final int offset = fifoOffset(0, EventType.INTR2);
        final InterruptLine line = new InterruptLine().wrap(buffer, offset);
        assertThat(line.value()).isZero();
        assertThat(line.raise()).as("nobody waits").isFalse();
        assertThat(line.value()).isEqualTo(1);
        line.addWaiter(1);
        assertThat(line.waiters()).isEqualTo(1);
        assertThat(line.raise()).isTrue();
        assertThat(line.value()).isEqualTo(2);
        line.addWaiter(-1);
        assertThat(line.raise()).isFalse();
        assertThat(buffer.getInt(offset + FIFO_LINE_OFFSET)).isEqualTo(3);
        assertThat(line.address()).isEqualTo(buffer.addressOffset() + offset + FIFO_LINE_OFFSET);
    }

    @Test
    void shouldCountGenerationsDownsAndResets()
    {
        LinkState.init(buffer);
        final LinkState link = new LinkState().wrap(buffer);
        assertThat(link.up()).isTrue();
        assertThat(buffer.getInt(LINK_STATE_OFFSET)).isEqualTo(1);
        assertThat(link.set(true)).as("already up").isFalse();
        assertThat(link.generation()).isZero();
        assertThat(link.set(false)).isTrue();
        assertThat(link.up()).isFalse();
        assertThat(buffer.getInt(LINK_STATE_OFFSET)).isZero();
        assertThat(link.set(false)).isFalse();
        assertThat(link.set(true)).isTrue();
        assertThat(link.generation()).isEqualTo(2);
        assertThat(link.downs()).isEqualTo(1);
        link.countReset();
        assertThat(link.resets()).isEqualTo(1);
        assertThat(buffer.getLong(NETWORK_RESETS_OFFSET)).isEqualTo(1);
        assertThat(buffer.getLong(LINK_DOWNS_OFFSET)).isEqualTo(1);
    }

    @Test
    void shouldKeepEachCardToItself()
    {
        final CardFlyweight zero = new CardFlyweight().wrap(buffer, 0);
        final CardFlyweight one = new CardFlyweight().wrap(buffer, 1);
        buffer.setMemory(cardOffset(0), 2 * CARD_SIZE, (byte)0x33);
        zero.init();
        one.init();
        assertThat(zero.boardId()).isEqualTo(RfmConfig.BOARD_ID_5565);
        assertThat(zero.flags()).isZero();
        assertThat(zero.enabledMask()).isZero();
        for (int slot = 0; slot < RfmCounter.SLOT_COUNT; slot++)
        {
            assertThat(zero.counter(slot)).isZero();
        }
        for (int typeId = 0; typeId < EventType.ID_LIMIT; typeId++)
        {
            assertThat(buffer.getLong(entryOffset(fifoOffset(1, typeId), 127) + ENTRY_SEQUENCE_OFFSET))
                .isEqualTo(127);
        }

        one.flag(FLAG_LOOPBACK, true);
        one.flag(FLAG_DMA_AUTO, true);
        one.flag(FLAG_LOOPBACK, false);
        assertThat(one.flags()).isEqualTo(FLAG_DMA_AUTO);
        one.enable(EventType.SYNC_LOSS, true);
        one.enable(EventType.INTR1, true);
        assertThat(one.enabledMask()).isEqualTo(1 << 8 | 1 << 1);
        assertThat(buffer.getInt(cardOffset(1) + CARD_ENABLED_MASK_OFFSET)).isEqualTo(1 << 8 | 1 << 1);
        one.addCounter(RfmCounter.EVENTS_RECEIVED.slot(EventType.INTR1), 3);
        assertThat(buffer.getLong(counterOffset(1, 17))).isEqualTo(3);
        assertThat(zero.flags()).isZero();
        assertThat(zero.enabledMask()).isZero();
        assertThat(zero.counter(17)).isZero();

        buffer.putLong(cardOffset(1) + CARD_OWNER_PID_OFFSET, 0);
        assertThat(one.casOwnerPid(0, 42)).isTrue();
        assertThat(one.casOwnerPid(0, 43)).isFalse();
        assertThat(one.ownerPid()).isEqualTo(42);
        one.bumpClaimGeneration();
        assertThat(one.claimGeneration()).isEqualTo(0x33333333 + 1);
        one.disableAll();
        one.clearCounters();
        assertThat(one.enabledMask()).isZero();
        assertThat(one.counter(17)).isZero();
        assertThat(one.ownerPid()).as("init and clears leave the holder").isEqualTo(42);
    }
}
