package io.rfmrt.control.node;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The plant's commands by cycle, from its receive path's handler to its loop: the handler writes a command into the
 * slot of its cycle (the tag cleared, the values, then the tag, then the newest cycle, each a release), the loop takes
 * the newest command up to the cycle it may act on, reading a slot's values between two reads of its tag so a slot
 * being rewritten is never taken torn. A command not newer than the newest is ignored (a replayed or reordered frame).
 * <pre>
 *   slot = cycle mod SLOTS:  tag (cycle, 0 while written) | torque bits | control word
 * </pre>
 * Threading: one writer ({@link #offer}), one reader ({@link #take}); allocation free.
 */
final class CommandMailbox
{
    /** Commands kept by cycle. */
    static final int SLOTS = 1024;

    private final AtomicLong newest = new AtomicLong();
    private final AtomicLongArray tag = new AtomicLongArray(SLOTS);
    private final long[] torqueBits = new long[SLOTS];
    private final int[] words = new int[SLOTS];
    private long cycle;
    private double torque;
    private int word;

    /**
     * The handler's side.
     *
     * @param commandCycle the cycle the command answers (positive).
     * @param torqueNm     its torque.
     * @param controlWord  its control word.
     * @return false when it is not newer than the newest command (ignored).
     */
    boolean offer(final long commandCycle, final double torqueNm, final int controlWord)
    {
        if (commandCycle <= newest.getPlain())
        {
            return false;
        }
        final int slot = (int)(commandCycle & (SLOTS - 1));
        tag.setRelease(slot, 0);
        torqueBits[slot] = Double.doubleToRawLongBits(torqueNm);
        words[slot] = controlWord;
        tag.setRelease(slot, commandCycle);
        newest.setRelease(commandCycle);
        return true;
    }

    /**
     * The loop's side: take the newest command whose cycle is at most {@code upTo} and after {@code after} (no older
     * than half the slots behind the newest).
     *
     * @param upTo  the newest cycle the drive may act on.
     * @param after the cycle of the command the drive holds.
     * @return whether one was taken ({@link #cycle()}, {@link #torque()}, {@link #word()}).
     */
    boolean take(final long upTo, final long after)
    {
        final long newestCycle = newest.getAcquire();
        final long oldest = Math.max(after + 1, newestCycle - SLOTS / 2);
        for (long c = Math.min(newestCycle, upTo); c >= oldest; c--)
        {
            final int slot = (int)(c & (SLOTS - 1));
            if (tag.getAcquire(slot) == c)
            {
                final long bits = torqueBits[slot];
                final int w = words[slot];
                if (tag.getAcquire(slot) == c)
                {
                    cycle = c;
                    torque = Double.longBitsToDouble(bits);
                    word = w;
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return the cycle of the command last taken.
     */
    long cycle()
    {
        return cycle;
    }

    /**
     * @return its torque, N·m.
     */
    double torque()
    {
        return torque;
    }

    /**
     * @return its control word.
     */
    int word()
    {
        return word;
    }
}
