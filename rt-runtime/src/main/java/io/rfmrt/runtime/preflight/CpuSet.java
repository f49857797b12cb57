package io.rfmrt.runtime.preflight;

import java.util.BitSet;

/**
 * An immutable set of cpu numbers, read from the kernel's cpu list ({@code 0-3,6}) or hexadecimal mask
 * ({@code ff,000000ff}) notations and written back as a cpu list.
 */
final class CpuSet
{
    /** The empty set. */
    static final CpuSet EMPTY = new CpuSet(new BitSet());

    private static final int MAX_CPUS = 1 << 16;
    private static final int MASK_WORD_BITS = 32;

    private final BitSet bits;

    private CpuSet(final BitSet bits)
    {
        this.bits = bits;
    }

    /**
     * Parse a cpu list as the kernel writes and reads it: {@code 0-3,6}, an empty string, and on the boot command line
     * also {@code all}, {@code N} (the last cpu) and {@code 0-7:2/4} (the first 2 of each group of 4).
     *
     * @param text a cpu list, surrounding white space ignored.
     * @param all  the cpus {@code all} and {@code N} refer to (the possible or online cpus).
     * @return the set.
     * @throws IllegalArgumentException when the text is not a cpu list.
     */
    static CpuSet parseList(final String text, final CpuSet all)
    {
        final String list = text.strip();
        final BitSet bits = new BitSet();
        if (list.isEmpty())
        {
            return EMPTY;
        }
        if (list.equals("all"))
        {
            return all;
        }
        final int last = all.bits.length() - 1;
        for (final String part : list.split(","))
        {
            parseRange(part.strip(), last, list, bits);
        }
        return new CpuSet(bits);
    }

    private static void parseRange(final String part, final int last, final String list, final BitSet bits)
    {
        String range = part;
        int used = 1;
        int group = 1;
        final int colon = part.indexOf(':');
        if (colon >= 0)
        {
            range = part.substring(0, colon);
            final String[] spec = part.substring(colon + 1).split("/", -1);
            if (spec.length != 2)
            {
                throw new IllegalArgumentException("bad cpu list '" + list + "'");
            }
            used = number(spec[0], last, list);
            group = number(spec[1], last, list);
            if (used < 1 || group < 1 || used > group)
            {
                throw new IllegalArgumentException("bad cpu list '" + list + "'");
            }
        }
        final int dash = range.indexOf('-');
        final int from = number(dash < 0 ? range : range.substring(0, dash), last, list);
        final int to = dash < 0 ? from : number(range.substring(dash + 1), last, list);
        if (to < from)
        {
            throw new IllegalArgumentException("bad cpu list '" + list + "': " + from + " > " + to);
        }
        for (int cpu = from; cpu <= to; cpu++)
        {
            if ((cpu - from) % group < used)
            {
                bits.set(cpu);
            }
        }
    }

    private static int number(final String text, final int last, final String list)
    {
        if (text.equals("N"))
        {
            if (last < 0)
            {
                throw new IllegalArgumentException("cpu list '" + list + "' says N, and the cpu count is unknown");
            }
            return last;
        }
        try
        {
            final int cpu = Integer.parseInt(text);
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
     * Parse a cpu mask as in {@code /proc/irq/N/smp_affinity}: hexadecimal, most significant first, optionally in
     * comma-separated 32-bit words.
     *
     * @param text the mask.
     * @return the set.
     * @throws IllegalArgumentException when the text is not a mask.
     */
    static CpuSet parseMask(final String text)
    {
        final String mask = text.strip();
        if (mask.isEmpty())
        {
            throw new IllegalArgumentException("empty cpu mask");
        }
        final String[] words = mask.split(",");
        final BitSet bits = new BitSet();
        int base = 0;
        for (int w = words.length - 1; w >= 0; w--)
        {
            final String word = words[w].strip();
            final int width = words.length == 1 ? word.length() * 4 : MASK_WORD_BITS;
            for (int i = 0; i < word.length(); i++)
            {
                final int nibble = Character.digit(word.charAt(word.length() - 1 - i), 16);
                if (nibble < 0 || (words.length > 1 && word.length() > MASK_WORD_BITS / 4))
                {
                    throw new IllegalArgumentException("bad cpu mask '" + mask + "'");
                }
                for (int b = 0; b < 4; b++)
                {
                    if ((nibble & (1 << b)) != 0)
                    {
                        bits.set(base + i * 4 + b);
                    }
                }
            }
            base += width;
        }
        return new CpuSet(bits);
    }

    /**
     * @param cpus cpu numbers.
     * @return the set of them.
     */
    static CpuSet of(final int... cpus)
    {
        final BitSet bits = new BitSet();
        for (final int cpu : cpus)
        {
            bits.set(cpu);
        }
        return new CpuSet(bits);
    }

    boolean isEmpty()
    {
        return bits.isEmpty();
    }

    int size()
    {
        return bits.cardinality();
    }

    boolean contains(final int cpu)
    {
        return bits.get(cpu);
    }

    boolean containsAll(final CpuSet other)
    {
        return other.minus(this).isEmpty();
    }

    boolean intersects(final CpuSet other)
    {
        return bits.intersects(other.bits);
    }

    CpuSet and(final CpuSet other)
    {
        final BitSet copy = (BitSet)bits.clone();
        copy.and(other.bits);
        return new CpuSet(copy);
    }

    CpuSet or(final CpuSet other)
    {
        final BitSet copy = (BitSet)bits.clone();
        copy.or(other.bits);
        return new CpuSet(copy);
    }

    CpuSet minus(final CpuSet other)
    {
        final BitSet copy = (BitSet)bits.clone();
        copy.andNot(other.bits);
        return new CpuSet(copy);
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof CpuSet && ((CpuSet)o).bits.equals(bits);
    }

    @Override
    public int hashCode()
    {
        return bits.hashCode();
    }

    /**
     * @return the cpu list, {@code 0-3,6}; empty for the empty set.
     */
    @Override
    public String toString()
    {
        final StringBuilder list = new StringBuilder();
        int from = bits.nextSetBit(0);
        while (from >= 0)
        {
            final int to = bits.nextClearBit(from) - 1;
            if (list.length() > 0)
            {
                list.append(',');
            }
            list.append(from);
            if (to > from)
            {
                list.append('-').append(to);
            }
            from = bits.nextSetBit(to + 1);
        }
        return list.toString();
    }
}
