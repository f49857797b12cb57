package io.rfmrt.runtime.threads.internal;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * Direct-mapped libc calls for thread placement and memory locking. Called when a thread starts or an environment is
 * prepared, never on the hot path. After a call that returned -1, {@link Native#getLastError()} is its errno.
 */
public final class SchedLib
{
    /** {@code SCHED_OTHER}. */
    public static final int SCHED_OTHER = 0;
    /** {@code SCHED_FIFO}. */
    public static final int SCHED_FIFO = 1;
    /** {@code SCHED_RR}. */
    public static final int SCHED_RR = 2;
    /** {@code SCHED_BATCH}. */
    public static final int SCHED_BATCH = 3;
    /** {@code SCHED_IDLE}. */
    public static final int SCHED_IDLE = 5;
    /** {@code SCHED_DEADLINE}. */
    public static final int SCHED_DEADLINE = 6;
    /** {@code SCHED_RESET_ON_FORK}, or-ed into the policy that {@code sched_getscheduler} returns. */
    public static final int SCHED_RESET_ON_FORK = 0x40000000;
    /** {@code MCL_CURRENT}. */
    public static final int MCL_CURRENT = 1;
    /** {@code MCL_FUTURE}. */
    public static final int MCL_FUTURE = 2;
    /** {@code sizeof(struct sched_param)}: one int. */
    public static final int SCHED_PARAM_SIZE = 4;
    /** Bytes of the cpu mask passed to {@code sched_getaffinity}: room for 4096 cpus. */
    public static final int CPU_MASK_BYTES = 512;

    private static final Throwable LOAD_FAILURE;

    static
    {
        Throwable failure = null;
        try
        {
            Native.register(SchedLib.class, NativeLibrary.getInstance("c"));
        }
        catch (final Throwable t)
        {
            failure = t;
        }
        LOAD_FAILURE = failure;
    }

    private SchedLib()
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
     * @param pid    thread id, 0 for the calling thread.
     * @param policy {@code SCHED_*}.
     * @param param  a {@code struct sched_param} ({@link #SCHED_PARAM_SIZE} bytes: the priority as an int).
     * @return 0 on success, -1 on error.
     */
    public static native int sched_setscheduler(int pid, int policy, Pointer param);

    /**
     * @param pid thread id, 0 for the calling thread.
     * @return the policy (possibly with {@link #SCHED_RESET_ON_FORK}), -1 on error.
     */
    public static native int sched_getscheduler(int pid);

    /**
     * @param pid   thread id, 0 for the calling thread.
     * @param param receives the {@code struct sched_param}.
     * @return 0 on success, -1 on error.
     */
    public static native int sched_getparam(int pid, Pointer param);

    /**
     * @param pid        thread id, 0 for the calling thread.
     * @param cpuSetSize bytes of the mask.
     * @param mask       receives the cpu mask, least significant byte first.
     * @return 0 on success, -1 on error.
     */
    public static native int sched_getaffinity(int pid, long cpuSetSize, Pointer mask);

    /**
     * @param flags {@link #MCL_CURRENT} | {@link #MCL_FUTURE}.
     * @return 0 on success, -1 on error.
     */
    public static native int mlockall(int flags);

    /**
     * @return the calling thread's kernel id.
     */
    public static native int gettid();

    /**
     * @return the errno of the last failed call on this thread.
     */
    public static int errno()
    {
        return Native.getLastError();
    }
}
