package io.rfmrt.cli.common;

/**
 * A command line that parsed but makes no sense: the command prints its message as one line and exits with
 * {@link ExitCodes#USAGE}.
 */
public final class UsageException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line naming the option, its value and what is wrong with it.
     */
    public UsageException(final String message)
    {
        super(message);
    }
}
