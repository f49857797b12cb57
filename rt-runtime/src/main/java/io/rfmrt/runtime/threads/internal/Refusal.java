package io.rfmrt.runtime.threads.internal;

import java.util.Objects;

/**
 * One refused setup step.
 *
 * @param step the step's short name as the placement table shows it ({@code SCHED_FIFO}, {@code affinity},
 *             {@code affinity-lock}, {@code mlockall}, {@code cpu_dma_latency}, {@code isolated-cpus}).
 * @param key  what makes the refusal distinct for warn-once: the step and, for a thread's step, the thread's name.
 * @param line the one-line warning: what was refused, for whom, why (errno or reason) and what happens instead.
 */
public record Refusal(String step, String key, String line)
{
    /**
     * @param step the step's short name.
     * @param key  the distinct key for warn-once.
     * @param line the warning line.
     */
    public Refusal
    {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(line, "line");
    }

    /**
     * @param step   the step's short name.
     * @param thread the thread's name.
     * @param line   the warning line.
     * @return a refusal keyed by step and thread.
     */
    public static Refusal ofThread(final String step, final String thread, final String line)
    {
        return new Refusal(step, step + ':' + thread, line);
    }

    /**
     * @param step the step's short name.
     * @param line the warning line.
     * @return a process-wide refusal keyed by its step.
     */
    public static Refusal ofProcess(final String step, final String line)
    {
        return new Refusal(step, step, line);
    }
}
