package io.rfmrt.runtime;

import io.rfmrt.rfm.Units;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a receive thread waits when it has nothing to do, apart from which threads there are (the
 * {@link ReceiveMode}): the idle half of Aeron's {@code ThreadingMode}/{@code IdleStrategy} split, as a node's
 * {@code receive.idle} spells it.
 * <pre>
 *  block               sleep in the kernel until there is work (the consumer on the hand-off, the ISR-wake thread on
 *                      the card's interrupt): no cpu while idle, a kernel wake-up per frame
 *  spin                spin on the hand-off: no wake-up cost, a whole core
 *  spin-then-block(t)  spin for t after the last frame, then block (default 20 us)
 *  period(t)           sleep until the next period, then look once (the polling thread; default 1 ms)
 * </pre>
 * A time is nanoseconds when bare ({@code 20000}, {@code 20_000}) or a duration ({@code 20us}, {@code 1ms}).
 * {@link ReceiveMode#takes} says which mode waits by which. Immutable.
 *
 * @param kind  the wait.
 * @param nanos for {@link Kind#SPIN_THEN_BLOCK} the spin before blocking, for {@link Kind#PERIOD} the period; 0
 *              otherwise.
 */
public record ReceiveIdle(Kind kind, long nanos)
{
    /** Default spin before blocking: 20 µs. */
    public static final long SPIN_DEFAULT_NS = 20_000;
    /** Default polling period: 1 ms (1 kHz). */
    public static final long PERIOD_DEFAULT_NS = 1_000_000;
    /** Longest spin and longest period: 1 s. */
    public static final long LONGEST_NS = 1_000_000_000L;
    /** Shortest period: 1 µs. */
    public static final long SHORTEST_PERIOD_NS = 1_000;

    /** {@code name} or {@code name(time)}: the form of an idle, and of the {@code receive.wait} shorthand. */
    static final Pattern FORM = Pattern.compile("([A-Za-z_-]+)\\s*(?:\\(\\s*([^()]*?)\\s*\\))?");
    private static final Pattern NANOS = Pattern.compile("[0-9][0-9_]*");

    /** The waits, each with the spelling {@code receive.idle} takes. */
    public enum Kind
    {
        /** Sleep in the kernel until there is work. */
        BLOCK("block"),
        /** Spin forever. */
        SPIN("spin"),
        /** Spin for a while after each frame, then block. */
        SPIN_THEN_BLOCK("spin-then-block"),
        /** Sleep until the next period. */
        PERIOD("period");

        private final String spelling;

        Kind(final String spelling)
        {
            this.spelling = spelling;
        }

        /** @return how {@code receive.idle} spells it. */
        public String spelling()
        {
            return spelling;
        }

        /** @return whether it takes a time in parentheses. */
        public boolean timed()
        {
            return this == SPIN_THEN_BLOCK || this == PERIOD;
        }
    }

    /** @return block. */
    public static ReceiveIdle block()
    {
        return new ReceiveIdle(Kind.BLOCK, 0);
    }

    /** @return spin. */
    public static ReceiveIdle spin()
    {
        return new ReceiveIdle(Kind.SPIN, 0);
    }

    /**
     * @param spinNanos how long to spin after the last frame before blocking.
     * @return spin-then-block.
     */
    public static ReceiveIdle spinThenBlock(final long spinNanos)
    {
        return new ReceiveIdle(Kind.SPIN_THEN_BLOCK, spinNanos);
    }

    /**
     * @param periodNanos the polling period.
     * @return period.
     */
    public static ReceiveIdle period(final long periodNanos)
    {
        return new ReceiveIdle(Kind.PERIOD, periodNanos);
    }

    /**
     * Parse {@code block}, {@code spin}, {@code spin-then-block(20us)}, {@code period(1ms)}: any case, {@code _} for
     * {@code -}; a time left out is its default.
     *
     * @param text the value.
     * @return the wait, its time in range.
     * @throws IllegalArgumentException naming the value, in the form {@code 'TEXT' is not ...}.
     */
    public static ReceiveIdle parse(final String text)
    {
        final Matcher m = FORM.matcher(text == null ? "" : text.trim());
        final Kind kind = m.matches() ? kindOf(m.group(1)) : null;
        if (kind == null)
        {
            throw new IllegalArgumentException("'" + text + "' is not block, spin, spin-then-block(time) or " +
                "period(time)");
        }
        if (m.group(2) != null && !kind.timed())
        {
            throw new IllegalArgumentException("'" + text + "': " + kind.spelling() + " takes no time");
        }
        final long nanos = m.group(2) == null ? defaultNanos(kind) : parseTime(text, m.group(2));
        final ReceiveIdle idle = new ReceiveIdle(kind, nanos);
        final String problem = idle.problem();
        if (problem != null)
        {
            throw new IllegalArgumentException("'" + text + "': " + problem);
        }
        return idle;
    }

    /**
     * @param kind a wait.
     * @return its time when none is given: {@link #SPIN_DEFAULT_NS}, {@link #PERIOD_DEFAULT_NS}, else 0.
     */
    private static long defaultNanos(final Kind kind)
    {
        return kind == Kind.SPIN_THEN_BLOCK ? SPIN_DEFAULT_NS : kind == Kind.PERIOD ? PERIOD_DEFAULT_NS : 0;
    }

    /**
     * @param text the whole value, for the message.
     * @param time nanoseconds ({@code 20000}, {@code 20_000}) or a duration ({@code 20us}).
     * @return nanoseconds.
     */
    static long parseTime(final String text, final String time)
    {
        try
        {
            return NANOS.matcher(time).matches() ? Long.parseLong(time.replace("_", "")) :
                Units.parseDuration(time, TimeUnit.NANOSECONDS);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("'" + text + "': '" + time + "' is not a time (ns, or e.g. 20us)");
        }
    }

    private static Kind kindOf(final String name)
    {
        final String spelling = name.toLowerCase(Locale.ROOT).replace('_', '-');
        for (final Kind k : Kind.values())
        {
            if (k.spelling.equals(spelling))
            {
                return k;
            }
        }
        return null;
    }

    /**
     * @return why its time is out of range ({@code the period must be 1000 ns .. 1 s}), or null when it is not.
     */
    public String problem()
    {
        if (kind == Kind.PERIOD && (nanos < SHORTEST_PERIOD_NS || nanos > LONGEST_NS))
        {
            return "period must be " + SHORTEST_PERIOD_NS + " ns .. 1 s";
        }
        if (kind == Kind.SPIN_THEN_BLOCK && (nanos < 0 || nanos > LONGEST_NS))
        {
            return "spin must be 0 .. 1 s";
        }
        return null;
    }

    /** @return how {@code receive.idle} spells it, the time in ns: {@code spin-then-block(20000)}. */
    @Override
    public String toString()
    {
        return kind.timed() ? kind.spelling() + "(" + nanos + ")" : kind.spelling();
    }
}
