package io.rfmrt.runtime.threads;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * RT hygiene figures of one thread, from {@code /proc/self/task/TID/stat} (minor page faults, field 10) and
 * {@code /proc/self/task/TID/status} ({@code nonvoluntary_ctxt_switches}), or the same files under
 * {@code /proc/PID} for a thread of another process: a thread that takes page faults
 * or is preempted after warm-up is touching memory it never touched before or sharing its core. Read from a
 * housekeeping thread (it allocates), never on the hot path; each file is read at most {@value #MAX_BYTES} bytes.
 *
 * @param minorFaults        minor page faults so far, -1 when unreadable.
 * @param involuntarySwitches involuntary context switches so far, -1 when unreadable.
 */
public record ThreadStats(long minorFaults, long involuntarySwitches)
{
    /** Longest read of a /proc file. */
    public static final int MAX_BYTES = 8192;

    /** The figures of a thread that could not be read. */
    public static final ThreadStats UNKNOWN = new ThreadStats(-1, -1);

    /**
     * @param tid kernel thread id of a thread of this process ({@link Placement#tid()}).
     * @return its figures now, {@link #UNKNOWN} parts where a file cannot be read or parsed.
     */
    public static ThreadStats of(final int tid)
    {
        if (tid <= 0)
        {
            return UNKNOWN;
        }
        return of(Path.of("/proc", "self", "task", Integer.toString(tid)));
    }

    /**
     * @param pid a process, this one or another of the same user.
     * @param tid kernel thread id of one of its threads.
     * @return its figures now, {@link #UNKNOWN} parts where a file cannot be read or parsed (the thread has ended).
     */
    public static ThreadStats of(final long pid, final int tid)
    {
        if (pid <= 0 || tid <= 0)
        {
            return UNKNOWN;
        }
        return of(Path.of("/proc", Long.toString(pid), "task", Integer.toString(tid)));
    }

    private static ThreadStats of(final Path task)
    {
        return new ThreadStats(minorFaults(read(task.resolve("stat"))), involuntary(read(task.resolve("status"))));
    }

    /**
     * @param since an earlier reading of the same thread.
     * @return the difference, -1 parts where either reading is unknown.
     */
    public ThreadStats minus(final ThreadStats since)
    {
        return new ThreadStats(minorFaults < 0 || since.minorFaults < 0 ? -1 : minorFaults - since.minorFaults,
            involuntarySwitches < 0 || since.involuntarySwitches < 0 ? -1 :
                involuntarySwitches - since.involuntarySwitches);
    }

    static long minorFaults(final String stat)
    {
        if (stat == null)
        {
            return -1;
        }
        // the command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'
        final int close = stat.lastIndexOf(')');
        if (close < 0)
        {
            return -1;
        }
        final String[] fields = stat.substring(close + 1).trim().split("\\s+");
        // fields[0] is field 3 (state); minflt is field 10
        return fields.length > 7 ? parse(fields[7]) : -1;
    }

    static long involuntary(final String status)
    {
        if (status == null)
        {
            return -1;
        }
        for (final String line : status.split("\n"))
        {
            if (line.startsWith("nonvoluntary_ctxt_switches:"))
            {
                return parse(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return -1;
    }

    private static long parse(final String text)
    {
        try
        {
            final long value = Long.parseLong(text);
            return value < 0 ? -1 : value;
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    private static String read(final Path file)
    {
        try (InputStream in = Files.newInputStream(file))
        {
            return new String(in.readNBytes(MAX_BYTES), StandardCharsets.US_ASCII);
        }
        catch (final IOException | SecurityException ex)
        {
            return null;
        }
    }

    @Override
    public String toString()
    {
        return "minflt=" + minorFaults + " nivcsw=" + involuntarySwitches;
    }
}
