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
    /** {@code O_RDWR}. */
    public static final int O_RDWR = 2;
    /** {@code O_NOFOLLOW} on x86-64. */
    public static final int O_NOFOLLOW = 0400000;
    /** {@code O_CLOEXEC} on x86-64. */
    public static final int O_CLOEXEC = 02000000;
    /** {@code LOCK_EX}: an exclusive {@code flock}. */
    public static final int LOCK_EX = 2;
    /** {@code EINTR}. */
    public static final int EINTR = 4;
    /** {@code ENOSPC}. */
    public static final int ENOSPC = 28;

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

    /**
     * @param path  a file.
     * @param flags {@code O_*} flags.
     * @return a file descriptor, -1 on error ({@code Native.getLastError()}).
     */
    public static native int open(String path, int flags);

    /**
     * @param fd a file descriptor.
     * @return 0 on success.
     */
    public static native int close(int fd);

    /**
     * Give a file its blocks for real (a sparse file's holes are only promises: a mapping faults where the file
     * system cannot keep them).
     *
     * @param fd     a file descriptor open for writing.
     * @param offset start.
     * @param length bytes.
     * @return 0 on success, else the error number (ENOSPC: no space), not -1.
     */
    public static native int posix_fallocate(int fd, long offset, long length);

    /**
     * A lock on the open file itself (not on the process, as {@code fcntl} locks are): closing another descriptor of
     * the same file does not release it. Closing this descriptor does.
     *
     * @param fd        a file descriptor.
     * @param operation {@link #LOCK_EX}.
     * @return 0 on success, -1 on error ({@code Native.getLastError()}).
     */
    public static native int flock(int fd, int operation);
}
