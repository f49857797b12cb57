package io.rfmrt.runtime.journal.internal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.StoreFileListener;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_KIND_ID;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAGIC;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NO_WRITER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION;

/**
 * The files of a journal: its folder's Chronicle Queue, opened with every queue file group-shared ({@code 0660}),
 * and the journal header record ({@link JournalRecordDescriptor}) that starts each cycle and follows every change
 * of the writer set.
 */
public final class JournalFiles
{
    /** Chronicle's block size for queue files when none is set: 64 MiB (a new file is then 80 MiB). */
    public static final long BLOCK_BYTES_DEFAULT = 64L << 20;
    /** Smallest block size. */
    public static final long BLOCK_BYTES_MIN = 64L << 10;
    /** Largest block size. */
    public static final long BLOCK_BYTES_MAX = 1L << 30;

    private static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-rw----");

    private JournalFiles()
    {
    }

    /**
     * Open (or create) the queue of a folder, on the calling thread, so that a folder that cannot hold one fails
     * here.
     *
     * @param dir       existing, writable folder.
     * @param rollCycle Chronicle roll cycle.
     * @return the queue.
     * @throws RuntimeException whatever Chronicle throws when it cannot open the queue.
     */
    public static SingleChronicleQueue open(final Path dir, final RollCycle rollCycle)
    {
        return open(dir, rollCycle, BLOCK_BYTES_DEFAULT);
    }

    /**
     * As {@link #open(Path, RollCycle)}, with queue files mapped {@code blockBytes} at a time.
     *
     * @param dir        existing, writable folder.
     * @param rollCycle  Chronicle roll cycle.
     * @param blockBytes Chronicle's block size: a queue file grows by it, and starts at {@link #fileBytes} of it.
     * @return the queue.
     */
    public static SingleChronicleQueue open(final Path dir, final RollCycle rollCycle, final long blockBytes)
    {
        ChronicleSupport.init();
        final SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(dir)
            .rollCycle(rollCycle)
            .blockSize(blockBytes)
            .storeFileListener(new PermissionSetter())
            .build();
        setPermissions(dir.resolve("metadata.cq4t").toFile());
        return queue;
    }

    /**
     * @param blockBytes a block size.
     * @return the bytes a new queue file takes when mapped: the block and Chronicle's overlap of a quarter block.
     */
    public static long fileBytes(final long blockBytes)
    {
        return blockBytes + blockBytes / 4;
    }

    /**
     * Write a journal header record.
     *
     * @param appender   where.
     * @param nodeId     the node's id.
     * @param nowNanos   {@code journalNanos} of the record and the monotonic half of the clock pairing.
     * @param epochMs    the wall-clock half of the pairing.
     * @param writerNames every writer's name, US-ASCII, by writer id.
     * @param layout      the node's channel layout, UTF-8 YAML (at most
     *                    {@link JournalRecordDescriptor#MAX_LAYOUT_LENGTH} bytes), empty for none.
     */
    public static void writeHeader(final ExcerptAppender appender, final int nodeId, final long nowNanos,
        final long epochMs, final byte[][] writerNames, final byte[] layout)
    {
        final DocumentContext context = appender.writingDocument();
        try
        {
            final Bytes<?> bytes = context.wire().bytes();
            bytes.writeByte((byte)VERSION);
            bytes.writeByte((byte)HEADER_KIND_ID);
            bytes.writeShort((short)NO_WRITER);
            bytes.writeInt(nodeId);
            bytes.writeLong(nowNanos);
            bytes.writeLong(MAGIC);
            bytes.writeLong(epochMs);
            bytes.writeLong(nowNanos);
            bytes.writeInt(writerNames.length);
            bytes.writeInt(layout.length);
            for (int i = 0; i < writerNames.length; i++)
            {
                bytes.writeShort((short)i);
                bytes.writeShort((short)writerNames[i].length);
                bytes.write(writerNames[i]);
            }
            bytes.write(layout);
        }
        catch (final Throwable ex)
        {
            context.rollbackOnClose();
            throw ex;
        }
        finally
        {
            context.close();
        }
    }

    /**
     * Make every queue file of a journal folder group-shared (0660): the cycle files ({@code *.cq4}) and the
     * metadata ({@code *.cq4t}). Files of other names are left alone; a folder that cannot be listed is ignored.
     *
     * @param dir the journal folder.
     */
    public static void shareQueueFiles(final Path dir)
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.{cq4,cq4t}"))
        {
            for (final Path file : files)
            {
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
                {
                    setPermissions(file.toFile());
                }
            }
        }
        catch (final IOException | DirectoryIteratorException ignore)
        {
            // as for a single file: Chronicle's own permissions stay
        }
    }

    static void setPermissions(final File file)
    {
        try
        {
            if (file.isFile())
            {
                Files.setPosixFilePermissions(file.toPath(), FILE_PERMISSIONS);
            }
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ignore)
        {
            // Chronicle's own permissions stay; nothing else depends on it
        }
    }

    /** Makes every queue file group-shared (0660) when Chronicle first acquires it. */
    private static final class PermissionSetter implements StoreFileListener
    {
        @Override
        public void onAcquired(final int cycle, final File file)
        {
            setPermissions(file);
        }

        @Override
        public void onReleased(final int cycle, final File file)
        {
        }
    }
}
