package io.rfmrt.runtime.threads;

/**
 * A setup step was refused in strict mode: the message is one line naming the step, the thread if any, and the errno
 * or reason ({@code strict: SCHED_FIFO 80 refused for rfmrt-isr (EPERM)}).
 */
public final class RtSetupException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line: the refused step and why.
     */
    public RtSetupException(final String message)
    {
        super(message);
    }

    /**
     * @param message one line: the refused step and why.
     * @param cause   the underlying failure.
     */
    public RtSetupException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
