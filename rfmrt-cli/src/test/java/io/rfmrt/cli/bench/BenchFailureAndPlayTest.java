package io.rfmrt.cli.bench;

import io.rfmrt.cli.CliProcesses;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the bench commands do when a receiver dies under them (the run fails, the row says why, its CPU figure is
 * invalid rather than a number), and {@code bench play} once through, as {@link BenchCommandsTest} does the others.
 */
class BenchFailureAndPlayTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-bench-failure-test");
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldFailTheRunAndNameTheRowWhenItsReceiverIsKilled() throws Exception
    {
        final Process bench = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.PIPE, "bench", "compare",
            "--seconds", "4", "--rate", "1000", "--rows", "interrupt", "--json");
        final CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readAll(bench.getInputStream()));
        final CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(bench.getErrorStream()));

        // the receiver is a child JVM of the bench; SIGKILL it once it handles frames, while the sender sends
        final ProcessHandle receiver = awaitReceiver(bench);
        awaitSending(bench);
        receiver.destroyForcibly();
        assertThat(receiver.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();

        assertThat(bench.waitFor(3, TimeUnit.MINUTES)).isTrue();
        final String out = stdout.get(30, TimeUnit.SECONDS);
        final String err = stderr.get(30, TimeUnit.SECONDS);
        assertThat(bench.exitValue()).as(out + err).isEqualTo(1);
        assertThat(err).contains("rfmrt bench: mode interrupt failed: ").doesNotContain("Exception");
        final JsonNode row = new ObjectMapper().readTree(out).get("modes").get(0);
        assertThat(row.get("mode").asText()).isEqualTo("interrupt");
        assertThat(row.get("failure").asText()).as(row.toString()).isNotEmpty();
        assertThat(row.get("valid").asBoolean()).as("a dead receiver's figures are not a result").isFalse();
        assertThat(row.has("cpu_pct") && row.get("cpu_pct").isNumber()).as("no CPU figure for a dead receiver")
            .isFalse();
    }

    @Test
    void shouldEndTheReceiverWhenTheBenchIsKilled() throws Exception
    {
        final Process bench = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.DISCARD, "bench",
            "compare", "--seconds", "60", "--rate", "1000", "--rows", "interrupt", "--json");
        final ProcessHandle receiver = awaitReceiver(bench);
        awaitSending(bench);
        // SIGKILL: no shutdown hook of the bench runs, so nothing of it tells the receiver; only its end does
        bench.destroyForcibly();
        assertThat(bench.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(receiver.onExit().get(60, TimeUnit.SECONDS).isAlive())
            .as("the receiver ends with its bench, instead of spinning on as an orphan").isFalse();
    }

    @Test
    void shouldRecordAndPlayBackEveryFrameInBenchPlay() throws Exception
    {
        final Process bench = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.INHERIT, "bench", "play",
            "--rates", "1000", "--seconds", "1", "--json");
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        bench.getInputStream().transferTo(stdout);
        assertThat(bench.waitFor(5, TimeUnit.MINUTES)).isTrue();
        final String out = stdout.toString(StandardCharsets.UTF_8);
        assertThat(bench.exitValue()).as(out).isZero();
        final JsonNode result = new ObjectMapper().readTree(out);
        assertThat(result.get("benchmark").asText()).isEqualTo("play");
        // the names and their order, as BenchResultShapesTest holds them for the records
        assertThat(BenchResultShapesTest.names(result)).isEqualTo(BenchResultShapesTest.PLAY);
        final JsonNode run = result.get("runs").get(0);
        assertThat(BenchResultShapesTest.names(run)).isEqualTo(BenchResultShapesTest.PLAY_RUN);
        assertThat(BenchResultShapesTest.names(run.get("rate_1"))).isEqualTo(BenchResultShapesTest.PLAY_RATE_1);
        assertThat(BenchResultShapesTest.names(run.get("rate_max"))).isEqualTo(BenchResultShapesTest.PLAY_RATE_MAX);
        assertThat(run.get("rate_hz").asInt()).isEqualTo(1000);
        assertThat(run.get("frames_recorded").asLong()).as(run.toString()).isEqualTo(1000);
        for (final String key : new String[] {"rate_1", "rate_max"})
        {
            final JsonNode play = run.get(key);
            assertThat(play.get("frames").asLong()).as(key + ": " + play).isEqualTo(1000);
            assertThat(play.get("handled").asLong()).as(key + ": every frame played is handled").isEqualTo(1000);
            assertThat(play.get("lost").asLong()).as(key).isZero();
        }
        assertThat(run.get("lost").asLong()).isZero();
        // timing is the benchmark's business; the test only reads that it was measured in order
        final JsonNode one = run.get("rate_1");
        assertThat(one.get("timing_error_p50_us").asDouble())
            .isLessThanOrEqualTo(one.get("timing_error_max_us").asDouble());
    }

    private static ProcessHandle awaitReceiver(final Process bench) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && bench.isAlive())
        {
            final Optional<ProcessHandle> receiver = bench.toHandle().descendants()
                .filter(p -> CliProcesses.commandLine(p).contains("\0bench-receiver\0"))
                .findFirst();
            if (receiver.isPresent())
            {
                return receiver.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no bench-receiver process started within 120 s");
    }

    /** Waits until the bench's sender thread runs: the receiver said it was ready and frames are on their way. */
    private static void awaitSending(final Process bench) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && bench.isAlive())
        {
            if (CliProcesses.hasThread(bench.toHandle(), "rfmrt-bench-sender"))
            {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the bench's sender did not start within 120 s");
    }

    private static String readAll(final java.io.InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
