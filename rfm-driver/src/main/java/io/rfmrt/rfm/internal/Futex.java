package io.rfmrt.rfm.internal;

/**
 * Shared futex operations on a 32-bit word in a mapped file: the emulated interrupt line. Waiting is a real kernel
 * block, waking a real kernel wake-up. Allocation-free.
 */
public final class Futex
{
    private Futex()
    {
    }

    /**
     * Sleep while the word at {@code address} still holds {@code expected}.
     *
     * @param address         4-byte aligned address of the word.
     * @param expected        the value read just before; the kernel re-checks it atomically.
     * @param timespecAddress address of a {@code struct timespec} with a relative time-out, or 0 for none.
     * @return 0 when woken, -1 on time-out, signal or value change (the caller re-checks its condition).
     */
    public static long await(final long address, final int expected, final long timespecAddress)
    {
        return LibC.syscall(LibC.SYS_FUTEX, address, LibC.FUTEX_WAIT, expected, timespecAddress, 0, 0);
    }

    /**
     * Wake waiters on the word at {@code address}.
     *
     * @param address 4-byte aligned address of the word.
     * @param count   how many to wake at most.
     * @return how many were woken, -1 on error.
     */
    public static long wake(final long address, final int count)
    {
        return LibC.syscall(LibC.SYS_FUTEX, address, LibC.FUTEX_WAKE, count, 0, 0, 0);
    }
}
