package io.rfmrt.runtime.counters;

/**
 * The figures a node's app keeps in its counters file, so that readers outside the process (`rfmrt stat`, the
 * exporter) see the loop as well as the receive path: the ids 72 to 79 of the file ({@link CounterIds#APP_BASE}),
 * type {@link CounterIds#TYPE_APP}, key the int id below. An app sets those it has, off its RT threads (its monitor
 * or housekeeping thread, once a second); the others stay 0. A counter only grows; a gauge holds the last second's
 * value. Ids never change meaning; a new figure takes a free id.
 */
public enum AppCounter
{
    /** Control cycles the loop ran (a controller: sensor frames it answered; a plant: ticks it took). */
    LOOP_CYCLES(0, "app: loop cycles", false),
    /** Cycles whose command was not out by the loop's deadline. */
    DEADLINE_MISSES(1, "app: deadline misses", false),
    /** The end-to-end latency's 99th percentile over the last second, nanoseconds. */
    E2E_P99_NS(2, "app: end-to-end p99 of the last second, ns", true),
    /** The end-to-end latency's largest value over the last second, nanoseconds. */
    E2E_MAX_NS(3, "app: end-to-end max of the last second, ns", true),
    /** The watchdog's trips to SAFE. */
    WATCHDOG_TRIPS(4, "app: watchdog trips", false),
    /** Ticks a plant loop missed (woken too late to take them on time). */
    MISSED_TICKS(5, "app: missed ticks", false),
    /** Commands a plant saw one or more periods after they were due. */
    LATE_COMMANDS(6, "app: late commands", false),
    /** Faults a plant's drive raised (a command timeout). */
    DRIVE_FAULTS(7, "app: drive faults", false);

    private static final AppCounter[] VALUES = values();

    /** How many there are. */
    public static final int COUNT = VALUES.length;

    private final int id;
    private final String label;
    private final boolean gauge;

    AppCounter(final int id, final String label, final boolean gauge)
    {
        this.id = id;
        this.label = label;
        this.gauge = gauge;
    }

    /**
     * @return its id inside the app block (its counter id is {@link CounterIds#app}).
     */
    public int id()
    {
        return id;
    }

    /**
     * @return the label in the counters file.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return whether it holds the last second's value (a gauge) rather than a count that only grows.
     */
    public boolean gauge()
    {
        return gauge;
    }

    /**
     * @param id an id inside the app block.
     * @return its figure, or {@code null} for an id this build does not know.
     */
    public static AppCounter ofId(final int id)
    {
        for (final AppCounter c : VALUES)
        {
            if (c.id == id)
            {
                return c;
            }
        }
        return null;
    }
}
