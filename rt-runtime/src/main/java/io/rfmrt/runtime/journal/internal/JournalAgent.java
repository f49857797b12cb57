package io.rfmrt.runtime.journal.internal;

import net.openhft.affinity.Affinity;
import net.openhft.chronicle.queue.RollCycle;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;


/**
 * The journal thread's duty cycle: drain every writer's ring in turn (at most {@link #BATCH_LIMIT} messages each per
 * cycle), write each message as one Chronicle Queue document, keep the accounting. Runs under an Agrona
 * {@code AgentRunner} with a backoff idle strategy; it is a housekeeping thread, not an RT one.
 *
 * <p>The writing itself is the {@link ChronicleSink}'s (appender, free-space floor, retries, headers) over the queue
 * {@link JournalFiles} opens (group-shared files). When the sink is not ready or a write fails, the records taken
 * from the rings are counted as write errors; the writers never see any of it. The thread is placed by its factory
 * (an {@code RtThreadFactory}); {@link #onStart()} only reads back where it runs.
 *
 * <p>Threading: {@link #onStart()}, {@link #doWork()}, {@link #onClose()} and {@link #onError} run on the journal
 * thread only; {@link #addWriter}, the getters and {@link #pause} may be called from any thread.
 */
public final class JournalAgent implements Agent, MessageHandler, ErrorHandler
{
    /** Most messages taken from one ring in one duty cycle, so that one busy writer cannot starve the others. */
    public static final int BATCH_LIMIT = 256;
    /** Longest time between two checks of the free disk space while writing. */
    public static final long SPACE_CHECK_INTERVAL_NS = ChronicleSink.SPACE_CHECK_INTERVAL_NS;
    /** Most bytes written between two checks of the free disk space. */
    public static final long SPACE_CHECK_INTERVAL_BYTES = ChronicleSink.SPACE_CHECK_INTERVAL_BYTES;
    /** Passes over the rings that find nothing to read before close gives up on a ring that is not empty. */
    public static final int CLOSE_PASSES_WITHOUT_WORK_MAX = 1000;
    /** Time between two attempts to write again after a failure or a full disk. */
    public static final long RETRY_INTERVAL_NS = ChronicleSink.RETRY_INTERVAL_NS;

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
    private final int cpu;
    private final NanoClock nanoClock;
    private final ChronicleSink sink;

    private final AtomicLong recordsWritten = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong writeErrors = new AtomicLong();
    private volatile int pinnedCpu = -1;
    private volatile String affinityError;
    private volatile boolean paused;
    private volatile Writers writers = new Writers(new OneToOneRingBuffer[0], new byte[0][]);
    private final CountDownLatch started = new CountDownLatch(1);

    // journal thread only
    private int currentWriterId;

    /**
     * Open the queue, on the calling thread, so that a folder that cannot hold one fails here.
     *
     * @param dir          existing, writable folder.
     * @param nodeId       written into every record.
     * @param rollCycle    Chronicle roll cycle.
     * @param cpu          cpu the journal thread should run on (its thread factory places it; checked), or -1.
     * @param minFreeBytes free-space floor of the folder's file system.
     * @param blockBytes   Chronicle's block size; the queue opens once the folder has room for a file of it.
     * @param nanoClock    clock of {@code journalNanos}.
     * @param epochClock   wall clock of the journal header.
     * @param layout       the node's channel layout for every journal header, UTF-8 YAML, empty for none.
     * @throws RuntimeException whatever Chronicle throws when it cannot open the queue.
     */
    public JournalAgent(
        final Path dir,
        final int nodeId,
        final RollCycle rollCycle,
        final int cpu,
        final long minFreeBytes,
        final long blockBytes,
        final NanoClock nanoClock,
        final EpochClock epochClock,
        final byte[] layout)
    {
        this.dir = dir;
        this.cpu = cpu;
        this.nanoClock = nanoClock;
        this.sink = new ChronicleSink(dir, () -> JournalFiles.open(dir, rollCycle, blockBytes),
            JournalFiles.fileBytes(blockBytes), nodeId, minFreeBytes, epochClock,
            layout);
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
        return sink.lastError();
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
            sink.checkHealth(nanoClock.nanoTime(), writers.names);
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
        sink.close();
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
        sink.lastError("journal " + dir + ": " + ChronicleSink.describe(throwable));
        sink.fail(nanoClock.nanoTime());
    }

    /**
     * Write one ring message as one record. Journal thread only.
     */
    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long now = nanoClock.nanoTime();
        final byte[][] names = writers.names;
        if (!sink.ready(now, names))
        {
            writeErrors.lazySet(writeErrors.get() + 1);
            return;
        }
        try
        {
            final int recordLength = sink.write(msgTypeId, currentWriterId, names, buffer, index, length, now);
            recordsWritten.lazySet(recordsWritten.get() + 1);
            bytesWritten.lazySet(bytesWritten.get() + recordLength);
        }
        catch (final Throwable ex)
        {
            writeErrors.lazySet(writeErrors.get() + 1);
            sink.lastError("journal " + dir + ": write failed: " + ChronicleSink.describe(ex));
            sink.fail(now);
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
            // come back after a failure even when nothing is offered, so that stats tell the truth
            sink.retryIfDue(nanoClock.nanoTime(), writers.names);
        }
        return work;
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
            affinityError = "journal thread not pinned to cpu " + cpu + ": " + ChronicleSink.describe(ex);
        }
    }
}
