package io.rfmrt.rfm.internal;

import com.sun.jna.Native;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import org.agrona.IoUtil;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Creating and mapping the emulator's shared files: group-shared permissions (files 0660, folders 0770) set
 * explicitly, whatever the umask, and atomic publication so that nobody maps a half-made file.
 * <p>
 * Shared folders are trusted only after {@link #checkFolder}: a real folder (not a symbolic link), owned by this user
 * or root, not writable by every user. Once the root and a network folder pass, nobody else can add, rename or
 * replace entries in them, so the names below them stay ours; files are still opened without following symbolic
 * links.
 */
public final class SharedFiles
{
    /** Permissions of every shared file. */
    public static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-rw----");
    /** Permissions of every shared folder. */
    public static final Set<PosixFilePermission> DIR_PERMISSIONS = PosixFilePermissions.fromString("rwxrwx---");

    private SharedFiles()
    {
    }

    /**
     * @return the effective user id of this process (the owner of {@code /proc/self}).
     */
    public static int effectiveUid()
    {
        try
        {
            return (Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot learn this process's user id: " + ex.getMessage(), ex);
        }
    }

    /**
     * Refuse a folder that another user could change under us: a symbolic link, something that is not a folder, a
     * folder owned by someone other than this user or root, or one that every user may write.
     *
     * @param dir  the folder; it must exist.
     * @param what what it is, for the message ({@code emulator root}, {@code network folder}).
     * @param fix  how to fix it, appended to the message.
     * @throws RfmException OS_ERROR with one line saying why and how to fix it.
     */
    public static void checkFolder(final Path dir, final String what, final String fix)
    {
        final int uid;
        final int mode;
        try
        {
            if (Files.isSymbolicLink(dir))
            {
                throw unsafe(what + " " + dir + " is a symbolic link; " + fix);
            }
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
            {
                throw unsafe(what + " " + dir + " is not a folder; " + fix);
            }
            uid = (Integer)Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            mode = (Integer)Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot check " + what + " " + dir + ": " + ex.getMessage(),
                ex);
        }
        final int me = effectiveUid();
        if (uid != me && uid != 0)
        {
            throw unsafe(what + " " + dir + " belongs to uid " + uid + ", not to this user (uid " + me +
                ") or root; " + fix);
        }
        if ((mode & 0002) != 0)
        {
            throw unsafe(String.format("%s %s is writable by every user (mode %04o); %s", what, dir, mode & 07777,
                fix));
        }
    }

    private static RfmException unsafe(final String message)
    {
        return new RfmException(RfmStatus.OS_ERROR, message);
    }

    /**
     * Create one folder (its parent must exist), mode 0770, without following a symbolic link; an existing folder is
     * left as it is (check it with {@link #checkFolder}).
     *
     * @param dir the folder.
     */
    public static void createDirectory(final Path dir)
    {
        try
        {
            Files.createDirectory(dir);
            Files.setPosixFilePermissions(dir, DIR_PERMISSIONS);
        }
        catch (final FileAlreadyExistsException ignore)
        {
            // there already, or another process made it first: the caller checks what it is
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create folder " + dir + ": " + describe(ex), ex);
        }
    }

    /**
     * @param ex an I/O failure.
     * @return its reason in words ({@code permission denied}, ...).
     */
    public static String describe(final IOException ex)
    {
        if (ex instanceof AccessDeniedException)
        {
            return "permission denied";
        }
        if (ex instanceof NoSuchFileException)
        {
            return "no such file or folder";
        }
        if (ex instanceof FileSystemException fs && fs.getReason() != null)
        {
            return fs.getReason();
        }
        return String.valueOf(ex.getMessage());
    }

    /**
     * @param dir folder to create with its missing parents, each made 0770 when this call creates it.
     */
    public static void createDirectories(final Path dir)
    {
        try
        {
            final Path parent = dir.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent))
            {
                createDirectories(parent);
            }
            if (!Files.isDirectory(dir))
            {
                try
                {
                    Files.createDirectory(dir);
                    Files.setPosixFilePermissions(dir, DIR_PERMISSIONS);
                }
                catch (final FileAlreadyExistsException ignore)
                {
                    // another process made it first
                }
            }
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create folder " + dir + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Make a zero-filled file of {@code length} bytes at a temporary name beside {@code target}, mode 0660.
     *
     * @param target the final name.
     * @param length bytes.
     * @return the temporary path, to fill then {@link #publish}.
     */
    public static Path createTemporary(final Path target, final long length)
    {
        final Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        try
        {
            Files.deleteIfExists(tmp);
            Files.createFile(tmp);
            Files.setPosixFilePermissions(tmp, FILE_PERMISSIONS);
            try (RandomAccessFile raf = new RandomAccessFile(tmp.toFile(), "rw"))
            {
                raf.setLength(length);
            }
            allocate(tmp, length);
            return tmp;
        }
        catch (final IOException | RuntimeException ex)
        {
            deleteQuietly(tmp);
            if (ex instanceof RfmException rfm)
            {
                throw rfm;
            }
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create " + tmp + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Refuse before anything is made when a folder's file system cannot hold {@code needed} more bytes.
     *
     * @param dir    the folder.
     * @param needed bytes about to be allocated there.
     * @param what   what they are for, for the message ({@code network 'lab1'}).
     * @throws RfmException OS_ERROR in one line naming the folder, the bytes needed and the bytes free.
     */
    public static void checkSpace(final Path dir, final long needed, final String what)
    {
        final long free = usableSpace(dir);
        if (free >= 0 && free < needed)
        {
            throw noSpace(dir, needed, free, what);
        }
    }

    /**
     * @param dir a folder.
     * @return the bytes its file system has free for this user, -1 when that cannot be learnt.
     */
    public static long usableSpace(final Path dir)
    {
        try
        {
            return Files.getFileStore(dir).getUsableSpace();
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    private static RfmException noSpace(final Path dir, final long needed, final long free, final String what)
    {
        return new RfmException(RfmStatus.OS_ERROR, String.format(
            "no space in %s for %s: it needs %,d bytes, %,d are free", dir, what, needed, free));
    }

    /**
     * Give a file made by {@link RandomAccessFile#setLength} its blocks for real: on tmpfs a sparse file is only a
     * promise, and a mapping whose pages the file system cannot keep faults on first touch (an
     * {@link InternalError} in the touching thread, or a crash of the JVM). Without libc every page is written
     * instead.
     */
    private static void allocate(final Path file, final long length) throws IOException
    {
        if (length == 0)
        {
            return;
        }
        if (LibC.loadFailure() == null)
        {
            final int fd = LibC.open(file.toString(), LibC.O_RDWR | LibC.O_NOFOLLOW | LibC.O_CLOEXEC);
            if (fd < 0)
            {
                throw new IOException("cannot open it to allocate its " + length + " bytes (errno " +
                    Native.getLastError() + ")");
            }
            final int error;
            try
            {
                error = LibC.posix_fallocate(fd, 0, length);
            }
            finally
            {
                LibC.close(fd);
            }
            if (error == LibC.ENOSPC)
            {
                throw noSpace(file.getParent(), length, usableSpace(file.getParent()),
                    String.valueOf(target(file).getFileName()));
            }
            if (error == 0)
            {
                return;
            }
            // EOPNOTSUPP and the like: write the pages instead
        }
        final ByteBuffer zeros = ByteBuffer.allocate(1 << 16);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))
        {
            for (long at = 0; at < length; at += zeros.capacity())
            {
                zeros.clear().limit((int)Math.min(zeros.capacity(), length - at));
                while (zeros.hasRemaining())
                {
                    channel.write(zeros, at + zeros.position());
                }
            }
        }
        catch (final IOException ex)
        {
            if ("No space left on device".equals(ex.getMessage()))
            {
                throw noSpace(file.getParent(), length, usableSpace(file.getParent()),
                    String.valueOf(target(file).getFileName()));
            }
            throw ex;
        }
    }

    /** The final name of a temporary file ({@code .memory.tmp-123} is {@code memory}). */
    private static Path target(final Path tmp)
    {
        final String name = tmp.getFileName().toString();
        final int dot = name.lastIndexOf(".tmp-");
        return dot > 1 && name.startsWith(".") ? tmp.resolveSibling(name.substring(1, dot)) : tmp;
    }

    /**
     * @param file a file to remove; absent is fine, a failure is ignored (the caller reports what it was doing).
     */
    public static void deleteQuietly(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignore)
        {
            // nothing more to do
        }
    }

    /**
     * Give a filled temporary file its final name, atomically and only if the name is free.
     *
     * @param tmp    a file from {@link #createTemporary}.
     * @param target the final name.
     * @return true when published, false when another process published that name first (tmp is removed).
     */
    public static boolean publish(final Path tmp, final Path target)
    {
        try
        {
            Files.createLink(target, tmp);
            return true;
        }
        catch (final FileAlreadyExistsException ex)
        {
            return false;
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot publish " + target + ": " + ex.getMessage(), ex);
        }
        finally
        {
            try
            {
                Files.deleteIfExists(tmp);
            }
            catch (final IOException ignore)
            {
                // a stale temporary name is harmless
            }
        }
    }

    /**
     * Map a whole existing file read-write.
     *
     * @param file the file.
     * @param what what it is, for messages.
     * @return the mapping.
     */
    public static MappedByteBuffer map(final Path file, final String what)
    {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
        {
            if (Files.isSymbolicLink(file))
            {
                throw new RfmException(RfmStatus.OS_ERROR, what + " " + file + " is a symbolic link; remove it");
            }
            throw new RfmException(RfmStatus.NOT_FOUND, what + " " + file + " does not exist");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS))
        {
            final long size = channel.size();
            if (size > Integer.MAX_VALUE)
            {
                // a buffer indexes with an int: a larger file cannot be what any rfmrt process made
                throw new RfmException(RfmStatus.BAD_LAYOUT, String.format(
                    "%s %s is %,d bytes, more than the %,d bytes a shared file may have", what, file, size,
                    Integer.MAX_VALUE));
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot map " + what + " " + file + ": " + describe(ex), ex);
        }
    }

    /**
     * @param buffer a mapping from {@link #map}; null is ignored.
     */
    public static void unmap(final MappedByteBuffer buffer)
    {
        if (buffer != null)
        {
            IoUtil.unmap(buffer);
        }
    }
}
