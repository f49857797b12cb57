package io.rfmrt.runtime;

import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.ReplayCodes;
import org.agrona.ErrorHandler;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one error policy of every runtime thread (ISR-wake, consumer, polling, publisher, heartbeat): an uncaught
 * exception or error is counted, logged once per thread with the thread's name, journaled as a FAULT record
 * ({@link ReplayCodes#FAULT_THREAD_FAILED}: seq = the thread's id, value = the errors so far), and makes the whole
 * node fail: the failing agent stops, {@link #failed()} turns true and {@link #awaitFailure} returns, so that the
 * owner shuts the node down in order and exits non-zero. A dead thread is never silent. With the node's
 * {@link NodeCounters}, each error is also counted in its {@link RuntimeCounter#ERRORS} counter and recorded in its
 * distinct error log, where {@code rfmrt stat} shows it from another process (a node that crashed leaves it there).
 * <p>
 * Threading: {@link #onError} from any thread (it is off the hot path: it runs only when something broke); the rest
 * from any thread.
 */
public final class RtErrorPolicy implements ErrorHandler
{
    private static final Logger LOG = LogManager.getLogger("io.rfmrt.errors");

    private final JournalWriter journal;
    private final NodeCounters counters;
    private final AtomicLong errors = new AtomicLong();
    private final CountDownLatch failed = new CountDownLatch(1);
    private final Set<String> logged = new HashSet<>();
    private final Set<Throwable> reported = Collections.newSetFromMap(new IdentityHashMap<>());
    private volatile String failure;
    private volatile Runnable onFailure;

    /**
     * @param journal where FAULT records go (its own writer: this policy is its one producer), or null.
     */
    public RtErrorPolicy(final JournalWriter journal)
    {
        this(journal, null);
    }

    /**
     * @param journal  where FAULT records go (its own writer: this policy is its one producer), or null.
     * @param counters the node's counters, where errors are counted and recorded, or null.
     */
    public RtErrorPolicy(final JournalWriter journal, final NodeCounters counters)
    {
        this.journal = journal;
        this.counters = counters;
    }

    /**
     * @param action run once, on the failing thread, when the first error arrives (e.g. wake the main thread).
     * @return this.
     */
    public RtErrorPolicy onFailure(final Runnable action)
    {
        this.onFailure = action;
        return this;
    }

    @Override
    public void onError(final Throwable error)
    {
        final long count = errors.incrementAndGet();
        final Thread thread = Thread.currentThread();
        final String what = thread.getName() + ": " + error.getClass().getSimpleName() +
            (error.getMessage() == null ? "" : ": " + error.getMessage());
        final boolean first;
        synchronized (this)
        {
            first = logged.add(thread.getName());
            reported.add(error);
            if (counters != null)
            {
                counters.runtime(RuntimeCounter.ERRORS).increment();
                if (!counters.errorLog().record(error))
                {
                    LOG.warn("error of {} not recorded: the counters file's error log is full", thread.getName());
                }
            }
            if (journal != null && !journal.fault(ReplayCodes.FAULT_THREAD_FAILED, thread.getId(), count,
                System.nanoTime()))
            {
                LOG.warn("FAULT record of {} dropped: journal ring full", thread.getName());
            }
            if (failure == null)
            {
                failure = "thread " + what;
            }
        }
        if (first)
        {
            LOG.error("thread {} failed; the node stops", thread.getName(), error);
        }
        if (failed.getCount() > 0)
        {
            failed.countDown();
            final Runnable action = onFailure;
            if (action != null)
            {
                action.run();
            }
        }
        // an agent runner stops its duty cycle when its thread is interrupted after an error
        thread.interrupt();
    }

    /**
     * The body of a thread under this policy. An agent runner hands an {@link Error} to the policy and then throws it
     * again, which would end the thread with the JVM's own "Exception in thread" trace beside the policy's report;
     * the guard ends the thread quietly instead when the policy has that throwable already, and reports anything
     * else that escapes the body (a failure outside the duty cycle) through {@link #onError}.
     *
     * @param body what the thread runs, usually an {@code AgentRunner}.
     * @return the body, guarded.
     */
    public Runnable guard(final Runnable body)
    {
        return () ->
        {
            try
            {
                body.run();
            }
            catch (final Throwable ex)
            {
                final boolean known;
                synchronized (this)
                {
                    known = reported.contains(ex);
                }
                if (!known)
                {
                    onError(ex);
                }
            }
        };
    }

    /**
     * @return errors so far, on every thread.
     */
    public long errors()
    {
        return errors.get();
    }

    /**
     * @return whether a thread failed.
     */
    public boolean failed()
    {
        return failed.getCount() == 0;
    }

    /**
     * @return the first failure in one line ({@code thread rfmrt-consumer: IllegalStateException: ...}), or null.
     */
    public String failure()
    {
        return failure;
    }

    /**
     * Wait for a failure.
     *
     * @param timeout longest wait.
     * @param unit    its unit.
     * @return whether a thread failed.
     * @throws InterruptedException when the waiting thread is interrupted.
     */
    public boolean awaitFailure(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return failed.await(timeout, unit);
    }
}
