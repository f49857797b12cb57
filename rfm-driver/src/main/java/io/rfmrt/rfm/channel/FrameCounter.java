package io.rfmrt.rfm.channel;

/**
 * Every way a frame can arrive, be lost or be refused, with stable ids (the index into a receiver's counter array).
 */
public enum FrameCounter
{
    /** Frames validated and handed on. */
    FRAMES(0),
    /** Frames overwritten by the publisher while being read (the publisher lapped the reader). */
    TORN(1),
    /** Frames whose payload checksum did not match. */
    CRC_ERRORS(2),
    /** Frames never seen: the sum of the holes in each source's sequence. */
    GAPS(3),
    /** Frames seen twice. */
    DUPLICATES(4),
    /** Frames older than the newest one already seen from their source. */
    STALE(5),
    /** Own frames, dropped by the self-filter. */
    SELF_FILTERED(6),
    /** Frames whose header gives an impossible length or an empty slot. */
    BAD_HEADER(7),
    /** Events that came without a completed DMA transfer (the ring was full). */
    DMA_MISSING(8),
    /** Frames that came from a new incarnation of their publisher (it restarted); each is taken as its first. */
    PUBLISHER_RESTARTS(9);

    private static final FrameCounter[] VALUES = values();

    /** Number of counters. */
    public static final int COUNT = VALUES.length;

    private final int id;

    FrameCounter(final int id)
    {
        this.id = id;
    }

    /**
     * @return the stable id.
     */
    public int id()
    {
        return id;
    }
}
