package io.rfmrt.cli.common;

import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.channel.LayoutException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * A failure as the one line a user reads on stderr.
 */
public final class Failures
{
    private Failures()
    {
    }

    /**
     * @param ex a failure.
     * @return one line for the user.
     */
    public static String describe(final Throwable ex)
    {
        if (ex instanceof RfmException || ex instanceof LayoutException || ex instanceof UsageException ||
            ex instanceof IllegalArgumentException || ex instanceof IllegalStateException ||
            ex instanceof RuntimeException && ex.getClass().getName().startsWith("io.rfmrt.") && ex.getMessage() != null)
        {
            return firstLine(ex.getMessage());
        }
        if (ex instanceof FileSystemException fs)
        {
            final String why = fs instanceof NoSuchFileException ? "no such file or folder" :
                fs instanceof NotDirectoryException ? "not a folder" :
                fs instanceof AccessDeniedException ? "permission denied" :
                fs instanceof FileAlreadyExistsException ? "already exists" :
                fs.getReason() != null ? fs.getReason() : fs.getClass().getSimpleName();
            return fs.getFile() + ": " + why;
        }
        if (ex instanceof UncheckedIOException u)
        {
            return describe(u.getCause());
        }
        if (ex instanceof IOException)
        {
            return "I/O error: " + firstLine(String.valueOf(ex.getMessage()));
        }
        return "internal error: " + firstLine(ex.toString()) + " (RFMRT_DEBUG=1 shows where)";
    }

    /**
     * @param text a message, or {@code null}.
     * @return its first line ("" for {@code null}).
     */
    public static String firstLine(final String text)
    {
        final String t = text == null ? "" : text;
        final int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }
}
