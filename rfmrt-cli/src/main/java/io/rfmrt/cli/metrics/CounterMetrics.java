package io.rfmrt.cli.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.AppCounter;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counters of nodes and bridges as Prometheus metric families (docs/metrics.md), named by the counters' stable ids,
 * never by their labels: {@code rfmrt_frames_handled_total{network,node}}, {@code
 * rfmrt_channel_frames_lost_total{network,node,channel,publisher,cause}}, {@code rfmrt_bridge_sent_bytes_total
 * {network,host}}, ... A counter id this build does not know is left out, so a name never changes meaning.
 */
public final class CounterMetrics
{
    /** Every name starts with this. */
    public static final String PREFIX = "rfmrt_";

    private static final Pattern FRAME_LABEL = Pattern.compile("^(.*) \\(node ([0-9]+)\\): .*$");

    private final Map<String, Family> families = new LinkedHashMap<>();

    private CounterMetrics()
    {
    }

    /**
     * @param reading one reading of a host's counters files.
     * @return its metric families, in a stable order.
     */
    public static MetricSnapshots of(final CountersFiles.Reading reading)
    {
        final CounterMetrics metrics = new CounterMetrics();
        for (final CountersSnapshot node : reading.nodes())
        {
            metrics.node(node);
        }
        for (final CountersFiles.BridgeReading bridge : reading.bridges())
        {
            metrics.bridge(bridge.network(), bridge.status());
        }
        metrics.gauge("counters_files_unreadable", null, "Counters or bridge files under the root that could " +
            "not be read (rfmrt exporter logs each once)", Labels.EMPTY, reading.unreadable().size());
        final List<MetricSnapshot> snapshots = new ArrayList<>();
        for (final Family family : metrics.families.values())
        {
            snapshots.add(family.build());
        }
        return new MetricSnapshots(snapshots);
    }

    /**
     * @param counter a runtime counter.
     * @return its family's name without {@code _total}.
     */
    public static String runtimeName(final RuntimeCounter counter)
    {
        return PREFIX + lower(counter.name());
    }

    private void node(final CountersSnapshot s)
    {
        final String network = s.file().getParent().getFileName().toString();
        final Labels labels = Labels.of("network", network, "node", Integer.toString(s.node()));
        gauge("node_up", null, "1 while the node's process runs, 0 for a file left by a crash", labels,
            s.alive() ? 1 : 0);
        gauge("node_start_time_seconds", Unit.SECONDS, "When the node started, seconds since the epoch", labels,
            s.startMs() / 1000.0);
        gauge("node_distinct_errors", null, "Distinct errors in the node's error log (rfmrt stat shows them)",
            labels, s.errors().size());
        for (final CountersSnapshot.Counter c : s.counters())
        {
            switch (c.typeId())
            {
                case CounterIds.TYPE_RUNTIME -> runtime(labels, c);
                case CounterIds.TYPE_CARD -> card(labels, c);
                case CounterIds.TYPE_JOURNAL -> journal(labels, c);
                case CounterIds.TYPE_FRAME -> frame(labels, c);
                case CounterIds.TYPE_APP -> app(labels, c);
                default ->
                {
                    // a type this build does not know: left out
                }
            }
        }
    }

    private void runtime(final Labels labels, final CountersSnapshot.Counter c)
    {
        for (final RuntimeCounter counter : RuntimeCounter.values())
        {
            if (CounterIds.runtime(counter) == c.id())
            {
                counter(runtimeName(counter).substring(PREFIX.length()), null, counter.label(), labels, c.value());
            }
        }
    }

    private void card(final Labels labels, final CountersSnapshot.Counter c)
    {
        for (final RfmCounter counter : RfmCounter.values())
        {
            if (CounterIds.card(counter) == c.id())
            {
                counter("card_" + lower(counter.name()), null, "The card's " + counter.label() +
                    " (set on each heartbeat)", labels, c.value());
            }
        }
    }

    private void journal(final Labels labels, final CountersSnapshot.Counter c)
    {
        final int id = c.id() - CounterIds.JOURNAL_BASE;
        final String name = switch (id)
        {
            case CounterIds.JOURNAL_WRITTEN -> "journal_records_written";
            case CounterIds.JOURNAL_DROPPED -> "journal_records_dropped";
            case CounterIds.JOURNAL_WRITE_ERRORS -> "journal_write_errors";
            default -> null;
        };
        if (name != null)
        {
            counter(name, null, c.label() + " (set on each heartbeat)", labels, c.value());
        }
    }

    private void app(final Labels labels, final CountersSnapshot.Counter c)
    {
        final AppCounter counter = AppCounter.ofId(c.id() - CounterIds.APP_BASE);
        if (counter == null)
        {
            return;
        }
        final String help = "The node app's " + counter.label().substring("app: ".length()) +
            " (set by the app once a second; 0 for a node without a loop)";
        switch (counter)
        {
            case LOOP_CYCLES -> counter("loop_cycles", null, help, labels, c.value());
            case DEADLINE_MISSES -> counter("loop_deadline_misses", null, help, labels, c.value());
            case E2E_P99_NS -> gauge("loop_e2e_p99_seconds", Unit.SECONDS, help, labels, c.value() / 1e9);
            case E2E_MAX_NS -> gauge("loop_e2e_max_seconds", Unit.SECONDS, help, labels, c.value() / 1e9);
            case WATCHDOG_TRIPS -> counter("loop_watchdog_trips", null, help, labels, c.value());
            case MISSED_TICKS -> counter("plant_missed_ticks", null, help, labels, c.value());
            case LATE_COMMANDS -> counter("plant_late_commands", null, help, labels, c.value());
            case DRIVE_FAULTS -> counter("plant_drive_faults", null, help, labels, c.value());
            default ->
            {
                // an app figure this exporter does not name: left out
            }
        }
    }

    private void frame(final Labels node, final CountersSnapshot.Counter c)
    {
        final int offset = c.id() - CounterIds.FRAME_BASE;
        if (offset < 0)
        {
            return;
        }
        final Matcher m = FRAME_LABEL.matcher(c.label());
        final Labels labels = m.matches() ? node.add("channel", m.group(1)).add("publisher", m.group(2)) :
            node.add("channel", Integer.toString(offset / CounterIds.FRAME_STRIDE)).add("publisher", "");
        final int id = offset % CounterIds.FRAME_STRIDE;
        for (final FrameCounter counter : FrameCounter.values())
        {
            if (counter.id() != id)
            {
                continue;
            }
            switch (counter)
            {
                case FRAMES -> counter("channel_frames", null, "Frames of an input channel validated and handed on",
                    labels, c.value());
                case DUPLICATES -> counter("channel_frames_duplicate", null, "Frames of an input channel seen twice",
                    labels, c.value());
                case SELF_FILTERED -> counter("channel_frames_self_filtered", null, "Own frames dropped by the " +
                    "self-filter", labels, c.value());
                case PUBLISHER_RESTARTS -> counter("channel_publisher_restarts", null, "Frames that came from a " +
                    "new incarnation of their publisher", labels, c.value());
                default -> counter("channel_frames_lost", null, "Frames of an input channel lost or refused, by " +
                    "cause: torn, crc_errors, gaps (frames never seen), stale, bad_header, dma_missing",
                    labels.add("cause", lower(counter.name())), c.value());
            }
        }
    }

    private void bridge(final String network, final BridgeStatus s)
    {
        final Labels labels = Labels.of("network", network, "host", Integer.toString(s.hostId()));
        gauge("bridge_up", null, "1 while the bridge's process runs", labels, s.alive() ? 1 : 0);
        gauge("bridge_link_up", null, "1 while the host's link is up: the bridge runs and every peer is in sync " +
            "both ways", labels, s.alive() && s.leaseValid() && s.state() == BridgeState.UP ? 1 : 0);
        for (final BridgeState state : BridgeState.values())
        {
            gauge("bridge_state", null, "1 for the bridge's state (STOPPED, CONNECTING, SYNCING, UP), 0 for the " +
                "others", labels.add("state", state.name()), s.state() == state ? 1 : 0);
        }
        gauge("bridge_log_queued_bytes", Unit.BYTES, "Bytes in the outbound log not yet taken by the bridge",
            labels, s.logQueued());
        gauge("bridge_log_capacity_bytes", Unit.BYTES, "Bytes of the outbound log", labels, s.logCapacity());
        for (final BridgeStatus.PeerStatus peer : s.peers())
        {
            gauge("bridge_peer_up", null, "1 while everything the peer wrote is here (its state UP)",
                labels.add("peer", Integer.toString(peer.hostId())), peer.state() == BridgeState.UP ? 1 : 0);
        }
        for (final BridgeCounter counter : BridgeCounter.values())
        {
            final String name = lower(counter.name());
            final boolean bytes = name.contains("bytes_");
            counter("bridge_" + (bytes ? name.replace("bytes_", "") + "_bytes" : name), bytes ? Unit.BYTES : null,
                "The bridge's " + counter.label(), labels, s.counter(counter));
        }
    }

    private void counter(final String name, final Unit unit, final String help, final Labels labels,
        final long value)
    {
        families.computeIfAbsent(name, n -> new Family(PREFIX + n, help, unit, true)).add(labels, value);
    }

    private void gauge(final String name, final Unit unit, final String help, final Labels labels,
        final double value)
    {
        families.computeIfAbsent(name, n -> new Family(PREFIX + n, help, unit, false)).add(labels, value);
    }

    private static String lower(final String name)
    {
        return name.toLowerCase(Locale.ROOT);
    }

    /** One metric family being gathered. */
    private static final class Family
    {
        private final String name;
        private final String help;
        private final Unit unit;
        private final boolean counter;
        private final List<Labels> labels = new ArrayList<>();
        private final List<Double> values = new ArrayList<>();

        Family(final String name, final String help, final Unit unit, final boolean counter)
        {
            this.name = name;
            this.help = help;
            this.unit = unit;
            this.counter = counter;
        }

        void add(final Labels labels, final double value)
        {
            this.labels.add(labels);
            values.add(value);
        }

        MetricSnapshot build()
        {
            if (counter)
            {
                final CounterSnapshot.Builder builder = CounterSnapshot.builder().name(name).help(help);
                if (unit != null)
                {
                    builder.unit(unit);
                }
                for (int i = 0; i < labels.size(); i++)
                {
                    builder.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels.get(i))
                        .value(values.get(i)).build());
                }
                return builder.build();
            }
            final GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(name).help(help);
            if (unit != null)
            {
                builder.unit(unit);
            }
            for (int i = 0; i < labels.size(); i++)
            {
                builder.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels.get(i))
                    .value(values.get(i)).build());
            }
            return builder.build();
        }
    }
}
