package io.rfmrt.runtime;

import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalWriter;
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
 * ({@link JournalCodes#FAULT_THREAD_FAILED}: seq = the thread's id, value = the errors so far), and makes the whole
 * node fail: the failing agent stops, {@link #failed()} turns true and {@link #awaitFailure} returns, so that the
 * owner shuts the node down in order and exits non-zero. A dead thread is never silent. With the node's
 * {@link NodeCounters}, each error is also counted in its {@link RuntimeCounter#ERRORS} counter and recorded in its
 * distinct error log, where {@code rfmrt stat} shows it from another process (a node that crashed leaves it there).
 * <p>
 * Threading: {@link #onError} from any thread (it is off the hot path: it runs only when something broke); the rest
 * from any thread.
 */
public final class RtErrorPolicy implements ErrorHandler, Thread.UncaughtExceptionHandler
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
    private String recordFailure;

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
        final boolean first;
        synchronized (this)
        {
            first = logged.add(thread.getName());
            reported.add(error);
            if (failure == null)
            {
                failure = "thread " + thread.getName() + ": " + oneLine(error);
            }
        }
        try
        {
            // the failure is known before anything that can fault again is touched: the counters file, the journal
            // and the log may be what broke the thread in the first place
            record(thread, error, count, first);
        }
        finally
        {
            if (failed.getCount() > 0)
            {
                failed.countDown();
                final Runnable action = onFailure;
                if (action != null)
                {
                    try
                    {
                        action.run();
                    }
                    catch (final Throwable ex)
                    {
                        lost("the failure action", ex);
                    }
                }
            }
            // an agent runner stops its duty cycle when its thread is interrupted after an error
            thread.interrupt();
        }
    }

    /**
     * @return why an error could not be recorded, the first time that happened, in one line ({@code the counters
     * file ... was cut to 0 of its 323712 bytes under this node}, {@code the journal: InternalError: ...}), or null.
     * The policy never throws: the failure is known before anything that can fault is touched, and what cannot be
     * recorded is kept here instead.
     */
    public synchronized String recordFailure()
    {
        return recordFailure;
    }

    private void record(final Thread thread, final Throwable error, final long count, final boolean first)
    {
        final String cut = counters == null ? null : counters.truncation();
        if (cut != null)
        {
            lost(cut);
        }
        else if (counters != null)
        {
            try
            {
                synchronized (this)
                {
                    counters.runtime(RuntimeCounter.ERRORS).increment();
                    if (!counters.errorLog().record(error))
                    {
                        LOG.warn("error of {} not recorded: the counters file's error log is full", thread.getName());
                    }
                }
            }
            catch (final Throwable ex)
            {
                lost("the counters file", ex);
            }
        }
        if (journal != null)
        {
            try
            {
                final boolean written;
                synchronized (this)
                {
                    written = journal.fault(JournalCodes.FAULT_THREAD_FAILED, thread.getId(), count, System.nanoTime());
                }
                if (!written)
                {
                    LOG.warn("FAULT record of {} dropped: journal ring full", thread.getName());
                }
            }
            catch (final Throwable ex)
            {
                lost("the journal", ex);
            }
        }
        if (first)
        {
            try
            {
                LOG.error("thread {} failed; the node stops", thread.getName(), error);
            }
            catch (final Throwable ex)
            {
                lost("the log", ex);
            }
        }
    }

    private void lost(final String where, final Throwable ex)
    {
        lost(where + ": " + oneLine(ex));
    }

    private synchronized void lost(final String line)
    {
        if (recordFailure == null)
        {
            recordFailure = line;
        }
    }

    private static String oneLine(final Throwable error)
    {
        return error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
    }

    /**
     * The body of a thread under this policy. An agent runner hands an {@link Error} to the policy and then throws it
     * again, which would end the thread with the JVM's own "Exception in thread" trace beside the policy's report;
     * the guard ends the thread quietly instead when the policy has that throwable already, and reports anything
     * else that escapes the body (a failure outside the duty cycle) through {@link #onError}. The policy becomes the
     * thread's uncaught-exception handler, for what reaches the thread after its body (see
     * {@link #uncaughtException}).
     *
     * @param body what the thread runs, usually an {@code AgentRunner}.
     * @return the body, guarded.
     */
    public Runnable guard(final Runnable body)
    {
        return () ->
        {
            // a fault in a mapping reaches a thread when the JVM next polls for it, which may be after the body
            // returned (in the code that releases the thread's cpu): that too is this policy's to report
            Thread.currentThread().setUncaughtExceptionHandler(this);
            try
            {
                body.run();
            }
            catch (final Throwable ex)
            {
                uncaughtException(Thread.currentThread(), ex);
            }
        };
    }

    /**
     * What ends a guarded thread outside its body: reported through {@link #onError} unless the policy has that
     * throwable already (an agent runner throws an {@link Error} again after handing it over).
     *
     * @param thread the dying thread (the current one).
     * @param error  what ended it.
     */
    @Override
    public void uncaughtException(final Thread thread, final Throwable error)
    {
        final boolean known;
        synchronized (this)
        {
            known = reported.contains(error);
        }
        if (!known)
        {
            onError(error);
        }
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
