package io.rfmrt.runtime.threads.internal;

import java.util.List;

import net.openhft.affinity.AffinityLock;

/**
 * What {@link ThreadPlacer#place} did to the calling thread, read back from the kernel.
 *
 * @param tid       the thread's kernel id, -1 if unknown.
 * @param lock      the OpenHFT lock that reserves the thread's cpu, null if none was taken; the placed thread owns it
 *                  and releases it when it ends.
 * @param actualCpu the one cpu the kernel allows the thread, -1 if it allows several or the mask is unknown.
 * @param allowed   the cpus the kernel allows the thread, in cpu list notation, {@code ?} if unknown.
 * @param policy    the scheduling policy the kernel reports ({@code SCHED_FIFO}, ...), {@code UNKNOWN} if unread.
 * @param priority  the real-time priority the kernel reports, -1 if unread.
 * @param refusals  the refused steps, in the order they were tried.
 */
public record PlacementResult(int tid, AffinityLock lock, int actualCpu, String allowed, String policy, int priority,
                              List<Refusal> refusals)
{
    /**
     * @param tid       kernel thread id.
     * @param lock      the OpenHFT lock or null.
     * @param actualCpu the single allowed cpu or -1.
     * @param allowed   the allowed cpus as a list.
     * @param policy    the policy's name.
     * @param priority  the real-time priority.
     * @param refusals  the refused steps.
     */
    public PlacementResult
    {
        refusals = List.copyOf(refusals);
    }
}
