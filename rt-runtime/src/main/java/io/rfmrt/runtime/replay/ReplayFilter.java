package io.rfmrt.runtime.replay;

/**
 * Which records a replay looks at: a time window (each bound optional) and one source node or all. A record's time
 * is its event time: a FRAME's {@code sendNanos}, every other kind's {@code nanos}. The source filter applies to
 * frames and to frame faults (whose value is the source); other faults, states, counters and samples pass it.
 *
 * @param from   earliest time, inclusive, or {@code null}.
 * @param to     latest time, inclusive, or {@code null}.
 * @param source the source node to keep, or {@link #ALL_SOURCES}.
 */
public record ReplayFilter(TimeBound from, TimeBound to, int source)
{
    /** {@link #source} of a filter that keeps every source. */
    public static final int ALL_SOURCES = -1;

    /** Everything. */
    public static final ReplayFilter ALL = new ReplayFilter(null, null, ALL_SOURCES);

    /**
     * @return whether any part of the filter is set.
     */
    public boolean any()
    {
        return from != null || to != null || source != ALL_SOURCES;
    }
}
