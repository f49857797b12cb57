package io.rfmrt.runtime;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;

/**
 * A receive path's {@link ReceiveMode} (which threads run) with the {@link ReceiveIdle} its frame-taking thread
 * waits by, as one value: what a node's {@code receive.mode} and {@code receive.idle} give, and what the shorthand
 * {@code receive.wait} spells in one word ({@link #parse}, {@link #toString}).
 * <pre>
 *  receive.wait        receive.mode  receive.idle
 *  BLOCKING            interrupt     block
 *  SPIN_THEN_BLOCK(t)  interrupt     spin-then-block(t)
 *  BUSY_SPIN           interrupt     spin
 *  INLINE              inline        block
 *  POLLING(t)          polling       period(t)
 * </pre>
 * Every pair a mode {@link ReceiveMode#takes takes} is one of these five, so each has its one-word spelling
 * ({@link #kind()}). Immutable.
 *
 * @param mode which threads run.
 * @param idle how the thread that takes frames waits; one the mode takes.
 */
public record WaitStrategy(ReceiveMode mode, ReceiveIdle idle)
{
    /** Default spin before blocking: 20 µs ({@link ReceiveIdle#SPIN_DEFAULT_NS}). */
    public static final long SPIN_DEFAULT_NS = ReceiveIdle.SPIN_DEFAULT_NS;
    /** Default polling period: 1 ms ({@link ReceiveIdle#PERIOD_DEFAULT_NS}). */
    public static final long POLL_PERIOD_DEFAULT_NS = ReceiveIdle.PERIOD_DEFAULT_NS;

    /**
     * The one-word spellings of {@code receive.wait}, one per pair of mode and idle (the table above).
     */
    public enum Kind
    {
        /** Interrupt mode, the consumer blocks: no CPU while idle. */
        BLOCKING,
        /** Interrupt mode, the consumer spins for a while after each frame, then blocks. */
        SPIN_THEN_BLOCK,
        /** Interrupt mode, the consumer spins on the hand-off forever: lowest wake-up cost, a whole core. */
        BUSY_SPIN,
        /** Polling mode: no interrupt, each channel's status word every period (the article's baseline). */
        POLLING,
        /** Inline mode: no consumer thread, the handler runs on the ISR-wake thread (one wake per frame). */
        INLINE
    }

    /**
     * @param mode which threads run.
     * @param idle how the thread that takes frames waits.
     * @throws IllegalArgumentException when the mode does not take the idle ({@link ReceiveMode#takes}).
     */
    public WaitStrategy
    {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(idle, "idle");
        if (!mode.takes(idle))
        {
            throw new IllegalArgumentException(mismatch(mode, idle));
        }
    }

    /** The one line that says the mode does not take the wait, named by their keys. */
    private static String mismatch(final ReceiveMode mode, final ReceiveIdle idle)
    {
        return "receive.idle '" + idle + "' is not a wait of receive.mode " + mode + " (it takes " + mode.idles() +
            ")";
    }

    /**
     * @return the one-word spelling of this pair.
     */
    public Kind kind()
    {
        return switch (mode)
        {
            case INLINE -> Kind.INLINE;
            case POLLING -> Kind.POLLING;
            case INTERRUPT -> switch (idle.kind())
            {
                case SPIN -> Kind.BUSY_SPIN;
                case SPIN_THEN_BLOCK -> Kind.SPIN_THEN_BLOCK;
                case BLOCK, PERIOD -> Kind.BLOCKING;
            };
        };
    }

    /**
     * @return for {@link Kind#SPIN_THEN_BLOCK}: how long the consumer spins after the last frame before blocking;
     * else 0.
     */
    public long spinNanos()
    {
        return idle.kind() == ReceiveIdle.Kind.SPIN_THEN_BLOCK ? idle.nanos() : 0;
    }

    /**
     * @return for {@link Kind#POLLING}: the polling period; else 0.
     */
    public long periodNanos()
    {
        return idle.kind() == ReceiveIdle.Kind.PERIOD ? idle.nanos() : 0;
    }

    /**
     * @return blocking.
     */
    public static WaitStrategy blocking()
    {
        return new WaitStrategy(ReceiveMode.INTERRUPT, ReceiveIdle.block());
    }

    /**
     * @param spinNanos how long to spin before blocking.
     * @return spin-then-block.
     */
    public static WaitStrategy spinThenBlock(final long spinNanos)
    {
        return new WaitStrategy(ReceiveMode.INTERRUPT, ReceiveIdle.spinThenBlock(spinNanos));
    }

    /**
     * @return busy-spin.
     */
    public static WaitStrategy busySpin()
    {
        return new WaitStrategy(ReceiveMode.INTERRUPT, ReceiveIdle.spin());
    }

    /**
     * @return inline: the handler on the ISR-wake thread.
     */
    public static WaitStrategy inline()
    {
        return new WaitStrategy(ReceiveMode.INLINE, ReceiveIdle.block());
    }

    /**
     * @param periodNanos polling period.
     * @return polling.
     */
    public static WaitStrategy polling(final long periodNanos)
    {
        return new WaitStrategy(ReceiveMode.POLLING, ReceiveIdle.period(periodNanos));
    }

    /**
     * Parse the shorthand {@code BLOCKING}, {@code SPIN_THEN_BLOCK(20000)}, {@code BUSY_SPIN}, {@code INLINE},
     * {@code POLLING(100000)}: any case, {@code -} for {@code _}; the time is nanoseconds (or a duration such as
     * {@code 20us}) and optional.
     *
     * @param text the value.
     * @return the strategy.
     * @throws IllegalArgumentException naming the value.
     */
    public static WaitStrategy parse(final String text)
    {
        final Matcher m = ReceiveIdle.FORM.matcher(text == null ? "" : text.trim());
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
        final String time = m.group(2);
        if (time != null && kind != Kind.SPIN_THEN_BLOCK && kind != Kind.POLLING)
        {
            throw new IllegalArgumentException("wait strategy '" + text + "': " + kind + " takes no argument");
        }
        final long nanos;
        try
        {
            nanos = time == null ? 0 : ReceiveIdle.parseTime(text, time);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("wait strategy " + ex.getMessage());
        }
        return switch (kind)
        {
            case BLOCKING -> blocking();
            case BUSY_SPIN -> busySpin();
            case INLINE -> inline();
            case SPIN_THEN_BLOCK -> spinThenBlock(time == null ? SPIN_DEFAULT_NS : nanos);
            case POLLING -> polling(time == null ? POLL_PERIOD_DEFAULT_NS : nanos).validate();
        };
    }

    private static String bad(final String text)
    {
        return "wait strategy '" + text + "' is not BLOCKING, SPIN_THEN_BLOCK(ns), BUSY_SPIN, POLLING(ns) or INLINE";
    }

    /**
     * @return this.
     * @throws IllegalArgumentException when a time is out of range ({@link ReceiveIdle#problem}).
     */
    public WaitStrategy validate()
    {
        final String problem = idle.problem();
        if (problem != null)
        {
            throw new IllegalArgumentException("wait strategy " + this + ": " + problem);
        }
        return this;
    }

    /** @return the shorthand's spelling: {@code BLOCKING}, {@code SPIN_THEN_BLOCK(20000)}, {@code POLLING(1000000)}. */
    @Override
    public String toString()
    {
        final Kind kind = kind();
        return switch (kind)
        {
            case BLOCKING, BUSY_SPIN, INLINE -> kind.name();
            case SPIN_THEN_BLOCK -> kind + "(" + spinNanos() + ")";
            case POLLING -> kind + "(" + periodNanos() + ")";
        };
    }
}
