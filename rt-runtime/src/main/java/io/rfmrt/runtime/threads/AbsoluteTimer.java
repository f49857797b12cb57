package io.rfmrt.runtime.threads;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.locks.LockSupport;

/**
 * Sleep until an instant of {@link System#nanoTime()} on the kernel's absolute timer: {@code clock_nanosleep(
 * CLOCK_MONOTONIC, TIMER_ABSTIME)}, the clock {@code System.nanoTime()} reads on Linux. A periodic RT thread that
 * waits this way uses the CPU only for its work and its wake-up, not for the rest of its period, so its RT duty is
 * its work's share of the period; and an absolute deadline does not drift by the time spent computing a relative one.
 * <pre>
 *   struct timespec (16 bytes, native order), written in place before each sleep:
 *    0                   8                   16
 *   +-------------------+-------------------+
 *   |      tv_sec       |      tv_nsec      |
 *   +-------------------+-------------------+
 * </pre>
 * When libc cannot be bound, {@link #sleepUntil} parks for the time that is left ({@link #isKernelTimer()} says
 * which). Threading: one owner thread per instance (the timespec is its own); allocation free.
 */
public final class AbsoluteTimer
{
    /** {@code CLOCK_MONOTONIC}. */
    static final int CLOCK_MONOTONIC = 1;
    /** {@code TIMER_ABSTIME}. */
    static final int TIMER_ABSTIME = 1;
    /** {@code EINTR}: a signal handler ran; the sleep goes on to the same instant. */
    static final int EINTR = 4;
    static final int TV_SEC_OFFSET = 0;
    static final int TV_NSEC_OFFSET = TV_SEC_OFFSET + Long.BYTES;
    static final int TIMESPEC_LENGTH = TV_NSEC_OFFSET + Long.BYTES;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private static final Throwable LOAD_FAILURE;

    static
    {
        Throwable failure = null;
        try
        {
            Native.register(AbsoluteTimer.class, NativeLibrary.getInstance("c"));
        }
        catch (final Throwable t)
        {
            failure = t;
        }
        LOAD_FAILURE = failure;
    }

    private final ByteBuffer timespecBuffer = BufferUtil.allocateDirectAligned(TIMESPEC_LENGTH, Long.BYTES)
        .order(ByteOrder.nativeOrder());
    private final UnsafeBuffer timespec = new UnsafeBuffer(timespecBuffer);
    private final long timespecAddress = timespec.addressOffset();

    /**
     * @return whether the kernel's absolute timer is used (libc bound); otherwise {@link LockSupport#parkNanos}.
     */
    public static boolean isKernelTimer()
    {
        return LOAD_FAILURE == null;
    }

    /**
     * Sleep until {@code deadlineNanos}; returns at once when it has passed. A signal does not cut the sleep short.
     *
     * @param deadlineNanos the instant, {@link System#nanoTime()}.
     */
    public void sleepUntil(final long deadlineNanos)
    {
        if (LOAD_FAILURE != null)
        {
            final long left = deadlineNanos - System.nanoTime();
            if (left > 0)
            {
                LockSupport.parkNanos(left);
            }
            return;
        }
        timespec.putLong(TV_SEC_OFFSET, Math.floorDiv(deadlineNanos, NANOS_PER_SECOND), ByteOrder.nativeOrder());
        timespec.putLong(TV_NSEC_OFFSET, Math.floorMod(deadlineNanos, NANOS_PER_SECOND), ByteOrder.nativeOrder());
        int rc;
        do
        {
            rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, timespecAddress, 0);
        }
        while (rc == EINTR);
    }

    /**
     * {@code int clock_nanosleep(clockid_t, int flags, const struct timespec *request, struct timespec *remain)}.
     *
     * @return 0, or the error number (not -1 and errno).
     */
    private static native int clock_nanosleep(int clockId, int flags, long request, long remain);
}
