package io.rfmrt.cli.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code rfmrt exporter} scraped by a real Prometheus (Debian's {@code prometheus}, which ./run-tests installs): two
 * nodes exchange frames, are killed so that their counters files stay as they were, then the value Prometheus stored
 * for {@code rfmrt_frames_handled_total} must equal what {@code rfmrt stat --json} reads; {@code rfmrt stat --format
 * openmetrics} says the same.
 */
class PrometheusScrapeTest
{
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

    private final Path simRoot = Path.of("/dev/shm", "rfmrt-prometheus-" + UUID.randomUUID());
    private final List<Process> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void tearDown() throws Exception
    {
        // Prometheus first, then the exporter it scrapes, then the nodes
        for (int i = processes.size() - 1; i >= 0; i--)
        {
            final Process p = processes.get(i);
            p.destroy();
            if (!p.waitFor(30, TimeUnit.SECONDS))
            {
                p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
        CliProcesses.removeTree(simRoot);
    }

    private static int freeTcpPort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
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

    private JsonNode statNode(final int node) throws IOException
    {
        final CliRun json = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1", "--node",
            Integer.toString(node), "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        return new ObjectMapper().readTree(json.out()).get("nodes").get(0);
    }

    private String get(final String url) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    private JsonNode query(final int port, final String promql) throws IOException, InterruptedException
    {
        final String answer = get("http://127.0.0.1:" + port + "/api/v1/query?query=" +
            URLEncoder.encode(promql, StandardCharsets.UTF_8));
        assertThat(answer).startsWith("200 ");
        return new ObjectMapper().readTree(answer.substring(4)).get("data").get("result");
    }

    /** Ask until {@code done} holds or {@code seconds} pass; the last answer either way. */
    private static <T> T await(final long seconds, final Predicate<T> done, final Attempt<T> attempt)
        throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        T last = attempt.get();
        while (!done.test(last) && System.nanoTime() < deadline)
        {
            Thread.sleep(100);
            last = attempt.get();
        }
        return last;
    }

    interface Attempt<T>
    {
        T get() throws Exception;
    }

    @Test
    void shouldStoreInPrometheusTheFramesHandledThatStatReads(@TempDir final Path dir) throws Exception
    {
        assumeTrue(Files.isExecutable(PROMETHEUS), "prometheus not installed (./run-tests installs Debian's " +
            "prometheus package)");
        for (final String name : List.of("layout.yaml", "node-1.yaml", "node-2.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
        }
        final Process one = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
            dir.resolve("node-1.yaml").toString());
        processes.add(one);
        final Process two = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
            dir.resolve("node-2.yaml").toString());
        processes.add(two);
        CliProcesses.awaitLine(one, "process:");
        CliProcesses.awaitLine(two, "process:");
        // frames flow both ways; then both are killed: their counters files stay, and stay still
        assertThat(await(60, n -> counter(n, 1) > 0, () -> statNode(2)).get("counters")).isNotEmpty();
        one.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        two.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        final JsonNode stat = statNode(2);
        final long handled = counter(stat, 1);
        assertThat(handled).isPositive();
        assertThat(stat.get("alive").asBoolean()).isFalse();

        final CliRun text = CliRun.of("stat", "--root", simRoot.toString(), "--network", "lab1", "--format",
            "openmetrics");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains("# TYPE rfmrt_frames_handled counter\n",
            "rfmrt_frames_handled_total{network=\"lab1\",node=\"2\"} " + handled + ".0\n",
            "rfmrt_node_up{network=\"lab1\",node=\"2\"} 0.0\n").endsWith("# EOF\n");

        final Process exporter = CliProcesses.start(simRoot, ProcessBuilder.Redirect.INHERIT, "exporter",
            "--root", simRoot.toString(), "--listen", "127.0.0.1:0");
        processes.add(exporter);
        final String serving = CliProcesses.awaitLine(exporter, "rfmrt exporter: serving http://127.0.0.1:");
        final int exporterPort = Integer.parseInt(serving.replaceAll(".*:([0-9]+)/metrics.*", "$1"));

        final int prometheusPort = freeTcpPort();
        Files.writeString(dir.resolve("prometheus.yml"), """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: rfmrt
                static_configs:
                  - targets: ['127.0.0.1:%d']
            """.formatted(exporterPort));
        final Process prometheus = new ProcessBuilder(PROMETHEUS.toString(),
            "--config.file=" + dir.resolve("prometheus.yml"), "--storage.tsdb.path=" + dir.resolve("data"),
            "--web.listen-address=127.0.0.1:" + prometheusPort)
            .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        processes.add(prometheus);

        final String promql = "rfmrt_frames_handled_total{network=\"lab1\",node=\"2\"}";
        final JsonNode result = await(60, r -> r != null && r.size() == 1, () ->
        {
            try
            {
                // 503 while Prometheus replays its write-ahead log and opens its storage: not ready yet
                return get("http://127.0.0.1:" + prometheusPort + "/-/ready").startsWith("200 ") ?
                    query(prometheusPort, promql) : null;
            }
            catch (final IOException ex)
            {
                // not listening yet
                return null;
            }
        });
        assertThat(result).as("Prometheus answered " + promql + "; its log: " +
            Files.readString(dir.resolve("prometheus.log"))).isNotNull().hasSize(1);
        assertThat(result.get(0).get("metric").get("job").asText()).isEqualTo("rfmrt");
        assertThat(new BigDecimal(result.get(0).get("value").get(1).asText()).longValueExact()).isEqualTo(handled);
        // and the target is healthy: every sample of the scrape was taken
        final JsonNode up = query(prometheusPort, "up{job=\"rfmrt\"}");
        assertThat(up.get(0).get("value").get(1).asText()).isEqualTo("1");
    }
}
