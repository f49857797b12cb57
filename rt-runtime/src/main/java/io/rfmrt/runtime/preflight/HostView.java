package io.rfmrt.runtime.preflight;

import io.rfmrt.runtime.threads.CpuSet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read-only view of a machine the preflight judges: its kernel files under a root ({@link SysRoot}: {@code /} on
 * a live machine, a fixture tree in tests), the cpu lists several checks share (read once), and the options of the
 * run. Never throws for a missing or unreadable file.
 */
final class HostView
{
    static final String CPU_DIR = "/sys/devices/system/cpu";
    static final String ISOLATED = CPU_DIR + "/isolated";
    static final String NOHZ_FULL = CPU_DIR + "/nohz_full";
    static final String CMDLINE = "/proc/cmdline";

    private final SysRoot root;
    private final PreflightOptions options;
    private final CpuSet online;
    private final Map<String, String> malformed = new HashMap<>();
    private final Optional<CpuSet> isolated;
    private final Optional<CpuSet> nohzFull;

    HostView(final SysRoot root, final PreflightOptions options)
    {
        this.root = root;
        this.options = options;
        this.online = readOnline(root);
        this.isolated = cpuListOrEmpty(ISOLATED);
        this.nohzFull = cpuListOrEmpty(NOHZ_FULL);
    }

    SysRoot files()
    {
        return root;
    }

    PreflightOptions options()
    {
        return options;
    }

    /**
     * @return the online cpus (else the possible ones, else the {@code cpuN} folders).
     */
    CpuSet online()
    {
        return online;
    }

    /**
     * @return the isolated cpus; empty when the file is missing, the empty set when it is malformed
     * ({@link #malformed} says why).
     */
    Optional<CpuSet> isolated()
    {
        return isolated;
    }

    /**
     * @return the nohz_full cpus, as {@link #isolated()}.
     */
    Optional<CpuSet> nohzFull()
    {
        return nohzFull;
    }

    /**
     * @param path a shared cpu-list file.
     * @return why it did not parse, when it did not.
     */
    Optional<String> malformed(final String path)
    {
        return Optional.ofNullable(malformed.get(path));
    }

    /**
     * @param list  a cpu list (boot command line forms allowed; {@code all} means the online cpus).
     * @param where the file it came from, for the message.
     * @return the set.
     * @throws IllegalArgumentException naming the list and the file.
     */
    CpuSet parseList(final String list, final String where)
    {
        try
        {
            return CpuSet.parseList(list, online);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(ex.getMessage() + " in " + where, ex);
        }
    }

    Optional<String> read(final String path)
    {
        return root.read(path);
    }

    Optional<String> firstLine(final String path)
    {
        return root.firstLine(path);
    }

    String why(final String path)
    {
        return root.why(path);
    }

    boolean isDirectory(final String path)
    {
        return root.isDirectory(path);
    }

    List<Integer> listNumbers(final String path, final String prefix)
    {
        return root.listNumbers(path, prefix);
    }

    private static CpuSet readOnline(final SysRoot root)
    {
        for (final String file : new String[]{CPU_DIR + "/online", CPU_DIR + "/possible"})
        {
            final Optional<String> text = root.firstLine(file);
            if (text.isPresent())
            {
                try
                {
                    return CpuSet.parse(text.get());
                }
                catch (final IllegalArgumentException ex)
                {
                    // try the next file
                }
            }
        }
        final List<Integer> cpus = root.listNumbers(CPU_DIR, "cpu");
        return CpuSet.of(cpus);
    }

    /**
     * A cpu list the checks share: when malformed, its own item says so and the others see none. {@code (null)}
     * reads as empty ({@link CpuSet}).
     */
    private Optional<CpuSet> cpuListOrEmpty(final String path)
    {
        try
        {
            return root.firstLine(path).map(text -> parseList(text.strip(), path));
        }
        catch (final IllegalArgumentException ex)
        {
            malformed.put(path, ex.getMessage());
            return Optional.of(CpuSet.EMPTY);
        }
    }
}
