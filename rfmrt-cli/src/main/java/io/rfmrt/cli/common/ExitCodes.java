package io.rfmrt.cli.common;

/**
 * The exit codes of every {@code rfmrt} command (README.md lists them).
 */
public final class ExitCodes
{
    /** Success. */
    public static final int OK = 0;
    /** The operation failed. */
    public static final int ERROR = 1;
    /** The command line was wrong. */
    public static final int USAGE = 2;
    /** A wait ran out of time. */
    public static final int TIMEOUT = 3;
    /** A node ran, but its app says the run was not sound (a plant whose controller never came or went away). */
    public static final int APP = 4;
    /** A benchmark ran, but a target it holds the run to was missed ({@code bench soak}: the targets line says which). */
    public static final int TARGETS_MISSED = 5;
    /** A run stopped by SIGINT (128 + 2), after it summarised what ran. */
    public static final int SIGINT = 130;
    /** A run stopped by SIGTERM (128 + 15), after it summarised what ran. */
    public static final int SIGTERM = 143;

    private ExitCodes()
    {
    }

    /**
     * @param signal the signal that stopped a run: {@code SIGTERM} or {@code SIGINT}.
     * @return its exit code.
     */
    public static int stoppedBy(final String signal)
    {
        return "SIGTERM".equals(signal) ? SIGTERM : SIGINT;
    }
}
