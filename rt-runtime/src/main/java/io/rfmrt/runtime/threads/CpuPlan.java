package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.threads.internal.ProcessSteps;
import io.rfmrt.runtime.threads.internal.Refusal;
import io.rfmrt.runtime.threads.internal.SysCpus;
import io.rfmrt.runtime.threads.internal.ThreadPlacer;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * Which cpus a node's threads get: the RT cpus (configured, else the online isolated ones, else best effort: every
 * online cpu but cpu 0, or cpu 0 when it is the only one) and the housekeeping cpu (the first online cpu that is not
 * an RT cpu), and which pin requests are refused (a cpu that is not online). Immutable, thread-safe; only reads
 * {@code /sys}.
 */
public final class CpuPlan
{
    /** {@link #source()}: the cpus came from {@code rfmrt.rt.cpus}. */
    public static final String CONFIGURED = "configured";
    /** {@link #source()}: the cpus are the online isolated ones. */
    public static final String ISOLATED = "isolated";
    /** {@link #source()}: no isolated cpus; the RT threads share cpus with the rest of the system. */
    public static final String BEST_EFFORT = "best effort";

    private final CpuSet online;
    private final List<Integer> rtCpus;
    private final int housekeepingCpu;
    private final String source;
    private final Optional<Refusal> bestEffort;

    private CpuPlan(final CpuSet online, final List<Integer> rtCpus, final String source,
        final Optional<Refusal> bestEffort)
    {
        this.online = online;
        this.rtCpus = rtCpus;
        this.source = source;
        this.bestEffort = bestEffort;
        this.housekeepingCpu = online.minus(CpuSet.of(rtCpus)).first();
    }

    /**
     * @param settings the configured cpus and the sysroot the kernel's cpu lists are read under.
     * @return the plan.
     */
    public static CpuPlan choose(final RtSettings settings)
    {
        final Path sysroot = settings.sysroot();
        final CpuSet online = SysCpus.online(sysroot).map(CpuSet::of)
            .orElseGet(() -> CpuSet.range(0, Runtime.getRuntime().availableProcessors() - 1));
        if (!settings.cpus().isEmpty())
        {
            return new CpuPlan(online, CpuSet.of(settings.cpus()).toList(), CONFIGURED, Optional.empty());
        }
        final Optional<BitSet> isolated = SysCpus.isolated(sysroot);
        if (isolated.isPresent())
        {
            final CpuSet usable = CpuSet.of(isolated.get()).and(online);
            if (!usable.isEmpty())
            {
                return new CpuPlan(online, usable.toList(), ISOLATED, Optional.empty());
            }
        }
        final CpuSet bestEffort = online.size() > 1 ? online.without(0) : online;
        final String file = sysroot.resolve(SysCpus.ISOLATED).toString();
        final Refusal refusal = Refusal.ofProcess(ProcessSteps.STEP_ISOLATED_CPUS,
            "no isolated cpus (" + file + (isolated.isEmpty() ? " unreadable" :
                isolated.get().isEmpty() ? " is empty" : " lists no online cpu") + ") and rfmrt.rt.cpus not set",
            "RT threads use cpus " + bestEffort + ", best effort (shared with the rest of the system)");
        return new CpuPlan(online, bestEffort.toList(), BEST_EFFORT, Optional.of(refusal));
    }

    /**
     * @return the cpus for RT threads, ascending.
     */
    public List<Integer> rtCpus()
    {
        return rtCpus;
    }

    /**
     * @return the first online cpu that is not an RT cpu, -1 if none.
     */
    public int housekeepingCpu()
    {
        return housekeepingCpu;
    }

    /**
     * @return where the RT cpus came from: {@link #CONFIGURED}, {@link #ISOLATED} or {@link #BEST_EFFORT}.
     */
    public String source()
    {
        return source;
    }

    /**
     * @return the online cpus.
     */
    public CpuSet online()
    {
        return online;
    }

    /**
     * @param cpu a cpu.
     * @return whether it is an RT cpu (RT cpus are reserved with an OpenHFT lock when a thread is pinned to them).
     */
    public boolean isRtCpu(final int cpu)
    {
        return rtCpus.contains(cpu);
    }

    /**
     * @return the refusal to report when the plan is best effort.
     */
    Optional<Refusal> bestEffortRefusal()
    {
        return bestEffort;
    }

    /**
     * @param thread the thread's name.
     * @param cpu    the cpu asked for, -1 for none.
     * @return the refusal when the cpu is not online (the thread then runs unpinned).
     */
    Optional<Refusal> pinRefusal(final String thread, final int cpu)
    {
        if (cpu < 0 || online.contains(cpu))
        {
            return Optional.empty();
        }
        return Optional.of(Refusal.ofThread(ThreadPlacer.STEP_AFFINITY, thread, "pinning " + thread + " to cpu " +
            cpu + " refused (not online; online " + online + ")", "running unpinned"));
    }

    @Override
    public String toString()
    {
        return "CpuPlan{rtCpus=" + rtCpus + " (" + source + "), housekeepingCpu=" + housekeepingCpu + '}';
    }
}
