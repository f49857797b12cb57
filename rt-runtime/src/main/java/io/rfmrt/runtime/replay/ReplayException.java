package io.rfmrt.runtime.replay;

/**
 * A replay could not do what was asked: nothing to read under the folder, a bad time bound, an export that cannot be
 * written. The message is one line for the user, naming the folder, file or value.
 */
public final class ReplayException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line naming the problem.
     */
    public ReplayException(final String message)
    {
        super(message);
    }

    /**
     * @param message one line naming the problem.
     * @param cause   the underlying failure.
     */
    public ReplayException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
