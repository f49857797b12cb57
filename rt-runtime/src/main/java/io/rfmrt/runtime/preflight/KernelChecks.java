package io.rfmrt.runtime.preflight;

import io.rfmrt.runtime.threads.CpuSet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The preflight items about the kernel itself: PREEMPT_RT, cpu frequency governor, transparent huge pages,
 * clocksource.
 */
final class KernelChecks
{
    private static final Pattern RT_VERSION = Pattern.compile("\\bPREEMPT[_ ]RT\\b");
    private static final Pattern THP_SELECTED = Pattern.compile("\\[(\\w+)]");
    static final String HINT_RT_KERNEL =
        "install and boot a PREEMPT_RT kernel (Debian: apt install linux-image-rt-amd64)";
    static final String HINT_GOVERNOR =
        "tuning/bin/rfmrt-isolate (governor step) or cpupower frequency-set -g performance; without cpufreq, " +
        "set the firmware power profile to maximum performance";
    static final String HINT_THP =
        "tuning/bin/rfmrt-isolate (thp step), or boot with transparent_hugepage=never";
    static final String HINT_CLOCKSOURCE =
        "use the TSC if it is stable (constant_tsc nonstop_tsc in /proc/cpuinfo): boot with clocksource=tsc " +
        "tsc=reliable";

    private KernelChecks()
    {
    }

    /**
     * @return the checks of this group, in report order.
     */
    static List<PreflightCheck> checks()
    {
        return List.of(
            new Check(CheckId.RT_KERNEL, HINT_RT_KERNEL, KernelChecks::rtKernel),
            new Check(CheckId.CPU_GOVERNOR, HINT_GOVERNOR, KernelChecks::governor),
            new Check(CheckId.THP, HINT_THP, KernelChecks::thp),
            new Check(CheckId.CLOCKSOURCE, HINT_CLOCKSOURCE, KernelChecks::clocksource));
    }

    static PreflightItem rtKernel(final HostView host, final Check c)
    {
        final Optional<String> realtime = host.firstLine("/sys/kernel/realtime").map(String::strip);
        final Optional<String> release = host.firstLine("/proc/sys/kernel/osrelease").map(String::strip);
        final Optional<String> version = host.firstLine("/proc/sys/kernel/version").map(String::strip);
        final Optional<String> procVersion = host.firstLine("/proc/version").map(String::strip);
        final String uname;
        if (version.isPresent())
        {
            uname = release.map(r -> r + " ").orElse("") + version.get();
        }
        else
        {
            uname = procVersion.map(v -> v.startsWith("Linux version ") ? v.substring(14) : v).orElse("");
        }
        if (realtime.isPresent())
        {
            return realtime.get().equals("1") ?
                c.item(CheckStatus.PASS, join(uname, "/sys/kernel/realtime = 1")) :
                c.item(CheckStatus.FAIL, join(uname, "/sys/kernel/realtime = " + realtime.get()));
        }
        if (uname.isEmpty())
        {
            return c.item(CheckStatus.WARN,
                "unknown: /proc/sys/kernel/version, /proc/version and /sys/kernel/realtime missing");
        }
        final boolean rt = version.map(v -> RT_VERSION.matcher(v).find()).orElse(false) ||
            procVersion.map(v -> RT_VERSION.matcher(v).find()).orElse(false);
        return rt ?
            c.item(CheckStatus.PASS, uname) :
            c.item(CheckStatus.FAIL, uname + " (not PREEMPT_RT)");
    }

    static PreflightItem governor(final HostView host, final Check c)
    {
        if (!host.isDirectory(HostView.CPU_DIR))
        {
            return c.unknown(host, HostView.CPU_DIR);
        }
        final Map<String, CpuSet> byGovernor = new LinkedHashMap<>();
        for (final int cpu : host.listNumbers(HostView.CPU_DIR, "cpu"))
        {
            host.firstLine(HostView.CPU_DIR + "/cpu" + cpu + "/cpufreq/scaling_governor").map(String::strip)
                .ifPresent(g -> byGovernor.merge(g, CpuSet.of(cpu), CpuSet::or));
        }
        if (byGovernor.isEmpty())
        {
            final String policies = HostView.CPU_DIR + "/cpufreq";
            for (final int policy : host.listNumbers(policies, "policy"))
            {
                final String dir = policies + "/policy" + policy;
                final Optional<String> governor = host.firstLine(dir + "/scaling_governor").map(String::strip);
                final CpuSet cpus = host.firstLine(dir + "/affected_cpus")
                    .map(list -> host.parseList(list.strip().replace(' ', ','), dir + "/affected_cpus"))
                    .orElse(CpuSet.of(policy));
                governor.ifPresent(g -> byGovernor.merge(g, cpus, CpuSet::or));
            }
        }
        if (byGovernor.isEmpty())
        {
            return c.item(CheckStatus.PASS,
                "no cpufreq (VM, or frequency set by the firmware)");
        }
        final List<String> parts = new ArrayList<>();
        byGovernor.forEach((governor, cpus) -> parts.add(governor + " on " + cpus));
        final boolean performance = byGovernor.size() == 1 && byGovernor.containsKey("performance");
        return c.item(performance ? CheckStatus.PASS : CheckStatus.WARN, String.join(", ", parts));
    }

    static PreflightItem clocksource(final HostView host, final Check c)
    {
        final String dir = "/sys/devices/system/clocksource/clocksource0";
        final Optional<String> current = host.firstLine(dir + "/current_clocksource").map(String::strip);
        if (current.isEmpty())
        {
            return c.unknown(host, dir + "/current_clocksource");
        }
        if (current.get().equals("tsc"))
        {
            return c.item(CheckStatus.PASS, "tsc");
        }
        final String available = host.firstLine(dir + "/available_clocksource").map(String::strip)
            .map(a -> " (available: " + a + ")").orElse("");
        return c.item(CheckStatus.WARN, current.get() + available);
    }

    static PreflightItem thp(final HostView host, final Check c)
    {
        final String path = "/sys/kernel/mm/transparent_hugepage/enabled";
        final Optional<String> text = host.firstLine(path).map(String::strip);
        if (text.isEmpty())
        {
            return c.unknown(host, path);
        }
        final Matcher selected = THP_SELECTED.matcher(text.get());
        if (!selected.find())
        {
            return c.item(CheckStatus.WARN, "unknown: '" + text.get() + "' in " + path);
        }
        return c.item(selected.group(1).equals("never") ? CheckStatus.PASS : CheckStatus.WARN, text.get());
    }

    private static String join(final String uname, final String note)
    {
        return uname.isEmpty() ? note : uname + " (" + note + ")";
    }
}
