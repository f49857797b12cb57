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
 * The preflight items about the cores set apart for real-time threads: isolated, tickless, without RCU callbacks.
 */
final class IsolationChecks
{
    static final String HINT_ISOLATED =
        "boot with isolcpus=managed_irq,domain,<rt cpus> (tuning/bin/rfmrt-isolate prints the boot line)";
    static final String HINT_NOHZ_FULL =
        "boot with nohz_full=<isolated cpus> (tuning/bin/rfmrt-isolate prints the boot line)";
    static final String HINT_RCU_NOCBS =
        "boot with rcu_nocbs=<isolated cpus> (nohz_full= implies it; tuning/bin/rfmrt-isolate prints the boot line)";

    private IsolationChecks()
    {
    }

    /**
     * @return the checks of this group, in report order.
     */
    static List<PreflightCheck> checks()
    {
        return List.of(
            new Check(CheckId.ISOLATED_CPUS, HINT_ISOLATED, IsolationChecks::isolatedCpus),
            new Check(CheckId.NOHZ_FULL, HINT_NOHZ_FULL, IsolationChecks::nohzFull),
            new Check(CheckId.RCU_NOCBS, HINT_RCU_NOCBS, IsolationChecks::rcuNocbs));
    }

    static PreflightItem isolatedCpus(final HostView host, final Check c)
    {
        if (host.isolated().isEmpty())
        {
            return c.unknown(host, HostView.ISOLATED);
        }
        final Optional<String> bad = host.malformed(HostView.ISOLATED);
        if (bad.isPresent())
        {
            return c.item(CheckStatus.WARN, "unknown: " + bad.get());
        }
        final String context = host.online().isEmpty() ? "" : " (online " + host.online() + ")";
        return host.isolated().get().isEmpty() ?
            c.item(CheckStatus.FAIL, "none" + context) :
            c.item(CheckStatus.PASS, host.isolated().get() + context);
    }

    static PreflightItem nohzFull(final HostView host, final Check c)
    {
        if (host.nohzFull().isEmpty())
        {
            return c.item(CheckStatus.WARN,
                "unknown: " + host.why(HostView.NOHZ_FULL) + " (kernel without CONFIG_NO_HZ_FULL?)");
        }
        final Optional<String> bad = host.malformed(HostView.NOHZ_FULL);
        if (bad.isPresent())
        {
            return c.item(CheckStatus.WARN, "unknown: " + bad.get());
        }
        return coverage(host, c, host.nohzFull().get(), host.nohzFull().get().toString(), "keep the tick");
    }

    static PreflightItem rcuNocbs(final HostView host, final Check c)
    {
        final Optional<String> cmdline = host.read(HostView.CMDLINE);
        final Optional<CpuSet> fromCmdline = cmdline.flatMap(text -> rcuNocbsParameter(host, text));
        final CpuSet fromNohz = host.nohzFull().orElse(CpuSet.EMPTY);
        if (cmdline.isEmpty() && fromNohz.isEmpty())
        {
            return c.unknown(host, HostView.CMDLINE);
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
            sources.add(host.why(HostView.CMDLINE));
        }
        final String value = nocbs.isEmpty() ? "none" : nocbs + " (" + String.join(", ", sources) + ")";
        return coverage(host, c, nocbs, value, "run their own RCU callbacks");
    }

    /**
     * The last {@code rcu_nocbs} parameter of the kernel's own part of the command line (init's arguments follow
     * {@code --}); a bare {@code rcu_nocbs} means every cpu.
     */
    private static Optional<CpuSet> rcuNocbsParameter(final HostView host, final String cmdline)
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
                found = host.online();
            }
            else if (token.startsWith("rcu_nocbs="))
            {
                found = host.parseList(token.substring("rcu_nocbs=".length()), HostView.CMDLINE);
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * PASS when the set covers every isolated cpu; WARN otherwise, saying what the uncovered cores do.
     */
    private static PreflightItem coverage(final HostView host, final Check c, final CpuSet set, final String value, final String consequence)
    {
        final CpuSet iso = host.isolated().orElse(CpuSet.EMPTY);
        if (iso.isEmpty())
        {
            return c.item(CheckStatus.WARN, (set.isEmpty() ? "none" : value) + "; no isolated cores");
        }
        if (set.isEmpty())
        {
            return c.item(CheckStatus.WARN, "none: isolated cores " + iso + " " + consequence);
        }
        final CpuSet missed = iso.minus(set);
        return missed.isEmpty() ?
            c.item(CheckStatus.PASS, value) :
            c.item(CheckStatus.WARN, value + "; isolated cores " + missed + " " + consequence);
    }
}
