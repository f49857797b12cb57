package io.rfmrt.runtime;

import java.util.Locale;

/**
 * Which threads a receive path runs, apart from how each of them waits (its {@link ReceiveIdle}): the split of
 * Aeron's {@code ThreadingMode} and {@code IdleStrategy}, as a node's {@code receive.mode} spells it (any case).
 * <pre>
 *  mode       threads                                                                  waits ({@link #takes})
 *  interrupt  card ──IRQ──▶ ISR-wake thread ──hand-off──▶ consumer thread ──▶ handler   block, spin, spin-then-block
 *  inline     card ──IRQ──▶ ISR-wake thread ──▶ handler                                 block
 *  polling                  polling thread (every period: each status word) ──▶ handler  period
 * </pre>
 * The ISR-wake thread always blocks on the card's interrupt; the idle says how the thread that takes frames waits:
 * the consumer in {@code interrupt}, the polling thread in {@code polling}.
 */
public enum ReceiveMode
{
    /** An ISR-wake thread validates and hands off; a consumer thread runs the handler, waiting as it is told. */
    INTERRUPT,
    /** One ISR-wake thread that runs the handler itself: one wake per frame, no hand-off. */
    INLINE,
    /** No interrupt and no DMA ring: one thread polls each input channel's status word on a schedule. */
    POLLING;

    /**
     * @param text {@code interrupt}, {@code inline} or {@code polling}, any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the value, in the form {@code 'TEXT' is not ...}.
     */
    public static ReceiveMode parse(final String text)
    {
        for (final ReceiveMode mode : values())
        {
            if (mode.name().equalsIgnoreCase(text == null ? "" : text.trim()))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not interrupt, inline or polling");
    }

    /**
     * @param idle a wait.
     * @return whether the thread of this mode that takes frames can wait by it (the table above).
     */
    public boolean takes(final ReceiveIdle idle)
    {
        return switch (this)
        {
            case INTERRUPT -> idle.kind() != ReceiveIdle.Kind.PERIOD;
            case INLINE -> idle.kind() == ReceiveIdle.Kind.BLOCK;
            case POLLING -> idle.kind() == ReceiveIdle.Kind.PERIOD;
        };
    }

    /**
     * @return the waits it takes, as {@code receive.idle} spells them, for a message.
     */
    public String idles()
    {
        return switch (this)
        {
            case INTERRUPT -> "block, spin or spin-then-block(time)";
            case INLINE -> "block";
            case POLLING -> "period(time)";
        };
    }

    /**
     * @return its wait when {@code receive.idle} is not given: {@code block}, or {@code period(1ms)} when polling.
     */
    public ReceiveIdle defaultIdle()
    {
        return this == POLLING ? ReceiveIdle.period(ReceiveIdle.PERIOD_DEFAULT_NS) : ReceiveIdle.block();
    }

    /**
     * @return whether an ISR-wake thread sleeps on the card's interrupt (the event type is enabled).
     */
    public boolean interrupts()
    {
        return this != POLLING;
    }

    /**
     * @return whether a consumer thread of its own takes frames from a hand-off.
     */
    public boolean handsOff()
    {
        return this == INTERRUPT;
    }

    /**
     * @return whether frames are found by number in each channel's ring (on-demand reads) whatever the card's DMA
     * mode: the ring that holds a stall is then each channel's, not the card's DMA ring.
     */
    public boolean findsByNumber()
    {
        return this == POLLING;
    }

    /** @return how {@code receive.mode} spells it: {@code interrupt}, {@code inline}, {@code polling}. */
    @Override
    public String toString()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
