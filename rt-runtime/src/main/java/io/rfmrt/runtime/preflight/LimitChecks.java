package io.rfmrt.runtime.preflight;

import io.rfmrt.runtime.threads.CpuSet;
import io.rfmrt.runtime.threads.RtBudget;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The preflight items about the limits the kernel puts on this process: RT throttling, {@code RLIMIT_RTPRIO},
 * {@code RLIMIT_MEMLOCK}, swap.
 */
final class LimitChecks
{
    private static final int CAP_IPC_LOCK = 14;
    private static final int CAP_SYS_NICE = 23;
    private static final long MIB = 1024L * 1024L;
    private static final long GIB = 1024L * MIB;
    static final String HINT_RT_THROTTLING =
        "tuning/bin/rfmrt-isolate --rt-runtime-unlimited, or sysctl -w kernel.sched_rt_runtime_us=-1 " +
        "(a runaway SCHED_FIFO thread then keeps its cpu)";
    static final String HINT_RTPRIO =
        "LimitRTPRIO=99 in the node's systemd unit, or '<user> - rtprio 99' in /etc/security/limits.d/";
    static final String HINT_MEMLOCK =
        "LimitMEMLOCK=infinity in the node's systemd unit, or '<user> - memlock unlimited' in /etc/security/limits.d/";
    static final String HINT_SWAP =
        "swapoff -a and remove swap from /etc/fstab (mlockall keeps the node's pages in RAM, other processes still " +
        "stall the machine when they swap)";

    private LimitChecks()
    {
    }

    /**
     * @return the checks of this group, in report order.
     */
    static List<PreflightCheck> checks()
    {
        return List.of(
            new Check(CheckId.RT_THROTTLING, HINT_RT_THROTTLING, LimitChecks::rtThrottling),
            new Check(CheckId.RLIMIT_RTPRIO, HINT_RTPRIO, LimitChecks::rtprio),
            new Check(CheckId.RLIMIT_MEMLOCK, HINT_MEMLOCK, LimitChecks::memlock),
            new Check(CheckId.SWAP, HINT_SWAP, LimitChecks::swap));
    }

    /**
     * The RT budget ({@link RtBudget}): -1 passes (no throttling); a positive runtime warns with what it leaves the RT
     * threads of each cpu, the share their planned duty must stay under ({@link io.rfmrt.runtime.threads.RtDuty});
     * 0 fails.
     */
    static PreflightItem rtThrottling(final HostView host, final Check c)
    {
        final String path = "/" + RtBudget.RUNTIME_FILE;
        final Optional<String> text = host.firstLine(path).map(String::strip);
        if (text.isEmpty())
        {
            return c.unknown(host, path);
        }
        final RtBudget budget;
        try
        {
            budget = RtBudget.parse(text.get(), host.firstLine("/" + RtBudget.PERIOD_FILE).orElse(null));
        }
        catch (final IllegalArgumentException ex)
        {
            return c.item(CheckStatus.WARN, "unknown: " + ex.getMessage());
        }
        if (budget.unlimited())
        {
            return c.item(CheckStatus.PASS, budget.runtimeUs() + " (no RT throttling)");
        }
        if (budget.runtimeUs() == 0)
        {
            return c.item(CheckStatus.FAIL, "0: RT tasks get no cpu time at all");
        }
        return c.item(CheckStatus.WARN, String.format(Locale.ROOT, "%d of %d us: RT threads get %.0f%% of each " +
            "cpu, then are stopped for %d ms; a node's RT threads on one cpu must plan under %.0f%% of it (a " +
            "spinning one plans 100%%)", budget.runtimeUs(), budget.periodUs(), 100 * budget.share(),
            budget.throttleUs() / 1000, 100 * budget.share()));
    }

    static PreflightItem rtprio(final HostView host, final Check c)
    {
        final String path = "/proc/self/limits";
        final Optional<String[]> limit = limit(host, path, "Max realtime priority");
        if (limit.isEmpty())
        {
            return c.item(CheckStatus.WARN, limitUnknown(host, path, "Max realtime priority"));
        }
        final String soft = limit.get()[0];
        final String value = soft + " (hard " + limit.get()[1] + ")";
        final long allowed = soft.equals("unlimited") ? Long.MAX_VALUE : parseLong(soft).orElse(-1L);
        if (allowed < 0)
        {
            return c.item(CheckStatus.WARN, "unknown: '" + soft + "' in " + path);
        }
        if (allowed >= host.options().minRtPriority())
        {
            return c.item(CheckStatus.PASS, value);
        }
        if (hasCapability(host, CAP_SYS_NICE))
        {
            return c.item(CheckStatus.WARN,
                value + "; CAP_SYS_NICE held, so not enforced for this process (a node under another user needs it)");
        }
        return allowed == 0 ?
            c.item(CheckStatus.FAIL, value + ": SCHED_FIFO refused") :
            c.item(CheckStatus.WARN,
                value + ": SCHED_FIFO priorities above " + allowed + " refused (expected up to " +
                host.options().minRtPriority() + ")");
    }

    static PreflightItem memlock(final HostView host, final Check c)
    {
        final String path = "/proc/self/limits";
        final Optional<String[]> limit = limit(host, path, "Max locked memory");
        if (limit.isEmpty())
        {
            return c.item(CheckStatus.WARN, limitUnknown(host, path, "Max locked memory"));
        }
        final String soft = limit.get()[0];
        final String value = bytes(soft) + " (hard " + bytes(limit.get()[1]) + ")";
        if (soft.equals("unlimited"))
        {
            return c.item(CheckStatus.PASS, value);
        }
        if (hasCapability(host, CAP_IPC_LOCK))
        {
            return c.item(CheckStatus.WARN,
                value + "; CAP_IPC_LOCK held, so not enforced for this process (a node under another user needs it)");
        }
        return c.item(CheckStatus.FAIL,
            value + ": mlockall(MCL_CURRENT|MCL_FUTURE) of a JVM needs unlimited");
    }

    static PreflightItem swap(final HostView host, final Check c)
    {
        final String path = "/proc/swaps";
        final Optional<String> text = host.read(path);
        if (text.isEmpty())
        {
            return c.unknown(host, path);
        }
        final List<String> areas = new ArrayList<>();
        final String[] lines = text.get().split("\n");
        for (int i = 1; i < lines.length; i++)
        {
            final String[] fields = lines[i].strip().split("\\s+");
            if (fields.length >= 3 && !fields[0].isEmpty())
            {
                areas.add(fields[0] + " (" + fields[1] + ", " + parseLong(fields[2]).map(k -> bytes(
                    Long.toString(k * 1024))).orElse(fields[2]) + ")");
            }
        }
        if (areas.isEmpty())
        {
            return c.item(CheckStatus.PASS, "none");
        }
        return c.item(CheckStatus.WARN, areas.size() + (areas.size() == 1 ? " swap area: " :
            " swap areas: ") + String.join(", ", areas));
    }

    private static Optional<Long> parseLong(final String text)
    {
        try
        {
            return Optional.of(Long.parseLong(text.strip()));
        }
        catch (final NumberFormatException ex)
        {
            return Optional.empty();
        }
    }

    private static String limitUnknown(final HostView host, final String path, final String name)
    {
        return host.read(path).isPresent() ?
            "unknown: no '" + name + "' line in " + path :
            "unknown: " + host.why(path);
    }

    /**
     * @return soft and hard limit of a {@code /proc/PID/limits} line.
     */
    private static Optional<String[]> limit(final HostView host, final String path, final String name)
    {
        return host.read(path).flatMap(text ->
        {
            for (final String line : text.split("\n"))
            {
                if (line.startsWith(name))
                {
                    final String[] fields = line.substring(name.length()).strip().split("\\s+");
                    if (fields.length >= 2)
                    {
                        return Optional.of(new String[]{fields[0], fields[1]});
                    }
                }
            }
            return Optional.empty();
        });
    }

    private static String bytes(final String limit)
    {
        final Optional<Long> bytes = parseLong(limit);
        if (bytes.isEmpty())
        {
            return limit;
        }
        final long b = bytes.get();
        if (b >= GIB && b % GIB == 0)
        {
            return b / GIB + " GiB";
        }
        if (b >= MIB && b % MIB == 0)
        {
            return b / MIB + " MiB";
        }
        return b % 1024 == 0 && b > 0 ? b / 1024 + " KiB" : b + " bytes";
    }

    /**
     * @return true when {@code /proc/self/status} says the capability is effective; false when it does not or
     * cannot be read.
     */
    private static boolean hasCapability(final HostView host, final int capability)
    {
        return host.read("/proc/self/status").map(text ->
        {
            for (final String line : text.split("\n"))
            {
                if (line.startsWith("CapEff:"))
                {
                    try
                    {
                        final long caps = Long.parseUnsignedLong(line.substring(7).strip(), 16);
                        return (caps & (1L << capability)) != 0;
                    }
                    catch (final NumberFormatException ex)
                    {
                        return false;
                    }
                }
            }
            return false;
        }).orElse(false);
    }
}
