package io.rfmrt.cli.replay;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.replay.ControlAnalysis;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplaySummary;
import io.rfmrt.runtime.replay.SourceStats;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay report from the generic summary and the control figures of one pass: the losses line, faults and
 * states by name, the control line, the JSON fields and the follow line.
 */
class ReplayFormatterTest
{
    @TempDir
    Path temp;

    private static void retry(final BooleanSupplier write)
    {
        while (!write.getAsBoolean())
        {
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldSayTheSafetyFiguresWereNotMeasuredForANodeWithoutTheBuiltInController()
    {
        // a node running its own NodeApp journals frames only: no deadline monitor or watchdog ran
        final Path dir = temp.resolve("raw").resolve("journal").resolve("node-2");
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2)))
        {
            final JournalWriter w = journal.newWriter("consumer");
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[32]);
            final long base = System.nanoTime();
            for (long seq = 1; seq <= 10; seq++)
            {
                final long send = base + seq * 1_000_000L;
                final long s = seq;
                retry(() -> w.frame(s, 1, 0, 7, send, send + 10_000, send + 12_000, send + 15_000, send + 20_000,
                    payload, 0, 32));
            }
        }
        final ControlAnalysis control = new ControlAnalysis();
        final ReplaySummary summary = Replay.run(temp.resolve("raw"), ReplayFilter.ALL, ControlJournal.vocabulary(),
            List.of(control));
        assertThat(ReplayFormatter.text(summary, control)).contains(
            "  losses: gaps 0, torn 0, CRC 0, FIFO overflows n/a, journal drops n/a,\n" +
            "          deadline misses and watchdog trips not measured (no built-in controller in this node)\n")
            .doesNotContain("watchdog trips 0");
    }

    @Test
    void shouldRenderTheGenericAndTheControlFigures()
    {
        final Path dir = temp.resolve("run").resolve("journal").resolve("node-2");
        final int running = ControlJournal.stateId(AxisState.RUNNING);
        final int safe = ControlJournal.stateId(AxisState.SAFE);
        final int recovering = ControlJournal.stateId(AxisState.RECOVERING);
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2)))
        {
            final JournalWriter w = journal.newWriter("consumer");
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[32]);
            final long base = System.nanoTime();
            for (long seq = 1; seq <= 100; seq++)
            {
                if (seq == 50 || seq == 51)
                {
                    continue;
                }
                final long send = base + seq * 1_000_000L;
                final long s = seq;
                retry(() -> w.frame(s, 1, 0, 7, send, send + 10_000, send + 12_000, send + 15_000, send + 20_000,
                    payload, 0, 32));
            }
            retry(() -> w.fault(1, 60, 1, base + 60_000_000L));
            retry(() -> w.fault(2, 61, 1, base + 61_000_000L));
            retry(() -> w.fault(ControlJournal.FAULT_DEADLINE_MISS, 70, 50_000, base + 70_000_000L));
            retry(() -> w.fault(ControlJournal.FAULT_DEADLINE_MISS, 71, 75_500, base + 71_000_000L));
            retry(() -> w.fault(ControlJournal.FAULT_STALL, 72, 3_000_000, base + 72_000_000L));
            retry(() -> w.state(running, safe, base + 80_000_000L));
            retry(() -> w.state(safe, recovering, base + 81_000_000L));
            retry(() -> w.state(recovering, running, base + 82_000_000L));
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, base + 90_000_000L, 1, running, 1, 1, 0, 0, 0.003,
                41.5));
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, base + 91_000_000L, 2, running, 1, 1, 0, 0, -0.004,
                20));
        }
        final ControlAnalysis control = new ControlAnalysis();
        final ReplaySummary summary = Replay.run(temp.resolve("run"), ReplayFilter.ALL, ControlJournal.vocabulary(),
            List.of(control));
        final String text = ReplayFormatter.text(summary, control);
        assertThat(text).startsWith("replay " + temp.resolve("run") + ": 1 journal, 108 records read\n");
        assertThat(text).contains("journal/node-2 (node 2): 108 records: FRAME 98, FAULT 5, STATE 3, SAMPLE 2\n",
            "  source 1: 98 frames",
            "  losses: gaps 2, torn 1, CRC 1, FIFO overflows n/a, journal drops n/a,\n" +
            "          deadline misses 2 (worst 75.5 µs late), watchdog trips 1 (recoveries 1)\n",
            "  faults: TORN 1, CRC_ERROR 1, DEADLINE_MISS 2, STALL 1\n",
            "  states: {RECOVERING -> RUNNING=1, RUNNING -> SAFE=1, SAFE -> RECOVERING=1}\n",
            "  control: 2 cycles, tracking rms 3.536e-03 rad, max 4.000e-03 rad, cycle latency max 41.5 µs\n");

        final JsonNode map = ChildResult.MAPPER.valueToTree(ReplayFormatter.report(summary, control, null));
        assertThat(map.get("records_read").asLong()).isEqualTo(108L);
        assertThat(map.get("frames").asLong()).isEqualTo(98L);
        assertThat(map.fieldNames()).toIterable().containsExactly("dir", "records_read", "frames", "journals",
            "worst_frames");
        final JsonNode node = map.get("journals").get(0);
        assertThat(node.fieldNames()).toIterable().containsExactly("journal", "read", "node_id", "records", "by_kind",
            "span_s", "sources", "faults", "gaps", "torn", "crc_errors", "fifo_overflows", "journal_drops",
            "deadline_misses", "command_stale", "watchdog_trips", "recoveries", "control_cycles", "tracking_rms",
            "tracking_max", "loop", "skipped_frames", "late_commands", "missed_ticks", "drive_faults", "problem",
            "damaged_regions", "damaged");
        final JsonNode source = node.get("sources").get(0);
        assertThat(source.fieldNames()).toIterable().containsExactly("source", "frames", "rate_per_s", "first_seq",
            "last_seq", "missing", "gaps", "out_of_order", "stages_us");
        assertThat(source.get("stages_us").elements().next().fieldNames()).toIterable().containsExactly("count",
            "p50", "p90", "p99", "p99.9", "max");
        assertThat(node.get("gaps").asLong()).isEqualTo(2L);
        assertThat(node.get("torn").asLong()).isEqualTo(1L);
        assertThat(node.get("crc_errors").asLong()).isEqualTo(1L);
        assertThat(node.get("fifo_overflows").asText()).isEqualTo("n/a");
        assertThat(node.get("deadline_misses").asLong()).isEqualTo(2L);
        assertThat(node.get("watchdog_trips").asLong()).isEqualTo(1L);
        assertThat(node.get("recoveries").asLong()).isEqualTo(1L);
        assertThat(node.get("control_cycles").asLong()).isEqualTo(2L);
        assertThat(ChildResult.MAPPER.convertValue(node.get("faults"), new TypeReference<Map<String, Long>>()
        {
        })).isEqualTo(Map.of("TORN", 1L, "CRC_ERROR", 1L, "DEADLINE_MISS", 2L, "STALL", 1L));

        assertThat(ReplayFormatter.followLine(1.0, 98, SourceStats.newHistogram(), summary.nodes(), control))
            .endsWith("gaps 2  faults 5  misses 2  trips 1");
    }
}
