package io.rfmrt.runtime.threads.internal;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The kernel's cpu list notation ({@code 0-3,6}, empty for none), parsed to and formatted from a {@link BitSet}.
 */
public final class CpuList
{
    private static final int MAX_CPUS = 1 << 16;

    private CpuList()
    {
    }

    /**
     * @param text a cpu list, surrounding white space ignored.
     * @return the cpus.
     * @throws IllegalArgumentException when the text is not a cpu list.
     */
    public static BitSet parse(final String text)
    {
        final String list = text.strip();
        final BitSet cpus = new BitSet();
        if (list.isEmpty())
        {
            return cpus;
        }
        for (final String part : list.split(","))
        {
            final String range = part.strip();
            final int dash = range.indexOf('-');
            final int from = number(dash < 0 ? range : range.substring(0, dash), list);
            final int to = dash < 0 ? from : number(range.substring(dash + 1), list);
            if (to < from)
            {
                throw new IllegalArgumentException("bad cpu list '" + list + "': " + from + " > " + to);
            }
            cpus.set(from, to + 1);
        }
        return cpus;
    }

    private static int number(final String text, final String list)
    {
        try
        {
            final int cpu = Integer.parseInt(text.strip());
            if (cpu < 0 || cpu >= MAX_CPUS)
            {
                throw new IllegalArgumentException("bad cpu list '" + list + "': cpu " + cpu);
            }
            return cpu;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("bad cpu list '" + list + "'", ex);
        }
    }

    /**
     * @param cpus a set of cpus.
     * @return the set in cpu list notation, ranges collapsed ({@code 0-3,6}); empty for none.
     */
    public static String format(final BitSet cpus)
    {
        final StringBuilder text = new StringBuilder();
        int from = cpus.nextSetBit(0);
        while (from >= 0)
        {
            final int to = cpus.nextClearBit(from) - 1;
            if (text.length() > 0)
            {
                text.append(',');
            }
            text.append(from);
            if (to > from)
            {
                text.append('-').append(to);
            }
            from = cpus.nextSetBit(to + 1);
        }
        return text.toString();
    }

    /**
     * @param cpus cpu numbers.
     * @return them as a set.
     */
    public static BitSet of(final List<Integer> cpus)
    {
        final BitSet set = new BitSet();
        for (final int cpu : cpus)
        {
            set.set(cpu);
        }
        return set;
    }

    /**
     * @param cpus a set of cpus.
     * @return them in ascending order.
     */
    public static List<Integer> toList(final BitSet cpus)
    {
        final List<Integer> list = new ArrayList<>(cpus.cardinality());
        for (int cpu = cpus.nextSetBit(0); cpu >= 0; cpu = cpus.nextSetBit(cpu + 1))
        {
            list.add(cpu);
        }
        return List.copyOf(list);
    }
}
