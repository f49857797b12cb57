package io.rfmrt.runtime;

/**
 * Which threads a receive path runs, apart from how each of them waits (the {@link WaitStrategy}'s idle part): the
 * split of Aeron's {@code ThreadingMode} and {@code IdleStrategy}.
 * <pre>
 *  INTERRUPT  card ──IRQ──▶ ISR-wake thread ──hand-off──▶ consumer thread ──▶ handler
 *  INLINE     card ──IRQ──▶ ISR-wake thread ──▶ handler
 *  POLLING                  polling thread (every period: each channel's status word) ──▶ handler
 * </pre>
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
}
