package io.rfmrt.rfm.internal;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

/**
 * Direct-mapped libc calls. Direct mapping with primitive arguments makes a call allocation-free, which the receive
 * path needs (a JNA interface proxy boxes its arguments).
 */
public final class LibC
{
    /** {@code SYS_futex} on x86-64. */
    public static final long SYS_FUTEX = 202;
    /** {@code FUTEX_WAIT}: shared (not private) so it works across processes. */
    public static final int FUTEX_WAIT = 0;
    /** {@code FUTEX_WAKE}. */
    public static final int FUTEX_WAKE = 1;
    /** {@code MCL_CURRENT}. */
    public static final int MCL_CURRENT = 1;
    /** {@code MCL_FUTURE}. */
    public static final int MCL_FUTURE = 2;

    private static final Throwable LOAD_FAILURE;

    static
    {
        Throwable failure = null;
        try
        {
            Native.register(LibC.class, NativeLibrary.getInstance("c"));
        }
        catch (final Throwable t)
        {
            failure = t;
        }
        LOAD_FAILURE = failure;
    }

    private LibC()
    {
    }

    /**
     * @return null when libc was bound, else why not.
     */
    public static Throwable loadFailure()
    {
        return LOAD_FAILURE;
    }

    /**
     * {@code long syscall(long number, ...)} with six integer arguments.
     *
     * @param number system call number.
     * @param a1     argument 1.
     * @param a2     argument 2.
     * @param a3     argument 3.
     * @param a4     argument 4.
     * @param a5     argument 5.
     * @param a6     argument 6.
     * @return the result, -1 on error.
     */
    public static native long syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6);

    /**
     * @param address start, page aligned.
     * @param length  bytes.
     * @return 0 on success.
     */
    public static native int mlock(long address, long length);

    /**
     * @param address start, page aligned.
     * @param length  bytes.
     * @return 0 on success.
     */
    public static native int munlock(long address, long length);

    /**
     * @param flags MCL_CURRENT | MCL_FUTURE.
     * @return 0 on success.
     */
    public static native int mlockall(int flags);

    /**
     * @return the calling thread's kernel id.
     */
    public static native int gettid();

    /**
     * {@code kill(pid, 0)} asks whether a process exists without signalling it.
     *
     * @param pid a pid.
     * @param sig a signal, 0 for none.
     * @return 0 on success, -1 on error ({@code Native.getLastError()}: ESRCH no such process, EPERM not ours).
     */
    public static native int kill(int pid, int sig);
}
