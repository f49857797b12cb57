package io.rfmrt.runtime.threads;

import java.util.List;

/**
 * Where a thread started by {@link RtEnvironment#start} really runs, as the kernel reported it after the thread placed
 * itself (not an echo of the request).
 *
 * @param thread       the thread's name.
 * @param tid          its kernel thread id ({@code ps -L}'s LWP), -1 if unknown.
 * @param requestedCpu the cpu asked for, -1 for "do not pin".
 * @param actualCpu    the one cpu the kernel allows the thread ({@code sched_getaffinity}), -1 if it allows several or
 *                     the mask could not be read.
 * @param policy       the scheduling policy read back: {@code SCHED_FIFO}, {@code SCHED_OTHER}, ...
 * @param priority     the real-time priority read back (0 for {@code SCHED_OTHER}), -1 if unread.
 * @param refused      the refused steps, empty when everything was granted: {@code affinity} (not pinned),
 *                     {@code affinity-lock} (pinned, but the cpu is not reserved by an OpenHFT lock),
 *                     {@code SCHED_FIFO} or {@code SCHED_OTHER} (policy not granted). The warning lines with the
 *                     reasons are in {@link RtEnvironment#refusals()}.
 */
public record Placement(String thread, int tid, int requestedCpu, int actualCpu, String policy, int priority,
                        List<String> refused)
{
    /**
     * @param thread       the thread's name.
     * @param tid          kernel thread id.
     * @param requestedCpu requested cpu or -1.
     * @param actualCpu    actual single cpu or -1.
     * @param policy       policy name.
     * @param priority     real-time priority.
     * @param refused      refused step names.
     */
    public Placement
    {
        refused = List.copyOf(refused);
    }
}
