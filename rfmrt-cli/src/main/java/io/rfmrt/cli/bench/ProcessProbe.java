package io.rfmrt.cli.bench;

import io.rfmrt.runtime.threads.ThreadStats;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One look at a running process from outside it, as {@code bench soak} takes one per interval: its resident set
 * ({@code /proc/PID/status}), its JVM's collections, compilations, safepoints and heap ({@link JvmPerfData}), and the
 * page faults and preemptions of each of its named RT threads ({@code /proc/PID/task/TID}, found by the thread name
 * the kernel keeps, {@code comm}). Every file is read at most {@link ThreadStats#MAX_BYTES} bytes, and at most
 * {@link #MAX_TASKS} threads are looked at.
 */
final class ProcessProbe
{
    /** Most threads of one process looked at. */
    static final int MAX_TASKS = 4096;
    /** Bytes of a thread's name the kernel keeps ({@code TASK_COMM_LEN} - 1). */
    static final int COMM_LENGTH = 15;

    private ProcessProbe()
    {
    }

    /**
     * One thread's figures so far.
     *
     * @param thread              its name.
     * @param tid                 its kernel thread id.
     * @param minorFaults         minor page faults, -1 when unreadable.
     * @param involuntarySwitches involuntary context switches, -1 when unreadable.
     */
    record ThreadReading(String thread, int tid, long minorFaults, long involuntarySwitches)
    {
    }

    /**
     * One process's figures so far.
     *
     * @param pid          the process.
     * @param alive        whether it was there to read.
     * @param rssBytes     its resident set, -1 when unreadable.
     * @param rssAnonBytes the anonymous part of it (heap, stacks, malloc; not the pages of mapped files such as a
     *                     journal's), -1 when unreadable.
     * @param jvm          its JVM's counters, null when unreadable.
     * @param threads      its threads of the names asked for, in the order the kernel lists them.
     */
    record Reading(long pid, boolean alive, long rssBytes, long rssAnonBytes, JvmPerfData jvm,
        List<ThreadReading> threads)
    {
    }

    /**
     * @param pid     a process of this user.
     * @param threads the names of the threads to read (matched on the first {@link #COMM_LENGTH} characters, all the
     *                kernel keeps).
     * @return its figures now.
     */
    static Reading read(final long pid, final Set<String> threads)
    {
        final Path proc = Path.of("/proc", Long.toString(pid));
        final String status = read(proc.resolve("status"));
        if (status == null)
        {
            return new Reading(pid, false, -1, -1, null, List.of());
        }
        // the kernel keeps the first 15 bytes of a thread's name
        final Map<String, String> byComm = new HashMap<>();
        for (final String name : threads)
        {
            byComm.put(name.substring(0, Math.min(COMM_LENGTH, name.length())), name);
        }
        final List<ThreadReading> found = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task")))
        {
            int seen = 0;
            for (final Path task : tasks)
            {
                if (++seen > MAX_TASKS)
                {
                    break;
                }
                final int tid = tid(task.getFileName().toString());
                final String comm = read(task.resolve("comm"));
                final String name = comm == null ? null : byComm.get(comm.strip());
                if (tid <= 0 || name == null)
                {
                    continue;
                }
                final ThreadStats stats = ThreadStats.of(pid, tid);
                found.add(new ThreadReading(name, tid, stats.minorFaults(), stats.involuntarySwitches()));
            }
        }
        catch (final IOException | SecurityException ex)
        {
            // the process ended between the two reads: its threads are not there to count
        }
        return new Reading(pid, true, statusBytes(status, "VmRSS:"), statusBytes(status, "RssAnon:"),
            JvmPerfData.of(pid), List.copyOf(found));
    }

    /**
     * @param status the text of {@code /proc/PID/status}.
     * @param key    a field given in kB, with its colon ({@code VmRSS:}, {@code RssAnon:}).
     * @return the field in bytes, -1 when absent or not a number of kB.
     */
    static long statusBytes(final String status, final String key)
    {
        for (final String line : status.split("\n"))
        {
            if (line.startsWith(key))
            {
                final String[] parts = line.substring(key.length()).trim().split("\\s+");
                try
                {
                    return "kB".equals(parts.length > 1 ? parts[1] : "kB") ? Long.parseLong(parts[0]) * 1024 : -1;
                }
                catch (final NumberFormatException ex)
                {
                    return -1;
                }
            }
        }
        return -1;
    }

    private static int tid(final String name)
    {
        try
        {
            return Integer.parseInt(name);
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
            return new String(in.readNBytes(ThreadStats.MAX_BYTES), StandardCharsets.US_ASCII);
        }
        catch (final IOException | SecurityException ex)
        {
            return null;
        }
    }
}
