package io.rfmrt.runtime.threads;

/**
 * {@code SCHED_FIFO} priorities of the receive path. The RT threads run above the kernel's threaded IRQ handlers so
 * that a storm of other devices' interrupts cannot delay the wake-up; the RFM card's own IRQ thread should be raised
 * above them too (see the tuning scripts).
 */
public final class RtPriorities
{
    /** The ISR-wake thread: woken by the card's interrupt, does the minimum and hands off. */
    public static final int ISR_DEFAULT = 80;
    /** Consumer threads: below the ISR-wake thread, above the kernel's IRQ threads. */
    public static final int CONSUMER_DEFAULT = 70;
    /** The priority PREEMPT_RT gives its threaded IRQ handlers ({@code irq/N-name}) by default. */
    public static final int KERNEL_IRQ_THREADS = 50;

    private RtPriorities()
    {
    }
}
