package io.rfmrt.runtime.threads;

import java.util.ArrayList;
import java.util.List;

/**
 * The text rendering of an RT environment's placements, as a node prints it at start-up: one row per thread
 * (thread, tid, cpu requested/actual, policy, priority, refused steps), then one line with the process-wide steps.
 * Kept out of {@link RtEnvironment}, which only holds the data.
 */
public final class PlacementTable
{
    private static final String NOT_PINNED = "-";

    private PlacementTable()
    {
    }

    /**
     * @param env the environment.
     * @return the table of every thread started so far: cpu {@code -} = not pinned, a list when the kernel allows
     * several; refused {@code -} if none. Lines separated by {@code \n}, ending with a newline.
     */
    public static String format(final RtEnvironment env)
    {
        final List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"thread", "tid", "cpu (req/actual)", "policy", "priority", "refused"});
        for (final RtThread thread : env.threads())
        {
            final Placement p = thread.placement();
            rows.add(new String[] {
                p.thread(),
                Integer.toString(p.tid()),
                (p.requestedCpu() < 0 ? NOT_PINNED : Integer.toString(p.requestedCpu())) + '/' +
                    (p.actualCpu() < 0 ? thread.allowedCpus() : Integer.toString(p.actualCpu())),
                p.policy(),
                Integer.toString(p.priority()),
                p.refused().isEmpty() ? "-" : String.join(",", p.refused())});
        }
        final int[] widths = new int[rows.get(0).length];
        for (final String[] row : rows)
        {
            for (int i = 0; i < row.length; i++)
            {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        final StringBuilder table = new StringBuilder();
        for (final String[] row : rows)
        {
            final int start = table.length();
            for (int i = 0; i < row.length; i++)
            {
                table.append(row[i]);
                if (i < row.length - 1)
                {
                    table.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            table.setLength(start + table.substring(start).stripTrailing().length());
            table.append('\n');
        }
        final CpuPlan plan = env.plan();
        final ProcessSetup process = env.process();
        table.append("process: rt cpus ").append(CpuSet.of(plan.rtCpus())).append(" (").append(plan.source())
            .append("), housekeeping cpu ").append(plan.housekeepingCpu())
            .append(", mlockall ").append(process.memoryStatus())
            .append(", cpu_dma_latency ").append(process.latencyStatus())
            .append(env.strict() ? ", strict" : ", permissive")
            .append('\n');
        return table.toString();
    }
}
