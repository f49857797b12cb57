package io.rfmrt.runtime.threads.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.jna.Memory;
import io.rfmrt.runtime.threads.CpuSet;
import net.openhft.affinity.Affinity;
import net.openhft.affinity.AffinityLock;
import net.openhft.affinity.LockCheck;

/**
 * Places the calling thread: pins it to a cpu (OpenHFT {@link Affinity}, reserved with an {@link AffinityLock} where
 * asked), sets its scheduling policy and priority through its own tid, and reads back what the kernel really did.
 * Runs once on the new thread before its body; never on the hot path.
 */
public final class ThreadPlacer
{
    /** Step name: pinning the thread to its cpu. */
    public static final String STEP_AFFINITY = "affinity";
    /** Step name: reserving the cpu with OpenHFT's lock (pinned without a reservation when refused). */
    public static final String STEP_AFFINITY_LOCK = "affinity-lock";
    /** Step name: the real-time policy. */
    public static final String STEP_SCHED_FIFO = "SCHED_FIFO";
    /** Step name: the normal policy (asked for priority 0). */
    public static final String STEP_SCHED_OTHER = "SCHED_OTHER";

    private static final Pattern ERRNO = Pattern.compile("errno\\s*=\\s*(\\d+)");
    private static final int STAT_FIELD_RT_PRIORITY = 40;
    private static final int STAT_FIELD_POLICY = 41;

    private ThreadPlacer()
    {
    }

    /**
     * Place the calling thread.
     *
     * @param name     the thread's name, for the refusal lines.
     * @param cpu      the cpu to pin to, -1 to leave the affinity as inherited.
     * @param reserve  whether to reserve the cpu with an OpenHFT {@link AffinityLock} (RT cpus), else pin only.
     * @param priority 1-99 for {@code SCHED_FIFO} at that priority, 0 for {@code SCHED_OTHER}.
     * @return what the kernel reports afterwards, and every refused step.
     */
    public static PlacementResult place(final String name, final int cpu, final boolean reserve, final int priority)
    {
        final List<Refusal> refusals = new ArrayList<>();
        final int tid = tid();

        String pinRefused = null;
        AffinityLock lock = null;
        String lockRefused = null;
        if (cpu >= 0)
        {
            pinRefused = pin(cpu);
            if (pinRefused == null && reserve)
            {
                lock = reserve(cpu);
                if (lock == null)
                {
                    lockRefused = lockHolder(cpu);
                    pin(cpu);
                }
            }
        }

        final String schedRefused = schedule(tid, priority);

        final BitSet allowed = readAffinity(tid);
        final int actualCpu = allowed != null && allowed.cardinality() == 1 ? allowed.nextSetBit(0) : -1;
        final String allowedList = allowed == null ? "?" : CpuSet.of(allowed).toString();
        final int[] sched = readScheduler(tid);
        final String policy = policyName(sched[0]);
        final int readPriority = sched[1];

        if (cpu >= 0)
        {
            if (pinRefused == null && actualCpu != cpu)
            {
                pinRefused = "kernel reports cpus " + allowedList;
            }
            if (pinRefused != null)
            {
                refusals.add(Refusal.ofThread(STEP_AFFINITY, name,
                    "pinning " + name + " to cpu " + cpu + " refused (" + pinRefused + ")",
                    "running on cpus " + allowedList));
            }
            else if (lockRefused != null)
            {
                refusals.add(Refusal.ofThread(STEP_AFFINITY_LOCK, name,
                    "cpu " + cpu + " not reservable by AffinityLock for " + name + " (" + lockRefused + ")",
                    "pinned with sched_setaffinity, not reserved"));
            }
        }

        final String wanted = priority > 0 ? STEP_SCHED_FIFO : STEP_SCHED_OTHER;
        String why = schedRefused;
        if (why == null && (!wanted.equals(policy) || readPriority != priority))
        {
            why = "kernel reports " + policy + " " + readPriority;
        }
        if (why != null)
        {
            refusals.add(Refusal.ofThread(wanted, name,
                wanted + " " + priority + " refused for " + name + " (" + why + ")",
                "running " + policy + (readPriority > 0 ? " " + readPriority : "")));
        }
        return new PlacementResult(tid, lock, actualCpu, allowedList, policy, readPriority, refusals);
    }

    /**
     * @return the calling thread's kernel id, -1 if libc is not bound.
     */
    public static int tid()
    {
        if (SchedLib.loadFailure() != null)
        {
            return -1;
        }
        return SchedLib.gettid();
    }

    /**
     * @param policy a {@code SCHED_*} value as {@code sched_getscheduler} returns it, -1 for unknown.
     * @return its name.
     */
    public static String policyName(final int policy)
    {
        if (policy < 0)
        {
            return "UNKNOWN";
        }
        switch (policy & ~SchedLib.SCHED_RESET_ON_FORK)
        {
            case SchedLib.SCHED_OTHER:
                return "SCHED_OTHER";
            case SchedLib.SCHED_FIFO:
                return "SCHED_FIFO";
            case SchedLib.SCHED_RR:
                return "SCHED_RR";
            case SchedLib.SCHED_BATCH:
                return "SCHED_BATCH";
            case SchedLib.SCHED_IDLE:
                return "SCHED_IDLE";
            case SchedLib.SCHED_DEADLINE:
                return "SCHED_DEADLINE";
            default:
                return "policy " + policy;
        }
    }

    private static String pin(final int cpu)
    {
        try
        {
            Affinity.setAffinity(cpu);
            return null;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return errnoOf(ex);
        }
    }

    private static AffinityLock reserve(final int cpu)
    {
        try
        {
            final AffinityLock lock = AffinityLock.acquireLock(new int[] {cpu});
            if (lock.cpuId() == cpu)
            {
                return lock;
            }
            if (lock.cpuId() >= 0)
            {
                lock.resetAffinity(false).release();
            }
        }
        catch (final RuntimeException | LinkageError ignored)
        {
            // reported as not reservable
        }
        return null;
    }

    private static String lockHolder(final int cpu)
    {
        try
        {
            final int pid = LockCheck.getProcessForCpu(cpu);
            if (pid == ProcessHandle.current().pid())
            {
                return "already locked in this process";
            }
            if (pid > 0)
            {
                return "locked by pid " + pid;
            }
        }
        catch (final IOException | RuntimeException | LinkageError ignored)
        {
            // no lock file to name a holder
        }
        return "not reservable";
    }

    private static String schedule(final int tid, final int priority)
    {
        if (SchedLib.loadFailure() != null)
        {
            return "libc not bound: " + SchedLib.loadFailure();
        }
        try (Memory param = new Memory(SchedLib.SCHED_PARAM_SIZE))
        {
            param.setInt(0, priority);
            final int policy = priority > 0 ? SchedLib.SCHED_FIFO : SchedLib.SCHED_OTHER;
            if (SchedLib.sched_setscheduler(tid, policy, param) != 0)
            {
                return Errno.name(SchedLib.errno());
            }
            return null;
        }
    }

    private static BitSet readAffinity(final int tid)
    {
        if (SchedLib.loadFailure() == null)
        {
            try (Memory mask = new Memory(SchedLib.CPU_MASK_BYTES))
            {
                mask.clear();
                if (SchedLib.sched_getaffinity(tid, SchedLib.CPU_MASK_BYTES, mask) == 0)
                {
                    return BitSet.valueOf(mask.getByteArray(0, SchedLib.CPU_MASK_BYTES));
                }
            }
        }
        final String list = procField(taskDir(tid).resolve("status"), "Cpus_allowed_list:");
        try
        {
            return list == null ? null : CpuSet.parse(list).toBitSet();
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    private static int[] readScheduler(final int tid)
    {
        if (SchedLib.loadFailure() == null)
        {
            final int policy = SchedLib.sched_getscheduler(tid);
            try (Memory param = new Memory(SchedLib.SCHED_PARAM_SIZE))
            {
                if (policy >= 0 && SchedLib.sched_getparam(tid, param) == 0)
                {
                    return new int[] {policy, param.getInt(0)};
                }
            }
        }
        return procScheduler(tid);
    }

    private static int[] procScheduler(final int tid)
    {
        try
        {
            final String stat = Files.readString(taskDir(tid).resolve("stat"), StandardCharsets.US_ASCII);
            // field 2 (comm) is in parentheses and may hold spaces: count fields after the last ')'
            final String[] rest = stat.substring(stat.lastIndexOf(')') + 1).strip().split(" ");
            final int firstField = 3;
            final int policy = Integer.parseInt(rest[STAT_FIELD_POLICY - firstField]);
            final int priority = Integer.parseInt(rest[STAT_FIELD_RT_PRIORITY - firstField]);
            return new int[] {policy, priority};
        }
        catch (final IOException | RuntimeException ex)
        {
            return new int[] {-1, -1};
        }
    }

    private static Path taskDir(final int tid)
    {
        return tid > 0 ? Path.of("/proc/self/task", Integer.toString(tid)) : Path.of("/proc/thread-self");
    }

    private static String procField(final Path file, final String field)
    {
        try
        {
            for (final String line : Files.readAllLines(file, StandardCharsets.US_ASCII))
            {
                if (line.startsWith(field))
                {
                    return line.substring(field.length()).strip();
                }
            }
        }
        catch (final IOException ignored)
        {
            // unknown
        }
        return null;
    }

    private static String errnoOf(final Throwable ex)
    {
        final String message = String.valueOf(ex.getMessage());
        final Matcher matcher = ERRNO.matcher(message);
        if (matcher.find())
        {
            return Errno.name(Integer.parseInt(matcher.group(1)));
        }
        return ex.getClass().getSimpleName() + ": " + message;
    }
}
