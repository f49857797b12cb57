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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each {@code rfmrt bench} command for real, briefly, in its own JVM as a user runs it: the output has its shape, the
 * frames or events arrived, nothing failed, the floors were measured in the same run. Timings are not checked (that
 * is the benchmarks' job, not a test's); counts are, where they are exact.
 */
class BenchCommandsTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-bench-test");
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldMeasureEventsBesideAPlainFutexWake() throws Exception
    {
        final JsonNode result = bench("events", "--count", "500", "--rate", "1000", "--json");

        assertThat(result.get("benchmark").asText()).isEqualTo("events");
        assertThat(result.get("count").asInt()).isEqualTo(500);
        final List<String> modes = new ArrayList<>();
        for (final JsonNode mode : result.get("modes"))
        {
            modes.add(mode.get("mode").asText());
            assertThat(mode.get("count").asLong()).as(mode.toString()).isEqualTo(500);
            assertThat(mode.get("p50_us").asDouble()).isPositive();
            assertThat(mode.get("max_us").asDouble()).isGreaterThanOrEqualTo(mode.get("p50_us").asDouble());
        }
        assertThat(modes).hasSize(2);
    }

    @Test
    void shouldCompareModesWithBothFloorsInOneRun() throws Exception
    {
        final JsonNode result = bench("compare", "--seconds", "1", "--rate", "1000",
            "--rows", "interrupt,interrupt-inline,poll-1khz", "--json");

        assertThat(result.get("sender").asText()).isEqualTo("uniform-jitter");
        final List<String> modes = new ArrayList<>();
        for (final JsonNode mode : result.get("modes"))
        {
            final String name = mode.get("mode").asText();
            modes.add(name);
            assertReceived(mode, name);
            assertThat(mode.get("stages_p50_us").has("transfer")).isTrue();
            assertThat(mode.get("threads").size()).as(name + " RT threads").isPositive();
            // the numbers skipped are frames lost; the sender was late by something, in a burst of 0 or more
            final JsonNode skips = mode.get("skips");
            assertThat(skips.get("in_warmup").asLong() + skips.get("after_warmup").asLong()).as(name + " skips")
                .isLessThanOrEqualTo(mode.get("lost").asLong());
            assertThat(mode.get("sender_late_max_ns").asLong()).as(name + " sender late").isNotNegative();
            assertThat(mode.get("sender_burst_max").asLong()).as(name + " sender burst").isNotNegative();
        }
        assertThat(modes).containsExactly("interrupt", "interrupt-inline", "poll-1khz");
        assertFloors(result.get("floors"));
    }

    @Test
    void shouldRampEachModeThroughItsStepsAndSayWhereItStopped() throws Exception
    {
        final Path plot = dir.resolve("ramp.png");
        final JsonNode result = bench("ramp", "--rows", "interrupt", "--rates", "1000,2000", "--step-seconds", "1",
            "--p99-bound", "10s", "--json", "--plot", plot.toString());

        final JsonNode ramp = result.get("ramps").get(0);
        assertThat(ramp.get("mode").asText()).isEqualTo("interrupt");
        final JsonNode steps = ramp.get("steps");
        assertThat(steps.size()).isEqualTo(2);
        assertThat(steps.get(0).get("rate_hz").asInt()).isEqualTo(1000);
        assertThat(steps.get(1).get("rate_hz").asInt()).isEqualTo(2000);
        for (final JsonNode step : steps)
        {
            assertReceived(step, "interrupt at " + step.get("rate_hz"));
        }
        // the highest rate is the last step without loss within the bound (a loaded machine may lose at 2 kHz)
        final int highest = ramp.get("highest_rate_hz").asInt();
        final int lastClean = steps.get(1).get("lost").asLong() == 0 ? 2000 : steps.get(0).get("lost").asLong() == 0 ?
            1000 : 0;
        assertThat(highest).isEqualTo(lastClean);
        assertFloors(result.get("floors"));
        assertThat(Files.readAllBytes(plot)).startsWith(0x89, 'P', 'N', 'G');
    }

    @Test
    void shouldCountEveryFrameOfTheBursts() throws Exception
    {
        final JsonNode result = bench("burst", "--bursts", "3", "--frames", "500", "--gap", "50ms",
            "--rows", "interrupt", "--json");

        assertThat(result.get("bursts").asInt()).isEqualTo(3);
        final JsonNode mode = result.get("modes").get(0);
        assertThat(mode.get("mode").asText()).isEqualTo("interrupt");
        assertThat(mode.get("failure").isNull()).as(mode.toString()).isTrue();
        assertThat(mode.get("sent").asLong()).isEqualTo(1_500);
        assertThat(mode.get("frames").asLong() + mode.get("lost").asLong()).isEqualTo(1_500);
        assertThat(mode.get("frames").asLong()).isPositive();
        // a burst sender sends back to back on purpose: no hold-ups to tell
        assertThat(mode.has("sender_late_max_ns")).isFalse();
        assertThat(mode.get("skips").isObject()).isTrue();
    }

    private static void assertReceived(final JsonNode mode, final String name)
    {
        assertThat(mode.get("failure").isNull()).as(name + ": " + mode.get("failure")).isTrue();
        final long sent = mode.get("sent").asLong();
        assertThat(sent).as(name + " sent").isPositive();
        assertThat(mode.get("frames").asLong()).as(name + " frames").isPositive().isLessThanOrEqualTo(sent);
        if (mode.has("cpu_untimed"))
        {
            // a loaded machine held the sender or the receiver's watching thread up until the sending was nearly
            // over: no CPU figure, the row invalid, and the row says why
            assertThat(mode.get("cpu_untimed").asText()).as(name).contains("under the 100 ms a CPU figure needs");
            assertThat(mode.get("cpu_pct").isNull()).as(name + " cpu").isTrue();
            assertThat(mode.get("valid").asBoolean()).as(name).isFalse();
        }
        else
        {
            assertThat(mode.get("valid").asBoolean()).as(name).isTrue();
            assertThat(mode.get("cpu_pct").asDouble()).as(name + " cpu").isBetween(0.0, 200.0);
        }
        assertThat(mode.get("p50_us").asDouble()).as(name + " p50").isPositive();
    }

    private static void assertFloors(final JsonNode floors)
    {
        assertThat(floors.get("timer").get("tool").asText()).isEqualTo("cyclictest");
        assertThat(floors.get("timer").get("count").asLong()).isPositive();
        assertThat(floors.get("wake").get("count").asLong()).isPositive();
        assertThat(floors.get("wake").get("p50_us").asDouble()).isPositive();
    }

    private JsonNode bench(final String... args) throws Exception
    {
        final String[] command = new String[args.length + 1];
        command[0] = "bench";
        System.arraycopy(args, 0, command, 1, args.length);
        final Process process = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.INHERIT, command);
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        process.getInputStream().transferTo(stdout);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        final String output = stdout.toString(StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return new ObjectMapper().readTree(output);
    }
}
