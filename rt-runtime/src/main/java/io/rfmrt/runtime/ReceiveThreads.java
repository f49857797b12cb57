package io.rfmrt.runtime;

/**
 * The names of the receive path's threads, as {@code ps -L}, the journal's writer names and the placement table show
 * them. One place, so that the path that starts the threads and the agents that run on them agree.
 */
public final class ReceiveThreads
{
    /** The ISR-wake thread (also the handler's thread in {@link ReceiveMode#INLINE} mode). */
    public static final String ISR = "rfmrt-isr";
    /** The consumer thread, or the polling thread in {@link ReceiveMode#POLLING} mode. */
    public static final String CONSUMER = "rfmrt-consumer";

    private ReceiveThreads()
    {
    }
}
