package io.rfmrt.cli;

import io.rfmrt.cli.bench.BenchHosts;
import io.rfmrt.cli.common.Netns;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The commands that make emulated hosts themselves, for real and briefly: {@code bench hosts} (frames arrive
 * through the bridges and through Aeron over the same link; timings are the benchmark's job) and
 * {@code demo --hosts} (the loop closes across two hosts without a lost frame). Each leaves no namespace and no
 * folder behind. Needs root and {@code ip netns}; skipped otherwise.
 */
class HostsCommandsTest
{
    private static String unavailable;
    private Path dir;

    @BeforeAll
    static void checkNamespaces()
    {
        unavailable = Netns.unavailable();
    }

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("i14-hosts-commands-test");
    }

    /** Only the tests that make network namespaces need the privilege; the option and text checks run anywhere. */
    private static void assumeNamespaces()
    {
        assumeTrue(unavailable == null, () -> "no network namespaces here: " + unavailable);
    }

    @AfterEach
    void tearDown() throws Exception
    {
        if (dir != null)
        {
            CliProcesses.removeTree(dir);
        }
    }

    private static String run(final Process process) throws Exception
    {
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        process.getInputStream().transferTo(stdout);
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
        return stdout.toString(StandardCharsets.UTF_8);
    }

    private static List<String> namespaces(final String prefix) throws Exception
    {
        final Process p = new ProcessBuilder("ip", "netns", "list").start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        final List<String> found = new ArrayList<>();
        for (final String line : out.split("\n"))
        {
            if (line.startsWith(prefix))
            {
                found.add(line);
            }
        }
        return found;
    }

    @Test
    void shouldRefuseAnUnknownRowOrABadRateInOneLine()
    {
        final java.io.StringWriter err = new java.io.StringWriter();
        assertThat(Main.run(new String[] {"bench", "hosts", "--rows", "bridge-doorbell,carrier-pigeon"},
            new java.io.PrintWriter(new java.io.StringWriter(), true), new java.io.PrintWriter(err, true)))
            .isEqualTo(2);
        assertThat(err.toString()).isEqualTo("rfmrt: --rows: unknown row 'carrier-pigeon'" + System.lineSeparator());
        final java.io.StringWriter err2 = new java.io.StringWriter();
        assertThat(Main.run(new String[] {"bench", "hosts", "--rates", "0"},
            new java.io.PrintWriter(new java.io.StringWriter(), true), new java.io.PrintWriter(err2, true)))
            .isEqualTo(2);
        assertThat(err2.toString()).isEqualTo("rfmrt: --seconds 1..600, --rates 1..100000 Hz each" +
            System.lineSeparator());
        assertThat(refusal("--ring-full", "drop-oldest")).isEqualTo(
            "rfmrt: --ring-full 'drop-oldest' is not drop-newest or backpressure");
        assertThat(refusal("--ring-full", "drop-newest", "--ring-wait", "50ms")).isEqualTo(
            "rfmrt: --ring-wait 50ms needs --ring-full backpressure (a ring that drops never waits)");
        assertThat(refusal("--ring-wait", "soon")).contains("--ring-wait").contains("'soon' is not a duration");
        assertThat(refusal("--ring-wait", "inf")).isEqualTo("rfmrt: --ring-wait inf is not a wait of 0 to 1s");
        assertThat(refusal("--ring-wait", "2s")).isEqualTo(
            "rfmrt: --ring-wait 2s is over 1s (the bridges' peer time-out)");
    }

    /** What {@code bench hosts} says on its error stream, with exit 2, for these options. */
    private static String refusal(final String... options)
    {
        final java.io.StringWriter err = new java.io.StringWriter();
        final String[] args = new String[options.length + 2];
        args[0] = "bench";
        args[1] = "hosts";
        System.arraycopy(options, 0, args, 2, options.length);
        assertThat(Main.run(args, new java.io.PrintWriter(new java.io.StringWriter(), true),
            new java.io.PrintWriter(err, true))).as(String.join(" ", options)).isEqualTo(2);
        return err.toString().strip();
    }

    @Test
    void shouldSayWhyFramesWereLostWithoutCountingADroppedFrameTwice()
    {
        final Map<String, Long> causes = new LinkedHashMap<>();
        causes.put("gaps", 6_355L);
        causes.put("torn", 0L);
        causes.put("dma_dropped", 6_355L);
        causes.put("fifo_overflows", 7_255L);
        assertThat(BenchHosts.lossLine(6_400, causes)).isEqualTo("gaps 6355, dma_dropped 6355, fifo_overflows 7255, " +
            "not counted 45 (not handled when the receiver stopped, 2 s after the last send)");
        causes.put("torn", 3L);
        assertThat(BenchHosts.lossLine(6_300, causes)).contains("torn 3, ").endsWith("not counted 0 (not handled " +
            "when the receiver stopped, 2 s after the last send)");
    }

    @Test
    void shouldCarryFramesFromHostToHostThroughTheBridgesAndThroughAeron() throws Exception
    {
        assumeNamespaces();
        final String prefix = "i14" + UUID.randomUUID().toString().substring(0, 4);
        final Process process = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.INHERIT, "bench",
            "hosts", "--seconds", "1", "--rates", "1000", "--rows", "bridge-doorbell,aeron-udp-backoff",
            // the bridges start cold: what this test holds (the rows, the counters, the targets) is not the warm-up
            "--warm-up-frames", "0",
            "--netns-prefix", prefix, "--json");
        final String output = run(process);
        assertThat(process.exitValue()).as(output).isZero();
        final JsonNode result = new ObjectMapper().readTree(output);
        final List<String> names = new ArrayList<>();
        for (final JsonNode row : result.get("rows"))
        {
            final String name = row.get("row").asText();
            names.add(name);
            assertThat(row.get("failure").isNull()).as(name + ": " + row.get("failure")).isTrue();
            assertThat(row.get("sent").asLong()).as(name + " sent").isEqualTo(2_000);
            assertThat(row.get("frames").asLong()).as(name + " frames").isGreaterThan(1_000);
            assertThat(row.get("frames").asLong()).as(name + " frames").isLessThanOrEqualTo(2_000);
            assertThat(row.get("p50_us").asDouble()).as(name + " p50").isPositive();
            assertThat(row.get("cpu_pct").isNumber()).as(name + " rx cpu").isTrue();
        }
        assertThat(names).containsExactly("bridge-doorbell", "aeron-udp-backoff");
        assertThat(result.get("rows").get(0).get("bridges_cpu_pct").isNumber()).isTrue();
        // the receiving node's ring waits for it by default, as Aeron's own rows do
        assertThat(result.get("receiver_ring").asText()).isEqualTo("1024 slots, backpressure (the bridge waits up " +
            "to 100ms for a free slot, then drops and counts)");
        // the bridge's receiver says why frames were lost (its frame and card counters); Aeron's counts none
        final JsonNode causes = result.get("rows").get(0).get("loss_causes");
        assertThat(causes.fieldNames()).toIterable().containsExactly("gaps", "torn", "crc_errors", "stale",
            "bad_header", "dma_missing", "dma_dropped", "fifo_overflows");
        assertThat(causes.get("gaps").asLong()).isLessThanOrEqualTo(result.get("rows").get(0).get("lost").asLong());
        assertThat(result.get("rows").get(1).get("loss_causes").isEmpty()).isTrue();
        // at 1 kHz alone: the p50 target and the loss target (p99 and cpu are held at 10 kHz)
        final List<String> targets = new ArrayList<>();
        result.get("targets").forEach(t -> targets.add(t.get("target").asText()));
        assertThat(targets).containsExactly(
            "bridge-doorbell p50 <= 1.1x aeron-udp-backoff (Aeron's own over the link) at 1000 Hz",
            "bridge-doorbell loses no frame at any rate");
        assertThat(namespaces(prefix)).isEmpty();
        try (var leftovers = Files.list(Path.of("/dev/shm")))
        {
            assertThat(leftovers.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix))).isEmpty();
        }
    }

    @Test
    void shouldEndTheSenderWhenTheBenchIsKilled() throws Exception
    {
        assumeNamespaces();
        final String prefix = "i14" + UUID.randomUUID().toString().substring(0, 4);
        final Process bench = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.DISCARD, "bench",
            "hosts", "--seconds", "600", "--rates", "1000", "--rows", "aeron-udp-backoff", "--netns-prefix", prefix,
            "--json");
        final List<ProcessHandle> children = new ArrayList<>();
        try
        {
            final ProcessHandle sender = awaitSending(bench);
            children.addAll(bench.toHandle().descendants().toList());
            // SIGKILL: nothing of the bench tells its children; only its end does
            bench.destroyForcibly();
            assertThat(bench.waitFor(30, TimeUnit.SECONDS)).isTrue();
            // it would send for 600 s more on its own
            assertThat(sender.onExit().get(60, TimeUnit.SECONDS).isAlive())
                .as("the sender ends with its bench, instead of sending on as an orphan").isFalse();
        }
        finally
        {
            bench.destroyForcibly();
            for (final ProcessHandle child : children)
            {
                child.destroyForcibly();
                child.onExit().get(30, TimeUnit.SECONDS);
            }
            // what a killed bench cannot remove: its namespaces and its hosts' folders
            for (final String name : namespaces(prefix))
            {
                new ProcessBuilder("ip", "netns", "del", name.split(" ")[0]).inheritIO().start()
                    .waitFor(10, TimeUnit.SECONDS);
            }
            try (var leftovers = Files.list(Path.of("/dev/shm")))
            {
                for (final Path left : leftovers.filter(p -> p.getFileName().toString().startsWith(prefix)).toList())
                {
                    CliProcesses.removeTree(left);
                }
            }
        }
    }

    /** The sender process once its sending thread runs. */
    private static ProcessHandle awaitSending(final Process bench) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && bench.isAlive())
        {
            for (final ProcessHandle p : bench.toHandle().descendants().toList())
            {
                if (CliProcesses.commandLine(p).contains("\0bench-hosts-sender\0") &&
                    CliProcesses.hasThread(p, "rfmrt-bench-sender"))
                {
                    return p;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no bench-hosts-sender sending within 120 s (bench alive: " + bench.isAlive() + ")");
    }

    @Test
    void shouldCloseTheLoopAcrossTwoHostsInTheDemo() throws Exception
    {
        assumeNamespaces();
        final Path out = dir.resolve("demo");
        final Process process = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.INHERIT, "demo",
            "--hosts", "--seconds", "3", "--out", out.toString(), "--json");
        final String output = run(process);
        assertThat(process.exitValue()).as(output).isZero();
        final JsonNode summary = new ObjectMapper().readTree(output);
        assertThat(summary.get("cycles").asLong()).isPositive();
        assertThat(summary.get("lost_frames").asLong()).isZero();
        final JsonNode hosts = summary.get("hosts");
        assertThat(hosts.get("A").get("node").asText()).isEqualTo("plant");
        assertThat(hosts.get("B").get("node").asText()).isEqualTo("controller");
        // every sensor frame crossed from A to B, every command back
        assertThat(hosts.get("B").get("events_delivered").asLong()).isEqualTo(summary.get("plant")
            .get("sensor_frames").asLong());
        // every command the plant took crossed B to A; a command can still arrive after the plant's last tick (it
        // answers a frame the plant sent before stopping), never more than one per sensor frame
        assertThat(hosts.get("A").get("events_delivered").asLong()).isBetween(summary.get("plant")
            .get("commands_received").asLong(), summary.get("plant").get("sensor_frames").asLong());
        assertThat(out.resolve("bridge-host-A.log")).content().contains("CONVERGED");
        assertThat(namespaces("rfd" + process.pid() % 100_000 + "-")).isEmpty();
    }
}
