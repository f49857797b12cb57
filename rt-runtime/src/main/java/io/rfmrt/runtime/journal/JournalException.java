package io.rfmrt.runtime.journal;

/**
 * A journal cannot be opened, or holds something this code cannot read. The message is one line that names the
 * folder or the record index.
 */
public class JournalException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line, naming the folder or record.
     */
    public JournalException(final String message)
    {
        super(message);
    }

    /**
     * @param message one line, naming the folder or record.
     * @param cause   what failed underneath.
     */
    public JournalException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
