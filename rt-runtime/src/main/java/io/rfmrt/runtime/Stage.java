package io.rfmrt.runtime;

/**
 * The latency stages of one received frame. All stamps are {@link System#nanoTime()} (CLOCK_MONOTONIC), comparable
 * across processes on one host.
 * <pre>
 *  sendNanos ──transfer──▶ woke ──isr──▶ validated ──handoff──▶ consumerStart ──handler──▶ handlerEnd
 *  (publisher)          (ISR-wake thread)                    (consumer thread)
 *  └──────────────────────────────── end-to-end ────────────────────────────────────────┘
 * </pre>
 */
public enum Stage
{
    /** Publish to ISR-wake thread running: card, ring, interrupt, kernel wake-up. */
    TRANSFER("transfer"),
    /** ISR-wake thread: take the event and the DMA slot, validate the frame. */
    ISR("isr"),
    /** Hand-off to the consumer thread and its wake-up. */
    HANDOFF("handoff"),
    /** The application's handler. */
    HANDLER("handler"),
    /** Publish to handler end. */
    END_TO_END("e2e");

    private static final Stage[] VALUES = values();

    /** Number of stages. */
    public static final int COUNT = VALUES.length;

    private final String label;

    Stage(final String label)
    {
        this.label = label;
    }

    /**
     * @return short label for reports.
     */
    public String label()
    {
        return label;
    }

    /**
     * @param id ordinal.
     * @return the stage.
     */
    public static Stage fromId(final int id)
    {
        return VALUES[id];
    }
}
