package io.rfmrt.rfm;

import java.util.Locale;

/**
 * What the DMA engine does when every descriptor is still owned by software. Either way it is counted.
 */
public enum DmaRingFullPolicy
{
    /** The new transfer is dropped and counted ({@link RfmCounter#DMA_DROPPED}). */
    DROP_NEWEST(0),
    /** The filler waits, bounded, for the consumer to free a descriptor; a stall is counted, a time-out drops. */
    BACKPRESSURE(1);

    private static final DmaRingFullPolicy[] BY_ID = new DmaRingFullPolicy[2];

    static
    {
        for (final DmaRingFullPolicy value : values())
        {
            BY_ID[value.id] = value;
        }
    }

    private final int id;

    DmaRingFullPolicy(final int id)
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
    public static DmaRingFullPolicy fromId(final int id)
    {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /**
     * @param text {@code drop-newest} or {@code backpressure}, any case.
     * @return the policy.
     */
    public static DmaRingFullPolicy parse(final String text)
    {
        final String t = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final DmaRingFullPolicy policy : values())
        {
            if (policy.name().equals(t))
            {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown DMA ring-full policy '" + text + "' (drop-newest or backpressure)");
    }
}
