package io.rfmrt.runtime.preflight;

import java.util.Arrays;

/**
 * The preflight items, in report order, with stable ids (the {@code id} of {@code rfmrt check --json}). Ids never
 * change meaning; new items get new ids.
 */
public enum CheckId
{
    /** PREEMPT_RT kernel. */
    RT_KERNEL("rt-kernel", "PREEMPT_RT kernel"),
    /** Cores isolated from the scheduler ({@code isolcpus=}). */
    ISOLATED_CPUS("isolated-cpus", "isolated cores"),
    /** Tickless isolated cores ({@code nohz_full=}). */
    NOHZ_FULL("nohz-full", "nohz_full cores"),
    /** RCU callbacks offloaded from isolated cores ({@code rcu_nocbs=}). */
    RCU_NOCBS("rcu-nocbs", "rcu_nocbs cores"),
    /** No foreign IRQ may run on an isolated core. */
    IRQ_AFFINITY("irq-affinity", "IRQs on isolated cores"),
    /** irqbalance stopped, or banned from the isolated cores. */
    IRQBALANCE("irqbalance", "irqbalance"),
    /** CPU frequency governor. */
    CPU_GOVERNOR("cpu-governor", "CPU frequency governor"),
    /** Transparent huge pages. */
    THP("thp", "transparent huge pages"),
    /** RT throttling ({@code kernel.sched_rt_runtime_us}). */
    RT_THROTTLING("rt-throttling", "RT throttling"),
    /** {@code RLIMIT_RTPRIO} of this process. */
    RLIMIT_RTPRIO("rlimit-rtprio", "RLIMIT_RTPRIO"),
    /** {@code RLIMIT_MEMLOCK} of this process. */
    RLIMIT_MEMLOCK("rlimit-memlock", "RLIMIT_MEMLOCK"),
    /** Swap areas. */
    SWAP("swap", "swap"),
    /** Kernel clocksource. */
    CLOCKSOURCE("clocksource", "clocksource"),
    /** The RFM2g card of the device URI (only when one is given): node, driver, DMA buffer, threshold. */
    RFM2G_CARD("rfm2g-card", "RFM2g card");

    private static final CheckId[] MACHINE_ITEMS = Arrays.stream(values())
        .filter(check -> check != RFM2G_CARD).toArray(CheckId[]::new);

    private final String id;
    private final String title;

    CheckId(final String id, final String title)
    {
        this.id = id;
        this.title = title;
    }

    /**
     * @return the items every run has, in report order: all but {@link #RFM2G_CARD}, which needs a device URI.
     */
    public static CheckId[] machineItems()
    {
        return MACHINE_ITEMS.clone();
    }

    /**
     * @return the stable id, lower case with dashes.
     */
    public String id()
    {
        return id;
    }

    /**
     * @return a short human title.
     */
    public String title()
    {
        return title;
    }
}
