package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.RecordKind;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The result of a {@link Replay}: one {@link NodeAnalysis} per journal, the cross-node match, and renderings as text
 * (for a terminal) and as nested maps (for JSON).
 */
public final class ReplaySummary
{
    private final Path dir;
    private final ReplayFilter filter;
    private final List<NodeAnalysis> nodes;
    private final FrameMatcher matcher;

    ReplaySummary(final Path dir, final ReplayFilter filter, final List<NodeAnalysis> nodes,
        final FrameMatcher matcher)
    {
        this.dir = dir;
        this.filter = filter;
        this.nodes = List.copyOf(nodes);
        this.matcher = matcher;
    }

    /**
     * @return one analysis per journal, in name order.
     */
    public List<NodeAnalysis> nodes()
    {
        return nodes;
    }

    /**
     * @return the cross-node match, or {@code null} for a single journal.
     */
    public FrameMatcher matcher()
    {
        return matcher;
    }

    /**
     * @return whether at least one journal could be opened.
     */
    public boolean anythingRead()
    {
        return nodes.stream().anyMatch(n -> n.opened() && (n.recordsRead() > 0 || n.damageCount() == 0));
    }

    /**
     * @return records read over every journal.
     */
    public long recordsRead()
    {
        return nodes.stream().mapToLong(NodeAnalysis::recordsRead).sum();
    }

    /**
     * @return FRAME records kept over every journal.
     */
    public long frames()
    {
        return nodes.stream().mapToLong(n -> n.count(RecordKind.FRAME)).sum();
    }

    /**
     * @param stage a stage.
     * @return a new histogram of that stage over every journal and source kept, ns.
     */
    public Histogram histogram(final Stage stage)
    {
        final Histogram sum = SourceStats.newHistogram();
        for (final NodeAnalysis node : nodes)
        {
            for (final SourceStats source : node.sources())
            {
                sum.add(source.histogram(stage));
            }
        }
        return sum;
    }

    /**
     * @return the worst frames over every journal, worst first.
     */
    public List<WorstFrames.Frame> worstFrames()
    {
        final WorstFrames all = new WorstFrames(Replay.WORST_FRAMES);
        nodes.forEach(node -> all.addAll(node.worst()));
        return all.frames();
    }

    /**
     * @return the report for a terminal, lines ending in '\n'.
     */
    public String text()
    {
        final StringBuilder out = new StringBuilder(4096);
        line(out, "replay %s: %d journal%s, %,d records read%s", dir, nodes.size(), nodes.size() == 1 ? "" : "s",
            recordsRead(), filter.any() ? describe(filter) : "");
        for (final NodeAnalysis node : nodes)
        {
            node(out, node);
        }
        final List<WorstFrames.Frame> worst = worstFrames();
        if (!worst.isEmpty())
        {
            line(out, "worst %d frames by e2e (µs):", worst.size());
            line(out, "  %-18s %6s %12s %10s %10s %10s %10s %10s", "journal", "source", "seq", "e2e", "transfer",
                "isr", "handoff", "handler");
            for (final WorstFrames.Frame f : worst)
            {
                line(out, "  %-18s %6d %12d %10.1f %10.1f %10.1f %10.1f %10.1f", f.node(), f.source(), f.seq(),
                    us(f.e2eNanos()), us(f.transferNanos()), us(f.isrNanos()), us(f.handoffNanos()),
                    us(f.handlerNanos()));
            }
        }
        if (matcher != null)
        {
            final Map<Integer, Map<String, Object>> match = matcher.result();
            if (match.isEmpty())
            {
                line(out, "across journals: no source reached more than one journal");
            }
            match.forEach((source, row) -> line(out, "across journals, source %d: %,d frames, %,d seen by all, " +
                "missed by %s", source, (Long)row.get("frames"), (Long)row.get("seen_by_all"), row.get("missed_by")));
            final Histogram spread = matcher.spread();
            if (spread.getTotalCount() > 0)
            {
                line(out, "  handler-end spread between journals (µs): p50 %.1f p99 %.1f max %.1f",
                    us(spread.getValueAtPercentile(50)), us(spread.getValueAtPercentile(99)), us(spread.getMaxValue()));
            }
        }
        return out.toString();
    }

    private void node(final StringBuilder out, final NodeAnalysis node)
    {
        if (!node.opened())
        {
            line(out, "%s: not read: %s", node.name(), node.problem());
            return;
        }
        final StringBuilder kinds = new StringBuilder();
        for (final RecordKind kind : RecordKind.values())
        {
            if (node.count(kind) > 0)
            {
                kinds.append(kinds.length() == 0 ? "" : ", ").append(kind).append(' ')
                    .append(String.format(Locale.ROOT, "%,d", node.count(kind)));
            }
        }
        line(out, "%s (node %d): %,d records%s", node.name(), node.nodeId(), node.recordsKept(),
            kinds.length() == 0 ? "" : ": " + kinds);
        if (node.recordsKept() > 0)
        {
            final double span = node.spanSeconds();
            final String from = node.clock() == null ? "" : " from " + node.clock().toInstant(node.firstNanos());
            line(out, "  span %.3f s%s (+%.3f s after journal start), %.1f records/s", span, from,
                (node.firstNanos() - node.startNanos()) / 1e9, span > 0 ? (node.recordsKept() - 1) / span : 0.0);
        }
        long missing = 0;
        for (final SourceStats source : node.sources())
        {
            missing += source.missing();
            line(out, "  source %d: %,d frames (%.1f/s), seq %d..%d, %d missing in %d gaps, %d out of order%s",
                source.source(), source.frames(), source.rate(), source.firstSeq(), source.lastSeq(),
                source.missing(), source.holes(), source.outOfOrder(),
                source.negativeStamps() > 0 ? ", " + source.negativeStamps() + " negative stage values" : "");
            line(out, "    %-9s %10s %10s %10s %10s %10s", "stage µs", "p50", "p90", "p99", "p99.9", "max");
            for (final Stage stage : STAGE_ORDER)
            {
                final Histogram h = source.histogram(stage);
                line(out, "    %-9s %10.1f %10.1f %10.1f %10.1f %10.1f", stage.label(), us(h.getValueAtPercentile(50)),
                    us(h.getValueAtPercentile(90)), us(h.getValueAtPercentile(99)),
                    us(h.getValueAtPercentile(99.9)), us(h.getMaxValue()));
            }
        }
        line(out, "  losses: gaps %d, torn %d, CRC %d, FIFO overflows %s, journal drops %s,%n" +
            "          deadline misses %d%s, watchdog trips %d (recoveries %d)", missing, node.faults(1), node.faults(2), na(node.fifoOverflows()),
            na(node.journalDrops()), node.deadlineMisses(), node.deadlineMisses() > 0 ?
            String.format(Locale.ROOT, " (worst %.1f µs late)", us(node.maxLatenessNanos())) : "", node.trips(),
            node.recoveries());
        if (!node.faults().isEmpty())
        {
            final StringBuilder faults = new StringBuilder();
            node.faults().forEach((code, n) -> faults.append(faults.length() == 0 ? "" : ", ")
                .append(ReplayCodes.faultName(code)).append(' ').append(n));
            line(out, "  faults: %s", faults);
        }
        if (!node.transitions().isEmpty())
        {
            line(out, "  states: %s", node.transitions());
        }
        if (node.controlSamples() > 0)
        {
            line(out, "  control: %,d cycles, tracking rms %.3e rad, max %.3e rad, cycle latency max %.1f µs",
                node.controlSamples(), node.trackingRms(), node.trackingMax(), node.maxCycleLatencyMicros());
        }
        if (node.problem() != null)
        {
            line(out, "  problem: %s", node.problem());
        }
        if (node.damageCount() > 0)
        {
            line(out, "  damaged: %d region%s skipped%s", node.damageCount(), node.damageCount() == 1 ? "" : "s",
                node.damageCount() > node.damage().size() ? " (the first " + node.damage().size() + " below)" : "");
            node.damage().forEach(d -> line(out, "    %s", d));
        }
    }

    /** Stages in report order: end to end first. */
    public static final List<Stage> STAGE_ORDER = List.of(Stage.END_TO_END, Stage.TRANSFER, Stage.ISR,
        Stage.HANDOFF, Stage.HANDLER);

    /**
     * @return the summary as nested maps and lists of numbers and strings, for JSON; times in µs.
     */
    public Map<String, Object> toMap()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("dir", dir.toString());
        map.put("records_read", recordsRead());
        map.put("frames", frames());
        final List<Object> list = new ArrayList<>();
        for (final NodeAnalysis node : nodes)
        {
            final Map<String, Object> n = new LinkedHashMap<>();
            n.put("journal", node.name());
            n.put("read", node.opened());
            n.put("node_id", node.nodeId());
            n.put("records", node.recordsKept());
            final Map<String, Object> kinds = new LinkedHashMap<>();
            for (final RecordKind kind : RecordKind.values())
            {
                kinds.put(kind.name(), node.count(kind));
            }
            n.put("by_kind", kinds);
            n.put("span_s", node.spanSeconds());
            final List<Object> sources = new ArrayList<>();
            for (final SourceStats source : node.sources())
            {
                final Map<String, Object> s = new LinkedHashMap<>();
                s.put("source", source.source());
                s.put("frames", source.frames());
                s.put("rate_per_s", source.rate());
                s.put("first_seq", source.firstSeq());
                s.put("last_seq", source.lastSeq());
                s.put("missing", source.missing());
                s.put("gaps", source.holes());
                s.put("out_of_order", source.outOfOrder());
                final Map<String, Object> stages = new LinkedHashMap<>();
                for (final Stage stage : STAGE_ORDER)
                {
                    stages.put(stage.label(), percentiles(source.histogram(stage)));
                }
                s.put("stages_us", stages);
                sources.add(s);
            }
            n.put("sources", sources);
            final Map<String, Object> faults = new LinkedHashMap<>();
            node.faults().forEach((code, count) -> faults.put(ReplayCodes.faultName(code), count));
            n.put("faults", faults);
            n.put("gaps", node.sources().stream().mapToLong(SourceStats::missing).sum());
            n.put("torn", node.faults(1));
            n.put("crc_errors", node.faults(2));
            n.put("fifo_overflows", node.fifoOverflows() < 0 ? "n/a" : node.fifoOverflows());
            n.put("journal_drops", node.journalDrops() < 0 ? "n/a" : node.journalDrops());
            n.put("deadline_misses", node.deadlineMisses());
            n.put("command_stale", node.commandStale());
            n.put("watchdog_trips", node.trips());
            n.put("recoveries", node.recoveries());
            n.put("control_cycles", node.controlSamples());
            n.put("tracking_rms", node.trackingRms());
            n.put("tracking_max", node.trackingMax());
            n.put("problem", node.problem());
            n.put("damaged_regions", node.damageCount());
            n.put("damaged", node.damage());
            list.add(n);
        }
        map.put("journals", list);
        final List<Object> worst = new ArrayList<>();
        for (final WorstFrames.Frame f : worstFrames())
        {
            final Map<String, Object> w = new LinkedHashMap<>();
            w.put("journal", f.node());
            w.put("source", f.source());
            w.put("seq", f.seq());
            w.put("e2e_us", us(f.e2eNanos()));
            w.put("transfer_us", us(f.transferNanos()));
            w.put("isr_us", us(f.isrNanos()));
            w.put("handoff_us", us(f.handoffNanos()));
            w.put("handler_us", us(f.handlerNanos()));
            worst.add(w);
        }
        map.put("worst_frames", worst);
        if (matcher != null)
        {
            final Map<String, Object> match = new LinkedHashMap<>();
            matcher.result().forEach((source, row) -> match.put(String.valueOf(source), row));
            map.put("across_journals", match);
        }
        return map;
    }

    private static Map<String, Object> percentiles(final Histogram h)
    {
        final Map<String, Object> p = new LinkedHashMap<>();
        p.put("count", h.getTotalCount());
        p.put("p50", us(h.getValueAtPercentile(50)));
        p.put("p90", us(h.getValueAtPercentile(90)));
        p.put("p99", us(h.getValueAtPercentile(99)));
        p.put("p99.9", us(h.getValueAtPercentile(99.9)));
        p.put("max", us(h.getMaxValue()));
        return p;
    }

    private static String describe(final ReplayFilter filter)
    {
        return " (filter:" + (filter.from() == null ? "" : " from " + filter.from().text()) +
            (filter.to() == null ? "" : " to " + filter.to().text()) +
            (filter.source() == ReplayFilter.ALL_SOURCES ? "" : " source " + filter.source()) + ")";
    }

    private static String na(final long value)
    {
        return value < 0 ? "n/a" : Long.toString(value);
    }

    private static double us(final long nanos)
    {
        return nanos / 1000.0;
    }

    private static void line(final StringBuilder out, final String format, final Object... args)
    {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
