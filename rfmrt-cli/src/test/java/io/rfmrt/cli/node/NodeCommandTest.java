package io.rfmrt.cli.node;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two nodes from the example configurations, in two processes, exchange frames; SIGTERM stops each one cleanly.
 */
class NodeCommandTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-node-test-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldExchangeFramesBetweenTwoNodesAndStopCleanlyOnSigterm(@TempDir final Path dir) throws Exception
    {
        for (final String name : List.of("layout.yaml", "node-1.yaml", "node-2.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
        }
        final Process one = cli("node", "--config", dir.resolve("node-1.yaml").toString());
        final Process two = cli("node", "--config", dir.resolve("node-2.yaml").toString());
        final StringBuilder outOneText = new StringBuilder();
        final StringBuilder outTwoText = new StringBuilder();
        final java.io.BufferedReader readOne = reader(one);
        final java.io.BufferedReader readTwo = reader(two);
        // each node prints its placement table, ending in a "process:" line, once its threads run
        awaitLine(readOne, "process:", outOneText);
        awaitLine(readTwo, "process:", outTwoText);
        awaitFramesHandled(1, 600);
        awaitFramesHandled(2, 600);
        // SIGTERM, as systemd stops a node (Process.destroy would also close our end of the pipes)
        one.toHandle().destroy();
        two.toHandle().destroy();
        final String outOne = outOneText + new String(one.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String outTwo = outTwoText + new String(two.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(one.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(two.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(one.exitValue()).as(outOne).isZero();
        assertThat(two.exitValue()).as(outTwo).isZero();
        assertThat(outOne).contains("node 1 on sim:lab1?node=1").contains("rfmrt-isr").endsWith("stopped\n");
        assertThat(outTwo).contains("node 2 on sim:lab1?node=2&dma=auto").endsWith("stopped\n");
        assertThat(outOne + outTwo).as("the example nodes' DMA rings hold a 100 ms stall").doesNotContain("DMA ring");

        assertThat(frames(dir.resolve("journal/node-1"))).as("command frames node 1 received").isGreaterThan(500);
        assertThat(frames(dir.resolve("journal/node-2"))).as("sensor frames node 2 received").isGreaterThan(500);

        // both released their node ids
        final StringWriter status = new StringWriter();
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        Main.run(new String[]{"rfm", "status", "--network", "lab1"}, new PrintWriter(status, true),
            new PrintWriter(new StringWriter(), true));
        assertThat(status.toString()).contains("link up").doesNotContain(" live ");
    }

    @Test
    void shouldWarnOnceAndStaySilentWithTheHeartbeatOff(@TempDir final Path dir) throws Exception
    {
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
        // cpu 4095 is online nowhere: a permissive node refuses the pinning, warns and runs the thread unpinned
        Files.writeString(dir.resolve("quiet.yaml"), "device: sim:lab1?node=2\nlayout: layout.yaml\n" +
            "receive: {channels: [sensor]}\nthreads:\n  isr: {cpu: 4095}\n  lockMemory: false\n" +
            "journal: {enabled: false}\nheartbeat: 0\n");
        final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, "node", "--config",
            dir.resolve("quiet.yaml").toString(), "--seconds", "2");
        final java.util.concurrent.CompletableFuture<String> stderr = java.util.concurrent.CompletableFuture
            .supplyAsync(() -> readAll(node.getErrorStream()));
        final String stdout = readAll(node.getInputStream());
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final String all = stdout + stderr.get(30, TimeUnit.SECONDS);
        assertThat(node.exitValue()).as(all).isZero();
        assertThat(all.lines().filter(l -> l.contains("pinning rfmrt-isr to cpu 4095 refused")))
            .as(all).containsExactly("warning: pinning rfmrt-isr to cpu 4095 refused (not online; online " +
                onlineCpus() + "): running unpinned");
        assertThat(all.lines().filter(l -> l.contains("| card"))).as("heartbeat lines").isEmpty();
        // the card's DMA ring of the URI's default 64 slots: less than 100 ms at the default 1000 frames/s
        assertThat(all.lines().filter(l -> l.contains("DMA ring"))).as(all).containsExactly("warning: the DMA ring " +
            "of 64 slots holds 64.0 ms at receive.rateHz 1000, less than a 100 ms stall: give the device URI " +
            "dmaSlots=128 or more");
        assertThat(stdout).endsWith("stopped\n");
    }

    private static String onlineCpus() throws IOException
    {
        return Files.readString(Path.of("/sys/devices/system/cpu/online")).trim();
    }

    private static String readAll(final java.io.InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    @Test
    void shouldRefuseABadConfigurationInOneLine(@TempDir final Path dir) throws Exception
    {
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
        Files.writeString(dir.resolve("bad.yaml"), "device: sim:lab1?node=2\nlayout: layout.yaml\n" +
            "threads:\n  isr: {priority: 120}\n");
        final StringWriter err = new StringWriter();
        final int exit = Main.run(new String[]{"node", "--config", dir.resolve("bad.yaml").toString()},
            new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("rfmrt: " + dir.resolve("bad.yaml") +
            ": threads.isr.priority 120 is not 0..99" + System.lineSeparator());
    }

    @Test
    void shouldValidateAConfigurationWithoutStartingTheNode(@TempDir final Path dir) throws Exception
    {
        for (final String name : List.of("layout.yaml", "node-2.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
        }
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = Main.run(new String[]{"node", "--check-config", "--config",
            dir.resolve("node-2.yaml").toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).isEqualTo("rfmrt node: " + dir.resolve("node-2.yaml") +
            " is valid (device sim:lab1?node=2&dma=auto&dmaSlots=2048&dmaSlotSize=128)" + System.lineSeparator());
        assertThat(simRoot).as("no network joined").doesNotExist();
        assertThat(dir.resolve("journal")).as("no journal opened").doesNotExist();

        Files.writeString(dir.resolve("bad.yaml"), "device: sim:lab1?node=2\nlayout: missing.yaml\n");
        final StringWriter badErr = new StringWriter();
        assertThat(Main.run(new String[]{"node", "--check-config", "--config", dir.resolve("bad.yaml").toString()},
            new PrintWriter(new StringWriter(), true), new PrintWriter(badErr, true))).isEqualTo(2);
        assertThat(badErr.toString()).startsWith("rfmrt: " + dir.resolve("bad.yaml") + ": ").contains("layout")
            .doesNotContain("Exception");
    }

    /**
     * Waits, with a bound, until node N of network lab1 has handled at least that many frames, read from its
     * counters file as {@code rfmrt stat} reads it.
     */
    private long awaitFramesHandled(final int node, final long atLeast) throws InterruptedException
    {
        final Path file = simRoot.resolve("lab1").resolve("node-" + node + NodeCounters.FILE_SUFFIX);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long handled = -1;
        while (System.nanoTime() < deadline)
        {
            try
            {
                handled = CountersSnapshot.read(file).value(RuntimeCounter.FRAMES_HANDLED.id());
                if (handled >= atLeast)
                {
                    return handled;
                }
            }
            catch (final RuntimeException notYet)
            {
                // not made yet, or being replaced by a restarted node
            }
            Thread.sleep(20);
        }
        throw new AssertionError("node " + node + " handled " + handled + " frames in 60 s, not " + atLeast);
    }

    private static java.io.BufferedReader reader(final Process process)
    {
        return new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8));
    }

    private static void awaitLine(final java.io.BufferedReader reader, final String prefix, final StringBuilder seen)
        throws IOException
    {
        String line;
        while ((line = reader.readLine()) != null)
        {
            seen.append(line).append('\n');
            if (line.startsWith(prefix))
            {
                return;
            }
        }
        throw new AssertionError("node ended before printing '" + prefix + "': " + seen);
    }

    @Test
    void shouldHearAPublisherRestartedAfterKillAtOnce(@TempDir final Path dir) throws Exception
    {
        for (final String name : List.of("layout.yaml", "node-1.yaml", "node-2.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
        }
        final Process two = cli("node", "--config", dir.resolve("node-2.yaml").toString());
        final java.io.BufferedReader readTwo = reader(two);
        awaitLine(readTwo, "process:", new StringBuilder());
        final Process first = cli("node", "--config", dir.resolve("node-1.yaml").toString());
        awaitLine(reader(first), "process:", new StringBuilder());
        final long beforeKill = awaitFramesHandled(2, 100);
        // SIGKILL: no shutdown at all, its claim and its last frames stay in the shared memory
        first.destroyForcibly();
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        final Process again = cli("node", "--config", dir.resolve("node-1.yaml").toString());
        awaitLine(reader(again), "process:", new StringBuilder());
        awaitFramesHandled(2, beforeKill + 100);
        again.toHandle().destroy();
        two.toHandle().destroy();
        assertThat(again.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(two.waitFor(30, TimeUnit.SECONDS)).isTrue();

        long restarts = 0;
        long stale = 0;
        long maxSeqBefore = 0;
        long framesAfter = 0;
        long firstSeqAfter = -1;
        try (JournalReader reader = JournalReader.open(dir.resolve("journal/node-2")))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FAULT && record.code() ==
                    io.rfmrt.runtime.journal.JournalCodes.FAULT_PUBLISHER_RESTART)
                {
                    restarts++;
                    assertThat(record.value()).as("source").isEqualTo(1);
                }
                else if (record.kind() == RecordKind.FAULT && record.code() ==
                    io.rfmrt.rfm.channel.FrameStatus.STALE.id())
                {
                    stale++;
                }
                else if (record.kind() == RecordKind.FRAME && record.source() == 1)
                {
                    if (restarts == 0)
                    {
                        maxSeqBefore = Math.max(maxSeqBefore, record.seq());
                    }
                    else
                    {
                        firstSeqAfter = firstSeqAfter < 0 ? record.seq() : firstSeqAfter;
                        framesAfter++;
                    }
                }
            }
        }
        assertThat(maxSeqBefore).as("frames of the first run").isGreaterThan(1);
        assertThat(restarts).as("publisher restarts journalled").isEqualTo(1);
        assertThat(firstSeqAfter).as("the restarted publisher's first frame is taken").isEqualTo(1);
        assertThat(framesAfter).as("frames of the second run").isGreaterThan(1);
        assertThat(stale).as("no frame of the new run refused as stale").isZero();
    }

    private static long frames(final Path journal)
    {
        long frames = 0;
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FRAME)
                {
                    frames++;
                }
            }
        }
        return frames;
    }

    private Process cli(final String... args) throws IOException
    {
        return CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, args);
    }
}
