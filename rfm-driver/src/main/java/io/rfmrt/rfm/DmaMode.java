package io.rfmrt.rfm;

import java.util.Locale;

/**
 * How frames reach a node's host DMA buffers.
 */
public enum DmaMode
{
    /** The sending card fills the receiver's next free DMA slot, completes the descriptor, then interrupts. */
    AUTO(0),
    /** The receiver submits a descriptor after the event; the engine copies and completes it. */
    ON_DEMAND(1);

    private static final DmaMode[] BY_ID = new DmaMode[2];

    static
    {
        for (final DmaMode value : values())
        {
            BY_ID[value.id] = value;
        }
    }

    private final int id;

    DmaMode(final int id)
    {
        this.id = id;
    }

    /**
     * @return the stable id, as written in a DMA ring file.
     */
    public int id()
    {
        return id;
    }

    /**
     * Allocation-free lookup.
     *
     * @param id an id.
     * @return the value with this id, or {@code null} when none has it.
     */
    public static DmaMode fromId(final int id)
    {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /**
     * @param text {@code auto}, {@code on-demand} or {@code on_demand}, any case.
     * @return the mode.
     */
    public static DmaMode parse(final String text)
    {
        final String t = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
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
