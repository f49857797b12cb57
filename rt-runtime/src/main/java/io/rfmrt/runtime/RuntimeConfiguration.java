package io.rfmrt.runtime;

import io.rfmrt.runtime.journal.JournalConfig;

/**
 * The defaults of a node ({@link RfmNode.Context}), one constant pair per setting as Aeron's {@code Configuration}
 * has them: {@code *_PROP_NAME} is the system property that overrides {@code *_DEFAULT} for every node of the JVM
 * ({@code -Drfmrt.node.isr.priority=85}); a YAML key or a {@link RfmNode.Context} setter overrides both.
 */
public final class RuntimeConfiguration
{
    /** SCHED_FIFO priority of the ISR-wake thread. */
    public static final String ISR_PRIORITY_PROP_NAME = "rfmrt.node.isr.priority";
    /** Default of {@link #ISR_PRIORITY_PROP_NAME}. */
    public static final int ISR_PRIORITY_DEFAULT = 80;
    /** SCHED_FIFO priority of the consumer thread. */
    public static final String CONSUMER_PRIORITY_PROP_NAME = "rfmrt.node.consumer.priority";
    /** Default of {@link #CONSUMER_PRIORITY_PROP_NAME}. */
    public static final int CONSUMER_PRIORITY_DEFAULT = 70;
    /** SCHED_FIFO priority of the built-in publisher thread. */
    public static final String PUBLISHER_PRIORITY_PROP_NAME = "rfmrt.node.publisher.priority";
    /** Default of {@link #PUBLISHER_PRIORITY_PROP_NAME}. */
    public static final int PUBLISHER_PRIORITY_DEFAULT = 60;
    /** The consumer's wait strategy ({@link WaitStrategy#parse}). */
    public static final String WAIT_STRATEGY_PROP_NAME = "rfmrt.node.wait";
    /** Default of {@link #WAIT_STRATEGY_PROP_NAME}. */
    public static final String WAIT_STRATEGY_DEFAULT = "BLOCKING";
    /** mlockall before threads start. */
    public static final String LOCK_MEMORY_PROP_NAME = "rfmrt.node.lockMemory";
    /** Default of {@link #LOCK_MEMORY_PROP_NAME}. */
    public static final boolean LOCK_MEMORY_DEFAULT = true;
    /** Hold /dev/cpu_dma_latency at 0 while the node runs. */
    public static final String CPU_DMA_LATENCY_PROP_NAME = "rfmrt.node.cpuDmaLatency";
    /** Default of {@link #CPU_DMA_LATENCY_PROP_NAME}. */
    public static final boolean CPU_DMA_LATENCY_DEFAULT = false;
    /** Refuse to run when an RT step is refused. */
    public static final String STRICT_PROP_NAME = "rfmrt.node.strict";
    /** Default of {@link #STRICT_PROP_NAME}. */
    public static final boolean STRICT_DEFAULT = false;
    /** Heartbeat period in nanoseconds, 0 = off. */
    public static final String HEARTBEAT_NS_PROP_NAME = "rfmrt.node.heartbeat.ns";
    /** Default of {@link #HEARTBEAT_NS_PROP_NAME}: 1 s. */
    public static final long HEARTBEAT_NS_DEFAULT = 1_000_000_000L;
    /** Journal on or off. */
    public static final String JOURNAL_ENABLED_PROP_NAME = "rfmrt.node.journal.enabled";
    /** Default of {@link #JOURNAL_ENABLED_PROP_NAME}. */
    public static final boolean JOURNAL_ENABLED_DEFAULT = true;
    /** Bytes of each journal writer's ring (a power of two, 4K..1G). */
    public static final String JOURNAL_RING_BYTES_PROP_NAME = "rfmrt.node.journal.ringBytes";
    /** Default of {@link #JOURNAL_RING_BYTES_PROP_NAME}. */
    public static final int JOURNAL_RING_BYTES_DEFAULT = JournalConfig.RING_CAPACITY_BYTES_DEFAULT;
    /** Chronicle roll cycle of the journal. */
    public static final String JOURNAL_ROLL_PROP_NAME = "rfmrt.node.journal.roll";
    /** Default of {@link #JOURNAL_ROLL_PROP_NAME}. */
    public static final String JOURNAL_ROLL_DEFAULT = JournalConfig.ROLL_CYCLE_DEFAULT;
    /** Frames the receive path runs through before the node reports it runs. */
    public static final String WARMUP_FRAMES_PROP_NAME = "rfmrt.node.warmupFrames";
    /** Default of {@link #WARMUP_FRAMES_PROP_NAME}. */
    public static final int WARMUP_FRAMES_DEFAULT = ReceiveWarmUp.WARMUP_FRAMES_DEFAULT;

    private RuntimeConfiguration()
    {
    }

    /** @return {@link #ISR_PRIORITY_PROP_NAME} or its default. */
    public static int isrPriority()
    {
        return Integer.getInteger(ISR_PRIORITY_PROP_NAME, ISR_PRIORITY_DEFAULT);
    }

    /** @return {@link #CONSUMER_PRIORITY_PROP_NAME} or its default. */
    public static int consumerPriority()
    {
        return Integer.getInteger(CONSUMER_PRIORITY_PROP_NAME, CONSUMER_PRIORITY_DEFAULT);
    }

    /** @return {@link #PUBLISHER_PRIORITY_PROP_NAME} or its default. */
    public static int publisherPriority()
    {
        return Integer.getInteger(PUBLISHER_PRIORITY_PROP_NAME, PUBLISHER_PRIORITY_DEFAULT);
    }

    /** @return {@link #WAIT_STRATEGY_PROP_NAME} or its default, as text. */
    public static String waitStrategy()
    {
        return System.getProperty(WAIT_STRATEGY_PROP_NAME, WAIT_STRATEGY_DEFAULT);
    }

    /** @return {@link #LOCK_MEMORY_PROP_NAME} or its default. */
    public static boolean lockMemory()
    {
        return bool(LOCK_MEMORY_PROP_NAME, LOCK_MEMORY_DEFAULT);
    }

    /** @return {@link #CPU_DMA_LATENCY_PROP_NAME} or its default. */
    public static boolean cpuDmaLatency()
    {
        return bool(CPU_DMA_LATENCY_PROP_NAME, CPU_DMA_LATENCY_DEFAULT);
    }

    /** @return {@link #STRICT_PROP_NAME} or its default. */
    public static boolean strict()
    {
        return bool(STRICT_PROP_NAME, STRICT_DEFAULT);
    }

    /** @return {@link #HEARTBEAT_NS_PROP_NAME} or its default. */
    public static long heartbeatNanos()
    {
        return Long.getLong(HEARTBEAT_NS_PROP_NAME, HEARTBEAT_NS_DEFAULT);
    }

    /** @return {@link #JOURNAL_ENABLED_PROP_NAME} or its default. */
    public static boolean journalEnabled()
    {
        return bool(JOURNAL_ENABLED_PROP_NAME, JOURNAL_ENABLED_DEFAULT);
    }

    /** @return {@link #JOURNAL_RING_BYTES_PROP_NAME} or its default. */
    public static int journalRingBytes()
    {
        return Integer.getInteger(JOURNAL_RING_BYTES_PROP_NAME, JOURNAL_RING_BYTES_DEFAULT);
    }

    /** @return {@link #JOURNAL_ROLL_PROP_NAME} or its default. */
    public static String journalRoll()
    {
        return System.getProperty(JOURNAL_ROLL_PROP_NAME, JOURNAL_ROLL_DEFAULT);
    }

    /** @return {@link #WARMUP_FRAMES_PROP_NAME} or its default. */
    public static int warmupFrames()
    {
        return Integer.getInteger(WARMUP_FRAMES_PROP_NAME, WARMUP_FRAMES_DEFAULT);
    }

    private static boolean bool(final String name, final boolean fallback)
    {
        final String value = System.getProperty(name);
        return value == null ? fallback : Boolean.parseBoolean(value.trim());
    }
}
