package io.rfmrt.runtime.internal;

import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.NodeCounters;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.List;

/**
 * The runtime counters of a receive path: counters of the node's counters file ({@link NodeCounters}), or of this
 * process only. Added to atomically and without locks (a counter may have writers on two threads, e.g. journal
 * drops on the ISR-wake and consumer threads), read by any thread or process.
 */
public final class Counters
{
    private final AtomicCounter[] counters = new AtomicCounter[RuntimeCounter.COUNT];

    /**
     * Counters of this process only.
     */
    public Counters()
    {
        this(NodeCounters.inMemory(List.of()));
    }

    /**
     * @param node the node's counters.
     */
    public Counters(final NodeCounters node)
    {
        for (final RuntimeCounter c : RuntimeCounter.values())
        {
            counters[c.id()] = node.runtime(c);
        }
    }

    /**
     * Add to a counter.
     *
     * @param counter the counter.
     * @param delta   amount.
     */
    public void add(final RuntimeCounter counter, final long delta)
    {
        counters[counter.id()].getAndAdd(delta);
    }

    /**
     * @param counter the counter.
     * @return its value, from any thread.
     */
    public long get(final RuntimeCounter counter)
    {
        return counters[counter.id()].get();
    }
}
