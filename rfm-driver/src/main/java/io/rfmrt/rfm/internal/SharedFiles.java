package io.rfmrt.rfm.internal;

import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import org.agrona.IoUtil;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Creating and mapping the emulator's shared files: group-shared permissions (files 0660, folders 0770) set
 * explicitly, whatever the umask, and atomic publication so that nobody maps a half-made file.
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
            return tmp;
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create " + tmp + ": " + ex.getMessage(), ex);
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
        if (!Files.isRegularFile(file))
        {
            throw new RfmException(RfmStatus.NOT_FOUND, what + " " + file + " does not exist");
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
            FileChannel channel = raf.getChannel())
        {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
        }
        catch (final IOException ex)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot map " + what + " " + file + ": " + ex.getMessage(), ex);
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
