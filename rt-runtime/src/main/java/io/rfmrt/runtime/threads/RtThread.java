package io.rfmrt.runtime.threads;

/**
 * A thread started by {@link RtEnvironment#start}: the Java thread and where the kernel placed it. Thread-safe.
 */
public final class RtThread
{
    private final Thread thread;
    private final Placement placement;
    private final String allowedCpus;

    RtThread(final Thread thread, final Placement placement, final String allowedCpus)
    {
        this.thread = thread;
        this.placement = placement;
        this.allowedCpus = allowedCpus;
    }

    /**
     * @return the Java thread (named as asked, not a daemon).
     */
    public Thread thread()
    {
        return thread;
    }

    /**
     * @return where the thread runs, as read back from the kernel before its body started.
     */
    public Placement placement()
    {
        return placement;
    }

    /**
     * Wait for the thread's body to return.
     *
     * @param millis the longest wait in milliseconds, 0 to wait forever.
     * @throws InterruptedException when the calling thread is interrupted while waiting.
     */
    public void join(final long millis) throws InterruptedException
    {
        thread.join(millis);
    }

    /**
     * @return whether the thread has started and not yet ended.
     */
    public boolean isAlive()
    {
        return thread.isAlive();
    }

    String allowedCpus()
    {
        return allowedCpus;
    }

    @Override
    public String toString()
    {
        return "RtThread{" + placement + '}';
    }
}
