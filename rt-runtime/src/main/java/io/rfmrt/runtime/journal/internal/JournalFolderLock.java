package io.rfmrt.runtime.journal.internal;

import com.sun.jna.Native;
import io.rfmrt.rfm.internal.LibC;
import io.rfmrt.runtime.journal.JournalException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

/**
 * One journal per folder: an exclusive {@code flock} on the folder's lock file {@value #FILE}, held while a journal
 * writes there and dropped by the kernel when the process ends, however it ends. The file holds the holder's pid, for
 * the line that refuses a second journal (two nodes whose configurations give the same {@code journal.dir}: their
 * records would interleave in one queue, and each would read as the other's damage).
 * <p>
 * A {@code flock} belongs to one open file, so a second journal in the same process is refused too, and closing
 * another descriptor of the file does not drop it. Without libc nothing is locked.
 */
public final class JournalFolderLock implements AutoCloseable
{
    /** The lock file's name in the journal folder. */
    public static final String FILE = ".rfmrt-journal.lock";

    /** How long a journal waits for a lock that another process only probes ({@link #holder}) to be dropped. */
    private static final long PROBE_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Bytes read of a lock file: a pid and a newline, bounded (the file may be anyone's). */
    private static final int MAX_READ = 32;

    private int fd;

    private JournalFolderLock(final int fd)
    {
        this.fd = fd;
    }

    /**
     * Lock a journal folder for this journal.
     *
     * @param dir the folder; it exists.
     * @return the lock; close it when the journal is closed.
     * @throws JournalException naming the folder and the pid when another journal holds it, or why it cannot be locked.
     */
    public static JournalFolderLock acquire(final Path dir)
    {
        if (LibC.loadFailure() != null)
        {
            return new JournalFolderLock(-1);
        }
        final Path file = dir.resolve(FILE);
        try
        {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-rw----")));
        }
        catch (final FileAlreadyExistsException ignore)
        {
            // an earlier journal's: locked or not, it is the folder's lock
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new JournalException("cannot lock journal dir " + dir + ": " + ex.getMessage(), ex);
        }
        final int fd = open(file);
        if (fd < 0)
        {
            throw new JournalException("cannot lock journal dir " + dir + ": " + file + " cannot be opened (errno " +
                Native.getLastError() + "; a symbolic link?)");
        }
        final long deadline = System.nanoTime() + PROBE_WAIT_NS;
        while (LibC.flock(fd, LibC.LOCK_EX | LibC.LOCK_NB) != 0)
        {
            final int errno = Native.getLastError();
            if (errno == LibC.EWOULDBLOCK && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
                continue;
            }
            LibC.close(fd);
            throw new JournalException("journal dir " + dir + " " + (errno == LibC.EWOULDBLOCK ? inUse(file) :
                "cannot be locked (errno " + errno + ")"));
        }
        try
        {
            Files.writeString(file, ProcessHandle.current().pid() + "\n");
        }
        catch (final IOException ex)
        {
            LibC.close(fd);
            throw new JournalException("cannot lock journal dir " + dir + ": " + ex.getMessage(), ex);
        }
        return new JournalFolderLock(fd);
    }

    /**
     * Whether a live journal writes to a folder, found without making anything.
     *
     * @param dir the folder.
     * @return null when none does (or the folder or its lock file is not there), else {@code "is in use by another
     *         node's journal (pid N)"}.
     */
    public static String holder(final Path dir)
    {
        final Path file = dir.resolve(FILE);
        if (LibC.loadFailure() != null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
        {
            return null;
        }
        final int fd = open(file);
        if (fd < 0)
        {
            return null;
        }
        try
        {
            if (LibC.flock(fd, LibC.LOCK_EX | LibC.LOCK_NB) == 0)
            {
                LibC.flock(fd, LibC.LOCK_UN);
                return null;
            }
            return Native.getLastError() == LibC.EWOULDBLOCK ? inUse(file) : null;
        }
        finally
        {
            LibC.close(fd);
        }
    }

    private static int open(final Path file)
    {
        return LibC.open(file.toString(), LibC.O_RDWR | LibC.O_NOFOLLOW | LibC.O_CLOEXEC);
    }

    private static String inUse(final Path file)
    {
        String pid = "?";
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS))
        {
            final String text = new String(in.readNBytes(MAX_READ), StandardCharsets.US_ASCII).trim();
            if (text.matches("[0-9]{1,10}"))
            {
                pid = text;
            }
        }
        catch (final IOException ignore)
        {
            // the pid is only for the message
        }
        return "is in use by another node's journal (pid " + pid + ")";
    }

    /**
     * Drop the lock (the file stays: removing it could let two journals lock two different files).
     */
    @Override
    public void close()
    {
        if (fd >= 0)
        {
            LibC.close(fd);
            fd = -1;
        }
    }
}
