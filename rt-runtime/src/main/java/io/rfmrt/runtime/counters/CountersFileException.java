package io.rfmrt.runtime.counters;

/**
 * A counters file that cannot be read: missing, damaged or of another version. The message is one line naming the
 * file.
 */
public final class CountersFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message one line naming the file and what is wrong.
     */
    public CountersFileException(final String message)
    {
        super(message);
    }
}
