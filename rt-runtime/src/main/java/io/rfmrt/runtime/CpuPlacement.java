package io.rfmrt.runtime;

/**
 * Where one node thread runs.
 *
 * @param cpu      core; {@link #CPU_NONE} = not pinned, {@link #CPU_AUTO} = the first RT core (the housekeeping
 *                 core for the journal).
 * @param priority SCHED_FIFO 1..99, 0 = SCHED_OTHER.
 */
public record CpuPlacement(int cpu, int priority)
{
    /** Cpu meaning "choose": the first RT core for RT threads, the housekeeping core for the journal. */
    public static final int CPU_AUTO = -2;
    /** Cpu meaning "do not pin". */
    public static final int CPU_NONE = -1;
    /** Highest cpu number a placement accepts. */
    public static final int CPU_MAX = 4095;

    /** A housekeeping thread: not pinned, SCHED_OTHER. */
    public static final CpuPlacement HOUSEKEEPING = new CpuPlacement(CPU_NONE, 0);

    /**
     * @param priority SCHED_FIFO priority.
     * @return the first RT core at that priority.
     */
    public static CpuPlacement auto(final int priority)
    {
        return new CpuPlacement(CPU_AUTO, priority);
    }

    /**
     * @param rtCpu the first RT core, or {@link #CPU_NONE}.
     * @return the core this placement resolves to.
     */
    public int resolve(final int rtCpu)
    {
        return cpu == CPU_AUTO ? rtCpu : cpu;
    }
}
