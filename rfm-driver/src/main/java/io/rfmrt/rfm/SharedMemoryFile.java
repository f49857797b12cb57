package io.rfmrt.rfm;

import io.rfmrt.rfm.internal.Futex;
import io.rfmrt.rfm.internal.SharedFiles;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

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
