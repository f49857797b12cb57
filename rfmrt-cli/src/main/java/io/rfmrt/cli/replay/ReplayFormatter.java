package io.rfmrt.cli.replay;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.control.replay.ControlAnalysis;
import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.replay.FrameMatcher;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplaySummary;
import io.rfmrt.runtime.replay.ReplayVocabulary;
import io.rfmrt.runtime.replay.SourceStats;
import io.rfmrt.runtime.replay.WorstFrames;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders a replay for {@code rfmrt replay}: the report for a terminal, the records of {@code --json} and the
 * line per second of {@code --follow}, from the generic {@link ReplaySummary} and the control loop's
 * {@link ControlAnalysis} of the same pass. See docs/replay.md.
 */
final class ReplayFormatter
{
    private ReplayFormatter()
    {
    }

    /**
     * @param summary the replay.
     * @param control the control figures of the same pass.
     * @return the report for a terminal, lines ending in '\n'.
     */
    static String text(final ReplaySummary summary, final ControlAnalysis control)
    {
        final Path dir = summary.dir();
        final List<NodeAnalysis> nodes = summary.nodes();
        final ReplayFilter filter = summary.filter();
        final FrameMatcher matcher = summary.matcher();
        final StringBuilder out = new StringBuilder(4096);
        line(out, "replay %s: %d journal%s, %,d records read%s", dir, nodes.size(), nodes.size() == 1 ? "" : "s",
            summary.recordsRead(), filter.any() ? describe(filter) : "");
        for (final NodeAnalysis node : nodes)
        {
            node(out, node, summary.vocabulary(), control.of(node));
        }
        final List<WorstFrames.Frame> worst = summary.worstFrames();
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

    private static void node(final StringBuilder out, final NodeAnalysis node, final ReplayVocabulary vocabulary,
        final ControlAnalysis.ControlFigures control)
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
            for (final Stage stage : ReplaySummary.STAGE_ORDER)
            {
                final Histogram h = source.histogram(stage);
                line(out, "    %-9s %10.1f %10.1f %10.1f %10.1f %10.1f", stage.label(), us(h.getValueAtPercentile(50)),
                    us(h.getValueAtPercentile(90)), us(h.getValueAtPercentile(99)),
                    us(h.getValueAtPercentile(99.9)), us(h.getMaxValue()));
            }
        }
        final String safety = !control.safetyMeasured() ?
            "deadline misses and watchdog trips not measured (no built-in controller in this node)" :
            String.format(Locale.ROOT, "deadline misses %d%s, watchdog trips %d (recoveries %d)",
            control.deadlineMisses(), control.deadlineMisses() > 0 ? String.format(Locale.ROOT, " (worst %.1f µs late)",
            us(control.maxLatenessNanos())) : "", control.trips(), control.recoveries());
        line(out, "  losses: gaps %d, torn %d, CRC %d, FIFO overflows %s, journal drops %s,%n          %s", missing,
            node.faults(1), node.faults(2), na(node.fifoOverflows()), na(node.journalDrops()), safety);
        if (!node.faults().isEmpty())
        {
            final StringBuilder faults = new StringBuilder();
            node.faults().forEach((code, n) -> faults.append(faults.length() == 0 ? "" : ", ")
                .append(vocabulary.faultName(code)).append(' ').append(n));
            line(out, "  faults: %s", faults);
        }
        if (!node.transitions().isEmpty())
        {
            // by name, as "FROM -> TO", in name order
            final Map<String, Long> states = new TreeMap<>();
            node.transitions().forEach((t, n) -> states.merge(vocabulary.stateName(t.from()) + " -> " +
                vocabulary.stateName(t.to()), n, Long::sum));
            line(out, "  states: %s", states);
        }
        if (control.controlCycles() > 0)
        {
            line(out, "  control: %,d cycles, tracking rms %.3e rad, max %.3e rad, cycle latency max %.1f µs",
                control.controlCycles(), control.trackingRms(), control.trackingMax(),
                control.maxCycleLatencyMicros());
        }
        final CycleStatistics.Figures loop = control.loop();
        if (loop.cycles() > 0)
        {
            line(out, "  loop: %,d cycles, period p50 %.1f p99 %.1f max %.1f min %.1f µs, jitter p99 %.1f max %.1f µs",
                loop.cycles(), loop.periodP50Us(), loop.periodP99Us(), loop.periodMaxUs(), loop.periodMinUs(),
                loop.jitterP99Us(), loop.jitterMaxUs());
            line(out, "        execution (thread CPU) p50 %.1f p99 %.1f max %.1f µs, overruns %d, skipped frames %d, " +
                "late commands %d, missed ticks %d, drive faults %d", loop.executionP50Us(), loop.executionP99Us(),
                loop.executionMaxUs(), loop.overruns(), control.skippedFrames(), control.lateCommands(),
                control.missedTicks(), control.driveFaults());
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

    /**
     * @param summary the replay.
     * @param control the control figures of the same pass.
     * @param rerun   what {@code --rerun} found, or null.
     * @return what {@code --json} prints; times in µs.
     */
    static Report report(final ReplaySummary summary, final ControlAnalysis control, final ReplayCommand.Rerun rerun)
    {
        final List<JournalFigures> journals = new ArrayList<>();
        for (final NodeAnalysis node : summary.nodes())
        {
            journals.add(JournalFigures.of(node, summary.vocabulary(), control.of(node)));
        }
        final List<WorstFrame> worst = new ArrayList<>();
        for (final WorstFrames.Frame f : summary.worstFrames())
        {
            worst.add(new WorstFrame(f.node(), f.source(), f.seq(), us(f.e2eNanos()), us(f.transferNanos()),
                us(f.isrNanos()), us(f.handoffNanos()), us(f.handlerNanos())));
        }
        Map<String, Map<String, Object>> across = null;
        if (summary.matcher() != null)
        {
            final Map<String, Map<String, Object>> match = new LinkedHashMap<>();
            summary.matcher().result().forEach((source, row) -> match.put(String.valueOf(source), row));
            across = match;
        }
        return new Report(summary.dir().toString(), summary.recordsRead(), summary.frames(), journals, worst, across,
            rerun);
    }

    /**
     * What {@code rfmrt replay --json} prints.
     *
     * @param dir            the folder replayed.
     * @param recordsRead    records read.
     * @param frames         FRAME records kept.
     * @param journals       each journal's figures.
     * @param worstFrames    the worst frames by end-to-end latency.
     * @param acrossJournals per source reaching more than one journal (by its node id): the matcher's figures;
     *                       there only when several journals were read.
     * @param rerun          what {@code --rerun} found; there only with it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Report(String dir, long recordsRead, long frames, List<JournalFigures> journals,
        List<WorstFrame> worstFrames, Map<String, Map<String, Object>> acrossJournals, ReplayCommand.Rerun rerun)
    {
    }

    /**
     * One journal's figures. The record counts, faults and stages are keyed by their names.
     *
     * @param journal         its name.
     * @param read            whether it was read.
     * @param nodeId          its node.
     * @param records         records kept.
     * @param byKind          records by kind.
     * @param spanS           first to last record kept, s.
     * @param sources         each source's frames.
     * @param faults          FAULT records by name.
     * @param gaps            frames missing in gaps, all sources.
     * @param torn            torn frames.
     * @param crcErrors       CRC errors.
     * @param fifoOverflows   the card's FIFO overflows, or "n/a".
     * @param journalDrops    records the journal dropped, or "n/a".
     * @param deadlineMisses  deadline misses.
     * @param commandStale    stale commands.
     * @param watchdogTrips   watchdog trips.
     * @param recoveries      recoveries.
     * @param controlCycles   control cycles.
     * @param trackingRms     tracking error rms, rad.
     * @param trackingMax     its largest, rad.
     * @param loop            the loop's cycle figures, null without cycles (written as null).
     * @param skippedFrames   frames the controller skipped.
     * @param lateCommands    commands the plant took late.
     * @param missedTicks     ticks the plant missed.
     * @param driveFaults     drive faults.
     * @param problem         why reading stopped, or null.
     * @param damagedRegions  regions skipped as damaged.
     * @param damaged         the first of them.
     */
    record JournalFigures(String journal, boolean read, int nodeId, long records, Map<String, Long> byKind,
        double spanS, List<SourceFigures> sources, Map<String, Long> faults, long gaps, long torn, long crcErrors,
        Object fifoOverflows, Object journalDrops, long deadlineMisses, long commandStale, long watchdogTrips,
        long recoveries, long controlCycles, double trackingRms, double trackingMax, CycleStatistics.Figures loop,
        long skippedFrames, long lateCommands, long missedTicks, long driveFaults, String problem,
        long damagedRegions, List<String> damaged)
    {
        static JournalFigures of(final NodeAnalysis node, final ReplayVocabulary vocabulary,
            final ControlAnalysis.ControlFigures c)
        {
            final Map<String, Long> kinds = new LinkedHashMap<>();
            for (final RecordKind kind : RecordKind.values())
            {
                kinds.put(kind.name(), node.count(kind));
            }
            final List<SourceFigures> sources = new ArrayList<>();
            for (final SourceStats source : node.sources())
            {
                sources.add(SourceFigures.of(source));
            }
            final Map<String, Long> faults = new LinkedHashMap<>();
            node.faults().forEach((code, count) -> faults.put(vocabulary.faultName(code), count));
            return new JournalFigures(node.name(), node.opened(), node.nodeId(), node.recordsKept(), kinds,
                node.spanSeconds(), sources, faults, node.sources().stream().mapToLong(SourceStats::missing).sum(),
                node.faults(1), node.faults(2), node.fifoOverflows() < 0 ? "n/a" : node.fifoOverflows(),
                node.journalDrops() < 0 ? "n/a" : node.journalDrops(), c.deadlineMisses(), c.commandStale(),
                c.trips(), c.recoveries(), c.controlCycles(), c.trackingRms(), c.trackingMax(),
                c.loop().cycles() == 0 ? null : c.loop(), c.skippedFrames(), c.lateCommands(), c.missedTicks(),
                c.driveFaults(), node.problem(), node.damageCount(), node.damage());
        }
    }

    /**
     * One source's frames in a journal.
     *
     * @param source     its node id.
     * @param frames     frames.
     * @param ratePerS   frames per second.
     * @param firstSeq   first sequence number.
     * @param lastSeq    last sequence number.
     * @param missing    frames missing.
     * @param gaps       gaps they were missing in.
     * @param outOfOrder frames out of order.
     * @param stagesUs   each stage's percentiles, µs, by its label.
     */
    record SourceFigures(int source, long frames, double ratePerS, long firstSeq, long lastSeq, long missing,
        long gaps, long outOfOrder, Map<String, StagePercentiles> stagesUs)
    {
        static SourceFigures of(final SourceStats source)
        {
            final Map<String, StagePercentiles> stages = new LinkedHashMap<>();
            for (final Stage stage : ReplaySummary.STAGE_ORDER)
            {
                stages.put(stage.label(), StagePercentiles.of(source.histogram(stage)));
            }
            return new SourceFigures(source.source(), source.frames(), source.rate(), source.firstSeq(),
                source.lastSeq(), source.missing(), source.holes(), source.outOfOrder(), stages);
        }
    }

    /**
     * A stage's latency percentiles, µs.
     *
     * @param count values.
     * @param p50   median.
     * @param p90   90th percentile.
     * @param p99   99th percentile.
     * @param p999  99.9th percentile.
     * @param max   largest.
     */
    record StagePercentiles(long count, double p50, double p90, double p99, @JsonProperty("p99.9") double p999,
        double max)
    {
        static StagePercentiles of(final Histogram h)
        {
            return new StagePercentiles(h.getTotalCount(), us(h.getValueAtPercentile(50)),
                us(h.getValueAtPercentile(90)), us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)),
                us(h.getMaxValue()));
        }
    }

    /**
     * One of the worst frames by end-to-end latency, its stages in µs.
     *
     * @param journal    the journal it is in.
     * @param source     its source node.
     * @param seq        its sequence number.
     * @param e2eUs      end to end.
     * @param transferUs transfer.
     * @param isrUs      ISR wake.
     * @param handoffUs  hand-off.
     * @param handlerUs  handler.
     */
    record WorstFrame(String journal, int source, long seq, double e2eUs, double transferUs, double isrUs,
        double handoffUs, double handlerUs)
    {
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

    /**
     * The line {@code --follow} prints each second.
     *
     * @param seconds since the tail started.
     * @param frames  FRAME records in that second.
     * @param e2e     their end-to-end latency, ns.
     * @param nodes   the analyses so far.
     * @param control the control figures so far.
     * @return the line, without its end.
     */
    static String followLine(final double seconds, final long frames, final Histogram e2e,
        final List<NodeAnalysis> nodes, final ControlAnalysis control)
    {
        long total = 0;
        long gaps = 0;
        long faults = 0;
        long misses = 0;
        long trips = 0;
        for (final NodeAnalysis node : nodes)
        {
            total += node.count(RecordKind.FRAME);
            gaps += node.sources().stream().mapToLong(SourceStats::missing).sum();
            faults += node.count(RecordKind.FAULT);
            final ControlAnalysis.ControlFigures c = control.of(node);
            misses += c.deadlineMisses();
            trips += c.trips();
        }
        return String.format(Locale.ROOT, "%6.1f s  %,8d frames/s (%,d total)  %s p50 %.1f p99 %.1f max %.1f µs" +
            "  gaps %d  faults %d  misses %d  trips %d", seconds, frames, total, Stage.END_TO_END.label(),
            e2e.getValueAtPercentile(50) / 1e3, e2e.getValueAtPercentile(99) / 1e3, e2e.getMaxValue() / 1e3, gaps,
            faults, misses, trips);
    }
}
