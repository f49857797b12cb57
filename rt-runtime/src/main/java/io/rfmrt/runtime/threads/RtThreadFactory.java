package io.rfmrt.runtime.threads;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * A thread factory that applies one placement (cpu, priority) to the threads it makes, for owners that start their
 * threads themselves (an Agrona {@code AgentRunner.startOnThread}, the journal): each new thread, once started,
 * pins itself to the cpu (an RT cpu is also reserved with an OpenHFT lock), sets {@code SCHED_FIFO} at the priority
 * (or {@code SCHED_OTHER} for 0), reads back what the kernel granted, is listed in
 * {@link RtEnvironment#placements()}, and then runs its body. Refusals go to the environment's refusal policy (warned
 * once; in strict mode the body never runs). Threads are daemons, named by their owner (the name when the thread
 * starts is the one recorded). Made by {@link RtEnvironment#threadFactory}; thread-safe.
 */
public final class RtThreadFactory implements ThreadFactory
{
    private final ThreadLauncher launcher;
    private final int cpu;
    private final int priority;

    RtThreadFactory(final ThreadLauncher launcher, final int cpu, final int priority)
    {
        if (cpu < -1)
        {
            throw new IllegalArgumentException("cpu " + cpu + " is not a cpu (-1 = do not pin)");
        }
        if (priority < 0 || priority > 99)
        {
            throw new IllegalArgumentException("priority " + priority +
                " is not in 0-99 (1-99 = SCHED_FIFO, 0 = SCHED_OTHER)");
        }
        this.launcher = launcher;
        this.cpu = cpu;
        this.priority = priority;
    }

    /**
     * @return the cpu the threads are pinned to, -1 for none.
     */
    public int cpu()
    {
        return cpu;
    }

    /**
     * @return the priority: 1-99 {@code SCHED_FIFO}, 0 {@code SCHED_OTHER}.
     */
    public int priority()
    {
        return priority;
    }

    @Override
    public Thread newThread(final Runnable body)
    {
        Objects.requireNonNull(body, "body");
        final Thread thread = new Thread(() -> launcher.runPlaced(cpu, priority, body));
        thread.setDaemon(true);
        return thread;
    }
}
