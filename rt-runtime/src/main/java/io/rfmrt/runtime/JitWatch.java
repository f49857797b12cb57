package io.rfmrt.runtime;

import io.rfmrt.runtime.internal.JitQueue;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * Whether this JVM's JIT compilers have been idle for {@link #QUIET_CHECKS} looks {@link #CHECK_MS} ms apart: no
 * compilation in progress or queued ({@code Compiler.queue}); where the JVM does not list its queue, no change in the
 * summed compilation time. What a warm-up waits for before real-time threads start: a busy real-time thread on each
 * cpu leaves the compiler threads, which run at an ordinary priority, almost no cpu.
 * <p>
 * Threading: one thread; off the hot path (a look is an MBean call, a few hundred µs).
 */
public final class JitWatch
{
    /** How far apart the compilers are looked at, in ms. */
    public static final int CHECK_MS = 50;

    /** Looks in a row that must find them idle. */
    public static final int QUIET_CHECKS = 4;

    private final CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
    private long nextCheck = System.nanoTime();
    private long lastTime = -1;
    private int quiet;

    /**
     * @return whether the compilers have been idle for the last {@link #QUIET_CHECKS} looks; between two looks (less
     * than {@link #CHECK_MS} apart) {@code false} without looking.
     */
    public boolean idle()
    {
        final long now = System.nanoTime();
        if (now - nextCheck < 0)
        {
            return false;
        }
        nextCheck = now + TimeUnit.MILLISECONDS.toNanos(CHECK_MS);
        final int pending = JitQueue.pending();
        final boolean still;
        if (pending >= 0)
        {
            still = pending == 0;
        }
        else if (bean != null && bean.isCompilationTimeMonitoringSupported())
        {
            final long time = bean.getTotalCompilationTime();
            still = time == lastTime;
            lastTime = time;
        }
        else
        {
            return true;
        }
        quiet = still ? quiet + 1 : 0;
        return quiet >= QUIET_CHECKS;
    }

    /**
     * Wait until the compilers have had nothing to do for a while, at most {@code limitNs}: what a warm-up queued
     * is then installed before the real-time threads start.
     *
     * @param limitNs the longest wait.
     * @return whether they were found idle (false: the limit passed, or the thread was interrupted).
     */
    public static boolean awaitIdle(final long limitNs)
    {
        final JitWatch jit = new JitWatch();
        final long deadline = System.nanoTime() + limitNs;
        while (!jit.idle())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            try
            {
                Thread.sleep(10);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
