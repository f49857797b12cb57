package io.rfmrt.rfm.internal;

import com.sun.jna.Native;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Process identity from {@code /proc/PID/stat}: a pid plus its start time (clock ticks since boot) names one
 * process even when pids are reused.
 */
public final class ProcStat
{
    private ProcStat()
    {
    }

    /**
     * @return this process's pid.
     */
    public static long selfPid()
    {
        return ProcessHandle.current().pid();
    }

    /**
     * @param pid a pid.
     * @return its start time in clock ticks after boot, or -1 if no such live (non-zombie) process.
     */
    public static long startTime(final long pid)
    {
        final String stat;
        try
        {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
        // the command name is in parentheses and may contain spaces: fields count from the last ')'
        final int close = stat.lastIndexOf(')');
        if (close < 0)
        {
            return -1;
        }
        final String[] fields = stat.substring(close + 2).split(" ");
        // fields[0] is field 3 (state), so field 22 (starttime) is fields[19]
        if (fields.length < 20 || "Z".equals(fields[0]) || "X".equals(fields[0]))
        {
            return -1;
        }
        try
        {
            return Long.parseLong(fields[19]);
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /** {@code errno} of a signal to a process of another user. */
    private static final int EPERM = 1;

    /**
     * Allocation-free: whether a process with this pid exists (any user's), without telling a reused pid apart (see
     * {@link #isAlive} for that). False when libc is not bound.
     *
     * @param pid a pid.
     * @return whether it exists.
     */
    public static boolean exists(final long pid)
    {
        if (pid <= 0 || pid > Integer.MAX_VALUE || LibC.loadFailure() != null)
        {
            return false;
        }
        return LibC.kill((int)pid, 0) == 0 || Native.getLastError() == EPERM;
    }

    /**
     * @param pid       a pid.
     * @param startTime the start time recorded with it, or 0 if unknown.
     * @return true when that very process still runs.
     */
    public static boolean isAlive(final long pid, final long startTime)
    {
        final long actual = startTime(pid);
        return actual >= 0 && (startTime == 0 || actual == startTime);
    }
}
