package io.rfmrt.rfm;

/**
 * What the DMA engine does when every descriptor is still owned by software. Either way it is counted.
 */
public enum DmaRingFullPolicy
{
    /** The new transfer is dropped and counted ({@link RfmCounter#DMA_DROPPED}). */
    DROP_NEWEST,
    /** The filler waits, bounded, for the consumer to free a descriptor; a stall is counted, a time-out drops. */
    BACKPRESSURE;

    /**
     * @param text {@code drop-newest} or {@code backpressure}, any case.
     * @return the policy.
     */
    public static DmaRingFullPolicy parse(final String text)
    {
        final String t = text.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
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
