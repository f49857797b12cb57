package io.rfmrt.cli.bench;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.PercentilePlot;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt bench peers} for real, briefly: every transport runs one second at 1 kHz in its own receiver
 * process and its frames arrive. Timings are not checked (the benchmark's job, not a test's).
 */
class BenchPeersTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-bench-peers-test");
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldDeliverFramesThroughEveryTransport() throws Exception
    {
        final Path plot = dir.resolve("peers.png");
        final Process process = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.INHERIT, "bench",
            "peers", "--seconds", "1", "--rates", "1000", "--aeron-threading", "SHARED", "--json", "--plot",
            plot.toString());
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        process.getInputStream().transferTo(stdout);
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
        final String output = stdout.toString(StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();

        final JsonNode result = new ObjectMapper().readTree(output);
        assertThat(result.get("aeron_threading").asText()).isEqualTo("SHARED");
        final List<String> names = new ArrayList<>();
        for (final JsonNode row : result.get("rows"))
        {
            final String name = row.get("transport").asText();
            names.add(name);
            assertThat(row.get("failure").isNull()).as(name + ": " + row.get("failure")).isTrue();
            assertThat(row.get("sent").asLong()).as(name + " sent").isEqualTo(2_000);
            // frames arrive (a loaded machine may drop a few UDP datagrams; the count is the benchmark's job)
            assertThat(row.get("frames").asLong()).as(name + " frames").isGreaterThan(1_000);
            assertThat(row.get("frames").asLong()).as(name + " frames").isLessThanOrEqualTo(2_000);
            assertThat(row.get("lost").asLong()).isEqualTo(2_000 - row.get("frames").asLong());
            assertThat(row.get("cpu_pct").isNumber()).as(name + " cpu").isTrue();
            assertThat(row.get("p50_us").asDouble()).as(name + " p50").isPositive();
            assertThat(row.has("histogram")).isFalse();
        }
        assertThat(names).containsExactly("rfmrt-inline", "rfmrt-interrupt", "rfmrt-spin-then-block",
            "aeron-backoff", "aeron-sleep-100us", "aeron-busy-spin", "chronicle-spin", "chronicle-pauser", "udp",
            "futex-floor");
        assertThat(result.get("targets").size()).isEqualTo(9);
        assertThat(plot).isRegularFile();
        assertThat(Files.readAllBytes(plot)).startsWith(0x89, 'P', 'N', 'G');
        try (var leftovers = Files.list(Path.of("/dev/shm")))
        {
            assertThat(leftovers.map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith("rfmrt-peers-" + process.pid() + "-"))).isEmpty();
        }
    }

    @Test
    void shouldRejectAnUnknownTransportWithAUsageError()
    {
        final StringWriter err = new StringWriter();
        final int exit = Main.run(new String[]{"bench", "peers", "--rows", "udp,carrier-pigeon"},
            new PrintWriter(new StringWriter()), new PrintWriter(err));
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--rows: unknown row 'carrier-pigeon'");
    }

    @Test
    void shouldRejectAnUnknownThreadingMode()
    {
        final StringWriter err = new StringWriter();
        final int exit = Main.run(new String[]{"bench", "peers", "--aeron-threading", "SHARED_NETWORK"},
            new PrintWriter(new StringWriter()), new PrintWriter(err));
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--aeron-threading 'SHARED_NETWORK'");
    }

    @Test
    void shouldLabelWholeNinesOnThePercentileAxis()
    {
        assertThat(PercentilePlot.label(PercentilePlot.x(90))).isEqualTo("90 %");
        assertThat(PercentilePlot.label(PercentilePlot.x(99.9))).isEqualTo("99.9 %");
        assertThat(PercentilePlot.label(4.0)).isEqualTo("99.99 %");
        assertThat(PercentilePlot.label(1.5).isBlank()).isTrue();
        assertThat(PercentilePlot.x(50)).isEqualTo(Math.log10(2));
    }
}
