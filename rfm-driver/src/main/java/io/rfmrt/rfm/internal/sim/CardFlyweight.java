package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmConfig;
import io.rfmrt.rfm.RfmCounter;
import org.agrona.concurrent.AtomicBuffer;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_BOARD_ID_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_CLAIM_GENERATION_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_COUNTERS_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_ENABLED_MASK_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_FLAGS_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_OWNER_PID_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.CARD_OWNER_START_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.cardOffset;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.fifoOffset;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * Flyweight over one card of an emulated network (layout in {@link ControlBlockDescriptor}): its holder, flags,
 * enabled event mask, board id, claim generation and counters. Read-modify-write fields change by compare-and-set,
 * counters by atomic add, so any process may update them. Allocation-free.
 */
public final class CardFlyweight
{
    private AtomicBuffer buffer;
    private int node;
    private int offset;

    /**
     * @param buffer the control block.
     * @param node   node id, the card's index.
     * @return this.
     */
    public CardFlyweight wrap(final AtomicBuffer buffer, final int node)
    {
        this.buffer = buffer;
        this.node = node;
        this.offset = cardOffset(node);
        return this;
    }

    /**
     * @return the node id.
     */
    public int node()
    {
        return node;
    }

    /**
     * Power-on state of a card for a new holder: no flags, no event enabled, board id of a PCIE-5565, counters
     * zero, every FIFO of every type id empty. The owner pid and the claim generation are left alone (the claim
     * manages them).
     */
    public void init()
    {
        buffer.putLong(offset + CARD_OWNER_START_OFFSET, 0);
        buffer.putInt(offset + CARD_FLAGS_OFFSET, 0);
        buffer.putInt(offset + CARD_ENABLED_MASK_OFFSET, 0);
        buffer.putInt(offset + CARD_BOARD_ID_OFFSET, RfmConfig.BOARD_ID_5565);
        buffer.setMemory(offset + CARD_COUNTERS_OFFSET, RfmCounter.SLOT_COUNT * SIZE_OF_LONG, (byte)0);
        for (int typeId = 0; typeId < EventType.ID_LIMIT; typeId++)
        {
            EventFifo.init(buffer, fifoOffset(node, typeId));
        }
    }

    /**
     * @return pid of the process holding the card, 0 if free.
     */
    public long ownerPid()
    {
        return buffer.getLongVolatile(offset + CARD_OWNER_PID_OFFSET);
    }

    /**
     * @param expected pid now in the field.
     * @param pid      pid to put there.
     * @return whether the field held {@code expected} and now holds {@code pid}.
     */
    public boolean casOwnerPid(final long expected, final long pid)
    {
        return buffer.compareAndSetLong(offset + CARD_OWNER_PID_OFFSET, expected, pid);
    }

    /**
     * @return start time of the holder (the clock of {@code /proc/PID/stat}), to tell a reused pid.
     */
    public long ownerStart()
    {
        return buffer.getLongVolatile(offset + CARD_OWNER_START_OFFSET);
    }

    /**
     * @param start the holder's start time.
     */
    public void ownerStart(final long start)
    {
        buffer.putLongVolatile(offset + CARD_OWNER_START_OFFSET, start);
    }

    /**
     * @return changes each time the card is claimed or released.
     */
    public int claimGeneration()
    {
        return buffer.getIntVolatile(offset + CARD_CLAIM_GENERATION_OFFSET);
    }

    /**
     * Move the claim generation on.
     */
    public void bumpClaimGeneration()
    {
        buffer.getAndAddInt(offset + CARD_CLAIM_GENERATION_OFFSET, 1);
    }

    /**
     * @return the FLAG_ bits.
     */
    public int flags()
    {
        return buffer.getIntVolatile(offset + CARD_FLAGS_OFFSET);
    }

    /**
     * @param flag one FLAG_ bit.
     * @param on   set or clear it.
     */
    public void flag(final int flag, final boolean on)
    {
        updateBits(offset + CARD_FLAGS_OFFSET, flag, on);
    }

    /**
     * @return the enabled event mask, bit {@link EventType#id()} per type.
     */
    public int enabledMask()
    {
        return buffer.getIntVolatile(offset + CARD_ENABLED_MASK_OFFSET);
    }

    /**
     * @param type event type.
     * @param on   enable or disable it.
     */
    public void enable(final EventType type, final boolean on)
    {
        updateBits(offset + CARD_ENABLED_MASK_OFFSET, type.mask(), on);
    }

    /**
     * Disable every event type at once.
     */
    public void disableAll()
    {
        buffer.putIntVolatile(offset + CARD_ENABLED_MASK_OFFSET, 0);
    }

    /**
     * @return the board id.
     */
    public int boardId()
    {
        return buffer.getInt(offset + CARD_BOARD_ID_OFFSET);
    }

    /**
     * @param slot  counter slot ({@link RfmCounter#slot}).
     * @param delta amount to add, atomically.
     */
    public void addCounter(final int slot, final long delta)
    {
        buffer.getAndAddLong(counterOffset(slot), delta);
    }

    /**
     * @param slot counter slot.
     * @return the value.
     */
    public long counter(final int slot)
    {
        return buffer.getLongVolatile(counterOffset(slot));
    }

    /**
     * Zero every counter slot.
     */
    public void clearCounters()
    {
        for (int slot = 0; slot < RfmCounter.SLOT_COUNT; slot++)
        {
            buffer.putLongVolatile(counterOffset(slot), 0);
        }
    }

    private int counterOffset(final int slot)
    {
        return offset + CARD_COUNTERS_OFFSET + slot * SIZE_OF_LONG;
    }

    private void updateBits(final int at, final int bits, final boolean on)
    {
        int was;
        do
        {
            was = buffer.getIntVolatile(at);
        }
        while (!buffer.compareAndSetInt(at, was, on ? was | bits : was & ~bits));
    }
}
