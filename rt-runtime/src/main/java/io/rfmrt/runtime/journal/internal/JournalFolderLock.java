package io.rfmrt.runtime.journal.internal;

import io.rfmrt.runtime.journal.JournalException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One journal per folder: an exclusive lock on the folder's lock file {@value #FILE}, held while a journal writes
 * there and dropped by the kernel when the process ends, however it ends. The file holds the holder's pid, for the
 * line that refuses a second journal (two nodes whose configurations give the same {@code journal.dir}: their
 * records would interleave in one queue, and each would read as the other's damage).
 * <p>
 * The lock is a POSIX record lock ({@link FileChannel#tryLock}), which belongs to the process and which the kernel
 * drops when the process closes <em>any</em> descriptor of the file. So the folders this process holds are also kept
 * in a set of their lock files' keys, claimed before the file is opened: a second journal in this process is refused
 * by the set, and this process never opens a lock file it holds.
 */
public final class JournalFolderLock implements AutoCloseable
{
    /** The lock file's name in the journal folder. */
    public static final String FILE = ".rfmrt-journal.lock";

    /** How long a journal waits for a lock that is only being probed ({@link #holder}) to be dropped. */
    private static final long PROBE_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(200);
    /** Bytes read of a lock file: a pid and a newline, bounded (the file may be anyone's). */
    private static final int MAX_READ = 32;
    /** Keys of the lock files this process holds or is probing. */
    private static final Set<Object> HELD = ConcurrentHashMap.newKeySet();

    private final Object key;
    private FileChannel channel;

    private JournalFolderLock(final Object key, final FileChannel channel)
    {
        this.key = key;
        this.channel = channel;
    }

    /**
     * Lock a journal folder for this journal.
     *
     * @param dir the folder; it exists.
     * @return the lock; close it when the journal is closed. When the lock file cannot be made, opened or locked (no
     *         room on a full disk, a link in its place), the folder is not locked and the journal goes on: it reports
     *         its own lack of space.
     * @throws JournalException naming the folder and the pid when another journal holds it.
     */
    public static JournalFolderLock acquire(final Path dir)
    {
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
            // a full disk has no room even for the lock file: the journal runs on and reports its space itself
            return new JournalFolderLock(null, null);
        }
        final long deadline = System.nanoTime() + PROBE_WAIT_NS;
        final Object key;
        try
        {
            key = key(dir, file);
        }
        catch (final JournalException ex)
        {
            return new JournalFolderLock(null, null);
        }
        while (!HELD.add(key))
        {
            if (System.nanoTime() >= deadline)
            {
                throw new JournalException("journal dir " + dir + " " + inUse(ProcessHandle.current().pid()));
            }
            Thread.onSpinWait();
        }
        FileChannel channel = null;
        try
        {
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
            FileLock lock;
            while ((lock = channel.tryLock()) == null && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            if (lock == null)
            {
                throw new JournalException("journal dir " + dir + " " + inUse(readPid(channel)));
            }
            writePid(channel);
            return new JournalFolderLock(key, channel);
        }
        catch (final IOException ex)
        {
            // the file cannot be opened or locked (a full disk, a link put in its place): not locked, as without it
            closeQuietly(channel);
            HELD.remove(key);
            return new JournalFolderLock(null, null);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(channel);
            HELD.remove(key);
            throw ex;
        }
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
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
        {
            return null;
        }
        final Object key;
        try
        {
            key = key(dir, file);
        }
        catch (final JournalException ex)
        {
            return null;
        }
        if (!HELD.add(key))
        {
            return inUse(ProcessHandle.current().pid());
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS))
        {
            final FileLock lock = channel.tryLock();
            if (lock != null)
            {
                lock.release();
                return null;
            }
            return inUse(readPid(channel));
        }
        catch (final IOException ex)
        {
            return null;
        }
        finally
        {
            HELD.remove(key);
        }
    }

    private static Object key(final Path dir, final Path file)
    {
        try
        {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile())
            {
                throw new JournalException("cannot lock journal dir " + dir + ": " + file + " is not a regular file");
            }
            return attributes.fileKey() != null ? attributes.fileKey() : file.toAbsolutePath().normalize();
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot lock journal dir " + dir + ": " + ex.getMessage(), ex);
        }
    }

    private static void writePid(final FileChannel channel)
    {
        try
        {
            final byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(pid), 0);
        }
        catch (final IOException ignore)
        {
            // no room for a few bytes on a full disk: the lock holds without them, and a refusal says pid ?
        }
    }

    private static String readPid(final FileChannel channel)
    {
        try
        {
            final ByteBuffer bytes = ByteBuffer.allocate(MAX_READ);
            channel.read(bytes, 0);
            final String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).trim();
            return text.matches("[0-9]{1,10}") ? text : "?";
        }
        catch (final IOException ex)
        {
            return "?";
        }
    }

    private static String inUse(final Object pid)
    {
        return "is in use by another node's journal (pid " + pid + ")";
    }

    private static void closeQuietly(final FileChannel channel)
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // closing releases the lock, which is all that is wanted
            }
        }
    }

    /**
     * Drop the lock (the file stays: removing it could let two journals lock two different files).
     */
    @Override
    public void close()
    {
        if (channel != null)
        {
            closeQuietly(channel);
            channel = null;
            HELD.remove(key);
        }
    }
}
