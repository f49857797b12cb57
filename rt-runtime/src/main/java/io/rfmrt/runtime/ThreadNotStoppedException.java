package io.rfmrt.runtime;

/**
 * A thread of the runtime that did not stop when it was closed: it cannot be reached (its wake keeps failing) or did
 * not end within the bound. It is left running, so whatever memory it may touch (its device's mappings, its counters
 * file) must stay mapped until the process ends: unmapped under it, its next access would crash the JVM.
 */
public final class ThreadNotStoppedException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message which thread, how long was waited, and why it could not be woken if it could not.
     */
    public ThreadNotStoppedException(final String message)
    {
        super(message);
    }
}
