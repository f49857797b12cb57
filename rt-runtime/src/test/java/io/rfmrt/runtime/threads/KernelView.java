package io.rfmrt.runtime.threads;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;


/**
 * What the kernel says about a thread of this process, read from {@code /proc/self/task/<tid>} independently of the
 * code under test.
 */
final class KernelView
{
    /** {@code stat} field 40: rt_priority. */
    private static final int FIELD_RT_PRIORITY = 40;
    /** {@code stat} field 41: policy. */
    private static final int FIELD_POLICY = 41;
    /** Fields before the ones that follow {@code (comm)}. */
    private static final int FIELDS_THROUGH_COMM = 2;

    private KernelView()
    {
    }

    static boolean isRoot()
    {
        return "root".equals(System.getProperty("user.name"));
    }

    static boolean cpuOnline(final int cpu)
    {
        return CpuSet.parse(read(Path.of("/sys/devices/system/cpu/online"))).contains(cpu);
    }

    static int policy(final int tid)
    {
        return statField(tid, FIELD_POLICY);
    }

    static int rtPriority(final int tid)
    {
        return statField(tid, FIELD_RT_PRIORITY);
    }

    static String cpusAllowedList(final int tid)
    {
        return statusField(Path.of("/proc/self/task", Integer.toString(tid), "status"), "Cpus_allowed_list:");
    }

    static String comm(final int tid)
    {
        return read(Path.of("/proc/self/task", Integer.toString(tid), "comm")).strip();
    }

    static long vmLckKb()
    {
        final String value = statusField(Path.of("/proc/self/status"), "VmLck:");
        return Long.parseLong(value.replace("kB", "").strip());
    }

    static String statusField(final Path status, final String field)
    {
        for (final String line : read(status).split("\n"))
        {
            if (line.startsWith(field))
            {
                return line.substring(field.length()).strip();
            }
        }
        throw new IllegalStateException("no " + field + " in " + status);
    }

    private static int statField(final int tid, final int field)
    {
        final String stat = read(Path.of("/proc/self/task", Integer.toString(tid), "stat"));
        final String[] afterComm = stat.substring(stat.lastIndexOf(')') + 1).strip().split("\\s+");
        return Integer.parseInt(afterComm[field - FIELDS_THROUGH_COMM - 1]);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.US_ASCII);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
