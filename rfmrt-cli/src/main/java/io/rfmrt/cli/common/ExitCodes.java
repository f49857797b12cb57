package io.rfmrt.cli.common;

/**
 * The exit codes of every {@code rfmrt} command (each command's help lists its own).
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

    /** The heading of the exit codes in every command's help. */
    public static final String HEADING = "Exit codes:%n";
    /** {@link #OK} as a help line ({@code exitCodeList}). */
    public static final String LIST_OK = "0:success";
    /** {@link #ERROR} as a help line. */
    public static final String LIST_ERROR = "1:the operation failed (one line on stderr says why)";
    /** {@link #USAGE} as a help line. */
    public static final String LIST_USAGE = "2:the command line or a file it names was wrong; nothing was changed";
    /** {@link #TIMEOUT} as a help line. */
    public static final String LIST_TIMEOUT = "3:a wait ran out of time";
    /** {@link #APP} as a help line. */
    public static final String LIST_APP = "4:the node ran, but its app found the run unsound";
    /** {@link #TARGETS_MISSED} as a help line. */
    public static final String LIST_TARGETS_MISSED = "5:it ran, but a target was missed (its targets line says which)";
    /** {@link #SIGINT} as a help line. */
    public static final String LIST_SIGINT = "130:stopped by SIGINT (Ctrl-C), after it summarised what ran";
    /** {@link #SIGTERM} as a help line. */
    public static final String LIST_SIGTERM = "143:stopped by SIGTERM, after it summarised what ran";

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
