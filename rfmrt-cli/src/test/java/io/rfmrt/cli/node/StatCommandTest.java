package io.rfmrt.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.runtime.counters.CountersFileDescriptor;
import io.rfmrt.runtime.counters.NodeCounters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * {@code rfmrt stat} reads the counters files of nodes running in other processes: text, JSON and --watch; a node
 * killed leaves its file, a node stopped removes it, a damaged file is refused in one line.
 */
class StatCommandTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-stat-test-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldShowTheCountersAndErrorsOfNodesRunningInOtherProcesses(@TempDir final Path dir) throws Exception
    {
        for (final String name : List.of("layout.yaml", "node-1.yaml", "node-2.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
        }
        final Process one = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
            dir.resolve("node-1.yaml").toString());
        final Process two = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
            dir.resolve("node-2.yaml").toString());
        try
        {
            CliProcesses.awaitLine(one, "process:");
            CliProcesses.awaitLine(two, "process:");
            // the card's counters and the channels' lines come with the nodes' heartbeats: wait for both nodes'
            // (bounded), not for a fixed time that a loaded machine may not give them
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!running(simRoot, 500) && System.nanoTime() < deadline)
            {
                Thread.sleep(100);
            }
            final CliRun text = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1");
            assertThat(text.exit()).as(text.err()).isZero();
            assertThat(text.out())
                .contains("node 1 of lab1: pid " + one.pid() + " running, sim:lab1?node=1&dmaSlots=2048&dmaSlotSize=128, started ")
                .contains("node 2 of lab1: pid " + two.pid() + " running, sim:lab1?node=2&dma=auto&dmaSlots=2048&dmaSlotSize=128, started ")
                .contains(" - frames handled", " - card: FIFO overflows", " - journal records written",
                    " - sensor (node 1): frames", " - command (node 2): frames")
                .contains("  errors: none")
                .doesNotContain("reserved");

            final CliRun json = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1", "--node", "2",
                "--json");
            assertThat(json.exit()).as(json.err()).isZero();
            final JsonNode all = new ObjectMapper().readTree(json.out());
            assertThat(all.get("nodes")).hasSize(1);
            final JsonNode node = all.get("nodes").get(0);
            assertThat(node.get("node").asInt()).isEqualTo(2);
            assertThat(node.get("pid").asLong()).isEqualTo(two.pid());
            assertThat(node.get("alive").asBoolean()).isTrue();
            assertThat(node.get("channels").asInt()).isEqualTo(1);
            final long handled = counter(node, 1);
            assertThat(handled).as("frames handled by node 2").isGreaterThan(500);
            // the node runs on between the two counters' reads: a frame is counted on its channel when it arrives,
            // handled after, and the channel's counter is read second
            assertThat(counter(node, 80)).as("sensor frames of node 2").isBetween(handled, handled + 1_000);
            assertThat(counter(node, 33)).as("events its card received").isGreaterThan(500);
            assertThat(node.get("errors")).isEmpty();

            // --watch in its own process: one JSON line per reading, later readings count on
            final Process watch = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "stat", "--network",
                "lab1", "--node", "2", "--watch", "300ms", "--json");
            final BufferedReader lines = new BufferedReader(new InputStreamReader(watch.getInputStream(),
                StandardCharsets.UTF_8));
            final JsonNode first = new ObjectMapper().readTree(lines.readLine());
            final JsonNode second = new ObjectMapper().readTree(lines.readLine());
            watch.destroy();
            assertThat(watch.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(counter(second.get("nodes").get(0), 1)).isGreaterThan(counter(first.get("nodes").get(0), 1));

            // a killed node leaves its file for post-mortem
            one.destroyForcibly();
            assertThat(one.waitFor(30, TimeUnit.SECONDS)).isTrue();
            final CliRun dead = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1", "--node", "1");
            assertThat(dead.exit()).as(dead.err()).isZero();
            assertThat(dead.out()).contains("node 1 of lab1: pid " + one.pid() + " not running (left by a crash)");

            // a damaged file is refused in one line, naming it
            final Path bad = simRoot.resolve("lab1").resolve("node-7.counters");
            Files.write(bad, new byte[4096]);
            final CliRun refused = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1");
            assertThat(refused.exit()).isEqualTo(ExitCodes.ERROR);
            assertThat(refused.err()).isEqualTo("rfmrt: counters file " + bad +
                " is not a counters file (no rfmrtCNT magic)\n");
            Files.delete(bad);

            // an orderly stop removes the file
            two.destroy();
            assertThat(two.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(two.exitValue()).isZero();
            final CliRun gone = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1", "--node", "2");
            assertThat(gone.exit()).isEqualTo(ExitCodes.ERROR);
            assertThat(gone.err()).isEqualTo("rfmrt: no counters file " + simRoot.resolve("lab1/node-2.counters") +
                " (the node is not running, or runs an rfmrt without counters files)\n");

            // the killed node's file is the network's: destroy removes it with the rest
            assertThat(simRoot.resolve("lab1/node-1.counters")).exists();
            final CliRun destroy = CliRun.of("rfm", "destroy", "--root", simRoot.toString(), "--network", "lab1");
            assertThat(destroy.exit()).as(destroy.out() + destroy.err()).isZero();
            assertThat(simRoot.resolve("lab1")).doesNotExist();
        }
        finally
        {
            one.destroyForcibly();
            two.destroyForcibly();
            one.waitFor(30, TimeUnit.SECONDS);
            two.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldShowEveryReadableNodeAndNameEachUnreadableFileWithoutOpeningAFifo() throws Exception
    {
        final Path net = simRoot.resolve("statbad");
        Files.createDirectories(net);
        try (NodeCounters live = NodeCounters.create(net.resolve(NodeCounters.fileName(3)), 3, "sim:statbad?node=3",
            List.of()))
        {
            Files.createFile(net.resolve(NodeCounters.fileName(5)));
            final Process mkfifo = new ProcessBuilder("mkfifo", net.resolve(NodeCounters.fileName(12)).toString())
                .start();
            assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(mkfifo.exitValue()).isZero();

            final CliRun text = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> CliRun.of("stat", "--root", simRoot.toString(), "--network", "statbad"));
            assertThat(text.out()).contains("node 3 of statbad: pid " + ProcessHandle.current().pid() + " running");
            assertThat(text.err().lines().toList()).containsExactly(
                "rfmrt: counters file " + net.resolve("node-5.counters") + " is 0 bytes, shorter than the " +
                    CountersFileDescriptor.HEADER_LENGTH + "-byte header",
                "rfmrt: counters file " + net.resolve("node-12.counters") + " is not a regular file (a FIFO, " +
                    "device or folder)");
            assertThat(text.exit()).isEqualTo(ExitCodes.ERROR);

            final CliRun all = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> CliRun.of("stat", "--root", simRoot.toString(), "--json"));
            final JsonNode json = new ObjectMapper().readTree(all.out());
            assertThat(json.get("nodes")).hasSize(1);
            assertThat(json.get("nodes").get(0).get("node").asInt()).isEqualTo(3);
            assertThat(json.get("unreadable")).hasSize(2);
            assertThat(all.err().lines()).hasSize(2);
        }
    }

    @Test
    void shouldRefuseNodeWithoutNetworkAndAnEmptyNetwork()
    {
        final CliRun usage = CliRun.of("stat", "--root", simRoot.toString(), "--node", "2");
        assertThat(usage.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(usage.err()).isEqualTo("rfmrt: --node needs --network\n");
        final CliRun none = CliRun.of("stat", "--root", simRoot.toString());
        assertThat(none.exit()).isEqualTo(ExitCodes.ERROR);
        assertThat(none.err()).isEqualTo("rfmrt: no counters files under " + simRoot + " (no node runs)\n");
        final CliRun watch = CliRun.of("stat", "--root", simRoot.toString(), "--watch", "0s");
        assertThat(watch.exit()).isEqualTo(ExitCodes.USAGE);
    }

    private static long counter(final JsonNode node, final int id)
    {
        for (final JsonNode c : node.get("counters"))
        {
            if (c.get("id").asInt() == id)
            {
                return c.get("value").asLong();
            }
        }
        throw new AssertionError("no counter " + id + " in " + node);
    }

    /**
     * @return whether node 2 has handled more than {@code frames} frames and its card received more events, as its
     * heartbeats publish them.
     */
    private static boolean running(final Path simRoot, final long frames) throws IOException
    {
        final CliRun json = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1", "--node", "2",
            "--json");
        if (json.exit() != 0)
        {
            return false;
        }
        final JsonNode nodes = new ObjectMapper().readTree(json.out()).get("nodes");
        if (nodes == null || nodes.size() != 1 || nodes.get(0).get("counters") == null)
        {
            return false;
        }
        long handled = 0;
        long received = 0;
        for (final JsonNode c : nodes.get(0).get("counters"))
        {
            handled = c.get("id").asInt() == 1 ? c.get("value").asLong() : handled;
            received = c.get("id").asInt() == 33 ? c.get("value").asLong() : received;
        }
        return handled > frames && received > frames;
    }
}
