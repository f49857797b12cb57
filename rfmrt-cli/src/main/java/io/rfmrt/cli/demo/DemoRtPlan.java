package io.rfmrt.cli.demo;

import io.rfmrt.control.node.ControllerApp;
import io.rfmrt.control.node.PlantApp;
import io.rfmrt.runtime.ReceiveThreads;
import io.rfmrt.runtime.threads.RtBudget;
import io.rfmrt.runtime.threads.RtDuty;
import io.rfmrt.runtime.threads.RtDuty.PlannedThread;
import io.rfmrt.runtime.threads.RtDuty.Wait;

import java.util.ArrayList;
import java.util.List;

/**
 * The RT duty the demo plans before it starts: the RT threads of both node processes, each on the first RT cpu its
 * node picks, how each waits and how often it wakes at the demo's rate, summed per cpu against the kernel's RT budget
 * ({@link RtDuty}). Both nodes' RT threads share a cpu on a machine with one RT cpu, so their sum is what the kernel
 * throttles.
 * <pre>
 *   controller  rfmrt-isr       futex wake per sensor frame; with --wait inline the control law runs on it
 *               rfmrt-consumer  (--wait blocking only) a second wake-up per frame, the law
 *               rfmrt-watchdog  absolute timer, once per period
 *   plant       rfmrt-isr       futex wake per command frame, hands it over
 *               rfmrt-consumer  a wake-up per command frame, files it for the loop
 *               rfmrt-plant     absolute timer to PlantApp.TICK_SPIN_NS before each tick, spins the rest, then the tick
 * </pre>
 */
final class DemoRtPlan
{
    /**
     * The shipped law's work per sensor frame, ns: the demo's {@code handler_cpu_p50_us} at 10 kHz on the 2-vCPU VM
     * was 15.5 µs (docs/benchmarks.md).
     */
    static final long LAW_WORK_NS = 15_000;
    /** The plant's tick (the drive, the axis, the sensor frame, the journal), ns: its execution p50 was 4.9 µs. */
    static final long TICK_WORK_NS = 5_000;
    /** The plant's command handler (a mailbox write) and a watchdog tick, ns: about a microsecond each. */
    static final long SMALL_WORK_NS = 1_000;

    private DemoRtPlan()
    {
    }

    /**
     * @param rate the loop rate, Hz.
     * @param wait the controller's {@code --wait}: inline or blocking.
     * @param cpu  the RT cpu the nodes' RT threads go to.
     * @return the RT threads of both processes.
     */
    static List<PlannedThread> threads(final int rate, final String wait, final int cpu)
    {
        final List<PlannedThread> threads = new ArrayList<>();
        final boolean inline = "inline".equals(wait);
        threads.add(new PlannedThread("controller", ReceiveThreads.ISR, cpu, Wait.BLOCKING, rate,
            inline ? LAW_WORK_NS : 0, 0));
        if (!inline)
        {
            threads.add(new PlannedThread("controller", ReceiveThreads.CONSUMER, cpu, Wait.BLOCKING, rate,
                LAW_WORK_NS, 0));
        }
        threads.add(new PlannedThread("controller", ControllerApp.WATCHDOG_THREAD, cpu, Wait.TIMER, rate,
            SMALL_WORK_NS, 0));
        threads.add(new PlannedThread("plant", ReceiveThreads.ISR, cpu, Wait.BLOCKING, rate, 0, 0));
        threads.add(new PlannedThread("plant", ReceiveThreads.CONSUMER, cpu, Wait.BLOCKING, rate, SMALL_WORK_NS, 0));
        threads.add(new PlannedThread("plant", PlantApp.LOOP_THREAD, cpu, Wait.TIMER, rate, TICK_WORK_NS,
            PlantApp.TICK_SPIN_NS));
        return threads;
    }

    /**
     * @param rate   the loop rate, Hz.
     * @param wait   the controller's {@code --wait}.
     * @param cpu    the RT cpu.
     * @param budget the kernel's RT budget.
     * @return the plan.
     */
    static RtDuty.Plan plan(final int rate, final String wait, final int cpu, final RtBudget budget)
    {
        return RtDuty.plan(threads(rate, wait, cpu), budget);
    }
}
