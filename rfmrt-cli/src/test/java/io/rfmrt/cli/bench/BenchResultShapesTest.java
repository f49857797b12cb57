package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.common.ChildResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bench results are records written by the CLI's mapper: their JSON keeps the names and the order the benches
 * printed when they were built as maps (docs/benchmarks.md and the tests read them by these names), a failed run
 * leaves its figures out, and a sender's result line reads back as the record it was written from.
 */
class BenchResultShapesTest
{
    /** bench play --json: the result's names, a rate's, and those of its playbacks at rate 1.0 and at max. */
    static final List<String> PLAY = List.of("benchmark", "machine", "date", "load_before", "load_after", "seconds",
        "runs");
    static final List<String> PLAY_RUN = List.of("rate_hz", "frames_recorded", "recorded_span_s", "rate_1",
        "rate_max", "lost");
    static final List<String> PLAY_RATE_1 = List.of("frames", "duration_s", "frames_per_s", "timing_error_p50_us",
        "timing_error_p99_us", "timing_error_p999_us", "timing_error_max_us", "handled", "gaps", "lost", "placement");
    static final List<String> PLAY_RATE_MAX = List.of("frames", "duration_s", "frames_per_s", "receiver_waits",
        "stalled", "handled", "gaps", "lost", "placement");

    private static final MachineInfo MACHINE = new MachineInfo("cpu", 2, "6.1", "#1 SMP", false, "", "jvm");

    @Test
    void shouldWriteAModeRunWithItsFiguresAndCountsInTheOrderOfTheRows()
    {
        final JsonNode run = tree(modeRun(null));
        assertThat(run.fieldNames()).toIterable().containsExactly("mode", "wait", "journal", "sender", "sent",
            "send_rate_hz", "sender_late_max_ns", "sender_late_at_s", "sender_burst_max", "sender_burst_at_s",
            "frames", "lost", "mean_us", "p50_us", "p90_us", "p99_us", "p999_us", "max_us", "cpu_pct",
            "histogram", "gaps", "gaps_in_warmup", "dma_dropped_in_warmup", "torn", "dma_missing", "fifo_overflows",
            "dma_dropped", "handoff_full", "events", "empty_wakes", "bounded_drains", "errors", "stages_p50_us",
            "threads", "skips", "failure", "valid");
        assertThat(run.get("stages_p50_us").fieldNames()).toIterable().containsExactly("transfer", "isr");
        assertThat(run.get("threads").get(0).fieldNames()).toIterable()
            .containsExactly("thread", "minor_faults", "involuntary_switches");
        assertThat(run.get("lost").asLong()).isEqualTo(2);
        assertThat(run.get("failure").isNull()).isTrue();
        assertThat(run.get("cpu_pct").asDouble()).isEqualTo(12.5);
        assertThat(run.get("sender_late_max_ns").asLong()).isEqualTo(12_300_000);
        assertThat(run.get("sender_late_at_s").asDouble()).isEqualTo(2.101);
        assertThat(run.get("sender_burst_max").asLong()).isEqualTo(2_461);
        assertThat(run.get("sender_burst_at_s").asDouble()).isEqualTo(2.1);
        // the skips as bench hosts writes them
        assertThat(run.get("skips").fieldNames()).toIterable().containsExactly("in_warmup", "after_warmup", "first_s",
            "last_s");
        assertThat(run.get("skips").get("after_warmup").asLong()).isEqualTo(2);
    }

    @Test
    void shouldLeaveTheSendersHoldUpsOutOfABurstRunAndWriteNullsForASenderNeverLate()
    {
        final BenchRun.ModeRun m = modeRun(null);
        final BenchRun.ModeRun burst = new BenchRun.ModeRun(m.mode(), m.waitStrategy(), m.journal(), "burst",
            m.sent(), m.sendRateHz(), null, m.figures(), m.counts(), null, true);
        assertThat(names(tree(burst))).doesNotContain("sender_late_max_ns", "sender_late_at_s", "sender_burst_max",
            "sender_burst_at_s").contains("skips");
        final BenchRun.ModeRun onTime = new BenchRun.ModeRun(m.mode(), m.waitStrategy(), m.journal(), m.sender(),
            m.sent(), m.sendRateHz(), new SenderHoldUps.Figures(0, null, 0, null), m.figures(), m.counts(), null, true);
        final JsonNode run = tree(onTime);
        assertThat(run.get("sender_late_max_ns").asLong()).isZero();
        assertThat(run.get("sender_late_at_s").isNull()).isTrue();
        assertThat(run.get("sender_burst_max").asLong()).isZero();
        assertThat(run.get("sender_burst_at_s").isNull()).isTrue();
    }

    @Test
    void shouldSayARowsLossWithItsSkipsAndItsSendersHoldUpsUnderTheTable()
    {
        final java.io.StringWriter text = new java.io.StringWriter();
        final java.io.PrintWriter out = new java.io.PrintWriter(text);
        BenchCompare.lostLine(out, "interrupt", modeRun(null));
        BenchCompare.senderLine(out, "interrupt", modeRun(null));
        BenchCompare.lostLine(out, "interrupt", modeRun("the receive thread died"));
        final BenchRun.ModeRun m = modeRun(null);
        final BenchRun.Counts c = m.counts();
        final BenchRun.Counts atTheEnd = new BenchRun.Counts(0, 0, 0, 0, 0, 0, 2, 0, c.events(), 0, 0, 0,
            c.stagesP50Us(), c.threads(), new SequenceSkips.Figures(0, 0, null, null));
        BenchCompare.lostLine(out, "interrupt-inline", new BenchRun.ModeRun("interrupt-inline", m.waitStrategy(),
            false, m.sender(), m.sent(), m.sendRateHz(), m.holdUps(), m.figures(), atTheEnd, null, true));
        out.flush();
        assertThat(text.toString().lines()).containsExactly(
            "lost by interrupt: gaps 2, not counted 0 (not handled when the receiver stopped, 2 s after the last " +
                "send); missing by number 0 in the warm-up, 2 after it, seen from 0.25 s to 0.25 s after the first " +
                "frame",
            "sender for interrupt: longest late 12.3 ms at 2.101 s, largest catch-up burst 2461 frames at 2.1 s " +
                "after the first frame",
            "lost by interrupt-inline: dma_dropped 2, not counted 2 (not handled when the receiver stopped, 2 s after " +
                "the last send); none missing by number: every frame lost came after the last one handled");
    }

    @Test
    void shouldReadTheReceiversSkipsBackIntoTheCountsAndLeaveThemOutWhenItGaveNone() throws Exception
    {
        final JsonNode written = tree(modeRun(null));
        assertThat(BenchRun.Counts.of(written).skips()).isEqualTo(modeRun(null).counts().skips());
        final com.fasterxml.jackson.databind.node.ObjectNode without = written.deepCopy();
        without.remove("skips");
        assertThat(BenchRun.Counts.of(without).skips()).isNull();
        assertThat(names(tree(BenchRun.Counts.of(without)))).doesNotContain("skips");
    }

    @Test
    void shouldLeaveTheFiguresOutOfARunWhoseReceiverGaveNoResult()
    {
        final BenchRun.ModeRun failed = new BenchRun.ModeRun("interrupt", "BLOCKING", false, "uniform-jitter", 100, 99,
            new SenderHoldUps.Figures(1_000, 0.5, 0, null), null, null,
            "the receiver process ended without a result (exit 1)", false);
        assertThat(tree(failed).fieldNames()).toIterable().containsExactly("mode", "wait", "journal", "sender",
            "sent", "send_rate_hz", "sender_late_max_ns", "sender_late_at_s", "sender_burst_max", "sender_burst_at_s",
            "failure", "valid");
    }

    @Test
    void shouldSayWhyARowThatDidNotFailHasNoCpuFigure()
    {
        final BenchRun.ModeRun m = modeRun(null);
        final String why = "the sending after the warm-up lasted 40.0 ms as the receiver watched it, under the 100 ms" +
            " a CPU figure needs (the sender or the watching thread was held up)";
        final BenchRun.ModeRun untimed = new BenchRun.ModeRun(m.mode(), m.waitStrategy(), m.journal(), m.sender(),
            m.sent(), m.sendRateHz(), m.holdUps(), new BenchRun.ReceiverFigures(998, 2, 10.0, 9.0, 11.0, 20.0, 30.0,
            40.0, null, "HISTOGRAM"), m.counts(), null, false, why);
        final JsonNode row = tree(untimed);
        final List<String> names = names(row);
        assertThat(names.subList(names.size() - 3, names.size())).containsExactly("failure", "valid", "cpu_untimed");
        assertThat(row.get("cpu_pct").isNull()).isTrue();
        assertThat(row.get("cpu_untimed").asText()).isEqualTo(why);
        assertThat(names(tree(untimed.forPeers()))).contains("cpu_untimed");
        assertThat(names(tree(m))).doesNotContain("cpu_untimed");

        final Histogram histogram = Histograms.create();
        histogram.recordValue(12_000);
        final BenchRun.Floors floors = new BenchRun.Floors(BenchRun.Floor.of("cyclictest", histogram),
            BenchRun.Floor.of("wake", histogram));
        final java.io.StringWriter text = new java.io.StringWriter();
        BenchCompare.table(new java.io.PrintWriter(text, true), List.of(m, untimed), floors);
        final List<String> lines = text.toString().lines().toList();
        assertThat(lines.get(1).split(" +")[9]).as(lines.get(1)).isEqualTo("12.5");
        assertThat(lines.get(2).split(" +")[9]).as(lines.get(2)).isEqualTo("-");
        assertThat(lines).contains("no cpu% for interrupt: " + why);
    }

    @Test
    void shouldPutTheRateAfterTheRunInARampStep()
    {
        final JsonNode step = tree(new BenchRamp.RampStep(modeRun(null), 5_000));
        final List<String> names = names(step);
        assertThat(names.get(0)).isEqualTo("mode");
        assertThat(names.subList(names.size() - 3, names.size())).containsExactly("failure", "valid", "rate_hz");
        assertThat(step.get("rate_hz").asInt()).isEqualTo(5_000);
    }

    @Test
    void shouldWriteTheFloorsAndTheCompareResultAsBefore()
    {
        final Histogram histogram = Histograms.create();
        histogram.recordValue(12_000);
        final BenchRun.Floors floors = new BenchRun.Floors(BenchRun.Floor.of("cyclictest", histogram),
            BenchRun.Floor.of("plain cross-process futex wake at 1 kHz", histogram));
        final JsonNode compare = tree(new BenchCompare.Result(MACHINE, "now", 5, 1_000, 64, "uniform-jitter", "note",
            List.of(modeRun(null)), floors));
        assertThat(compare.fieldNames()).toIterable().containsExactly("machine", "date", "seconds", "rate_hz",
            "size_bytes", "sender", "note", "modes", "floors");
        assertThat(compare.get("machine").fieldNames()).toIterable().containsExactly("cpu", "cpus", "kernel",
            "kernel_version", "preempt_rt", "isolated_cpus", "java");
        final JsonNode timer = compare.get("floors").get("timer");
        assertThat(compare.get("floors").fieldNames()).toIterable().containsExactly("timer", "wake");
        assertThat(timer.fieldNames()).toIterable().containsExactly("tool", "count", "p50_us", "p90_us", "p99_us",
            "p999_us", "max_us", "mean_us");
        assertThat(timer.get("p50_us").asDouble()).isEqualTo(12.0);
        assertThat(timer.get("count").asLong()).isEqualTo(1);
    }

    @Test
    void shouldWriteTheBurstAndEventsResultsAsBefore()
    {
        assertThat(tree(new BenchBurst.Result("burst", MACHINE, "now", 2_000, 20, 100.0, 64,
            List.of(modeRun(null)))).fieldNames()).toIterable().containsExactly("benchmark", "machine", "date",
            "frames_per_burst", "bursts", "gap_ms", "size_bytes", "modes");
        final Histogram histogram = Histograms.create();
        histogram.recordValue(5_000);
        final JsonNode events = tree(new BenchEvents.Result("events", "now", MACHINE, 100, 1_000,
            List.of(new BenchEvents.EventMode("rfm-event", Histograms.Percentiles.of(histogram)))));
        assertThat(events.fieldNames()).toIterable().containsExactly("benchmark", "date", "machine", "count",
            "rate_hz", "modes");
        assertThat(events.get("modes").get(0).fieldNames()).toIterable().containsExactly("mode", "count", "p50_us",
            "p90_us", "p99_us", "p999_us", "max_us");
    }

    @Test
    void shouldWriteThePlaybackOfARateWithItsTimingAndOfTheMaximumRateWithItsWaits()
    {
        final BenchPlay.Play timed = new BenchPlay.Play(1_000, 1.0, 999.0, 1.5, 2.5, 3.5, 4.5, null, null, 1_000, 0,
            0, "player on cpu 1");
        final BenchPlay.Play max = new BenchPlay.Play(1_000, 0.1, 9_990.0, null, null, null, null, 3L, false, 1_000,
            0, 0, "player on cpu 1");
        final JsonNode result = tree(new BenchPlay.Result("play", MACHINE, "now", 1.0, 1.5, 1,
            List.of(new BenchPlay.PlayRun(1_000, 1_000, 0.999, timed, max, 0))));
        assertThat(names(result)).isEqualTo(PLAY);
        final JsonNode run = result.get("runs").get(0);
        assertThat(names(run)).isEqualTo(PLAY_RUN);
        assertThat(names(run.get("rate_1"))).isEqualTo(PLAY_RATE_1);
        assertThat(names(run.get("rate_max"))).isEqualTo(PLAY_RATE_MAX);
    }

    @Test
    void shouldReadASendersResultLineBackAsTheRecordItWroteAndCountTheCpuOverTheSending()
    {
        // 1,000 frames in 0.5 s, 3 refused; 0.1 s of CPU over the 0.5 s: 20 %
        final BenchRows.SendFigures sent = BenchRows.SendFigures.of(new long[] {1_000, 500_000_000L, 3, 0},
            100_000_000L, null);
        assertThat(sent.sendRateHz()).isEqualTo(2_000);
        assertThat(sent.cpuPct()).isEqualTo(20.0);
        final String line = ChildResult.PREFIX + ChildResult.json(sent);
        assertThat(ChildResult.tree(line).fieldNames()).toIterable().containsExactly("sent", "send_rate_hz",
            "refused", "cpu_pct", "failure");
        assertThat(ChildResult.read(line, BenchRows.SendFigures.class)).isEqualTo(sent);
        assertThat(BenchRows.SendFigures.of(new long[] {0, 0, 0, 0}, 5, "no sending").cpuPct()).isNull();
    }

    @Test
    void shouldJudgeATargetByItsRatioAndSayWhenARowIsMissing()
    {
        final BenchRows.RowTarget met = BenchRows.RowTarget.ratio("a within 1.5x of b", 14.0, 10.0);
        assertThat(met.met()).isTrue();
        assertThat(met.line()).isEqualTo("target: a within 1.5x of b: met (p50 14.0 vs 10.0 us, ratio 1.40)");
        assertThat(BenchRows.RowTarget.ratio("t", 16.0, 10.0).met()).isFalse();
        final BenchRows.RowTarget missing = BenchRows.RowTarget.unmeasured("t");
        assertThat(missing.line()).isEqualTo("target: t: not measured (a row is missing or failed)");
        assertThat(tree(missing).fieldNames()).toIterable().containsExactly("target", "met", "figures");
        assertThat(tree(missing).get("met").isNull()).isTrue();
    }

    @Test
    void shouldWriteAnRfmrtPeersRowAsTheModesRunWithoutItsNameAndHistogram()
    {
        final JsonNode row = tree(new PeersRow("rfmrt-inline", "rfmrt interrupt path", 1_000, null,
            new PeersRow.RfmrtSide(modeRun(null).forPeers(), null), null));
        assertThat(row.fieldNames()).toIterable().containsExactly("transport", "what", "rate_hz", "wait", "journal",
            "sender", "sent", "send_rate_hz", "sender_late_max_ns", "sender_late_at_s", "sender_burst_max",
            "sender_burst_at_s", "frames", "lost", "mean_us", "p50_us", "p90_us", "p99_us", "p999_us",
            "max_us", "cpu_pct", "gaps", "gaps_in_warmup", "dma_dropped_in_warmup", "torn", "dma_missing",
            "fifo_overflows", "dma_dropped", "handoff_full", "events", "empty_wakes", "bounded_drains", "errors",
            "stages_p50_us", "threads", "skips", "failure", "valid", "bench_side_cpu_pct");
        assertThat(row.get("bench_side_cpu_pct").isNull()).isTrue();
    }

    @Test
    void shouldWriteAPeersRowAsFarAsItsRunCame()
    {
        final PeersRow.Sending sending = PeersRow.Sending.of(BenchRows.SendFigures.of(
            new long[] {1_000, 1_000_000_000L, 0, 0}, 0, null));
        final JsonNode done = tree(new PeersRow("aeron-backoff", "Aeron IPC", 1_000, "SHARED",
            new PeersRow.PeerSide("uniform-jitter", sending, modeRun(null).figures().withoutHistogram(), null, true),
            null));
        assertThat(done.fieldNames()).toIterable().containsExactly("transport", "what", "rate_hz", "aeron_threading",
            "sender", "sent", "send_rate_hz", "refused_by_sender", "bench_side_cpu_pct", "frames", "lost", "mean_us",
            "p50_us", "p90_us", "p99_us", "p999_us", "max_us", "cpu_pct", "failure", "valid");
        assertThat(tree(new PeersRow("udp", "UDP", 1_000, null, PeersRow.PeerSide.failed("uniform-jitter", sending,
            "no result"), null)).fieldNames()).toIterable().containsExactly("transport", "what", "rate_hz", "sender",
            "sent", "send_rate_hz", "refused_by_sender", "bench_side_cpu_pct", "failure", "valid");
        assertThat(tree(new PeersRow("udp", "UDP", 1_000, null, PeersRow.PeerSide.failed("uniform-jitter", null,
            "not ready"), null)).fieldNames()).toIterable().containsExactly("transport", "what", "rate_hz", "sender",
            "failure", "valid");
        final PeersRow probe = new PeersRow("aeron-backoff", "Aeron IPC", 1_000, "DEDICATED",
            PeersRow.PeerSide.failed(null, null, "the sending side failed"), null).probe("DEDICATED");
        assertThat(tree(probe).fieldNames()).toIterable().containsExactly("transport", "what", "rate_hz",
            "aeron_threading", "failure", "valid", "threading");
    }

    @Test
    void shouldWriteAHostsRowWithWhatWentOverTheLinkOrOnlyItsFailure()
    {
        final BenchHosts.Row bridge = BenchHosts.ROWS.get(0);
        final JsonNode done = tree(BenchHosts.HostsRow.of(bridge, 1_000, new BenchHosts.Transfer(1_000, 1_000, 0,
            modeRun(null).figures().withoutHistogram(), Map.of("gaps", 0L),
            new SequenceSkips.Figures(0, 0, null, null), 3.5, 7.5), null));
        assertThat(done.fieldNames()).toIterable().containsExactly("row", "kind", "idle", "threading", "floor",
            "rate_hz", "sent", "send_rate_hz", "refused_by_sender", "frames", "lost", "mean_us", "p50_us", "p90_us",
            "p99_us", "p999_us", "max_us", "cpu_pct", "loss_causes", "skips", "tx_cpu_pct", "bridges_cpu_pct",
            "failure");
        assertThat(tree(BenchHosts.HostsRow.of(bridge, 1_000, null, "the receiver was not ready")).fieldNames())
            .toIterable().containsExactly("row", "kind", "idle", "threading", "floor", "rate_hz", "failure");
    }

    @Test
    void shouldWriteTheJmhReportAsBefore()
    {
        final JsonNode report = tree(new BenchJmh.JmhReport("jmh", MACHINE, "now",
            List.of(new BenchJmh.JmhFigures("publish", 12.5, null, 0.0, 0.0)), List.of()));
        assertThat(report.fieldNames()).toIterable().containsExactly("benchmark", "machine", "date", "results",
            "allocating");
        assertThat(report.get("results").get(0).fieldNames()).toIterable().containsExactly("name", "ns_per_op",
            "error_ns", "bytes_per_op", "gc_count");
        assertThat(report.get("results").get(0).get("error_ns").isNull()).isTrue();
    }

    private static BenchRun.ModeRun modeRun(final String failure)
    {
        final Map<String, Double> stages = new LinkedHashMap<>();
        stages.put("transfer", 1.5);
        stages.put("isr", 2.5);
        return new BenchRun.ModeRun("interrupt", "BLOCKING", false, "uniform-jitter", 1_000, 1_000,
            new SenderHoldUps.Figures(12_300_000, 2.101, 2_461, 2.1),
            new BenchRun.ReceiverFigures(998, 2, 10.0, 9.0, 11.0, 20.0, 30.0, 40.0, 12.5, "HISTOGRAM"),
            new BenchRun.Counts(2, 0, 0, 0, 0, 0, 0, 0, 998, 0, 0, 0, stages,
                List.of(new BenchCompare.Receiver.ThreadHygiene("rfmrt-isr", 0, 1)),
                new SequenceSkips.Figures(0, 2, 0.25, 0.25)), failure, failure == null);
    }

    private static JsonNode tree(final Object record)
    {
        return ChildResult.MAPPER.valueToTree(record);
    }

    static List<String> names(final JsonNode node)
    {
        final List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
