package io.rfmrt.runtime;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a node's {@code receive.wait} says, in the spelling users write: the {@link ReceiveMode} (which threads run,
 * {@link #mode()}) and how the thread that takes frames waits (blocking, spinning a while, spinning, or a polling
 * period). {@code BLOCKING}, {@code SPIN_THEN_BLOCK} and {@code BUSY_SPIN} are the consumer's waits of the
 * {@link ReceiveMode#INTERRUPT} mode; {@code INLINE} and {@code POLLING} name modes of their own.
 *
 * @param kind        the strategy.
 * @param spinNanos   for {@link Kind#SPIN_THEN_BLOCK}: how long to spin after the last frame before blocking.
 * @param periodNanos for {@link Kind#POLLING}: the polling period.
 */
public record WaitStrategy(Kind kind, long spinNanos, long periodNanos)
{
    /** Default spin before blocking: 20 µs. */
    public static final long SPIN_DEFAULT_NS = 20_000;
    /** Default polling period: 1 ms (1 kHz). */
    public static final long POLL_PERIOD_DEFAULT_NS = 1_000_000;

    private static final Pattern FORM = Pattern.compile("([A-Za-z_-]+)\\s*(?:\\(\\s*([0-9_]+)\\s*\\))?");

    /**
     * The spellings: the consumer's waits of the interrupt mode, and the two modes that have no consumer thread.
     */
    public enum Kind
    {
        /** Sleep in the kernel until the ISR-wake thread hands a frame over: no CPU while idle. */
        BLOCKING,
        /** Spin for a while after each frame, then block. */
        SPIN_THEN_BLOCK,
        /** Spin on the hand-off forever: lowest wake-up cost, a whole core. */
        BUSY_SPIN,
        /** The article's baseline: no interrupt, poll each channel's status word every period. */
        POLLING,
        /** No consumer thread: the handler runs on the ISR-wake thread (one wake per frame). */
        INLINE
    }

    /**
     * @return which threads the receive path runs for this spelling.
     */
    public ReceiveMode mode()
    {
        return switch (kind)
        {
            case INLINE -> ReceiveMode.INLINE;
            case POLLING -> ReceiveMode.POLLING;
            case BLOCKING, SPIN_THEN_BLOCK, BUSY_SPIN -> ReceiveMode.INTERRUPT;
        };
    }

    /**
     * @return blocking.
     */
    public static WaitStrategy blocking()
    {
        return new WaitStrategy(Kind.BLOCKING, 0, 0);
    }

    /**
     * @param spinNanos how long to spin before blocking.
     * @return spin-then-block.
     */
    public static WaitStrategy spinThenBlock(final long spinNanos)
    {
        return new WaitStrategy(Kind.SPIN_THEN_BLOCK, spinNanos, 0);
    }

    /**
     * @return busy-spin.
     */
    public static WaitStrategy busySpin()
    {
        return new WaitStrategy(Kind.BUSY_SPIN, 0, 0);
    }

    /**
     * @return inline: the handler on the ISR-wake thread.
     */
    public static WaitStrategy inline()
    {
        return new WaitStrategy(Kind.INLINE, 0, 0);
    }

    /**
     * @param periodNanos polling period.
     * @return polling.
     */
    public static WaitStrategy polling(final long periodNanos)
    {
        return new WaitStrategy(Kind.POLLING, 0, periodNanos);
    }

    /**
     * Parse {@code BLOCKING}, {@code SPIN_THEN_BLOCK(20000)}, {@code BUSY_SPIN}, {@code POLLING(100000)}; the
     * number is nanoseconds and optional.
     *
     * @param text the value.
     * @return the strategy.
     * @throws IllegalArgumentException naming the value.
     */
    public static WaitStrategy parse(final String text)
    {
        final Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches())
        {
            throw new IllegalArgumentException(bad(text));
        }
        final Kind kind;
        try
        {
            kind = Kind.valueOf(m.group(1).toUpperCase(Locale.ROOT).replace('-', '_'));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(bad(text));
        }
        final Long nanos = m.group(2) == null ? null : Long.parseLong(m.group(2).replace("_", ""));
        return switch (kind)
        {
            case BLOCKING, BUSY_SPIN, INLINE ->
            {
                if (nanos != null)
                {
                    throw new IllegalArgumentException("wait strategy '" + text + "': " + kind + " takes no argument");
                }
                yield new WaitStrategy(kind, 0, 0);
            }
            case SPIN_THEN_BLOCK -> spinThenBlock(nanos == null ? SPIN_DEFAULT_NS : nanos);
            case POLLING -> polling(nanos == null ? POLL_PERIOD_DEFAULT_NS : nanos).validate();
        };
    }

    private static String bad(final String text)
    {
        return "wait strategy '" + text + "' is not BLOCKING, SPIN_THEN_BLOCK(ns), BUSY_SPIN, POLLING(ns) or INLINE";
    }

    /**
     * @return this.
     * @throws IllegalArgumentException when a time is out of range.
     */
    public WaitStrategy validate()
    {
        if (kind == Kind.POLLING && (periodNanos < 1_000 || periodNanos > 1_000_000_000L))
        {
            throw new IllegalArgumentException("wait strategy POLLING(" + periodNanos +
                "): period must be 1000 ns .. 1 s");
        }
        if (kind == Kind.SPIN_THEN_BLOCK && (spinNanos < 0 || spinNanos > 1_000_000_000L))
        {
            throw new IllegalArgumentException("wait strategy SPIN_THEN_BLOCK(" + spinNanos +
                "): spin must be 0 .. 1 s");
        }
        return this;
    }

    @Override
    public String toString()
    {
        return switch (kind)
        {
            case BLOCKING, BUSY_SPIN, INLINE -> kind.name();
            case SPIN_THEN_BLOCK -> kind + "(" + spinNanos + ")";
            case POLLING -> kind + "(" + periodNanos + ")";
        };
    }
}
