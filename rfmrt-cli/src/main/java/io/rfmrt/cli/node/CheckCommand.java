package io.rfmrt.cli.node;

import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.runtime.preflight.CheckStatus;
import io.rfmrt.runtime.preflight.Preflight;
import io.rfmrt.runtime.preflight.PreflightItem;
import io.rfmrt.runtime.preflight.PreflightOptions;
import io.rfmrt.runtime.preflight.PreflightReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code rfmrt check}: the preflight of a real-time node. Prints one row per item (status, item, value, and for
 * WARN and FAIL a line on how to fix it), or with {@code --json} one JSON object.
 * <p>
 * Exit codes: 0 when no item FAILs, 1 when one does, 2 for a bad command line or a sysroot without {@code proc/}
 * (one line on stderr).
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = {"Check that this machine is ready to run a real-time node: PREEMPT_RT kernel, isolated / " +
        "nohz_full / rcu_nocbs cores, IRQs on isolated cores, irqbalance, governor, THP, RT throttling, " +
        "RLIMIT_RTPRIO / RLIMIT_MEMLOCK, swap, clocksource; with --device rfm2g:..., the RFM2g card.",
        "Exit 0 when nothing FAILs, 1 when something does, 2 for bad input. See docs/preflight.md."},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {"0:nothing FAILs", "1:something FAILs", ExitCodes.LIST_USAGE})
public final class CheckCommand implements Callable<Integer>
{
    private static final int VALUE_INDENT = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--sysroot", defaultValue = "/", paramLabel = "DIR",
        description = "Read /proc, /sys and /etc under DIR (default ${DEFAULT-VALUE}).")
    Path sysroot;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--rfm-irq-match", paramLabel = "REGEX",
        description = "IRQs whose handler names match REGEX are the RFM card's and may sit on isolated cores.")
    String rfmIrqMatch;

    @Option(names = "--min-rtprio", defaultValue = "" + PreflightOptions.MIN_RT_PRIORITY_DEFAULT, paramLabel = "N",
        description = "SCHED_FIFO priority RLIMIT_RTPRIO must allow, 1-99 (default ${DEFAULT-VALUE}).")
    int minRtPriority;

    @Option(names = "--device", paramLabel = "URI",
        description = "The node's device URI; an rfm2g: URI adds the card item (device node, driver version, " +
            "DMA buffer, DMA threshold).")
    String device;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PreflightReport report;
        try
        {
            report = Preflight.run(sysroot, options());
        }
        catch (final IllegalArgumentException ex)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("rfmrt: " + ex.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        }
        if (json)
        {
            out.println(report.toJson());
        }
        else
        {
            printTable(out, report);
        }
        out.flush();
        return report.failed() ? ExitCodes.ERROR : ExitCodes.OK;
    }

    private PreflightOptions options()
    {
        PreflightOptions options = PreflightOptions.defaults();
        if (rfmIrqMatch != null)
        {
            try
            {
                options = options.withRfmIrqMatch(Pattern.compile(rfmIrqMatch));
            }
            catch (final PatternSyntaxException ex)
            {
                throw new IllegalArgumentException("--rfm-irq-match '" + rfmIrqMatch + "' is not a regular " +
                    "expression: " + ex.getDescription(), ex);
            }
        }
        options = options.withDevice(device);
        try
        {
            return options.withMinRtPriority(minRtPriority);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("--min-rtprio " + minRtPriority + " is not in 1-99", ex);
        }
    }

    static void printTable(final PrintWriter out, final PreflightReport report)
    {
        int titleWidth = "ITEM".length();
        for (final PreflightItem item : report.items())
        {
            titleWidth = Math.max(titleWidth, item.title().length());
        }
        final String row = "%-6s  %-" + titleWidth + "s  %s%n";
        final String indent = " ".repeat(6 + VALUE_INDENT + titleWidth + VALUE_INDENT);
        out.printf("rfmrt check: sysroot %s%n", report.sysroot());
        out.printf(row, "STATUS", "ITEM", "VALUE");
        for (final PreflightItem item : report.items())
        {
            out.printf(row, item.status(), item.title(), item.value());
            if (item.status() != CheckStatus.PASS)
            {
                out.printf("%sfix: %s%n", indent, item.hint());
            }
        }
        out.printf("%d items: %d pass, %d warn, %d fail%n", report.items().size(), report.count(CheckStatus.PASS),
            report.count(CheckStatus.WARN), report.count(CheckStatus.FAIL));
    }
}
