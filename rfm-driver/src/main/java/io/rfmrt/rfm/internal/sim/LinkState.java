package io.rfmrt.rfm.internal.sim;

import org.agrona.concurrent.AtomicBuffer;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.LINK_DOWNS_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.LINK_GENERATION_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.LINK_STATE_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.NETWORK_RESETS_OFFSET;

/**
 * Flyweight over the ring's state in the control block header (layout in {@link ControlBlockDescriptor}): the link
 * word ({@value #UP} closed ring, {@value #DOWN} open), its generation (moves by one on every change of the link
 * word), and the counts of link downs and network resets. Allocation-free.
 */
public final class LinkState
{
    /** Link word of a closed ring; a new network starts with it. */
    public static final int UP = 1;
    /** Link word of an open ring. */
    public static final int DOWN = 0;

    private AtomicBuffer buffer;

    /**
     * @param buffer the control block.
     * @return this.
     */
    public LinkState wrap(final AtomicBuffer buffer)
    {
        this.buffer = buffer;
        return this;
    }

    /**
     * Lay out a new network's link: up, generation 0, no downs, no resets.
     *
     * @param buffer the control block being built.
     */
    public static void init(final AtomicBuffer buffer)
    {
        buffer.putInt(LINK_STATE_OFFSET, UP);
        buffer.putInt(LINK_GENERATION_OFFSET, 0);
        buffer.putLong(LINK_DOWNS_OFFSET, 0);
        buffer.putLong(NETWORK_RESETS_OFFSET, 0);
    }

    /**
     * @return whether the ring is closed.
     */
    public boolean up()
    {
        return buffer.getIntVolatile(LINK_STATE_OFFSET) != DOWN;
    }

    /**
     * Change the link word; the process whose compare-and-set wins bumps the generation and, for a down, the count
     * of downs.
     *
     * @param up the new state.
     * @return whether this call changed it.
     */
    public boolean set(final boolean up)
    {
        final int want = up ? UP : DOWN;
        final int was = buffer.getIntVolatile(LINK_STATE_OFFSET);
        if (was == want || !buffer.compareAndSetInt(LINK_STATE_OFFSET, was, want))
        {
            return false;
        }
        buffer.getAndAddInt(LINK_GENERATION_OFFSET, 1);
        if (!up)
        {
            buffer.getAndAddLong(LINK_DOWNS_OFFSET, 1);
        }
        return true;
    }

    /**
     * @return changes of the link word since the network was created.
     */
    public int generation()
    {
        return buffer.getIntVolatile(LINK_GENERATION_OFFSET);
    }

    /**
     * @return times the ring has gone down.
     */
    public long downs()
    {
        return buffer.getLongVolatile(LINK_DOWNS_OFFSET);
    }

    /**
     * Count one network reset.
     */
    public void countReset()
    {
        buffer.getAndAddLong(NETWORK_RESETS_OFFSET, 1);
    }

    /**
     * @return network resets done.
     */
    public long resets()
    {
        return buffer.getLongVolatile(NETWORK_RESETS_OFFSET);
    }
}
