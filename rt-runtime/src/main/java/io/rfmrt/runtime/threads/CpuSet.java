package io.rfmrt.runtime.threads;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;

/**
 * An immutable set of cpu numbers, read from the kernel's cpu list ({@code 0-3,6}) or hexadecimal mask
 * ({@code ff,000000ff}) notations and written back as a cpu list. The one cpu-list parser of the Java code; the
 * tuning scripts follow the same rule, and both test suites read the cases of
 * {@code tuning/test/fixtures/cpu-lists.txt}.
 * <p>
 * An empty text and {@code (null)} are the empty set: the kernel prints a cpumask that was never allocated as
 * {@code (null)} ({@code /sys/devices/system/cpu/nohz_full} on a kernel built with {@code CONFIG_NO_HZ_FULL} and
 * {@code CONFIG_CPUMASK_OFFSTACK}, booted without {@code nohz_full=}), so that is what "no cpus" looks like there.
 */
public final class CpuSet
{
    /** The empty set. */
    public static final CpuSet EMPTY = new CpuSet(new BitSet());

    /** What the kernel prints for a cpumask that was never allocated; reads as the empty set. */
    public static final String KERNEL_NULL_MASK = "(null)";

    private static final int MAX_CPUS = 1 << 16;
    private static final int MASK_WORD_BITS = 32;

    private final BitSet bits;

    private CpuSet(final BitSet bits)
    {
        this.bits = bits;
    }

    /**
     * Parse a cpu list as the kernel writes it in {@code /sys} and {@code /proc}: {@code 0-3,6}; empty or
     * {@code (null)} for none.
     *
     * @param text a cpu list, surrounding white space ignored.
     * @return the set.
     * @throws IllegalArgumentException when the text is not a cpu list (the message quotes it).
     */
    public static CpuSet parse(final String text)
    {
        return parseList(text, EMPTY);
    }

    /**
     * Parse a cpu list as the kernel writes and reads it: {@code 0-3,6}, an empty string or {@code (null)} (none),
     * and on the boot command line also {@code all}, {@code N} (the last cpu) and {@code 0-7:2/4} (the first 2 of
     * each group of 4).
     *
     * @param text a cpu list, surrounding white space ignored.
     * @param all  the cpus {@code all} and {@code N} refer to (the possible or online cpus).
     * @return the set.
     * @throws IllegalArgumentException when the text is not a cpu list (the message quotes it).
     */
    public static CpuSet parseList(final String text, final CpuSet all)
    {
        final String list = text.strip();
        final BitSet bits = new BitSet();
        if (list.isEmpty() || list.equals(KERNEL_NULL_MASK))
        {
            return EMPTY;
        }
        if (list.equals("all"))
        {
            return all;
        }
        final int last = all.bits.length() - 1;
        for (final String part : list.split(",", -1))
        {
            parseRange(part, last, list, bits);
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
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9'))
        {
            throw new IllegalArgumentException("bad cpu list '" + list + "'");
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
    public static CpuSet parseMask(final String text)
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
    public static CpuSet of(final int... cpus)
    {
        final BitSet bits = new BitSet();
        for (final int cpu : cpus)
        {
            bits.set(checked(cpu));
        }
        return new CpuSet(bits);
    }

    /**
     * @param cpus cpu numbers.
     * @return the set of them.
     */
    public static CpuSet of(final Collection<Integer> cpus)
    {
        final BitSet bits = new BitSet();
        for (final int cpu : cpus)
        {
            bits.set(checked(cpu));
        }
        return new CpuSet(bits);
    }

    /**
     * @param cpus a bit per cpu; copied.
     * @return the set of them.
     */
    public static CpuSet of(final BitSet cpus)
    {
        return new CpuSet((BitSet)cpus.clone());
    }

    /**
     * @param from first cpu.
     * @param to   last cpu, inclusive.
     * @return the cpus {@code from..to}; empty when {@code to < from}.
     */
    public static CpuSet range(final int from, final int to)
    {
        final BitSet bits = new BitSet();
        if (to >= from)
        {
            bits.set(checked(from), checked(to) + 1);
        }
        return new CpuSet(bits);
    }

    private static int checked(final int cpu)
    {
        if (cpu < 0 || cpu >= MAX_CPUS)
        {
            throw new IllegalArgumentException("cpu " + cpu + " is not a cpu number (0-" + (MAX_CPUS - 1) + ")");
        }
        return cpu;
    }

    /**
     * @return whether there is no cpu in the set.
     */
    public boolean isEmpty()
    {
        return bits.isEmpty();
    }

    /**
     * @return how many cpus.
     */
    public int size()
    {
        return bits.cardinality();
    }

    /**
     * @param cpu a cpu number.
     * @return whether it is in the set.
     */
    public boolean contains(final int cpu)
    {
        return cpu >= 0 && bits.get(cpu);
    }

    /**
     * @param other a set.
     * @return whether every cpu of it is in this one.
     */
    public boolean containsAll(final CpuSet other)
    {
        return other.minus(this).isEmpty();
    }

    /**
     * @param other a set.
     * @return whether the two share a cpu.
     */
    public boolean intersects(final CpuSet other)
    {
        return bits.intersects(other.bits);
    }

    /**
     * @return the lowest cpu, -1 when empty.
     */
    public int first()
    {
        return bits.nextSetBit(0);
    }

    /**
     * @param cpu a cpu number.
     * @return the set without it.
     */
    public CpuSet without(final int cpu)
    {
        final BitSet copy = (BitSet)bits.clone();
        copy.clear(checked(cpu));
        return new CpuSet(copy);
    }

    /**
     * @return the cpus in ascending order.
     */
    public List<Integer> toList()
    {
        final List<Integer> list = new ArrayList<>(bits.cardinality());
        for (int cpu = bits.nextSetBit(0); cpu >= 0; cpu = bits.nextSetBit(cpu + 1))
        {
            list.add(cpu);
        }
        return List.copyOf(list);
    }

    /**
     * @return a bit per cpu; a copy.
     */
    public BitSet toBitSet()
    {
        return (BitSet)bits.clone();
    }

    /**
     * @param other a set.
     * @return the cpus in both.
     */
    public CpuSet and(final CpuSet other)
    {
        final BitSet copy = (BitSet)bits.clone();
        copy.and(other.bits);
        return new CpuSet(copy);
    }

    /**
     * @param other a set.
     * @return the cpus in either.
     */
    public CpuSet or(final CpuSet other)
    {
        final BitSet copy = (BitSet)bits.clone();
        copy.or(other.bits);
        return new CpuSet(copy);
    }

    /**
     * @param other a set.
     * @return the cpus of this set that are not in the other.
     */
    public CpuSet minus(final CpuSet other)
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
