package io.rfmrt.control.node;

import java.util.concurrent.locks.LockSupport;

/**
 * The stall faults' hold-up of a loop's thread, as a pre-emption would hold it up.
 */
final class HoldUp
{
    private HoldUp()
    {
    }

    /**
     * Hold the calling thread up for at least {@code nanos}, whatever wakes it earlier: a park returns at once on an
     * unpark left over from elsewhere (the hand-off ring's wake of its consumer), or for no reason at all.
     *
     * @param nanos how long, ns.
     */
    static void atLeast(final long nanos)
    {
        final long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime())
        {
            LockSupport.parkNanos(left);
        }
    }
}
