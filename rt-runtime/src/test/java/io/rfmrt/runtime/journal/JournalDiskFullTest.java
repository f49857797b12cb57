package io.rfmrt.runtime.journal;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A journal on a file system that fills up: the writers go on without waiting, the journal counts what it cannot
 * write, says why, and closes. Needs root to mount a 2 MiB tmpfs; skipped elsewhere.
 */
class JournalDiskFullTest
{
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(15);
    private static final int PAYLOAD = 200;

    @TempDir
    Path temp;

    private Path mount;
    private boolean mounted;

    @BeforeEach
    void mountTinyTmpfs() throws Exception
    {
        assumeTrue(isRoot(), "needs root to mount a tmpfs");
        mount = temp.resolve("tiny");
        Files.createDirectories(mount);
        mounted = run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount.toString()) == 0;
        assumeTrue(mounted, "mount -t tmpfs works here");
    }

    @AfterEach
    void unmount() throws Exception
    {
        if (mounted)
        {
            if (run("umount", mount.toString()) != 0)
            {
                run("umount", "-l", mount.toString());
            }
        }
    }

    /** Blocks small enough for a queue file on the 2 MiB tmpfs. */
    private static final long SMALL_BLOCK_BYTES = 256 * 1024;

    @Test
    void shouldCountRecordsAsWriteErrorsBelowTheFreeSpaceFloor() throws Exception
    {
        final Path dir = mount.resolve("journal");
        final Journal journal = Journal.start(JournalConfig.of(dir, 1), 512 * 1024, SMALL_BLOCK_BYTES);
        final JournalWriter writer = journal.newWriter("isr");
        final long offered = writeUntilErrors(journal, writer);
        closeWithin(journal);

        final JournalStats stats = journal.stats();
        assertThat(stats.writeErrors()).isPositive();
        assertThat(stats.lastError()).startsWith("journal " + dir + ": disk full: ").contains("floor of 524288");
        assertThat(stats.recordsWritten()).isPositive();
        assertThat(stats.recordsWritten() + stats.droppedRingFull() + stats.writeErrors()).isEqualTo(offered);

        // what was written reads back, up to a clean end
        long read = 0;
        try (JournalReader reader = JournalReader.open(dir))
        {
            final JournalRecord record = new JournalRecord();
            long lastSeq = -1;
            while (reader.next(record))
            {
                assertThat(record.seq()).isGreaterThan(lastSeq);
                assertThat(record.payloadLength()).isEqualTo(PAYLOAD);
                lastSeq = record.seq();
                read++;
            }
        }
        assertThat(read).isEqualTo(stats.recordsWritten());
    }

    @Test
    void shouldSurviveChronicleFailingOnAFullDisk() throws Exception
    {
        // no floor: Chronicle writes until the tmpfs cannot back its mapping (SIGBUS, turned into an InternalError)
        final Path dir = mount.resolve("journal");
        final Journal journal = Journal.start(JournalConfig.of(dir, 1), 0, SMALL_BLOCK_BYTES);
        final JournalWriter writer = journal.newWriter("isr");
        final long offered = writeUntilErrors(journal, writer);
        closeWithin(journal);

        final JournalStats stats = journal.stats();
        assertThat(stats.writeErrors()).isPositive();
        assertThat(stats.lastError()).startsWith("journal " + dir + ": ");
        assertThat(stats.recordsWritten()).isPositive();
        assertThat(stats.recordsWritten() + stats.droppedRingFull() + stats.writeErrors())
            .isBetween(offered - 1, offered);
    }

    @Test
    void shouldCountEveryRecordAsLostWhenTheFolderHasNoRoomForTheFirstFile() throws Exception
    {
        // the default block: a new file takes 80 MiB, and with memory locked all of it at once
        final Path dir = mount.resolve("journal");
        final Journal journal = Journal.start(JournalConfig.of(dir, 1), 512 * 1024);
        final JournalWriter writer = journal.newWriter("isr");
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);
        for (int i = 0; i < 1000; i++)
        {
            writer.frame(i, 2, 0, 0, 1, 2, 3, 4, 5, payload, 0, PAYLOAD);
        }
        closeWithin(journal);

        final JournalStats stats = journal.stats();
        assertThat(stats.recordsWritten()).isZero();
        assertThat(stats.recordsWritten() + stats.droppedRingFull() + stats.writeErrors()).isEqualTo(1000);
        assertThat(stats.lastError()).matches("journal " + java.util.regex.Pattern.quote(dir.toString()) +
            ": no space for its file: it needs 84,410,368 bytes free \\(a file of 83,886,080 and the floor of " +
            "524,288\\), [0-9,]+ are free; records are dropped \\(counted as write errors\\) until space returns");
        try (java.util.stream.Stream<Path> files = Files.list(dir))
        {
            // the folder's lock file, which holds a pid, is all there is
            assertThat(files.filter(f -> !f.getFileName().toString().equals(
                io.rfmrt.runtime.journal.internal.JournalFolderLock.FILE))).as("no queue file was mapped").isEmpty();
        }
    }

    /**
     * Offer frames until the journal reports write errors, and 20,000 more; every call must return. No AssertJ
     * while writing.
     *
     * @return records offered.
     */
    private static long writeUntilErrors(final Journal journal, final JournalWriter writer)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);
        final long start = System.nanoTime();
        long offered = 0;
        long extra = -1;
        while (extra != 0)
        {
            if (System.nanoTime() - start > DEADLINE_NS)
            {
                throw new AssertionError("no write error after " + offered + " records: " + journal.stats());
            }
            payload.putLong(0, offered);
            writer.frame(offered, 2, 0, 0, 1, 2, 3, 4, 5, payload, 0, PAYLOAD);
            offered++;
            if (extra > 0)
            {
                extra--;
            }
            else if (extra < 0 && (offered & 255) == 0)
            {
                if (journal.stats().writeErrors() > 0)
                {
                    extra = 20_000;
                }
                else
                {
                    // let the journal thread keep up, so that the disk fills rather than the ring
                    Thread.yield();
                }
            }
        }
        return offered;
    }

    private static void closeWithin(final Journal journal) throws InterruptedException
    {
        final Thread closer = new Thread(journal::close, "closer");
        closer.start();
        closer.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NS));
        assertThat(closer.isAlive()).as("close() still running").isFalse();
    }

    private static boolean isRoot()
    {
        try
        {
            final Process id = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            final String out = new String(id.getInputStream().readAllBytes()).trim();
            return id.waitFor() == 0 && "0".equals(out);
        }
        catch (final IOException | InterruptedException ex)
        {
            return false;
        }
    }

    private static int run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        if (!process.waitFor(10, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }
}
