package io.rfmrt.runtime.journal;

import io.rfmrt.runtime.journal.internal.ChronicleSupport;
import io.rfmrt.runtime.journal.internal.JournalAgent;
import io.rfmrt.runtime.journal.internal.JournalFiles;
import io.rfmrt.runtime.journal.internal.JournalFolderLock;
import io.rfmrt.runtime.journal.internal.JournalRecordDescriptor;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;

/**
 * The journal of one node: records from the hot path go through one preallocated SPSC ring per producing thread
 * ({@link JournalWriter}) to a daemon thread {@code "rfmrt-journal"}, which writes them as binary records into a
 * Chronicle Queue in {@link JournalConfig#dir()}, rolling files per {@link JournalConfig#rollCycle()}. Read them back
 * with {@link JournalReader}.
 *
 * <p>The hot path never waits: a full ring is a counted drop in the writer, a failing or full disk is counted in
 * {@link JournalStats#writeErrors()} and described in {@link JournalStats#lastError()}. No record is lost without
 * being counted. The journal thread writes nothing while the journal folder's file system has less than
 * {@link #MIN_FREE_BYTES_DEFAULT} free (system property {@value #MIN_FREE_BYTES_PROP_NAME}): Chronicle writes
 * through memory mappings, and a mapping that the disk cannot back kills the writing thread with {@code SIGBUS}.
 *
 * <p>Threading: {@link #start}, {@link #newWriter}, {@link #stats} and {@link #close} may be called from any thread;
 * each {@link JournalWriter} belongs to one producing thread. Chronicle's analytics are turned off before any
 * Chronicle class loads, unless {@code chronicle.analytics.disable} is already set.
 */
public final class Journal implements AutoCloseable
{
    /** System property: free bytes the journal's file system must keep, or the journal stops writing. */
    public static final String MIN_FREE_BYTES_PROP_NAME = "rfmrt.journal.minFreeBytes";
    /** Default of {@value #MIN_FREE_BYTES_PROP_NAME}: 16 MiB. */
    public static final long MIN_FREE_BYTES_DEFAULT = 16L << 20;
    /** System property: Chronicle's block size for journal files; a new file takes 1.25 times it. */
    public static final String BLOCK_BYTES_PROP_NAME = "rfmrt.journal.blockBytes";
    /** Default of {@value #BLOCK_BYTES_PROP_NAME}: 64 MiB, a new file of 80 MiB. */
    public static final long BLOCK_BYTES_DEFAULT = JournalFiles.BLOCK_BYTES_DEFAULT;
    /** Name of the journal thread. */
    public static final String THREAD_NAME = "rfmrt-journal";

    static final long IDLE_MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    static final int CLOSE_TIMEOUT_MS = 10_000;
    static final int START_TIMEOUT_MS = 10_000;

    private static final Set<PosixFilePermission> DIR_PERMISSIONS = PosixFilePermissions.fromString("rwxrwx---");

    static
    {
        ChronicleSupport.init();
    }

    /** Unplaced daemon threads: where the scheduler puts them. */
    private static final ThreadFactory DAEMON_THREADS = runnable ->
    {
        final Thread thread = new Thread(runnable, THREAD_NAME);
        thread.setDaemon(true);
        return thread;
    };

    private final JournalConfig config;
    private final JournalAgent agent;
    private final AgentRunner runner;
    private final JournalFolderLock folderLock;
    private final List<JournalWriter> writers = new ArrayList<>();
    private boolean closed;

    private Journal(final JournalConfig config, final JournalAgent agent, final JournalFolderLock folderLock)
    {
        this.config = config;
        this.agent = agent;
        this.folderLock = folderLock;
        // a housekeeping thread: it naps a whole millisecond when idle (the rings hold many milliseconds of
        // records); spinning or short parks after every record cost a fifth of a core at 1 kHz on a VM
        final IdleStrategy idle = new SleepingIdleStrategy(IDLE_MAX_PARK_NS);
        this.runner = new AgentRunner(idle, agent, null, agent);
    }

    /**
     * Turn Chronicle's usage analytics off (unless the property is set already) before any Chronicle class loads.
     * For code that uses Chronicle Queue itself beside a journal (the benchmarks); the journal calls it on its own.
     */
    public static void initChronicle()
    {
        ChronicleSupport.init();
    }

    /**
     * Create the folder when missing (0770), open the queue and start the journal thread; return once the thread
     * runs (pinned, when asked) and has written the journal header (or counted why it could not).
     *
     * @param config settings; validated here.
     * @return the running journal.
     * @throws IllegalArgumentException when the config is invalid.
     * @throws JournalException         when the folder cannot be made or cannot hold a queue (names the folder).
     */
    public static Journal start(final JournalConfig config)
    {
        return start(config, DAEMON_THREADS);
    }

    /**
     * As {@link #start(JournalConfig)}, the journal thread made by {@code threads}: the thread factory that places
     * it (e.g. {@code RtEnvironment.threadFactory(housekeepingCpu, 0)}). The journal does not pin itself; it reads
     * back where its thread runs and reports a thread that is not on {@link JournalConfig#cpu()} in
     * {@link JournalStats#affinityError()}.
     *
     * @param config  settings; validated here.
     * @param threads makes the journal thread.
     * @return the running journal.
     */
    public static Journal start(final JournalConfig config, final ThreadFactory threads)
    {
        return start(config, Long.getLong(MIN_FREE_BYTES_PROP_NAME, MIN_FREE_BYTES_DEFAULT), threads);
    }

    static Journal start(final JournalConfig config, final long minFreeBytes)
    {
        return start(config, minFreeBytes, DAEMON_THREADS);
    }

    static Journal start(final JournalConfig config, final long minFreeBytes, final long blockBytes)
    {
        return start(config, minFreeBytes, blockBytes, DAEMON_THREADS);
    }

    static Journal start(final JournalConfig config, final long minFreeBytes, final ThreadFactory threads)
    {
        return start(config, minFreeBytes, blockBytes(), threads);
    }

    /**
     * @return {@value #BLOCK_BYTES_PROP_NAME}, checked.
     * @throws IllegalArgumentException naming the property and its value when it is not a power of two from 64 KiB
     *                                  to 1 GiB.
     */
    public static long blockBytes()
    {
        final long bytes = Long.getLong(BLOCK_BYTES_PROP_NAME, BLOCK_BYTES_DEFAULT);
        if (Long.bitCount(bytes) != 1 || bytes < JournalFiles.BLOCK_BYTES_MIN || bytes > JournalFiles.BLOCK_BYTES_MAX)
        {
            throw new IllegalArgumentException(BLOCK_BYTES_PROP_NAME + " " + bytes + " is not a power of two from " +
                JournalFiles.BLOCK_BYTES_MIN + " to " + JournalFiles.BLOCK_BYTES_MAX);
        }
        return bytes;
    }

    static Journal start(final JournalConfig config, final long minFreeBytes, final long blockBytes,
        final ThreadFactory threads)
    {
        return start(config, minFreeBytes, blockBytes, threads, SystemNanoClock.INSTANCE, SystemEpochClock.INSTANCE);
    }

    /**
     * As {@link #start(JournalConfig)}, every time the journal writes (its records' {@code journalNanos}, its
     * headers' clock pairing) read from the clocks given: a journal written with fixed clocks is the same bytes on
     * every run.
     */
    static Journal start(final JournalConfig config, final NanoClock nanoClock, final EpochClock epochClock)
    {
        return start(config, Long.getLong(MIN_FREE_BYTES_PROP_NAME, MIN_FREE_BYTES_DEFAULT), blockBytes(),
            DAEMON_THREADS, nanoClock, epochClock);
    }

    private static Journal start(final JournalConfig config, final long minFreeBytes, final long blockBytes,
        final ThreadFactory threads, final NanoClock nanoClock, final EpochClock epochClock)
    {
        config.validate();
        final Path dir = config.dir();
        final String problem = folderProblem(dir);
        if (problem != null)
        {
            throw new JournalException("journal dir " + problem);
        }
        createDirectories(dir);
        if (!Files.isWritable(dir))
        {
            throw new JournalException("journal dir " + dir + " is not writable");
        }
        // one journal per folder: a second node journaling here is refused, not interleaved with this one
        final JournalFolderLock folderLock = JournalFolderLock.acquire(dir);
        final JournalAgent agent;
        try
        {
            agent = new JournalAgent(
                dir,
                config.nodeId(),
                ChronicleSupport.rollCycle(config.rollCycle()),
                config.cpu(),
                minFreeBytes,
                blockBytes,
                nanoClock,
                epochClock,
                config.layoutBytes());
        }
        catch (final RuntimeException | Error ex)
        {
            folderLock.close();
            throw new JournalException("cannot open a journal in " + dir + ": " + oneLine(ex), ex);
        }
        final Journal journal = new Journal(config, agent, folderLock);
        AgentRunner.startOnThread(journal.runner, threads);
        journal.awaitStarted();
        return journal;
    }

    /**
     * Make the writer for one producing thread, with its own ring of {@link JournalConfig#ringCapacityBytes()}.
     * Call before the hot path starts: this allocates.
     *
     * @param name 1-64 printable US-ASCII characters, unique in this journal; recorded in the journal.
     * @return the writer.
     * @throws IllegalArgumentException when the name is bad or taken.
     * @throws IllegalStateException    when the journal is closed or has the most writers it can have.
     */
    public synchronized JournalWriter newWriter(final String name)
    {
        checkWriterName(name);
        if (closed)
        {
            throw new IllegalStateException("journal " + config.dir() + " is closed");
        }
        if (writers.size() >= JournalRecordDescriptor.MAX_WRITERS)
        {
            throw new IllegalStateException("journal " + config.dir() + " has " + writers.size() + " writers already");
        }
        for (final JournalWriter writer : writers)
        {
            if (writer.name().equals(name))
            {
                throw new IllegalArgumentException("journal writer name " + name + " is taken");
            }
        }
        final int length = config.ringCapacityBytes() + RingBufferDescriptor.TRAILER_LENGTH;
        final OneToOneRingBuffer ring = new OneToOneRingBuffer(
            new UnsafeBuffer(BufferUtil.allocateDirectAligned(length, CACHE_LINE_LENGTH)));
        final int id = agent.addWriter(ring, name);
        final JournalWriter writer = new JournalWriter(name, id, ring);
        writers.add(writer);
        return writer;
    }

    /**
     * @return a snapshot of the accounting. Any thread; allocates.
     */
    public JournalStats stats()
    {
        final List<JournalWriter> writers;
        synchronized (this)
        {
            writers = new ArrayList<>(this.writers);
        }
        final Map<String, Long> dropped = new LinkedHashMap<>();
        long droppedSum = 0;
        for (final JournalWriter writer : writers)
        {
            final long count = writer.dropped();
            dropped.put(writer.name(), count);
            droppedSum += count;
        }
        return new JournalStats(
            agent.recordsWritten(),
            agent.bytesWritten(),
            droppedSum,
            Collections.unmodifiableMap(dropped),
            agent.writeErrors(),
            agent.lastError(),
            agent.pinnedCpu(),
            agent.affinityError());
    }

    /**
     * @return the settings this journal runs with.
     */
    public JournalConfig config()
    {
        return config;
    }

    /**
     * Stop taking records (writers then count drops), drain every ring, write, close the queue and stop the thread.
     * Idempotent. Records that a producer offers while close runs are dropped and counted, or written; stop the
     * producing threads first to have every record of theirs accounted for in one place.
     */
    @Override
    public void close()
    {
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            for (final JournalWriter writer : writers)
            {
                writer.close();
            }
        }
        runner.close(CLOSE_TIMEOUT_MS, thread ->
        {
            // the runner interrupts the thread and waits again
        });
        folderLock.close();
    }

    /**
     * Whether another journal writes to a folder now ({@link JournalFolderLock}), found without making anything: a
     * node asks before it opens anything, {@link #start} refuses it for good.
     *
     * @param dir the journal folder.
     * @return null when none does, else the folder and the holder, e.g. {@code "j is in use by another node's journal
     *         (pid 4242)"}.
     */
    public static String folderInUse(final Path dir)
    {
        final String holder = JournalFolderLock.holder(dir);
        return holder == null ? null : dir + " " + holder;
    }

    /**
     * Test hook: the journal thread stops draining the rings until {@link #resumeForTest()} (or close).
     */
    void pauseForTest()
    {
        agent.pause(true);
    }

    /**
     * Test hook: undo {@link #pauseForTest()}.
     */
    void resumeForTest()
    {
        agent.pause(false);
    }

    private void awaitStarted()
    {
        boolean started = false;
        try
        {
            started = agent.awaitStarted(START_TIMEOUT_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        if (!started)
        {
            close();
            throw new JournalException("journal thread for " + config.dir() + " did not start within " +
                START_TIMEOUT_MS + " ms");
        }
    }

    private static void checkWriterName(final String name)
    {
        if (name == null || name.isEmpty() || name.length() > JournalRecordDescriptor.MAX_WRITER_NAME_LENGTH)
        {
            throw new IllegalArgumentException("journal writer name " + name + " is not 1-" +
                JournalRecordDescriptor.MAX_WRITER_NAME_LENGTH + " characters");
        }
        for (int i = 0; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c < 0x20 || c > 0x7E)
            {
                throw new IllegalArgumentException("journal writer name " + name +
                    " has a character that is not printable US-ASCII at " + i);
            }
        }
    }

    /**
     * Whether a journal can be kept in a folder, found without making anything: the folder is a writable folder, or
     * the nearest part of its path that exists is one (the start makes the rest). The node's start and
     * {@code rfmrt node --check-config} ask this before anything is made; {@link #start} asks it again.
     *
     * @param dir the journal folder.
     * @return null when it can be used, else the folder and why not, e.g. {@code "/proc/1 is not writable"} or
     *         {@code "/proc/1/j: /proc/1 is not writable"}.
     */
    public static String folderProblem(final Path dir)
    {
        final Path absolute = dir.toAbsolutePath().normalize();
        if (Files.exists(absolute))
        {
            return !Files.isDirectory(absolute) ? dir + " is not a folder" :
                !Files.isWritable(absolute) ? dir + " is not writable" : null;
        }
        Path existing = absolute.getParent();
        while (existing != null && !Files.exists(existing))
        {
            existing = existing.getParent();
        }
        if (existing == null)
        {
            return null;
        }
        return !Files.isDirectory(existing) ? dir + ": " + existing + " is not a folder" :
            !Files.isWritable(existing) ? dir + ": " + existing + " is not writable" : null;
    }

    private static void createDirectories(final Path dir)
    {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir))
        {
            throw new JournalException("journal dir " + dir + " is not a folder");
        }
        try
        {
            final Path absolute = dir.toAbsolutePath();
            final Path parent = absolute.getParent();
            if (parent != null && !Files.isDirectory(parent))
            {
                if (Files.exists(parent))
                {
                    throw new JournalException("journal dir " + dir + ": " + parent + " is not a folder");
                }
                createDirectories(parent);
            }
            if (!Files.isDirectory(absolute))
            {
                try
                {
                    Files.createDirectory(absolute);
                    Files.setPosixFilePermissions(absolute, DIR_PERMISSIONS);
                }
                catch (final FileAlreadyExistsException ignore)
                {
                    // made by someone else meanwhile; checked below
                }
            }
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new JournalException("cannot create journal dir " + dir + ": " + oneLine(ex), ex);
        }
        if (!Files.isDirectory(dir))
        {
            throw new JournalException("journal dir " + dir + " is not a folder");
        }
    }

    static String oneLine(final Throwable ex)
    {
        final String message = ex.getMessage();
        return (message == null ? ex.getClass().getSimpleName() : message).replace('\n', ' ');
    }
}
