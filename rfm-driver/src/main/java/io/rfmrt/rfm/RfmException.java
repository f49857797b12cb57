package io.rfmrt.rfm;

/**
 * Thrown when a device call is misused or the emulated network cannot be used; carries the {@link RfmStatus}
 * and a message that names the bad value.
 */
public final class RfmException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final RfmStatus status;

    /**
     * @param status  the code.
     * @param message one line naming the problem.
     */
    public RfmException(final RfmStatus status, final String message)
    {
        super(message);
        this.status = status;
    }

    /**
     * @param status  the code.
     * @param message one line naming the problem.
     * @param cause   the underlying failure.
     */
    public RfmException(final RfmStatus status, final String message, final Throwable cause)
    {
        super(message, cause);
        this.status = status;
    }

    /**
     * @return the status code.
     */
    public RfmStatus status()
    {
        return status;
    }
}
