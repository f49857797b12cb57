package io.rfmrt.runtime.journal.internal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochClock;

import java.io.File;
import java.nio.file.Path;
import java.util.function.Supplier;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION;

/**
 * Where the journal thread writes: one Chronicle Queue appender, guarded by a free-space floor. Before writing, at
 * least every {@link #SPACE_CHECK_INTERVAL_NS} or {@link #SPACE_CHECK_INTERVAL_BYTES}, the free space of the folder is
 * compared with the floor; below it nothing is written (Chronicle maps its files, and a write into a mapping that the
 * disk cannot back is a {@code SIGBUS}). A failure drops the appender; the sink tries again after
 * {@link #RETRY_INTERVAL_NS}. A header ({@link JournalFiles#writeHeader}) starts every cycle and follows every
 * change of the writer set.
 * <p>
 * Threading: journal thread only, except {@link #lastError()}.
 */
public final class ChronicleSink
{
    /** Longest time between two checks of the free disk space while writing. */
    public static final long SPACE_CHECK_INTERVAL_NS = 100_000_000L;
    /** Most bytes written between two checks of the free disk space. */
    public static final long SPACE_CHECK_INTERVAL_BYTES = 64 * 1024;
    /** Time between two attempts to write again after a failure or a full disk. */
    public static final long RETRY_INTERVAL_NS = 1_000_000_000L;

    private final Path dir;
    private final File dirFile;
    private final int nodeId;
    private final long minFreeBytes;
    private final EpochClock epochClock;
    private final Supplier<SingleChronicleQueue> opener;
    private final long openBytes;
    private SingleChronicleQueue queue;
    private final byte[] layout;
    private volatile String lastError;

    private ExcerptAppender appender;
    private boolean diskFull;
    private boolean healthy;
    private long nextCheckNanos;
    private long bytesSinceCheck;
    private int headerCycle = Integer.MIN_VALUE;
    private int headerWriterCount = -1;

    /**
     * @param dir          the journal folder (for messages and the free-space check).
     * @param queue        its queue ({@link JournalFiles#open}).
     * @param nodeId       written into every record.
     * @param minFreeBytes free-space floor of the folder's file system.
     * @param epochClock   wall clock of the journal header.
     */
    public ChronicleSink(final Path dir, final SingleChronicleQueue queue, final int nodeId, final long minFreeBytes,
        final EpochClock epochClock)
    {
        this(dir, queue, nodeId, minFreeBytes, epochClock, new byte[0]);
    }

    /**
     * @param dir          the journal folder (for messages and the free-space check).
     * @param queue        its queue ({@link JournalFiles#open}).
     * @param nodeId       written into every record.
     * @param minFreeBytes free-space floor of the folder's file system.
     * @param epochClock   wall clock of the journal header.
     * @param layout       the node's channel layout for every journal header, UTF-8 YAML, empty for none.
     */
    public ChronicleSink(final Path dir, final SingleChronicleQueue queue, final int nodeId, final long minFreeBytes,
        final EpochClock epochClock, final byte[] layout)
    {
        this(dir, () -> queue, 0, nodeId, minFreeBytes, epochClock, layout);
    }

    /**
     * A sink that opens its queue itself, once the folder's file system has room for the queue's first file
     * ({@code openBytes}) above the floor: with the process's memory locked ({@code mlockall}), mapping a queue file
     * takes all of its pages at once, and a file system that cannot give them faults the mapping thread. Until then
     * (and whenever space is short) records are dropped and counted as write errors, with {@link #lastError} saying
     * why; the sink looks again every {@link #RETRY_INTERVAL_NS}.
     *
     * @param dir          the journal folder (for messages and the free-space check).
     * @param opener       opens its queue ({@link JournalFiles#open}); called on the journal's threads.
     * @param openBytes    bytes a queue file takes when it is mapped (block and overlap).
     * @param nodeId       written into every record.
     * @param minFreeBytes free-space floor of the folder's file system.
     * @param epochClock   wall clock of the journal header.
     * @param layout       the node's channel layout for every journal header, UTF-8 YAML, empty for none.
     */
    public ChronicleSink(final Path dir, final Supplier<SingleChronicleQueue> opener, final long openBytes,
        final int nodeId, final long minFreeBytes, final EpochClock epochClock, final byte[] layout)
    {
        this.layout = layout.clone();
        this.dir = dir;
        this.dirFile = dir.toFile();
        this.opener = opener;
        this.openBytes = openBytes;
        this.nodeId = nodeId;
        this.minFreeBytes = minFreeBytes;
        this.epochClock = epochClock;
        if (openBytes == 0 || dirFile.getUsableSpace() >= minFreeBytes + openBytes)
        {
            this.queue = opener.get();
        }
        else
        {
            noSpaceToOpen(dirFile.getUsableSpace());
        }
    }

    /**
     * @return whether the queue is open (false while there is no room for its first file).
     */
    public boolean opened()
    {
        return queue != null;
    }

    private void noSpaceToOpen(final long free)
    {
        lastError = String.format("journal %s: no space for its file: it needs %,d bytes free (a file of %,d and " +
            "the floor of %,d), %,d are free; records are dropped (counted as write errors) until space returns",
            dir, minFreeBytes + openBytes, openBytes, minFreeBytes, free);
    }

    /**
     * @return the latest failure, one line, or {@code null}. Any thread.
     */
    public String lastError()
    {
        return lastError;
    }

    /**
     * @param error the latest failure, one line.
     */
    public void lastError(final String error)
    {
        lastError = error;
    }

    /**
     * @param now         {@code System.nanoTime()}.
     * @param writerNames the writers' names, for a header the check writes.
     * @return whether a record can be written now (checks the disk when a check is due).
     */
    public boolean ready(final long now, final byte[][] writerNames)
    {
        if (now - nextCheckNanos >= 0 || bytesSinceCheck >= SPACE_CHECK_INTERVAL_BYTES)
        {
            checkHealth(now, writerNames);
        }
        return healthy;
    }

    /**
     * When unhealthy and a retry is due, try again even with nothing to write, so that stats tell the truth.
     *
     * @param now         {@code System.nanoTime()}.
     * @param writerNames the writers' names, for the header.
     */
    public void retryIfDue(final long now, final byte[][] writerNames)
    {
        if (!healthy && now - nextCheckNanos >= 0)
        {
            checkHealth(now, writerNames);
        }
    }

    /**
     * Check the disk now, create the appender if it is missing, and write the first header when one is due.
     *
     * @param now         {@code System.nanoTime()}.
     * @param writerNames the writers' names for a first header, or {@code null} to leave it to the next write.
     */
    public void checkHealth(final long now, final byte[][] writerNames)
    {
        bytesSinceCheck = 0;
        final long free = dirFile.getUsableSpace();
        if (queue == null)
        {
            if (free < minFreeBytes + openBytes)
            {
                noSpaceToOpen(free);
                healthy = false;
                nextCheckNanos = now + RETRY_INTERVAL_NS;
                return;
            }
            try
            {
                queue = opener.get();
            }
            catch (final Throwable ex)
            {
                lastError = "journal " + dir + ": cannot open the queue: " + describe(ex);
                healthy = false;
                nextCheckNanos = now + RETRY_INTERVAL_NS;
                return;
            }
        }
        if (free < minFreeBytes)
        {
            if (!diskFull)
            {
                diskFull = true;
                lastError = "journal " + dir + ": disk full: " + free + " bytes free, below the floor of " +
                    minFreeBytes + "; records are dropped (counted as write errors) until space returns";
            }
        }
        else
        {
            diskFull = false;
            if (appender == null)
            {
                try
                {
                    appender = queue.createAppender();
                }
                catch (final Throwable ex)
                {
                    lastError = "journal " + dir + ": cannot create an appender: " + describe(ex);
                }
            }
        }
        healthy = !diskFull && appender != null;
        nextCheckNanos = now + (healthy ? SPACE_CHECK_INTERVAL_NS : RETRY_INTERVAL_NS);
        if (healthy && headerWriterCount < 0 && writerNames != null)
        {
            try
            {
                writeHeader(now, writerNames);
            }
            catch (final Throwable ex)
            {
                lastError = "journal " + dir + ": writing the journal header failed: " + describe(ex);
                fail(now);
            }
        }
    }

    /**
     * Write one record (a header first when the cycle or the writer set changed). Call only when {@link #ready}.
     *
     * @param msgTypeId   the record kind.
     * @param writerId    the writer's id.
     * @param writerNames every writer's name, for the header.
     * @param buffer      the payload's buffer, off-heap (its address is copied from).
     * @param index       the payload's offset.
     * @param length      the payload's length.
     * @param now         {@code journalNanos} of the record.
     * @return the record's length in the journal.
     * @throws RuntimeException whatever Chronicle throws; then call {@link #fail}.
     */
    public int write(final int msgTypeId, final int writerId, final byte[][] writerNames, final DirectBuffer buffer,
        final int index, final int length, final long now)
    {
        if (queue.cycle() != headerCycle || headerWriterCount != writerNames.length)
        {
            writeHeader(now, writerNames);
        }
        final DocumentContext context = appender.writingDocument();
        try
        {
            final Bytes<?> bytes = context.wire().bytes();
            bytes.writeByte((byte)VERSION);
            bytes.writeByte((byte)msgTypeId);
            bytes.writeShort((short)writerId);
            bytes.writeInt(nodeId);
            bytes.writeLong(now);
            bytes.unsafeWrite(buffer.addressOffset() + index, length);
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
        final int recordLength = RECORD_HEADER_LENGTH + length;
        bytesSinceCheck += recordLength;
        return recordLength;
    }

    /**
     * Drop the appender and stop writing until the next retry.
     *
     * @param now {@code System.nanoTime()}.
     */
    public void fail(final long now)
    {
        closeAppender();
        healthy = false;
        headerWriterCount = -1;
        nextCheckNanos = now + RETRY_INTERVAL_NS;
    }

    /**
     * Close the appender and the queue.
     */
    public void close()
    {
        closeAppender();
        if (queue == null)
        {
            return;
        }
        try
        {
            queue.close();
        }
        catch (final Throwable ex)
        {
            lastError = "journal " + dir + ": closing the queue failed: " + describe(ex);
        }
        // Chronicle tells the store-file listener of a cycle file before it always exists on disk: share every
        // queue file once more now that the queue is closed
        JournalFiles.shareQueueFiles(dir);
    }

    private void writeHeader(final long now, final byte[][] writerNames)
    {
        JournalFiles.writeHeader(appender, nodeId, now, epochClock.time(), writerNames, layout);
        headerCycle = appender.cycle();
        headerWriterCount = writerNames.length;
    }

    private void closeAppender()
    {
        final ExcerptAppender appender = this.appender;
        this.appender = null;
        if (appender != null)
        {
            try
            {
                appender.close();
            }
            catch (final Throwable ignore)
            {
                // it is already broken; the failure that broke it is in lastError
            }
        }
    }

    static String describe(final Throwable ex)
    {
        final String message = ex.getMessage();
        final String text = ex.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        return text.replace('\n', ' ');
    }
}
