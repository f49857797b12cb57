package io.rfmrt.runtime.threads.internal;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Symbolic names of the errno values that thread placement and memory locking can meet.
 */
public final class Errno
{
    /** {@code EPERM}. */
    public static final int EPERM = 1;
    /** {@code ENOENT}. */
    public static final int ENOENT = 2;
    /** {@code ESRCH}. */
    public static final int ESRCH = 3;
    /** {@code EAGAIN}. */
    public static final int EAGAIN = 11;
    /** {@code ENOMEM}. */
    public static final int ENOMEM = 12;
    /** {@code EACCES}. */
    public static final int EACCES = 13;
    /** {@code EBUSY}. */
    public static final int EBUSY = 16;
    /** {@code ENODEV}. */
    public static final int ENODEV = 19;
    /** {@code EINVAL}. */
    public static final int EINVAL = 22;
    /** {@code ENOSYS}. */
    public static final int ENOSYS = 38;

    private Errno()
    {
    }

    /**
     * @param errno an errno value.
     * @return its symbolic name, or {@code errno N} for one not in the table.
     */
    public static String name(final int errno)
    {
        switch (errno)
        {
            case EPERM:
                return "EPERM";
            case ENOENT:
                return "ENOENT";
            case ESRCH:
                return "ESRCH";
            case EAGAIN:
                return "EAGAIN";
            case ENOMEM:
                return "ENOMEM";
            case EACCES:
                return "EACCES";
            case EBUSY:
                return "EBUSY";
            case ENODEV:
                return "ENODEV";
            case EINVAL:
                return "EINVAL";
            case ENOSYS:
                return "ENOSYS";
            default:
                return "errno " + errno;
        }
    }

    /**
     * Name the reason of a failed file operation the way the kernel would.
     *
     * @param ex what the file system call threw.
     * @return {@code ENOENT}, {@code EACCES}, or the exception's own reason.
     */
    public static String reasonOf(final Exception ex)
    {
        if (ex instanceof NoSuchFileException)
        {
            return "ENOENT";
        }
        if (ex instanceof AccessDeniedException)
        {
            return "EACCES";
        }
        if (ex instanceof FileSystemException && ((FileSystemException)ex).getReason() != null)
        {
            return ((FileSystemException)ex).getReason();
        }
        final String message = ex.getMessage();
        return message == null ? ex.getClass().getSimpleName() : message;
    }
}
