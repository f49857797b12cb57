package io.rfmrt.rfm.channel;

/**
 * Outcome of receiving one frame. Only {@link #OK} hands a frame on; every other outcome is counted.
 */
public enum FrameStatus
{
    /** Valid and new. */
    OK,
    /** Overwritten while read. */
    TORN,
    /** Checksum mismatch. */
    CRC_ERROR,
    /** Seen before. */
    DUPLICATE,
    /** Older than what was seen. */
    STALE,
    /** Own frame. */
    SELF,
    /** Impossible header or empty slot. */
    BAD_HEADER,
    /** No DMA completion for the event. */
    DMA_MISSING
}
