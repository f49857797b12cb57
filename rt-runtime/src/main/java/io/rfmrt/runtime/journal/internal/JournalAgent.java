package io.rfmrt.runtime.journal.internal;

import net.openhft.affinity.Affinity;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.StoreFileListener;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.BitSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.HEADER_KIND_ID;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.MAGIC;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.NO_WRITER;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.RECORD_HEADER_LENGTH;
import static io.rfmrt.runtime.journal.internal.JournalRecordDescriptor.VERSION;

/**
 * The journal thread's duty cycle: drain every writer's ring in turn (at most {@link #BATCH_LIMIT} messages each per
 * cycle), write each message as one Chronicle Queue document, keep the accounting. Runs under an Agrona
 * {@code AgentRunner} with a backoff idle strategy; it is a housekeeping thread, not an RT one.
 *
 * <p>Failure handling: before writing, at least every {@link #SPACE_CHECK_INTERVAL_NS} or
 * {@link #SPACE_CHECK_INTERVAL_BYTES}, the free space of the folder is compared with a floor; below it nothing is
 * written (Chronicle maps its files, and a write into a mapping that the disk cannot back is a {@code SIGBUS}). Any
 * exception from Chronicle drops the appender. In both cases the records taken from the rings are counted as write
 * errors, and the journal tries again after {@link #RETRY_INTERVAL_NS}. The writers never see any of it.
 *
 * <p>Threading: {@link #onStart()}, {@link #doWork()}, {@link #onClose()} and {@link #onError} run on the journal
 * thread only; {@link #addWriter}, the getters and {@link #pause} may be called from any thread.
 */
public final class JournalAgent implements Agent, MessageHandler, ErrorHandler
{
    /** Most messages taken from one ring in one duty cycle, so that one busy writer cannot starve the others. */
    public static final int BATCH_LIMIT = 256;
    /** Longest time between two checks of the free disk space while writing. */
    public static final long SPACE_CHECK_INTERVAL_NS = 100_000_000L;
    /** Most bytes written between two checks of the free disk space. */
    public static final long SPACE_CHECK_INTERVAL_BYTES = 64 * 1024;
    /** Passes over the rings that find nothing to read before close gives up on a ring that is not empty. */
    public static final int CLOSE_PASSES_WITHOUT_WORK_MAX = 1000;
    /** Time between two attempts to write again after a failure or a full disk. */
    public static final long RETRY_INTERVAL_NS = 1_000_000_000L;

    private static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-rw----");

    /** Writers, replaced as a whole when one is added. */
    private static final class Writers
    {
        final OneToOneRingBuffer[] rings;
        final byte[][] names;

        Writers(final OneToOneRingBuffer[] rings, final byte[][] names)
        {
            this.rings = rings;
            this.names = names;
        }
    }

    private final Path dir;
    private final File dirFile;
    private final int nodeId;
    private final int cpu;
    private final long minFreeBytes;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private final SingleChronicleQueue queue;

    private final AtomicLong recordsWritten = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong writeErrors = new AtomicLong();
    private volatile String lastError;
    private volatile int pinnedCpu = -1;
    private volatile String affinityError;
    private volatile boolean paused;
    private volatile Writers writers = new Writers(new OneToOneRingBuffer[0], new byte[0][]);
    private final CountDownLatch started = new CountDownLatch(1);

    // journal thread only
    private ExcerptAppender appender;
    private boolean diskFull;
    private boolean healthy;
    private long nextCheckNanos;
    private long bytesSinceCheck;
    private int headerCycle = Integer.MIN_VALUE;
    private int headerWriterCount = -1;
    private int currentWriterId;

    /**
     * Open the queue, on the calling thread, so that a folder that cannot hold one fails here.
     *
     * @param dir          existing, writable folder.
     * @param nodeId       written into every record.
     * @param rollCycle    Chronicle roll cycle.
     * @param cpu          cpu the journal thread should run on (its thread factory places it; checked), or -1.
     * @param minFreeBytes free-space floor of the folder's file system.
     * @param nanoClock    clock of {@code journalNanos}.
     * @param epochClock   wall clock of the journal header.
     * @throws RuntimeException whatever Chronicle throws when it cannot open the queue.
     */
    public JournalAgent(
        final Path dir,
        final int nodeId,
        final RollCycle rollCycle,
        final int cpu,
        final long minFreeBytes,
        final NanoClock nanoClock,
        final EpochClock epochClock)
    {
        ChronicleSupport.init();
        this.dir = dir;
        this.dirFile = dir.toFile();
        this.nodeId = nodeId;
        this.cpu = cpu;
        this.minFreeBytes = minFreeBytes;
        this.nanoClock = nanoClock;
        this.epochClock = epochClock;
        this.queue = SingleChronicleQueueBuilder.binary(dir)
            .rollCycle(rollCycle)
            .storeFileListener(new PermissionSetter())
            .build();
        setPermissions(dir.resolve("metadata.cq4t").toFile());
    }

    /**
     * Register a writer's ring. Any thread; the journal thread picks it up on its next duty cycle.
     *
     * @param ring the writer's ring.
     * @param name the writer's name, US-ASCII.
     * @return the writer id (its position).
     */
    public synchronized int addWriter(final OneToOneRingBuffer ring, final String name)
    {
        final Writers old = writers;
        final int id = old.rings.length;
        final OneToOneRingBuffer[] rings = new OneToOneRingBuffer[id + 1];
        final byte[][] names = new byte[id + 1][];
        System.arraycopy(old.rings, 0, rings, 0, id);
        System.arraycopy(old.names, 0, names, 0, id);
        rings[id] = ring;
        names[id] = name.getBytes(StandardCharsets.US_ASCII);
        writers = new Writers(rings, names);
        return id;
    }

    /**
     * @param paused {@code true} to stop draining (tests fill rings this way), {@code false} to go on.
     */
    public void pause(final boolean paused)
    {
        this.paused = paused;
    }

    /**
     * @return records written.
     */
    public long recordsWritten()
    {
        return recordsWritten.get();
    }

    /**
     * @return bytes of the records written.
     */
    public long bytesWritten()
    {
        return bytesWritten.get();
    }

    /**
     * @return records taken from a ring but not written.
     */
    public long writeErrors()
    {
        return writeErrors.get();
    }

    /**
     * @return the latest failure, one line, or {@code null}.
     */
    public String lastError()
    {
        return lastError;
    }

    /**
     * @return cpu the thread is pinned to, or -1.
     */
    public int pinnedCpu()
    {
        return pinnedCpu;
    }

    /**
     * @return why pinning failed, or {@code null}.
     */
    public String affinityError()
    {
        return affinityError;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public String roleName()
    {
        return "rfmrt-journal";
    }

    /**
     * Read back where the thread runs (its factory placed it), create the appender and write the journal header.
     */
    @Override
    public void onStart()
    {
        try
        {
            if (cpu >= 0)
            {
                checkPlacement();
            }
            checkHealth(nanoClock.nanoTime());
        }
        finally
        {
            started.countDown();
        }
    }

    /**
     * Wait until {@link #onStart()} has run on the journal thread.
     *
     * @param timeoutMs longest wait.
     * @return {@code true} when it has.
     * @throws InterruptedException when interrupted while waiting.
     */
    public boolean awaitStarted(final long timeoutMs) throws InterruptedException
    {
        return started.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int doWork()
    {
        if (paused)
        {
            return 0;
        }
        return drainOnce();
    }

    /**
     * Drain every ring to the end, then close the appender and the queue. Runs on the journal thread when the
     * runner closes.
     */
    @Override
    public void onClose()
    {
        paused = false;
        // a pass can read nothing yet free space (Agrona's padding at the end of a ring), so go by the rings'
        // sizes; give up only when a ring stays non-empty with no progress (a producer stuck in a claim)
        int passesWithoutWork = 0;
        while (!ringsEmpty() && passesWithoutWork < CLOSE_PASSES_WITHOUT_WORK_MAX)
        {
            int work = 0;
            try
            {
                work = drainOnce();
            }
            catch (final Throwable ex)
            {
                onError(ex);
            }
            if (work > 0)
            {
                passesWithoutWork = 0;
            }
            else
            {
                passesWithoutWork++;
                Thread.yield();
            }
        }
        closeAppender();
        try
        {
            queue.close();
        }
        catch (final Throwable ex)
        {
            lastError = "journal " + dir + ": closing the queue failed: " + describe(ex);
        }
    }

    /**
     * An exception that escaped a duty cycle (a {@code SIGBUS} turned into an {@link InternalError} may surface
     * anywhere on this thread): remember it and stop writing until the next retry.
     *
     * @param throwable what escaped.
     */
    @Override
    public void onError(final Throwable throwable)
    {
        lastError = "journal " + dir + ": " + describe(throwable);
        fail(nanoClock.nanoTime());
    }

    /**
     * Write one ring message as one record. Journal thread only.
     */
    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long now = nanoClock.nanoTime();
        if (!ready(now))
        {
            writeErrors.lazySet(writeErrors.get() + 1);
            return;
        }
        try
        {
            if (queue.cycle() != headerCycle || headerWriterCount != writers.rings.length)
            {
                writeHeader(now);
            }
            final DocumentContext context = appender.writingDocument();
            try
            {
                final Bytes<?> bytes = context.wire().bytes();
                bytes.writeByte((byte)VERSION);
                bytes.writeByte((byte)msgTypeId);
                bytes.writeShort((short)currentWriterId);
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
            recordsWritten.lazySet(recordsWritten.get() + 1);
            bytesWritten.lazySet(bytesWritten.get() + recordLength);
            bytesSinceCheck += recordLength;
        }
        catch (final Throwable ex)
        {
            writeErrors.lazySet(writeErrors.get() + 1);
            lastError = "journal " + dir + ": write failed: " + describe(ex);
            fail(now);
        }
    }

    private boolean ringsEmpty()
    {
        for (final OneToOneRingBuffer ring : writers.rings)
        {
            if (ring.size() > 0)
            {
                return false;
            }
        }
        return true;
    }

    private int drainOnce()
    {
        final OneToOneRingBuffer[] rings = writers.rings;
        int work = 0;
        for (int i = 0; i < rings.length; i++)
        {
            currentWriterId = i;
            work += rings[i].read(this, BATCH_LIMIT);
        }
        if (work == 0)
        {
            final long now = nanoClock.nanoTime();
            if (!healthy && now - nextCheckNanos >= 0)
            {
                // come back after a failure even when nothing is offered, so that stats tell the truth
                ready(now);
            }
        }
        return work;
    }

    private boolean ready(final long now)
    {
        if (now - nextCheckNanos >= 0 || bytesSinceCheck >= SPACE_CHECK_INTERVAL_BYTES)
        {
            checkHealth(now);
        }
        return healthy;
    }

    private void checkHealth(final long now)
    {
        bytesSinceCheck = 0;
        final long free = dirFile.getUsableSpace();
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
        if (healthy && (headerWriterCount < 0))
        {
            try
            {
                writeHeader(now);
            }
            catch (final Throwable ex)
            {
                lastError = "journal " + dir + ": writing the journal header failed: " + describe(ex);
                fail(now);
            }
        }
    }

    private void fail(final long now)
    {
        closeAppender();
        healthy = false;
        headerWriterCount = -1;
        nextCheckNanos = now + RETRY_INTERVAL_NS;
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

    private void writeHeader(final long now)
    {
        final Writers writers = this.writers;
        final DocumentContext context = appender.writingDocument();
        try
        {
            final Bytes<?> bytes = context.wire().bytes();
            bytes.writeByte((byte)VERSION);
            bytes.writeByte((byte)HEADER_KIND_ID);
            bytes.writeShort((short)NO_WRITER);
            bytes.writeInt(nodeId);
            bytes.writeLong(now);
            bytes.writeLong(MAGIC);
            bytes.writeLong(epochClock.time());
            bytes.writeLong(now);
            bytes.writeInt(writers.names.length);
            bytes.writeInt(0);
            for (int i = 0; i < writers.names.length; i++)
            {
                bytes.writeShort((short)i);
                bytes.writeShort((short)writers.names[i].length);
                bytes.write(writers.names[i]);
            }
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
        headerCycle = appender.cycle();
        headerWriterCount = writers.names.length;
    }

    private void checkPlacement()
    {
        try
        {
            final BitSet now = Affinity.getAffinity();
            if (now.cardinality() == 1 && now.get(cpu))
            {
                pinnedCpu = cpu;
            }
            else
            {
                affinityError = "journal thread not pinned to cpu " + cpu + ": affinity is " + now;
            }
        }
        catch (final Throwable ex)
        {
            affinityError = "journal thread not pinned to cpu " + cpu + ": " + describe(ex);
        }
    }

    private static String describe(final Throwable ex)
    {
        final String message = ex.getMessage();
        final String text = ex.getClass().getSimpleName() + (message == null ? "" : ": " + message);
        return text.replace('\n', ' ');
    }

    private static void setPermissions(final File file)
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
