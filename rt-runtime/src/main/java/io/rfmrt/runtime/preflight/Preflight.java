package io.rfmrt.runtime.preflight;

import io.rfmrt.rfm.rfm2g.Rfm2gProbe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The preflight of an rfmrt node ({@code rfmrt check}): reads {@code /proc}, {@code /sys} and {@code /etc} under a
 * root folder and judges each setting a real-time node depends on ({@link CheckId}). Only reads; a missing or
 * malformed file makes its item {@link CheckStatus#WARN} with a value that says so, never an exception.
 * <p>
 * The items are {@link PreflightCheck}s in groups ({@link KernelChecks}, {@link IsolationChecks}, {@link IrqCheck},
 * {@link LimitChecks}, {@link Rfm2gCardCheck}) over one {@link HostView} of the machine; this class puts them in
 * report order and runs them.
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
    private static final List<PreflightCheck> CHECKS = Stream.of(KernelChecks.checks(), IsolationChecks.checks(),
            IrqCheck.checks(), LimitChecks.checks(), Rfm2gCardCheck.checks())
        .flatMap(List::stream)
        .sorted(Comparator.comparing(PreflightCheck::id))
        .toList();

    private Preflight()
    {
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
        final HostView host = new HostView(new SysRoot(sysroot), options);
        final boolean card = options.device().filter(Rfm2gProbe::isRfm2g).isPresent();
        final List<PreflightItem> items = new ArrayList<>();
        for (final PreflightCheck check : CHECKS)
        {
            if (check.id() != CheckId.RFM2G_CARD || card)
            {
                items.add(runSafely(check, host));
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

    /**
     * @return the checks in report order, one per {@link CheckId}.
     */
    static List<PreflightCheck> checks()
    {
        return CHECKS;
    }

    private static PreflightItem runSafely(final PreflightCheck check, final HostView host)
    {
        try
        {
            return check.run(host);
        }
        catch (final RuntimeException ex)
        {
            // a file in a shape nobody foresaw must not cost the user the rest of the report
            return new PreflightItem(check.id(), CheckStatus.WARN, "unknown: " + ex.getMessage(), check.hint());
        }
    }
}
