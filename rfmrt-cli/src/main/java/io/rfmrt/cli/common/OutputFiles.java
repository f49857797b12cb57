package io.rfmrt.cli.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Output files named on the command line, checked before any work is done.
 */
public final class OutputFiles
{
    private OutputFiles()
    {
    }

    /**
     * Refuse an output file that cannot be written, before any work is done: a folder, an existing file that cannot be
     * opened for writing, or a path whose nearest existing folder takes no new file. Leaves nothing behind: the probe
     * file it writes is removed, and missing folders are not made here (the writer makes them).
     *
     * @param option the option that named the file, for the message.
     * @param file   the output file.
     * @throws UsageException naming the option, the file and why.
     */
    public static void checkWritable(final String option, final Path file)
    {
        final Path absolute = file.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute))
        {
            throw new UsageException(option + " " + file + ": is a folder; give a file name");
        }
        try
        {
            if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS))
            {
                if (!Files.isRegularFile(absolute))
                {
                    throw new UsageException(option + " " + file + ": not a regular file");
                }
                Files.newOutputStream(absolute, StandardOpenOption.WRITE, StandardOpenOption.APPEND).close();
                return;
            }
            Path folder = absolute.getParent();
            while (folder != null && !Files.exists(folder))
            {
                folder = folder.getParent();
            }
            if (folder == null || !Files.isDirectory(folder))
            {
                throw new UsageException(option + " " + file + ": " + folder + " is not a folder");
            }
            Files.delete(Files.createTempFile(folder, ".rfmrt-write-check-", ".tmp"));
        }
        catch (final IOException ex)
        {
            throw new UsageException(option + " " + file + ": cannot be written (" + Failures.describe(ex) + ")");
        }
    }
}
