package io.rfmrt.runtime.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The queue files a {@link JournalReader} goes through, in name order (Chronicle names them by cycle), and the one
 * open now. Following a journal that is still written ({@code live}), the folder is listed again, at most every
 * {@value #LIST_INTERVAL_NS} ns, whenever the reader asks whether a later file exists, and the open file's size is
 * read again when the reader reaches its end: a file that appears later is read too, and bytes written since are
 * seen.
 * <pre>
 *   folder:  20261206.cq4   20261207.cq4   20261208.cq4  (listed again while live)
 *                 ^ index 0       ^ index 1 (open: channel, name, size)
 * </pre>
 * Files are opened read-only ({@code O_RDONLY}, links not followed): a reader never writes into a journal.
 *
 * <p>Threading: the reader's thread.
 */
final class FollowedFiles
{
    /** Shortest time between two listings of the folder while following. */
    static final long LIST_INTERVAL_NS = 200_000_000L;

    private final Path dir;
    private final boolean live;
    private final List<Path> files = new ArrayList<>();
    private long lastListNanos;

    private int index = -1;
    private FileChannel channel;
    private String name;
    private long size;

    /**
     * @param dir  folder of the journal.
     * @param live whether the journal may still be written.
     */
    FollowedFiles(final Path dir, final boolean live)
    {
        this.dir = dir;
        this.live = live;
    }

    /**
     * List the folder's {@code .cq4} files (regular files only) and add those not known yet.
     *
     * @throws JournalException when the folder cannot be listed.
     */
    void list()
    {
        lastListNanos = System.nanoTime();
        final List<Path> found;
        try (Stream<Path> list = Files.list(dir))
        {
            found = list.filter(f -> f.getFileName().toString().endsWith(".cq4"))
                .filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        }
        catch (final IOException | UncheckedIOException ex)
        {
            throw new JournalException("cannot list journal dir " + dir + ": " + reason(ex), ex);
        }
        for (final Path f : found)
        {
            if (!files.contains(f))
            {
                files.add(f);
            }
        }
    }

    /**
     * @return whether the folder holds no queue file (as last listed).
     */
    boolean isEmpty()
    {
        return files.isEmpty();
    }

    /**
     * @return whether the journal may still be written.
     */
    boolean live()
    {
        return live;
    }

    /**
     * @return whether a file after the current one exists; while following, the folder is listed again first when
     *         the last listing is older than {@value #LIST_INTERVAL_NS} ns.
     */
    boolean laterFileExists()
    {
        if (live && System.nanoTime() - lastListNanos > LIST_INTERVAL_NS)
        {
            list();
        }
        return index < files.size() - 1;
    }

    /**
     * @return whether the current file is the last one listed.
     */
    boolean atLastFile()
    {
        return index == files.size() - 1;
    }

    /**
     * @return index of the current file, -1 before the first.
     */
    int index()
    {
        return index;
    }

    /**
     * @return whether a file is open.
     */
    boolean isOpen()
    {
        return channel != null;
    }

    /**
     * @return the current file, or {@code null} before the first.
     */
    Path file()
    {
        return index >= 0 && index < files.size() ? files.get(index) : null;
    }

    /**
     * @return the current file's name (for damage notes and errors).
     */
    String name()
    {
        return name;
    }

    /**
     * @return the current file's size when it was opened or last refreshed.
     */
    long size()
    {
        return size;
    }

    /**
     * Make file {@code i} the current one and open it.
     *
     * @param i index of the file, below {@link #count()}.
     * @return {@code null} when it is open and not empty, else why it cannot be read (it is then closed).
     */
    String open(final int i)
    {
        final Path file = files.get(i);
        index = i;
        name = file.getFileName().toString();
        try
        {
            channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            size = channel.size();
            if (size == 0)
            {
                close();
                return "the file is empty (0 bytes)";
            }
            return null;
        }
        catch (final IOException ex)
        {
            close();
            return "cannot be read: " + reason(ex);
        }
    }

    /**
     * @return files listed so far.
     */
    int count()
    {
        return files.size();
    }

    /**
     * Stand on the last file listed, none open: every file has been tried.
     */
    void pastLast()
    {
        index = files.size() - 1;
    }

    /**
     * Close the current file and stand before the first again.
     */
    void rewind()
    {
        close();
        index = -1;
    }

    /**
     * Read the current file's size again.
     *
     * @return whether it changed.
     * @throws JournalException on an I/O error.
     */
    boolean refreshSize()
    {
        try
        {
            final long now = channel.size();
            if (now != size)
            {
                size = now;
                return true;
            }
            return false;
        }
        catch (final IOException ex)
        {
            throw ioError(ex);
        }
    }

    /**
     * Read from the current file at {@code at} into {@code target}, from its position, until {@code want} bytes are
     * read or the file ends (a read may bring more than {@code want} when the target has room and the file grew).
     *
     * @return bytes read.
     * @throws JournalException on an I/O error.
     */
    int read(final ByteBuffer target, final long at, final int want)
    {
        int total = 0;
        try
        {
            while (total < want)
            {
                final int n = channel.read(target, at + total);
                if (n < 0)
                {
                    break;
                }
                total += n;
            }
        }
        catch (final IOException ex)
        {
            throw ioError(ex);
        }
        return total;
    }

    /**
     * Close the current file, if one is open. Idempotent.
     */
    void close()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // read-only: nothing to lose
            }
            channel = null;
        }
    }

    /**
     * @return the current file's path in the folder, as damage notes name it.
     */
    Path named()
    {
        return dir.resolve(name);
    }

    private JournalException ioError(final IOException ex)
    {
        return new JournalException("journal file " + named() + ": " + reason(ex), ex);
    }

    private static String reason(final Exception ex)
    {
        final Throwable cause = ex instanceof UncheckedIOException u ? u.getCause() : ex;
        if (cause instanceof AccessDeniedException)
        {
            return "permission denied";
        }
        if (cause instanceof FileSystemException fs && fs.getReason() != null)
        {
            return fs.getReason();
        }
        return Journal.oneLine(cause);
    }
}
