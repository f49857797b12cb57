package io.rfmrt.runtime.preflight;

import io.rfmrt.runtime.threads.CpuSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two IRQ items: which IRQs may run on isolated cores, and whether irqbalance may put them there.
 */
final class IrqCheck
{
    static final String HINT_IRQ_AFFINITY =
        "tuning/bin/rfmrt-isolate moves IRQs to housekeeping cores, rfmrt-msix-plan / rfmrt-irq-affinity pin the " +
        "card's; boot with irqaffinity=<housekeeping> isolcpus=managed_irq,...; mark the card's IRQs with " +
        "--rfm-irq-match REGEX";
    static final String HINT_IRQBALANCE =
        "systemctl disable --now irqbalance, or ban the isolated cores: tuning/bin/rfmrt-isolate sets " +
        "IRQBALANCE_BANNED_CPULIST";

    private static final String PROC_IRQ = "/proc/irq";
    private static final String[] IRQBALANCE_CONFIGS = {"/etc/default/irqbalance", "/etc/sysconfig/irqbalance"};
    private static final String BANNED_CPUS = "IRQBALANCE_BANNED_CPUS";
    private static final String BANNED_CPULIST = "IRQBALANCE_BANNED_CPULIST";
    private static final Pattern INTERRUPTS_LINE = Pattern.compile("^\\s*(\\d+):.*?(\\S+(?:,\\s*\\S+)*)\\s*$");
    private static final Pattern CONFIG_LINE =
        Pattern.compile("^\\s*(?:export\\s+)?(\\w+)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|(\\S*))");

    private final SysRoot root;
    private final CpuSet isolated;
    private final Optional<Pattern> rfmIrqMatch;

    IrqCheck(final SysRoot root, final CpuSet isolated, final Optional<Pattern> rfmIrqMatch)
    {
        this.root = root;
        this.isolated = isolated;
        this.rfmIrqMatch = rfmIrqMatch;
    }

    /**
     * @return the two IRQ checks (affinity, irqbalance), in report order.
     */
    static List<PreflightCheck> checks()
    {
        return List.of(
            new Check(CheckId.IRQ_AFFINITY, HINT_IRQ_AFFINITY, (host, check) -> of(host).irqAffinity()),
            new Check(CheckId.IRQBALANCE, HINT_IRQBALANCE, (host, check) -> of(host).irqbalance()));
    }

    private static IrqCheck of(final HostView host)
    {
        return new IrqCheck(host.files(), host.isolated().orElse(CpuSet.EMPTY), host.options().rfmIrqMatch());
    }

    private static PreflightItem item(final CheckId check, final CheckStatus status, final String value)
    {
        return new PreflightItem(check, status, value,
            check == CheckId.IRQ_AFFINITY ? HINT_IRQ_AFFINITY : HINT_IRQBALANCE);
    }

    /**
     * An IRQ offends when its allowed ({@code smp_affinity_list}) or effective ({@code effective_affinity_list}) cpus
     * include an isolated core, unless its handler names match the RFM pattern. IRQs with no handler are skipped.
     */
    PreflightItem irqAffinity()
    {
        if (!root.isDirectory(PROC_IRQ))
        {
            return item(CheckId.IRQ_AFFINITY, CheckStatus.WARN, "unknown: " + root.why(PROC_IRQ));
        }
        final List<Integer> irqs = root.listNumbers(PROC_IRQ, "");
        if (irqs.isEmpty())
        {
            return item(CheckId.IRQ_AFFINITY, CheckStatus.WARN, "unknown: " + PROC_IRQ + " lists no IRQs");
        }
        if (isolated.isEmpty())
        {
            return item(CheckId.IRQ_AFFINITY, CheckStatus.WARN,
                "not checked: no isolated cores (" + irqs.size() + " IRQs)");
        }
        final Map<Integer, String> names = interruptNames();
        final List<String> offenders = new ArrayList<>();
        final List<String> kept = new ArrayList<>();
        final List<String> unreadable = new ArrayList<>();
        int checked = 0;
        for (final int irq : irqs)
        {
            final Optional<String> actions = root.firstLine("/sys/kernel/irq/" + irq + "/actions").map(String::strip);
            if (actions.isPresent() && actions.get().isEmpty())
            {
                continue;
            }
            final String name = actions.orElse(names.getOrDefault(irq, "-"));
            final String dir = PROC_IRQ + "/" + irq;
            final Optional<CpuSet> affinity = cpus(dir + "/smp_affinity_list", dir + "/smp_affinity");
            final Optional<CpuSet> effective = cpus(dir + "/effective_affinity_list", dir + "/effective_affinity");
            if (affinity.isEmpty() && effective.isEmpty())
            {
                unreadable.add(Integer.toString(irq));
                continue;
            }
            checked++;
            final boolean onIsolated = affinity.map(isolated::intersects).orElse(false) ||
                effective.map(isolated::intersects).orElse(false);
            if (!onIsolated)
            {
                continue;
            }
            final String where = describe(affinity, effective);
            if (rfmIrqMatch.isPresent() && rfmIrqMatch.get().matcher(name).find())
            {
                kept.add(irq + " " + name + " (" + where + ")");
            }
            else
            {
                offenders.add(irq + " " + name + " (" + where + (managed(irq) ? ", managed" : "") + ")");
            }
        }
        final StringBuilder value = new StringBuilder();
        final CheckStatus status;
        if (!offenders.isEmpty())
        {
            status = CheckStatus.FAIL;
            value.append(offenders.size()).append(" of ").append(checked).append(" IRQs may run on isolated cores ")
                .append(isolated).append(": ").append(String.join(", ", offenders));
        }
        else
        {
            status = unreadable.isEmpty() ? CheckStatus.PASS : CheckStatus.WARN;
            value.append("none of ").append(checked).append(" IRQs on isolated cores ").append(isolated);
            if (!kept.isEmpty())
            {
                value.append(" besides the RFM card's");
            }
        }
        if (!kept.isEmpty())
        {
            value.append(offenders.isEmpty() ? ": " : "; RFM card's: ").append(String.join(", ", kept));
        }
        if (!unreadable.isEmpty())
        {
            value.append("; affinity unreadable: IRQ ").append(String.join(", ", unreadable));
        }
        return item(CheckId.IRQ_AFFINITY, status, value.toString());
    }

    private static String describe(final Optional<CpuSet> affinity, final Optional<CpuSet> effective)
    {
        if (affinity.isPresent() && effective.isPresent() && !effective.get().isEmpty() &&
            !effective.get().equals(affinity.get()))
        {
            return "affinity " + affinity.get() + ", effective " + effective.get();
        }
        return affinity.map(a -> "affinity " + a).orElseGet(() -> "effective " + effective.get());
    }

    /**
     * @return the cpus of a cpu list file, else of the hexadecimal mask file; empty when neither reads.
     */
    private Optional<CpuSet> cpus(final String listFile, final String maskFile)
    {
        final Optional<String> list = root.firstLine(listFile);
        if (list.isPresent())
        {
            try
            {
                return Optional.of(CpuSet.parseList(list.get(), CpuSet.EMPTY));
            }
            catch (final IllegalArgumentException ex)
            {
                // fall back to the mask
            }
        }
        final Optional<String> mask = root.firstLine(maskFile);
        if (mask.isPresent())
        {
            try
            {
                return Optional.of(CpuSet.parseMask(mask.get()));
            }
            catch (final IllegalArgumentException ex)
            {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * @return true when debugfs is mounted and says the kernel manages this IRQ's affinity (it cannot be moved).
     */
    private boolean managed(final int irq)
    {
        return root.read("/sys/kernel/debug/irq/irqs/" + irq).map(t -> t.contains("IRQD_AFFINITY_MANAGED"))
            .orElse(false);
    }

    /**
     * @return IRQ number to the handler names at the end of its {@code /proc/interrupts} line.
     */
    private Map<Integer, String> interruptNames()
    {
        final Map<Integer, String> names = new HashMap<>();
        root.read("/proc/interrupts").ifPresent(text ->
        {
            for (final String line : text.split("\n"))
            {
                final Matcher m = INTERRUPTS_LINE.matcher(line);
                if (m.matches())
                {
                    names.put(Integer.parseInt(m.group(1)), m.group(2));
                }
            }
        });
        return names;
    }

    /**
     * irqbalance bans the isolated and nohz_full cores by itself unless {@code IRQBALANCE_BANNED_CPUS} (a mask) or
     * {@code IRQBALANCE_BANNED_CPULIST} is set, which replace that default (in that order of precedence). The
     * settings come from the running process's environment when readable, else from its configuration file.
     */
    PreflightItem irqbalance()
    {
        final List<Integer> pids = new ArrayList<>();
        for (final int pid : root.listNumbers("/proc", ""))
        {
            if (root.firstLine("/proc/" + pid + "/comm").map(String::strip).filter("irqbalance"::equals).isPresent())
            {
                pids.add(pid);
            }
        }
        if (pids.isEmpty())
        {
            return item(CheckId.IRQBALANCE, CheckStatus.PASS, "not running");
        }
        final String running = "running (pid " + pids.get(0) + ")";
        Optional<Map<String, String>> settings = environment(pids.get(0));
        String source = "its environment";
        if (settings.isEmpty())
        {
            for (final String config : IRQBALANCE_CONFIGS)
            {
                settings = root.read(config).map(IrqCheck::parseConfig);
                if (settings.isPresent())
                {
                    source = config;
                    break;
                }
            }
        }
        final Map<String, String> vars = settings.orElse(Map.of());
        final String key;
        final CpuSet banned;
        if (!vars.getOrDefault(BANNED_CPUS, "").isEmpty())
        {
            key = BANNED_CPUS;
            banned = CpuSet.parseMask(vars.get(BANNED_CPUS));
        }
        else if (!vars.getOrDefault(BANNED_CPULIST, "").isEmpty())
        {
            key = BANNED_CPULIST;
            banned = CpuSet.parseList(vars.get(BANNED_CPULIST), CpuSet.EMPTY);
        }
        else
        {
            final String where = settings.isPresent() ? " in " + source : " (no configuration found)";
            return item(CheckId.IRQBALANCE, isolated.isEmpty() ? CheckStatus.PASS : CheckStatus.WARN,
                running + ", no " + BANNED_CPULIST + where + ": relies on its default of skipping isolated and " +
                "nohz_full cores");
        }
        final String setting = running + ", " + key + "=" + vars.get(key) + " in " + source;
        if (isolated.isEmpty())
        {
            return item(CheckId.IRQBALANCE, CheckStatus.PASS, setting + "; no isolated cores");
        }
        final CpuSet missed = isolated.minus(banned);
        return missed.isEmpty() ?
            item(CheckId.IRQBALANCE, CheckStatus.PASS, setting + " covers isolated cores " + isolated) :
            item(CheckId.IRQBALANCE, CheckStatus.FAIL, setting + " leaves isolated cores " + missed +
                " to it: it may move IRQs there");
    }

    /**
     * @return the irqbalance settings of the running process, when its environment is readable (root). It is what
     * irqbalance acts on, even when the configuration file was edited since it started.
     */
    private Optional<Map<String, String>> environment(final int pid)
    {
        return root.read("/proc/" + pid + "/environ").map(text ->
        {
            final Map<String, String> vars = new LinkedHashMap<>();
            for (final String entry : text.split("\0"))
            {
                final int eq = entry.indexOf('=');
                if (eq > 0 && entry.startsWith("IRQBALANCE_"))
                {
                    vars.put(entry.substring(0, eq), entry.substring(eq + 1).strip());
                }
            }
            return vars;
        });
    }

    /**
     * Shell-style {@code KEY=value} lines as in {@code /etc/default/irqbalance}; comments and other lines ignored,
     * the last assignment wins.
     */
    static Map<String, String> parseConfig(final String text)
    {
        final Map<String, String> vars = new LinkedHashMap<>();
        for (final String line : text.split("\n"))
        {
            if (line.strip().startsWith("#"))
            {
                continue;
            }
            final Matcher m = CONFIG_LINE.matcher(line);
            if (m.find())
            {
                final String value = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
                vars.put(m.group(1), value.strip());
            }
        }
        return vars;
    }
}
