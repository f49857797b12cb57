package io.rfmrt.rfm;

import io.rfmrt.rfm.internal.Futex;
import io.rfmrt.rfm.internal.SharedFiles;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A file of shared memory between processes, as the emulated network uses them: created zero-filled at a temporary
 * name with mode 0660 and published atomically, mapped read-write, with futex wait and wake on its 32-bit words.
 * For tools that need a plain shared word beside the device (the benchmarks' wake floor); applications use
 * {@link RfmDevice}.
 */
public final class SharedMemoryFile implements AutoCloseable
{
    private final MappedByteBuffer map;
    private final UnsafeBuffer buffer;

    private SharedMemoryFile(final MappedByteBuffer map)
    {
        this.map = map;
        this.buffer = new UnsafeBuffer(map);
    }

    /**
     * Create {@code file} ({@code length} zero bytes, mode 0660) and map it.
     *
     * @param file   the file; must not exist.
     * @param length bytes.
     * @param what   what it is, for messages.
     * @return the mapping.
     * @throws RfmException naming the file when it exists or cannot be made.
     */
    public static SharedMemoryFile create(final Path file, final long length, final String what)
    {
        if (!SharedFiles.publish(SharedFiles.createTemporary(file, length), file))
        {
            throw new RfmException(RfmStatus.OS_ERROR, what + " " + file + " exists already");
        }
        return new SharedMemoryFile(SharedFiles.map(file, what));
    }

    /**
     * Map an existing file made by {@link #create}.
     *
     * @param file the file.
     * @param what what it is, for messages.
     * @return the mapping.
     * @throws RfmException naming the file when it is missing, a symbolic link or cannot be mapped.
     */
    public static SharedMemoryFile open(final Path file, final String what)
    {
        return new SharedMemoryFile(SharedFiles.map(file, what));
    }

    /**
     * Create a folder and its parents, each mode 0770.
     *
     * @param dir the folder.
     */
    public static void createFolders(final Path dir)
    {
        SharedFiles.createDirectories(dir);
    }

    /**
     * @param file a file, not followed if a link.
     * @return its identity (device and inode), or null when it cannot be read.
     */
    public static Object fileKey(final Path file)
    {
        try
        {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    /**
     * Whether a mapped file was cut short in place under its mapping (truncated by something outside rfmrt): a write
     * to a page past the file's end faults. A file replaced or removed is not cut short, its mapping keeps the old
     * pages. One file-status read; off the hot path.
     *
     * @param file   the file.
     * @param key    its {@link #fileKey} when it was mapped (null: never cut).
     * @param mapped the bytes mapped.
     * @return the file's size when it is the same file and shorter than {@code mapped}, else -1.
     */
    public static long cutSize(final Path file, final Object key, final long mapped)
    {
        try
        {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
            return key != null && key.equals(attributes.fileKey()) && attributes.size() < mapped ?
                attributes.size() : -1;
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    /**
     * @return the whole file as a buffer.
     */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * Sleep in the kernel while the 32-bit word at {@code offset} still holds {@code expected}. Allocation-free.
     *
     * @param offset   4-byte aligned offset of the word.
     * @param expected the value read just before; the kernel re-checks it atomically.
     */
    public void await(final int offset, final int expected)
    {
        Futex.await(buffer.addressOffset() + offset, expected, 0);
    }

    /**
     * Wake up to {@code count} processes sleeping on the word at {@code offset}. Allocation-free.
     *
     * @param offset 4-byte aligned offset of the word.
     * @param count  how many to wake at most.
     */
    public void wake(final int offset, final int count)
    {
        Futex.wake(buffer.addressOffset() + offset, count);
    }

    /**
     * Unmap (the file stays).
     */
    @Override
    public void close()
    {
        SharedFiles.unmap(map);
    }
}
