package io.rfmrt.cli.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.AppCounter;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The metric families made of one reading with a counter of every kind and a bridge: named by Prometheus' rules, each
 * counter id once; and the Grafana dashboard in deploy/grafana asks only for families the exporter serves, in
 * PromQL that Prometheus' own {@code promtool} accepts.
 */
class CounterMetricsTest
{
    private static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "rfmrt-dashboard.json");
    private static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    static CountersFiles.Reading reading()
    {
        final List<CountersSnapshot.Counter> counters = new ArrayList<>();
        long value = 1;
        for (final RuntimeCounter c : RuntimeCounter.values())
        {
            counters.add(new CountersSnapshot.Counter(CounterIds.runtime(c), CounterIds.TYPE_RUNTIME, c.label(),
                value++));
        }
        for (final RfmCounter c : RfmCounter.values())
        {
            counters.add(new CountersSnapshot.Counter(CounterIds.card(c), CounterIds.TYPE_CARD, "card: " + c.label(),
                value++));
        }
        for (int j = 0; j < 3; j++)
        {
            counters.add(new CountersSnapshot.Counter(CounterIds.journal(j), CounterIds.TYPE_JOURNAL, "journal " + j,
                value++));
        }
        for (final AppCounter c : AppCounter.values())
        {
            counters.add(new CountersSnapshot.Counter(CounterIds.app(c), CounterIds.TYPE_APP, c.label(),
                c == AppCounter.E2E_P99_NS ? 48_700 : value++));
        }
        for (final FrameCounter c : FrameCounter.values())
        {
            counters.add(new CountersSnapshot.Counter(CounterIds.frame(0, c), CounterIds.TYPE_FRAME,
                "sensor (node 1): " + c.name().toLowerCase(), value++));
        }
        final CountersSnapshot node = new CountersSnapshot(Path.of("/dev/shm/rfmrt/lab1/node-2.counters"), 2, 4711,
            true, 1_700_000_000_000L, "sim:lab1?node=2", 1, counters, List.of());
        final long[] bridgeCounters = new long[BridgeCounter.SLOT_COUNT];
        for (final BridgeCounter c : BridgeCounter.values())
        {
            bridgeCounters[c.id()] = 1000 + c.id();
        }
        final BridgeStatus bridge = new BridgeStatus(1, "rig-a", "aeron:udp?endpoint=127.0.0.1:40456", 4712, true,
            true, BridgeState.SYNCING, 1_700_000_000_000L, List.of(new BridgeStatus.PeerStatus(2, "rig-b",
            "127.0.0.1:40457", BridgeState.UP, BridgeState.SYNCING, 99, 0, 0, 0, 0, 0)), List.of(), bridgeCounters,
            List.of(), 1 << 20, 64, false);
        return new CountersFiles.Reading(List.of(node), List.of(new CountersFiles.BridgeReading("lab1", bridge)),
            List.of("counters file /x is damaged"));
    }

    /**
     * @return every sample name the reading's families give, as Prometheus stores them (counters with _total).
     */
    static Set<String> sampleNames(final MetricSnapshots snapshots)
    {
        final Set<String> names = new TreeSet<>();
        for (final MetricSnapshot s : snapshots)
        {
            names.add(s.getMetadata().getPrometheusName() + (s instanceof CounterSnapshot ? "_total" : ""));
        }
        return names;
    }

    @Test
    void shouldNameEveryCounterByPrometheusRulesAndKeepItsValue() throws Exception
    {
        final MetricSnapshots snapshots = CounterMetrics.of(reading());
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        OpenMetricsTextFormatWriter.create().write(out, snapshots, EscapingScheme.UNDERSCORE_ESCAPING);
        final String text = out.toString(StandardCharsets.UTF_8);

        assertThat(sampleNames(snapshots)).allMatch(n -> n.matches("rfmrt_[a-z0-9_]+"))
            .allMatch(n -> !n.contains("bytes") || n.endsWith("_bytes") || n.endsWith("_bytes_total"));
        assertThat(text)
            .contains("rfmrt_frames_handled_total{network=\"lab1\",node=\"2\"} 2.0\n")
            .contains("rfmrt_card_fifo_overflows_total{network=\"lab1\",node=\"2\"} ")
            .contains("rfmrt_channel_frames_total{channel=\"sensor\",network=\"lab1\",node=\"2\",publisher=\"1\"} ")
            .contains("rfmrt_channel_frames_lost_total{cause=\"torn\",channel=\"sensor\",network=\"lab1\",node=\"2\"," +
                "publisher=\"1\"} ")
            .contains("rfmrt_bridge_sent_bytes_total{host=\"1\",network=\"lab1\"} 1007.0\n")
            .contains("# UNIT rfmrt_bridge_sent_bytes bytes\n")
            .contains("rfmrt_bridge_state{host=\"1\",network=\"lab1\",state=\"SYNCING\"} 1.0\n")
            .contains("rfmrt_bridge_state{host=\"1\",network=\"lab1\",state=\"UP\"} 0.0\n")
            .contains("rfmrt_bridge_link_up{host=\"1\",network=\"lab1\"} 0.0\n")
            .contains("rfmrt_bridge_peer_up{host=\"1\",network=\"lab1\",peer=\"2\"} 1.0\n")
            .contains("rfmrt_counters_files_unreadable 1.0\n")
            .contains("rfmrt_loop_deadline_misses_total{network=\"lab1\",node=\"2\"} ")
            .contains("# UNIT rfmrt_loop_e2e_p99_seconds seconds\n")
            .contains("rfmrt_loop_e2e_p99_seconds{network=\"lab1\",node=\"2\"} 4.87E-5\n")
            .contains("rfmrt_plant_missed_ticks_total{network=\"lab1\",node=\"2\"} ")
            .endsWith("# EOF\n");
        // every counter of the reading is one counter sample: 11 runtime, 14 card, 3 journal, 6 app (2 app figures
        // are gauges), 10 frame, 30 bridge
        final long samples = text.lines().filter(l -> l.matches("rfmrt_[a-z0-9_]+_total[{ ].*")).count();
        assertThat(samples).isEqualTo(RuntimeCounter.values().length + RfmCounter.values().length + 3 +
            Arrays.stream(AppCounter.values()).filter(c -> !c.gauge()).count() + FrameCounter.values().length +
            BridgeCounter.values().length);
    }

    @Test
    void shouldAskInTheDashboardOnlyForServedMetricsInValidPromQl(@TempDir final Path dir) throws Exception
    {
        final Set<String> served = sampleNames(CounterMetrics.of(reading()));
        final JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        final List<String> exprs = new ArrayList<>();
        for (final JsonNode panel : dashboard.get("panels"))
        {
            for (final JsonNode target : panel.get("targets"))
            {
                exprs.add(target.get("expr").asText());
            }
        }
        assertThat(exprs).hasSizeGreaterThan(10);
        final Set<String> asked = new TreeSet<>();
        for (final String expr : exprs)
        {
            final Matcher m = Pattern.compile("rfmrt_[a-z0-9_]+").matcher(expr);
            while (m.find())
            {
                asked.add(m.group());
            }
        }
        assertThat(served).containsAll(asked);
        assertThat(asked).contains("rfmrt_frames_handled_total", "rfmrt_channel_frames_lost_total",
            "rfmrt_bridge_state");

        assumeTrue(Files.isExecutable(PROMTOOL), "promtool not installed (Debian's prometheus package has it; " +
            "./run-tests installs it)");
        final StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        for (int i = 0; i < exprs.size(); i++)
        {
            // Grafana's variables as Grafana sends them for "All"
            final String expr = exprs.get(i).replace("$network", ".*").replace("$node", ".*");
            rules.append("      - record: dashboard:expr").append(i).append("\n        expr: '")
                .append(expr.replace("'", "''")).append("'\n");
        }
        final Path file = Files.writeString(dir.resolve("rules.yml"), rules.toString());
        final Process promtool = new ProcessBuilder(PROMTOOL.toString(), "check", "rules", file.toString())
            .redirectErrorStream(true).start();
        final String out = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(promtool.exitValue()).as(out).isZero();
        assertThat(out).contains("SUCCESS: " + exprs.size() + " rules found");
    }
}
