package io.rfmrt.runtime.threads.internal;

import java.util.Objects;

/**
 * One refused setup step.
 *
 * @param step        the step's short name as the placement table shows it ({@code SCHED_FIFO}, {@code affinity},
 *                    {@code affinity-lock}, {@code mlockall}, {@code cpu_dma_latency}, {@code isolated-cpus}).
 * @param key         what makes the refusal distinct for warn-once: the step and, for a thread's step, the thread's
 *                    name.
 * @param what        what was refused, for whom and why (errno or reason):
 *                    {@code SCHED_FIFO 80 refused for rfmrt-isr (EPERM)}.
 * @param consequence what happens instead, in permissive mode: {@code running SCHED_OTHER}.
 */
public record Refusal(String step, String key, String what, String consequence)
{
    /**
     * @param step        the step's short name.
     * @param key         the distinct key for warn-once.
     * @param what        what was refused and why.
     * @param consequence what happens instead.
     */
    public Refusal
    {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(consequence, "consequence");
    }

    /**
     * @param step        the step's short name.
     * @param thread      the thread's name.
     * @param what        what was refused and why.
     * @param consequence what happens instead.
     * @return a refusal keyed by step and thread.
     */
    public static Refusal ofThread(final String step, final String thread, final String what, final String consequence)
    {
        return new Refusal(step, step + ':' + thread, what, consequence);
    }

    /**
     * @param step        the step's short name.
     * @param what        what was refused and why.
     * @param consequence what happens instead.
     * @return a process-wide refusal keyed by its step.
     */
    public static Refusal ofProcess(final String step, final String what, final String consequence)
    {
        return new Refusal(step, step, what, consequence);
    }

    /**
     * @return the one-line warning: {@code what: consequence}.
     */
    public String line()
    {
        return what + ": " + consequence;
    }
}
