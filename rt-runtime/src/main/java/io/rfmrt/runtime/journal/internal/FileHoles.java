package io.rfmrt.runtime.journal.internal;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

import java.nio.file.Path;

/**
 * Where a sparse file holds data ({@code lseek(SEEK_DATA)} through JNA), so that a reader can tell a pre-sized
 * journal file's unwritten tail from zeros in the middle of its data without reading tens of MiB of holes.
 * Without the C library, or where the file system cannot tell, every offset counts as data.
 *
 * <p>Threading: any thread; each call opens and closes the file.
 */
public final class FileHoles
{
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int SEEK_DATA = 3;
    private static final boolean AVAILABLE;

    static
    {
        boolean available;
        try
        {
            Native.register(FileHoles.class, NativeLibrary.getInstance("c"));
            available = true;
        }
        catch (final Throwable ex)
        {
            available = false;
        }
        AVAILABLE = available;
    }

    private FileHoles()
    {
    }

    private static native int open(String path, int flags);

    private static native long lseek(int fd, long offset, int whence);

    private static native int close(int fd);

    /**
     * @param file a regular file.
     * @param from a byte offset below the file's size.
     * @return the first offset at or after {@code from} that may hold data (at most {@code from} when this cannot be
     *         told), or -1 when only holes follow.
     */
    public static long nextData(final Path file, final long from)
    {
        if (!AVAILABLE)
        {
            return from;
        }
        final int fd = open(file.toString(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
        {
            return from;
        }
        try
        {
            // on Linux the only failure for an open file below its size is ENXIO: nothing but holes after it
            return lseek(fd, from, SEEK_DATA);
        }
        finally
        {
            close(fd);
        }
    }
}
