package io.rfmrt.rfm;

/**
 * How frames reach a node's host DMA buffers.
 */
public enum DmaMode
{
    /** The sending card fills the receiver's next free DMA slot, completes the descriptor, then interrupts. */
    AUTO,
    /** The receiver submits a descriptor after the event; the engine copies and completes it. */
    ON_DEMAND;

    /**
     * @param text {@code auto}, {@code on-demand} or {@code on_demand}, any case.
     * @return the mode.
     */
    public static DmaMode parse(final String text)
    {
        final String t = text.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
        for (final DmaMode mode : values())
        {
            if (mode.name().equals(t))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown DMA mode '" + text + "' (auto or on-demand)");
    }
}
