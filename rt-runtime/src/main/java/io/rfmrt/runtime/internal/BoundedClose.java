package io.rfmrt.runtime.internal;

import org.agrona.concurrent.AgentRunner;

import java.util.concurrent.TimeUnit;

/**
 * Closing an agent's thread within a bound. Agrona's {@link AgentRunner#close(int, java.util.function.Consumer)}
 * retries for as long as the thread lives; a thread the kernel holds where nothing can reach it any more (a futex
 * wait whose shared page was cut away under the node) would hold the node's shutdown with it. Here the wake is
 * repeated every retry until the bound, and then closing gives up with an exception naming the thread, so that the
 * rest of the shutdown (journal flush, claim release) still runs and the process can exit.
 * <p>
 * Threading: called by the thread that closes the node; off the hot path.
 */
public final class BoundedClose
{
    /**
     * How long a node's thread is given to stop, in ms.
     */
    public static final long STOP_TIMEOUT_MS = 2_000;

    private static final int RETRY_MS = 50;

    private BoundedClose()
    {
    }

    /**
     * Stop the runner's thread: wake it (the wake may fail: it is tried again each retry), then wait for it.
     *
     * @param runner    the runner to close.
     * @param wake      what makes its thread leave a wait (cancel a wait for an event, wake a parked consumer).
     * @param timeoutMs longest wait for the thread to end.
     * @throws IllegalStateException when the thread did not end in time (it is left running).
     */
    public static void close(final AgentRunner runner, final Runnable wake, final long timeoutMs)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final Throwable[] last = {tryWake(wake)};
        runner.close(RETRY_MS, thread ->
        {
            final Throwable failed = tryWake(wake);
            if (failed != null)
            {
                last[0] = failed;
            }
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("thread " + thread.getName() + " did not stop within " + timeoutMs +
                    " ms" + (last[0] == null ? "" : " (waking it failed: " + last[0] + ")"));
            }
        });
    }

    private static Throwable tryWake(final Runnable wake)
    {
        try
        {
            wake.run();
            return null;
        }
        catch (final RuntimeException | Error ex)
        {
            return ex;
        }
    }
}
