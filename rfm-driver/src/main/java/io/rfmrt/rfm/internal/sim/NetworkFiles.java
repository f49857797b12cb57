package io.rfmrt.rfm.internal.sim;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.LibC;
import io.rfmrt.rfm.internal.SharedFiles;
import com.sun.jna.Native;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

import static io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.*;

/**
 * The two files of an emulated network in its folder, {@code memory} and {@code control}: made by one of any
 * number of racing processes under a file lock and published whole (memory first, then the control block by an
 * atomic rename), and mapped with every check of magic, layout version and sizes. What {@link NetworkImage} is
 * built over; it holds no state.
 */
final class NetworkFiles
{
    private static final long CREATION_WAIT_NS = TimeUnit.SECONDS.toNanos(5);

    /**
     * The mappings of a network's two files.
     *
     * @param control    the control block.
     * @param memory     the memory image.
     * @param memorySize bytes of memory, as the control block says.
     */
    record Mapped(MappedByteBuffer control, MappedByteBuffer memory, long memorySize)
    {
    }

    private NetworkFiles()
    {
    }

    /**
     * @param dir the network folder.
     * @return whether a network has been published there.
     */
    static boolean exists(final Path dir)
    {
        return Files.isRegularFile(dir.resolve(CONTROL_FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Create the network unless it exists: one process of any number racing here builds it, under a file lock. On a
     * refusal (no space, a file in the way) nothing this call made is left: no temporary file, no memory image, no
     * lock file.
     *
     * @param dir        the network folder; it exists and has been checked (see {@code SimNetwork.checkedDir}).
     * @param name       the network name, for messages.
     * @param memorySize bytes of memory, checked.
     * @return true when this call built it, false when it existed (made by another process, perhaps just now).
     * @throws RfmException OS_ERROR in one line when it cannot be built (no space: the folder, the bytes needed and
     *                      the bytes free).
     */
    static boolean createIfAbsent(final Path dir, final String name, final long memorySize)
    {
        final Path lockFile = dir.resolve(CREATE_LOCK_FILE);
        while (true)
        {
            final int fd = openLock(lockFile, name);
            try
            {
                while (LibC.flock(fd, LibC.LOCK_EX) != 0)
                {
                    if (Native.getLastError() != LibC.EINTR)
                    {
                        throw new RfmException(RfmStatus.OS_ERROR, "cannot lock " + lockFile + " (errno " +
                            Native.getLastError() + ")");
                    }
                }
                if (exists(dir))
                {
                    return false;
                }
                if (lockedPath(fd).endsWith(" (deleted)"))
                {
                    // a creator refused before us removed the file we locked: lock the one at the name now
                    continue;
                }
                boolean built = false;
                try
                {
                    build(dir, name, memorySize);
                    built = true;
                    return true;
                }
                catch (final IOException ex)
                {
                    SharedFiles.checkSpace(dir, memorySize + FILE_SIZE, "network '" + name + "'");
                    throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "' in " + dir +
                        ": " + SharedFiles.describe(ex), ex);
                }
                finally
                {
                    if (!built)
                    {
                        // removed while locked: a creator waiting on it sees that and locks the next one
                        SharedFiles.deleteQuietly(lockFile);
                    }
                }
            }
            finally
            {
                LibC.close(fd);
            }
        }
    }

    private static int openLock(final Path lockFile, final String name)
    {
        if (LibC.loadFailure() != null)
        {
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "': libc is not " +
                "available to lock " + lockFile + ": " + LibC.loadFailure());
        }
        while (true)
        {
            try
            {
                Files.createFile(lockFile);
                Files.setPosixFilePermissions(lockFile, SharedFiles.FILE_PERMISSIONS);
            }
            catch (final FileAlreadyExistsException ignore)
            {
                // another creator's: lock it
            }
            catch (final IOException ex)
            {
                throw new RfmException(RfmStatus.OS_ERROR, "cannot create " + lockFile + ": " +
                    SharedFiles.describe(ex), ex);
            }
            final int fd = LibC.open(lockFile.toString(), LibC.O_RDWR | LibC.O_NOFOLLOW | LibC.O_CLOEXEC);
            if (fd >= 0)
            {
                return fd;
            }
            if (Native.getLastError() != 2)
            {
                throw new RfmException(RfmStatus.OS_ERROR, "cannot open " + lockFile + " (errno " +
                    Native.getLastError() + "; a symbolic link is refused)");
            }
            // ENOENT: removed by a refused creator between the two calls
        }
    }

    /** The path of the file a descriptor is open on, with " (deleted)" after it once it was removed. */
    private static String lockedPath(final int fd)
    {
        try
        {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private static void build(final Path dir, final String name, final long memorySize) throws IOException
    {
        final Path memoryFile = dir.resolve(MEMORY_FILE);
        final Path controlFile = dir.resolve(CONTROL_FILE);
        if (Files.exists(controlFile, LinkOption.NOFOLLOW_LINKS))
        {
            // not a regular file (else the network would exist): a symbolic link or a folder in the way
            throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "': " + controlFile +
                (Files.isSymbolicLink(controlFile) ? " is a symbolic link" : " is not a regular file") +
                "; remove it");
        }
        SharedFiles.checkSpace(dir, memorySize + FILE_SIZE, String.format(
            "network '%s' (memory %,d bytes, control block %,d)", name, memorySize, FILE_SIZE));

        // memory first: a published control block always has its memory beside it
        final Path memoryTmp = SharedFiles.createTemporary(memoryFile, memorySize);
        Files.move(memoryTmp, memoryFile, StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
        boolean published = false;
        try
        {
            final Path controlTmp = SharedFiles.createTemporary(controlFile, FILE_SIZE);
            try
            {
                final MappedByteBuffer map = SharedFiles.map(controlTmp, "control block");
                try
                {
                    final UnsafeBuffer header = new UnsafeBuffer(map);
                    header.putInt(CARD_COUNT_OFFSET, CARD_COUNT);
                    header.putLong(MEMORY_SIZE_OFFSET, memorySize);
                    header.putInt(CARD_SIZE_OFFSET, CARD_SIZE);
                    header.putInt(FIFO_CAPACITY_OFFSET, EventType.FIFO_CAPACITY);
                    header.putLong(CREATED_OFFSET, System.currentTimeMillis());
                    LinkState.init(header);
                    final CardFlyweight card = new CardFlyweight();
                    for (int node = 0; node < CARD_COUNT; node++)
                    {
                        card.wrap(header, node).init();
                    }
                    header.putIntRelease(VERSION_OFFSET, LAYOUT_VERSION);
                    header.putLongRelease(MAGIC_OFFSET, MAGIC);
                }
                finally
                {
                    SharedFiles.unmap(map);
                }
            }
            catch (final RuntimeException | Error ex)
            {
                SharedFiles.deleteQuietly(controlTmp);
                throw ex;
            }
            published = SharedFiles.publish(controlTmp, controlFile);
            if (!published)
            {
                throw new RfmException(RfmStatus.OS_ERROR, "cannot create network '" + name + "': " + controlFile +
                    " appeared while it was being made; remove it");
            }
        }
        finally
        {
            if (!published)
            {
                SharedFiles.deleteQuietly(memoryFile);
            }
        }
    }

    /**
     * Map an existing network's two files, checking magic, layout version and sizes; on a refusal nothing stays
     * mapped.
     *
     * @param dir  the network folder.
     * @param name the network name, for messages.
     * @return the control block's and the memory image's mappings.
     * @throws RfmException NOT_FOUND if there is no such network, BAD_LAYOUT on a mismatch.
     */
    static Mapped map(final Path dir, final String name)
    {
        final Path controlFile = dir.resolve(CONTROL_FILE);
        if (!Files.isRegularFile(controlFile) && !Files.isSymbolicLink(controlFile))
        {
            throw new RfmException(RfmStatus.NOT_FOUND, "network '" + name + "' does not exist (no " + controlFile +
                ")");
        }
        final MappedByteBuffer controlMap = SharedFiles.map(controlFile, "control block of network '" + name + "'");
        MappedByteBuffer memoryMap = null;
        try
        {
            final UnsafeBuffer header = new UnsafeBuffer(controlMap);
            if (header.capacity() < HEADER_SIZE)
            {
                throw badLayout(name, controlFile, "it is " + header.capacity() + " bytes, shorter than its " +
                    HEADER_SIZE + "-byte header");
            }
            final long deadline = System.nanoTime() + CREATION_WAIT_NS;
            long magic;
            while ((magic = header.getLongAcquire(MAGIC_OFFSET)) == 0 && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            if (magic != MAGIC)
            {
                throw badLayout(name, controlFile, String.format("magic 0x%016x, expected 0x%016x", magic, MAGIC));
            }
            final int version = header.getIntAcquire(VERSION_OFFSET);
            if (version != LAYOUT_VERSION)
            {
                throw new RfmException(RfmStatus.BAD_LAYOUT, "network '" + name + "': control block " + controlFile +
                    " has layout version " + version + (version == LAYOUT_VERSION_BY_POSITION ?
                    " (counters and FIFOs placed by event type position)" : "") + "; this build reads version " +
                    LAYOUT_VERSION + " only: destroy the network and create it again");
            }
            final String geometry = geometryProblem(header);
            if (geometry != null)
            {
                throw badLayout(name, controlFile, geometry);
            }
            final long memorySize = header.getLong(MEMORY_SIZE_OFFSET);
            final Path memoryFile = dir.resolve(MEMORY_FILE);
            memoryMap = SharedFiles.map(memoryFile, "memory image of network '" + name + "'");
            if (memoryMap.capacity() != memorySize)
            {
                throw badLayout(name, controlFile, "memory size " + memorySize + ", but " + memoryFile + " is " +
                    memoryMap.capacity() + " bytes");
            }
            return new Mapped(controlMap, memoryMap, memorySize);
        }
        catch (final RuntimeException ex)
        {
            SharedFiles.unmap(controlMap);
            SharedFiles.unmap(memoryMap);
            throw ex;
        }
    }

    /**
     * Every header field past magic and version that sizes or places something, against this build's values and the
     * file's real length.
     *
     * @param header the whole control block.
     * @return null when they hold, else the first field that does not, with its value.
     */
    static String geometryProblem(final UnsafeBuffer header)
    {
        final int cardCount = header.getInt(CARD_COUNT_OFFSET);
        if (cardCount != CARD_COUNT)
        {
            return "card count " + cardCount + ", this build's is " + CARD_COUNT;
        }
        final int cardSize = header.getInt(CARD_SIZE_OFFSET);
        if (cardSize != CARD_SIZE)
        {
            return "card size " + cardSize + ", this build's is " + CARD_SIZE;
        }
        final int fifoCapacity = header.getInt(FIFO_CAPACITY_OFFSET);
        if (fifoCapacity != EventType.FIFO_CAPACITY)
        {
            return "FIFO capacity " + fifoCapacity + ", this build's is " + EventType.FIFO_CAPACITY;
        }
        if (header.capacity() != FILE_SIZE)
        {
            return "it is " + header.capacity() + " bytes, its " + CARD_COUNT + " cards of " + CARD_SIZE +
                " bytes make " + FILE_SIZE;
        }
        return NetworkImage.memorySizeProblem(header.getLong(MEMORY_SIZE_OFFSET));
    }

    private static RfmException badLayout(final String name, final Path controlFile, final String detail)
    {
        return new RfmException(RfmStatus.BAD_LAYOUT, "network '" + name +
            "' has a foreign or corrupt control block " + controlFile + ": " + detail);
    }
}
