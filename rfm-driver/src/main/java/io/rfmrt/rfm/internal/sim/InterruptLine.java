package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.internal.Futex;
import org.agrona.concurrent.AtomicBuffer;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_LINE_OFFSET;
import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FIFO_WAITERS_OFFSET;

/**
 * Flyweight over the interrupt line of one event FIFO (layout in {@link ControlBlockDescriptor}): a 32-bit futex word
 * that moves by one each time the line is raised, and a count of the threads that announced they sleep on it. A
 * sleeper reads the word, announces itself, checks its FIFO, then sleeps while the word still holds what it read;
 * raising bumps the word first and issues the wake-up system call only when someone announced.
 * <p>
 * Any process may {@link #raise}. Allocation-free.
 */
public final class InterruptLine
{
    private AtomicBuffer buffer;
    private int offset;

    /**
     * @param buffer     the control block.
     * @param fifoOffset offset of the FIFO the line belongs to.
     * @return this.
     */
    public InterruptLine wrap(final AtomicBuffer buffer, final int fifoOffset)
    {
        this.buffer = buffer;
        this.offset = fifoOffset;
        return this;
    }

    /**
     * Bump the line and wake every sleeper on it.
     *
     * @return true when a sleeper had announced itself, so that a wake-up was issued.
     */
    public boolean raise()
    {
        buffer.getAndAddInt(offset + FIFO_LINE_OFFSET, 1);
        if (buffer.getIntVolatile(offset + FIFO_WAITERS_OFFSET) > 0)
        {
            Futex.wake(address(), Integer.MAX_VALUE);
            return true;
        }
        return false;
    }

    /**
     * @return the line's current value.
     */
    public int value()
    {
        return buffer.getIntVolatile(offset + FIFO_LINE_OFFSET);
    }

    /**
     * @return address of the futex word in this process.
     */
    public long address()
    {
        return buffer.addressOffset() + offset + FIFO_LINE_OFFSET;
    }

    /**
     * @param delta +1 before sleeping, -1 after.
     */
    public void addWaiter(final int delta)
    {
        buffer.getAndAddInt(offset + FIFO_WAITERS_OFFSET, delta);
    }

    /**
     * @return threads that announced they sleep on the line.
     */
    public int waiters()
    {
        return buffer.getIntVolatile(offset + FIFO_WAITERS_OFFSET);
    }
}
