package io.rfmrt.runtime.internal;

import io.rfmrt.runtime.ThreadNotStoppedException;
import org.agrona.concurrent.AgentRunner;

import java.util.concurrent.TimeUnit;

/**
 * Closing an agent's thread within a bound. Agrona's {@link AgentRunner#close(int, java.util.function.Consumer)}
 * retries for as long as the thread lives; a thread the kernel holds where nothing can reach it any more (a futex
 * wait whose shared page was cut away under the node) would hold the node's shutdown with it. Here the wake is
 * repeated every retry, and closing gives up with an exception naming the thread when the wake itself keeps failing
 * for {@link #UNREACHABLE_MS} (the thread cannot be reached) or, in any case, after the bound given.
 * <p>
 * A thread given up on is still running: the caller must not unmap memory it may touch (its device, its counters),
 * or the thread's next access crashes the JVM. A thread that is only slow — an unpinned thread that other processes'
 * RT threads keep off the cpu for seconds — is waited for up to the bound.
 * <p>
 * Threading: called by the thread that closes the node; off the hot path.
 */
public final class BoundedClose
{
    /**
     * How long a node's thread is given to stop, in ms.
     */
    public static final long STOP_TIMEOUT_MS = 60_000;

    /**
     * How long a wake may keep failing before the thread counts as unreachable, in ms.
     */
    public static final long UNREACHABLE_MS = 2_000;

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
     * @throws ThreadNotStoppedException when the thread did not end (it is left running).
     */
    public static void close(final AgentRunner runner, final Runnable wake, final long timeoutMs)
    {
        final long start = System.nanoTime();
        final long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final long unreachable = start + TimeUnit.MILLISECONDS.toNanos(Math.min(timeoutMs, UNREACHABLE_MS));
        final Throwable[] last = {tryWake(wake)};
        runner.close(RETRY_MS, thread ->
        {
            last[0] = tryWake(wake);
            final long now = System.nanoTime();
            if (now - deadline > 0 || (last[0] != null && now - unreachable > 0))
            {
                throw new ThreadNotStoppedException("thread " + thread.getName() + " did not stop within " +
                    TimeUnit.NANOSECONDS.toMillis(now - start) + " ms" +
                    (last[0] == null ? "" : " (waking it failed: " + last[0] + ")"));
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
