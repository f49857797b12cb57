package io.rfmrt.runtime.preflight;

import io.rfmrt.runtime.threads.CpuSet;

import io.rfmrt.rfm.rfm2g.Rfm2gProbe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The preflight of an rfmrt node ({@code rfmrt check}): reads {@code /proc}, {@code /sys} and {@code /etc} under a
 * root folder and judges each setting a real-time node depends on ({@link CheckId}). Only reads; a missing or
 * malformed file makes its item {@link CheckStatus#WARN} with a value that says so, never an exception.
 * <p>
 * Severity: an item is {@link CheckStatus#FAIL} only when the node cannot give real-time guarantees as it is (no
 * PREEMPT_RT kernel, no isolated cores, foreign IRQs on isolated cores, irqbalance told it may use isolated cores,
 * RT tasks given no cpu time, {@code SCHED_FIFO} or {@code mlockall} refused); settings that only add jitter are
 * {@link CheckStatus#WARN}. docs/preflight.md has the table.
 * <p>
 * Thread safety: {@link #run(Path, PreflightOptions)} keeps no state; call it from any thread.
 */
public final class Preflight
{
    static final String CPU_DIR = "/sys/devices/system/cpu";
    static final String ISOLATED = CPU_DIR + "/isolated";
    static final String NOHZ_FULL = CPU_DIR + "/nohz_full";
    static final String CMDLINE = "/proc/cmdline";

    private static final Pattern RT_VERSION = Pattern.compile("\\bPREEMPT[_ ]RT\\b");
    private static final Pattern THP_SELECTED = Pattern.compile("\\[(\\w+)]");
    private static final int CAP_IPC_LOCK = 14;
    private static final int CAP_SYS_NICE = 23;
    private static final long MIB = 1024L * 1024L;
    private static final long GIB = 1024L * MIB;

    private static final String HINT_RT_KERNEL =
        "install and boot a PREEMPT_RT kernel (Debian: apt install linux-image-rt-amd64)";
    private static final String HINT_ISOLATED =
        "boot with isolcpus=managed_irq,domain,<rt cpus> (tuning/bin/rfmrt-isolate prints the boot line)";
    private static final String HINT_NOHZ_FULL =
        "boot with nohz_full=<isolated cpus> (tuning/bin/rfmrt-isolate prints the boot line)";
    private static final String HINT_RCU_NOCBS =
        "boot with rcu_nocbs=<isolated cpus> (nohz_full= implies it; tuning/bin/rfmrt-isolate prints the boot line)";
    private static final String HINT_GOVERNOR =
        "tuning/bin/rfmrt-isolate (governor step) or cpupower frequency-set -g performance; without cpufreq, " +
        "set the firmware power profile to maximum performance";
    private static final String HINT_THP =
        "tuning/bin/rfmrt-isolate (thp step), or boot with transparent_hugepage=never";
    private static final String HINT_RT_THROTTLING =
        "tuning/bin/rfmrt-isolate --rt-runtime-unlimited, or sysctl -w kernel.sched_rt_runtime_us=-1 " +
        "(a runaway SCHED_FIFO thread then keeps its cpu)";
    private static final String HINT_RTPRIO =
        "LimitRTPRIO=99 in the node's systemd unit, or '<user> - rtprio 99' in /etc/security/limits.d/";
    private static final String HINT_MEMLOCK =
        "LimitMEMLOCK=infinity in the node's systemd unit, or '<user> - memlock unlimited' in /etc/security/limits.d/";
    private static final String HINT_SWAP =
        "swapoff -a and remove swap from /etc/fstab (mlockall keeps the node's pages in RAM, other processes still " +
        "stall the machine when they swap)";
    private static final String HINT_RFM2G =
        "load the RFM2g driver (the vendor's rfm2g_load), reserve DMA memory with mem= on the kernel command line " +
        "and give its physical address as dmaBase=, set dmaThreshold= (docs/architecture.md, running on a card)";
    private static final String HINT_CLOCKSOURCE =
        "use the TSC if it is stable (constant_tsc nonstop_tsc in /proc/cpuinfo): boot with clocksource=tsc " +
        "tsc=reliable";

    private final SysRoot root;
    private final PreflightOptions options;
    private final CpuSet online;
    private final Optional<CpuSet> isolated;
    private final Optional<CpuSet> nohzFull;
    private final Map<String, String> malformed = new HashMap<>();

    private Preflight(final SysRoot root, final PreflightOptions options)
    {
        this.root = root;
        this.options = options;
        this.online = readOnline(root);
        this.isolated = cpuListOrEmpty(ISOLATED);
        this.nohzFull = cpuListOrEmpty(NOHZ_FULL);
    }

    /**
     * Run every item.
     *
     * @param sysroot the root the kernel files are read under: {@code /} on a live machine, or a fixture tree.
     * @param options the RFM IRQ pattern and the priority limit to expect.
     * @return one item per {@link CheckId}, in order.
     * @throws IllegalArgumentException when the sysroot does not exist, is not a folder or has no {@code proc/}.
     */
    public static PreflightReport run(final Path sysroot, final PreflightOptions options)
    {
        if (!Files.exists(sysroot))
        {
            throw new IllegalArgumentException("sysroot " + sysroot + " does not exist");
        }
        if (!Files.isDirectory(sysroot))
        {
            throw new IllegalArgumentException("sysroot " + sysroot + " is not a folder");
        }
        if (!Files.isDirectory(sysroot.resolve("proc")))
        {
            throw new IllegalArgumentException("sysroot " + sysroot + " has no proc/ folder");
        }
        final Preflight preflight = new Preflight(new SysRoot(sysroot), options);
        final List<PreflightItem> items = new ArrayList<>();
        for (final CheckId check : CheckId.values())
        {
            if (check != CheckId.RFM2G_CARD || options.device().filter(Rfm2gProbe::isRfm2g).isPresent())
            {
                items.add(preflight.checkSafely(check));
            }
        }
        return new PreflightReport(sysroot.toString(), items);
    }

    /**
     * Run every item with {@link PreflightOptions#defaults()}.
     *
     * @param sysroot the root the kernel files are read under.
     * @return one item per {@link CheckId}, in order.
     * @throws IllegalArgumentException when the sysroot does not exist, is not a folder or has no {@code proc/}.
     */
    public static PreflightReport run(final Path sysroot)
    {
        return run(sysroot, PreflightOptions.defaults());
    }

    private PreflightItem checkSafely(final CheckId check)
    {
        try
        {
            return check(check);
        }
        catch (final RuntimeException ex)
        {
            // a file in a shape nobody foresaw must not cost the user the rest of the report
            return new PreflightItem(check, CheckStatus.WARN, "unknown: " + ex.getMessage(), hint(check));
        }
    }

    private PreflightItem check(final CheckId check)
    {
        switch (check)
        {
            case RT_KERNEL:
                return rtKernel();
            case ISOLATED_CPUS:
                return isolatedCpus();
            case NOHZ_FULL:
                return nohzFull();
            case RCU_NOCBS:
                return rcuNocbs();
            case IRQ_AFFINITY:
                return new IrqCheck(root, isolated.orElse(CpuSet.EMPTY), options.rfmIrqMatch()).irqAffinity();
            case IRQBALANCE:
                return new IrqCheck(root, isolated.orElse(CpuSet.EMPTY), options.rfmIrqMatch()).irqbalance();
            case CPU_GOVERNOR:
                return governor();
            case THP:
                return thp();
            case RT_THROTTLING:
                return rtThrottling();
            case RLIMIT_RTPRIO:
                return rtprio();
            case RLIMIT_MEMLOCK:
                return memlock();
            case SWAP:
                return swap();
            case CLOCKSOURCE:
                return clocksource();
            case RFM2G_CARD:
                return rfm2gCard(Rfm2gProbe.of(options.device().orElseThrow()));
            default:
                throw new IllegalStateException("no check for " + check);
        }
    }

    private static String hint(final CheckId check)
    {
        switch (check)
        {
            case RT_KERNEL:
                return HINT_RT_KERNEL;
            case ISOLATED_CPUS:
                return HINT_ISOLATED;
            case NOHZ_FULL:
                return HINT_NOHZ_FULL;
            case RCU_NOCBS:
                return HINT_RCU_NOCBS;
            case IRQ_AFFINITY:
                return IrqCheck.HINT_IRQ_AFFINITY;
            case IRQBALANCE:
                return IrqCheck.HINT_IRQBALANCE;
            case CPU_GOVERNOR:
                return HINT_GOVERNOR;
            case THP:
                return HINT_THP;
            case RT_THROTTLING:
                return HINT_RT_THROTTLING;
            case RLIMIT_RTPRIO:
                return HINT_RTPRIO;
            case RLIMIT_MEMLOCK:
                return HINT_MEMLOCK;
            case SWAP:
                return HINT_SWAP;
            case CLOCKSOURCE:
                return HINT_CLOCKSOURCE;
            case RFM2G_CARD:
                return HINT_RFM2G;
            default:
                throw new IllegalStateException("no hint for " + check);
        }
    }

    /**
     * The RFM2g card: FAIL when the device node is missing or the card does not open, WARN when reads above the
     * threshold would go by PIO (no reserved DMA buffer) or the threshold means never, PASS otherwise.
     */
    static PreflightItem rfm2gCard(final Rfm2gProbe probe)
    {
        if (!probe.nodePresent())
        {
            return item(CheckId.RFM2G_CARD, CheckStatus.FAIL, "device node " + probe.devicePath() +
                " missing (is the rfm2g driver loaded?)");
        }
        if (probe.failure() != null)
        {
            return item(CheckId.RFM2G_CARD, CheckStatus.FAIL, probe.failure());
        }
        final String threshold = probe.dmaThreshold() == 0xFFFFFFFFL ? "never" : probe.dmaThreshold() + " bytes";
        final String value = probe.devicePath() + ", driver " + probe.driverVersion() + ", DMA threshold " +
            threshold + ", " + (probe.dmaReserved() ? probe.dmaBytes() + " bytes of host buffers in the reserved " +
            "DMA buffer" : "no reserved DMA buffer (dmaBase= not set): reads fall back to PIO");
        final boolean dmaUsable = probe.dmaReserved() && probe.dmaThreshold() != 0xFFFFFFFFL;
        return item(CheckId.RFM2G_CARD, dmaUsable ? CheckStatus.PASS : CheckStatus.WARN, value);
    }

    private static PreflightItem item(final CheckId check, final CheckStatus status, final String value)
    {
        return new PreflightItem(check, status, value, hint(check));
    }

    private PreflightItem unknown(final CheckId check, final String path)
    {
        return item(check, CheckStatus.WARN, "unknown: " + root.why(path));
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
                    return CpuSet.parseList(text.get(), CpuSet.EMPTY);
                }
                catch (final IllegalArgumentException ex)
                {
                    // try the next file
                }
            }
        }
        final List<Integer> cpus = root.listNumbers(CPU_DIR, "cpu");
        return CpuSet.of(cpus.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * A cpu list the other items depend on: when malformed, its own item says so and the others see none.
     */
    private Optional<CpuSet> cpuListOrEmpty(final String path)
    {
        try
        {
            return cpuList(path);
        }
        catch (final IllegalArgumentException ex)
        {
            malformed.put(path, ex.getMessage());
            return Optional.of(CpuSet.EMPTY);
        }
    }

    private Optional<String> malformed(final String path)
    {
        return Optional.ofNullable(malformed.get(path));
    }

    /**
     * A sysfs cpu list; "(null)" (what older kernels print for an unset mask) reads as empty.
     */
    private Optional<CpuSet> cpuList(final String path)
    {
        return root.firstLine(path).map(text ->
        {
            final String list = text.strip();
            return list.equals("(null)") ? CpuSet.EMPTY : parseList(list, path);
        });
    }

    private CpuSet parseList(final String list, final String where)
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

    private PreflightItem rtKernel()
    {
        final Optional<String> realtime = root.firstLine("/sys/kernel/realtime").map(String::strip);
        final Optional<String> release = root.firstLine("/proc/sys/kernel/osrelease").map(String::strip);
        final Optional<String> version = root.firstLine("/proc/sys/kernel/version").map(String::strip);
        final Optional<String> procVersion = root.firstLine("/proc/version").map(String::strip);
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
                item(CheckId.RT_KERNEL, CheckStatus.PASS, join(uname, "/sys/kernel/realtime = 1")) :
                item(CheckId.RT_KERNEL, CheckStatus.FAIL, join(uname, "/sys/kernel/realtime = " + realtime.get()));
        }
        if (uname.isEmpty())
        {
            return item(CheckId.RT_KERNEL, CheckStatus.WARN,
                "unknown: /proc/sys/kernel/version, /proc/version and /sys/kernel/realtime missing");
        }
        final boolean rt = version.map(v -> RT_VERSION.matcher(v).find()).orElse(false) ||
            procVersion.map(v -> RT_VERSION.matcher(v).find()).orElse(false);
        return rt ?
            item(CheckId.RT_KERNEL, CheckStatus.PASS, uname) :
            item(CheckId.RT_KERNEL, CheckStatus.FAIL, uname + " (not PREEMPT_RT)");
    }

    private static String join(final String uname, final String note)
    {
        return uname.isEmpty() ? note : uname + " (" + note + ")";
    }

    private PreflightItem isolatedCpus()
    {
        if (isolated.isEmpty())
        {
            return unknown(CheckId.ISOLATED_CPUS, ISOLATED);
        }
        final Optional<String> bad = malformed(ISOLATED);
        if (bad.isPresent())
        {
            return item(CheckId.ISOLATED_CPUS, CheckStatus.WARN, "unknown: " + bad.get());
        }
        final String context = online.isEmpty() ? "" : " (online " + online + ")";
        return isolated.get().isEmpty() ?
            item(CheckId.ISOLATED_CPUS, CheckStatus.FAIL, "none" + context) :
            item(CheckId.ISOLATED_CPUS, CheckStatus.PASS, isolated.get() + context);
    }

    private PreflightItem nohzFull()
    {
        if (nohzFull.isEmpty())
        {
            return item(CheckId.NOHZ_FULL, CheckStatus.WARN,
                "unknown: " + root.why(NOHZ_FULL) + " (kernel without CONFIG_NO_HZ_FULL?)");
        }
        final Optional<String> bad = malformed(NOHZ_FULL);
        if (bad.isPresent())
        {
            return item(CheckId.NOHZ_FULL, CheckStatus.WARN, "unknown: " + bad.get());
        }
        return coverage(CheckId.NOHZ_FULL, nohzFull.get(), nohzFull.get().toString(), "keep the tick");
    }

    private PreflightItem rcuNocbs()
    {
        final Optional<String> cmdline = root.read(CMDLINE);
        final Optional<CpuSet> fromCmdline = cmdline.flatMap(this::rcuNocbsParameter);
        final CpuSet fromNohz = nohzFull.orElse(CpuSet.EMPTY);
        if (cmdline.isEmpty() && fromNohz.isEmpty())
        {
            return unknown(CheckId.RCU_NOCBS, CMDLINE);
        }
        final CpuSet nocbs = fromCmdline.orElse(CpuSet.EMPTY).or(fromNohz);
        final List<String> sources = new ArrayList<>();
        fromCmdline.ifPresent(set -> sources.add("rcu_nocbs=" + set));
        if (!fromNohz.isEmpty())
        {
            sources.add("implied by nohz_full=" + fromNohz);
        }
        if (cmdline.isEmpty())
        {
            sources.add(root.why(CMDLINE));
        }
        final String value = nocbs.isEmpty() ? "none" : nocbs + " (" + String.join(", ", sources) + ")";
        return coverage(CheckId.RCU_NOCBS, nocbs, value, "run their own RCU callbacks");
    }

    /**
     * The last {@code rcu_nocbs} parameter of the kernel's own part of the command line (init's arguments follow
     * {@code --}); a bare {@code rcu_nocbs} means every cpu.
     */
    private Optional<CpuSet> rcuNocbsParameter(final String cmdline)
    {
        CpuSet found = null;
        for (final String token : cmdline.strip().split("\\s+"))
        {
            if (token.equals("--"))
            {
                break;
            }
            if (token.equals("rcu_nocbs"))
            {
                found = online;
            }
            else if (token.startsWith("rcu_nocbs="))
            {
                found = parseList(token.substring("rcu_nocbs=".length()), CMDLINE);
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * PASS when the set covers every isolated cpu; WARN otherwise, saying what the uncovered cores do.
     */
    private PreflightItem coverage(final CheckId check, final CpuSet set, final String value, final String consequence)
    {
        final CpuSet iso = isolated.orElse(CpuSet.EMPTY);
        if (iso.isEmpty())
        {
            return item(check, CheckStatus.WARN, (set.isEmpty() ? "none" : value) + "; no isolated cores");
        }
        if (set.isEmpty())
        {
            return item(check, CheckStatus.WARN, "none: isolated cores " + iso + " " + consequence);
        }
        final CpuSet missed = iso.minus(set);
        return missed.isEmpty() ?
            item(check, CheckStatus.PASS, value) :
            item(check, CheckStatus.WARN, value + "; isolated cores " + missed + " " + consequence);
    }

    private PreflightItem governor()
    {
        if (!root.isDirectory(CPU_DIR))
        {
            return unknown(CheckId.CPU_GOVERNOR, CPU_DIR);
        }
        final Map<String, CpuSet> byGovernor = new LinkedHashMap<>();
        for (final int cpu : root.listNumbers(CPU_DIR, "cpu"))
        {
            root.firstLine(CPU_DIR + "/cpu" + cpu + "/cpufreq/scaling_governor").map(String::strip)
                .ifPresent(g -> byGovernor.merge(g, CpuSet.of(cpu), CpuSet::or));
        }
        if (byGovernor.isEmpty())
        {
            final String policies = CPU_DIR + "/cpufreq";
            for (final int policy : root.listNumbers(policies, "policy"))
            {
                final String dir = policies + "/policy" + policy;
                final Optional<String> governor = root.firstLine(dir + "/scaling_governor").map(String::strip);
                final CpuSet cpus = root.firstLine(dir + "/affected_cpus")
                    .map(list -> parseList(list.strip().replace(' ', ','), dir + "/affected_cpus"))
                    .orElse(CpuSet.of(policy));
                governor.ifPresent(g -> byGovernor.merge(g, cpus, CpuSet::or));
            }
        }
        if (byGovernor.isEmpty())
        {
            return item(CheckId.CPU_GOVERNOR, CheckStatus.PASS,
                "no cpufreq (VM, or frequency set by the firmware)");
        }
        final List<String> parts = new ArrayList<>();
        byGovernor.forEach((governor, cpus) -> parts.add(governor + " on " + cpus));
        final boolean performance = byGovernor.size() == 1 && byGovernor.containsKey("performance");
        return item(CheckId.CPU_GOVERNOR, performance ? CheckStatus.PASS : CheckStatus.WARN, String.join(", ", parts));
    }

    private PreflightItem thp()
    {
        final String path = "/sys/kernel/mm/transparent_hugepage/enabled";
        final Optional<String> text = root.firstLine(path).map(String::strip);
        if (text.isEmpty())
        {
            return unknown(CheckId.THP, path);
        }
        final Matcher selected = THP_SELECTED.matcher(text.get());
        if (!selected.find())
        {
            return item(CheckId.THP, CheckStatus.WARN, "unknown: '" + text.get() + "' in " + path);
        }
        return item(CheckId.THP, selected.group(1).equals("never") ? CheckStatus.PASS : CheckStatus.WARN, text.get());
    }

    private PreflightItem rtThrottling()
    {
        final String path = "/proc/sys/kernel/sched_rt_runtime_us";
        final Optional<String> text = root.firstLine(path).map(String::strip);
        if (text.isEmpty())
        {
            return unknown(CheckId.RT_THROTTLING, path);
        }
        final long runtime;
        try
        {
            runtime = Long.parseLong(text.get());
        }
        catch (final NumberFormatException ex)
        {
            return item(CheckId.RT_THROTTLING, CheckStatus.WARN, "unknown: '" + text.get() + "' in " + path);
        }
        if (runtime < 0)
        {
            return item(CheckId.RT_THROTTLING, CheckStatus.PASS, runtime + " (no RT throttling)");
        }
        if (runtime == 0)
        {
            return item(CheckId.RT_THROTTLING, CheckStatus.FAIL, "0: RT tasks get no cpu time at all");
        }
        final Optional<Long> period = root.firstLine("/proc/sys/kernel/sched_rt_period_us")
            .flatMap(Preflight::parseLong);
        final String share = period.filter(p -> p > 0)
            .map(p -> String.format(Locale.ROOT, " of %d us: RT tasks throttled after %.0f%% of each period", p,
                100.0 * runtime / p))
            .orElse(" us: RT tasks throttled");
        return item(CheckId.RT_THROTTLING, CheckStatus.WARN, runtime + share);
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

    private PreflightItem rtprio()
    {
        final String path = "/proc/self/limits";
        final Optional<String[]> limit = limit(path, "Max realtime priority");
        if (limit.isEmpty())
        {
            return item(CheckId.RLIMIT_RTPRIO, CheckStatus.WARN, limitUnknown(path, "Max realtime priority"));
        }
        final String soft = limit.get()[0];
        final String value = soft + " (hard " + limit.get()[1] + ")";
        final long allowed = soft.equals("unlimited") ? Long.MAX_VALUE : parseLong(soft).orElse(-1L);
        if (allowed < 0)
        {
            return item(CheckId.RLIMIT_RTPRIO, CheckStatus.WARN, "unknown: '" + soft + "' in " + path);
        }
        if (allowed >= options.minRtPriority())
        {
            return item(CheckId.RLIMIT_RTPRIO, CheckStatus.PASS, value);
        }
        if (hasCapability(CAP_SYS_NICE))
        {
            return item(CheckId.RLIMIT_RTPRIO, CheckStatus.WARN,
                value + "; CAP_SYS_NICE held, so not enforced for this process (a node under another user needs it)");
        }
        return allowed == 0 ?
            item(CheckId.RLIMIT_RTPRIO, CheckStatus.FAIL, value + ": SCHED_FIFO refused") :
            item(CheckId.RLIMIT_RTPRIO, CheckStatus.WARN,
                value + ": SCHED_FIFO priorities above " + allowed + " refused (expected up to " +
                options.minRtPriority() + ")");
    }

    private PreflightItem memlock()
    {
        final String path = "/proc/self/limits";
        final Optional<String[]> limit = limit(path, "Max locked memory");
        if (limit.isEmpty())
        {
            return item(CheckId.RLIMIT_MEMLOCK, CheckStatus.WARN, limitUnknown(path, "Max locked memory"));
        }
        final String soft = limit.get()[0];
        final String value = bytes(soft) + " (hard " + bytes(limit.get()[1]) + ")";
        if (soft.equals("unlimited"))
        {
            return item(CheckId.RLIMIT_MEMLOCK, CheckStatus.PASS, value);
        }
        if (hasCapability(CAP_IPC_LOCK))
        {
            return item(CheckId.RLIMIT_MEMLOCK, CheckStatus.WARN,
                value + "; CAP_IPC_LOCK held, so not enforced for this process (a node under another user needs it)");
        }
        return item(CheckId.RLIMIT_MEMLOCK, CheckStatus.FAIL,
            value + ": mlockall(MCL_CURRENT|MCL_FUTURE) of a JVM needs unlimited");
    }

    private String limitUnknown(final String path, final String name)
    {
        return root.read(path).isPresent() ?
            "unknown: no '" + name + "' line in " + path :
            "unknown: " + root.why(path);
    }

    /**
     * @return soft and hard limit of a {@code /proc/PID/limits} line.
     */
    private Optional<String[]> limit(final String path, final String name)
    {
        return root.read(path).flatMap(text ->
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
    private boolean hasCapability(final int capability)
    {
        return root.read("/proc/self/status").map(text ->
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

    private PreflightItem swap()
    {
        final String path = "/proc/swaps";
        final Optional<String> text = root.read(path);
        if (text.isEmpty())
        {
            return unknown(CheckId.SWAP, path);
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
            return item(CheckId.SWAP, CheckStatus.PASS, "none");
        }
        return item(CheckId.SWAP, CheckStatus.WARN, areas.size() + (areas.size() == 1 ? " swap area: " :
            " swap areas: ") + String.join(", ", areas));
    }

    private PreflightItem clocksource()
    {
        final String dir = "/sys/devices/system/clocksource/clocksource0";
        final Optional<String> current = root.firstLine(dir + "/current_clocksource").map(String::strip);
        if (current.isEmpty())
        {
            return unknown(CheckId.CLOCKSOURCE, dir + "/current_clocksource");
        }
        if (current.get().equals("tsc"))
        {
            return item(CheckId.CLOCKSOURCE, CheckStatus.PASS, "tsc");
        }
        final String available = root.firstLine(dir + "/available_clocksource").map(String::strip)
            .map(a -> " (available: " + a + ")").orElse("");
        return item(CheckId.CLOCKSOURCE, CheckStatus.WARN, current.get() + available);
    }
}
