package io.rfmrt.runtime;

/**
 * Counters of the receive path, with stable ids. Frame outcomes (torn, CRC, gaps...) are counted by the channel
 * receivers ({@link io.rfmrt.rfm.channel.FrameCounter}) and device conditions by the card
 * ({@link io.rfmrt.rfm.RfmCounter}); these count what the runtime itself does.
 */
public enum RuntimeCounter
{
    /** Events taken by the ISR-wake thread (each wake takes every queued one). */
    EVENTS(0, "events"),
    /** Frames the handler was called for. */
    FRAMES_HANDLED(1, "frames handled"),
    /** Events or frames from a node no input channel belongs to. */
    UNKNOWN_SOURCE(2, "unknown source"),
    /** Waits that ended with an unexpected status. */
    WAIT_ERRORS(3, "wait errors"),
    /** Times the consumer blocked in the kernel. */
    CONSUMER_PARKS(4, "consumer parks"),
    /** Status-word polls (polling mode only). */
    POLLS(5, "polls"),
    /** Frames dropped because the hand-off was full. */
    HANDOFF_FULL(6, "hand-off full"),
    /** Frame records the journal ring refused. */
    JOURNAL_DROPS(7, "journal drops"),
    /** Wakes that found nothing new (its frames were taken by an earlier drain). */
    EMPTY_WAKES(8, "empty wakes"),
    /** Drains that stopped at their bound and went on without waiting. */
    DRAIN_BOUND(9, "bounded drains"),
    /** Uncaught errors on the node's threads (the first one stops the node). */
    ERRORS(10, "errors");

    private static final RuntimeCounter[] VALUES = values();

    /** Number of counters. */
    public static final int COUNT = VALUES.length;

    private final int id;
    private final String label;

    RuntimeCounter(final int id, final String label)
    {
        this.id = id;
        this.label = label;
    }

    /**
     * @return the stable id.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return short label.
     */
    public String label()
    {
        return label;
    }
}
