package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.journal.RecordKind;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Replay counts what was journalled: frames, holes in seq, faults by code, deadline misses, trips; exports CSV and
 * .hgrm; says one clear line for folders without journals.
 */
class ReplayTest
{
    private static final int FRAMES = 2_000;
    private static final long[] SKIPPED = {100, 101, 102, 500};

    @TempDir
    Path temp;

    static void retry(final BooleanSupplier write)
    {
        while (!write.getAsBoolean())
        {
            Thread.onSpinWait();
        }
    }

    /**
     * Node 2 receives frames 1..FRAMES from source 1 minus {@link #SKIPPED}, two TORN and one CRC fault, three
     * deadline misses, one trip and recovery.
     */
    static void writeJournal(final Path dir, final int nodeId, final long[] skipped)
    {
        try (Journal journal = Journal.start(JournalConfig.of(dir, nodeId)))
        {
            final JournalWriter w = journal.newWriter("consumer");
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[32]);
            final long base = System.nanoTime();
            outer:
            for (long seq = 1; seq <= FRAMES; seq++)
            {
                for (final long s : skipped)
                {
                    if (s == seq)
                    {
                        continue outer;
                    }
                }
                final long send = base + seq * 1_000_000L;
                final long s = seq;
                retry(() -> w.frame(s, 1, 0, 7, send, send + 10_000, send + 12_000, send + 15_000,
                    send + 20_000 + (s == 777 ? 5_000_000 : 0), payload, 0, 32));
            }
            retry(() -> w.fault(1, 100, 1, base + 100_000_000L));
            retry(() -> w.fault(1, 101, 1, base + 101_000_000L));
            retry(() -> w.fault(2, 102, 1, base + 102_000_000L));
            for (int i = 0; i < 3; i++)
            {
                final long at = base + (300 + i) * 1_000_000L;
                retry(() -> w.fault(ReplayCodes.FAULT_DEADLINE_MISS, 300, 50_000, at));
            }
            retry(() -> w.state(ReplayCodes.STATE_RUNNING, ReplayCodes.STATE_SAFE, base + 1_000_000_000L));
            retry(() -> w.state(ReplayCodes.STATE_SAFE, ReplayCodes.STATE_RECOVERING, base + 1_100_000_000L));
            retry(() -> w.state(ReplayCodes.STATE_RECOVERING, ReplayCodes.STATE_RUNNING, base + 1_200_000_000L));
        }
    }

    @Test
    void shouldCountWhatWasJournalled() throws Exception
    {
        final Path dir = temp.resolve("run");
        writeJournal(dir.resolve("journal").resolve("node-2"), 2, SKIPPED);
        final Path csv = temp.resolve("frames.csv");
        final ReplaySummary summary;
        try (ReplayExports.Csv export = new ReplayExports.Csv(csv))
        {
            summary = Replay.run(dir, ReplayFilter.ALL, List.of(export));
        }
        assertThat(summary.nodes()).hasSize(1);
        final NodeAnalysis node = summary.nodes().get(0);
        assertThat(node.name()).isEqualTo("journal/node-2");
        assertThat(node.nodeId()).isEqualTo(2);
        assertThat(node.count(RecordKind.FRAME)).isEqualTo(FRAMES - SKIPPED.length);
        assertThat(node.count(RecordKind.FAULT)).isEqualTo(6);
        assertThat(node.faults(1)).isEqualTo(2);
        assertThat(node.faults(2)).isEqualTo(1);
        assertThat(node.deadlineMisses()).isEqualTo(3);
        assertThat(node.trips()).isEqualTo(1);
        assertThat(node.recoveries()).isEqualTo(1);
        assertThat(node.fifoOverflows()).isEqualTo(-1);
        final SourceStats source = node.sources().get(0);
        assertThat(source.missing()).isEqualTo(SKIPPED.length);
        assertThat(source.holes()).isEqualTo(2);
        assertThat(summary.worstFrames().get(0).seq()).isEqualTo(777);
        assertThat(summary.worstFrames()).hasSize(Replay.WORST_FRAMES);
        assertThat(summary.text()).contains("losses: gaps 4, torn 2, CRC 1, FIFO overflows n/a", "deadline misses 3",
            "watchdog trips 1");
        final List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).isEqualTo(ReplayExports.CSV_HEADER);
        assertThat(lines).hasSize(1 + FRAMES - SKIPPED.length);

        final Path hgrm = temp.resolve("stages.hgrm");
        ReplayExports.writeHgrm(summary, hgrm);
        final String text = Files.readString(hgrm);
        assertThat(text).startsWith("# stage e2e");
        assertThat(text).contains("Value     Percentile TotalCount 1/(1-Percentile)", "#[Mean    =",
            "#[Max     =", "#[Buckets =");
        assertThat(text.split("# stage ", -1)).hasSize(6);
        final String firstValue = text.lines().filter(l -> l.matches("\\s+[0-9.]+\\s+[0-9.]+\\s+\\d+.*"))
            .findFirst().orElseThrow();
        assertThat(Double.parseDouble(firstValue.trim().split("\\s+")[0])).isBetween(19.9, 20.1);
    }

    @Test
    void shouldFilterBySourceAndTimeAndMatchAcrossNodes()
    {
        final Path dir = temp.resolve("two");
        writeJournal(dir.resolve("node-2"), 2, SKIPPED);
        writeJournal(dir.resolve("node-3"), 3, new long[] {5});
        final ReplaySummary all = Replay.run(dir, ReplayFilter.ALL, List.of());
        assertThat(all.nodes()).hasSize(2);
        assertThat(all.matcher().result().get(1)).containsEntry("frames", (long)FRAMES)
            .containsEntry("seen_by_all", (long)FRAMES - SKIPPED.length - 1);
        final ReplaySummary none = Replay.run(dir, new ReplayFilter(null, null, 9), List.of());
        assertThat(none.frames()).isZero();
        final ReplaySummary late = Replay.run(dir.resolve("node-3"),
            new ReplayFilter(TimeBound.parse("+100h"), null, ReplayFilter.ALL_SOURCES), List.of());
        assertThat(late.frames()).isZero();
    }

    @Test
    void shouldSayClearlyWhenThereIsNoJournal() throws Exception
    {
        assertThatThrownBy(() -> Replay.run(temp.resolve("missing"), ReplayFilter.ALL, List.of()))
            .isInstanceOf(ReplayException.class).hasMessageContaining("does not exist");
        Files.createDirectories(temp.resolve("empty"));
        assertThatThrownBy(() -> Replay.run(temp.resolve("empty"), ReplayFilter.ALL, List.of()))
            .isInstanceOf(ReplayException.class).hasMessageContaining("no journal under");
        Files.writeString(temp.resolve("empty").resolve("notes.txt"), "hello");
        assertThatThrownBy(() -> Replay.run(temp.resolve("empty"), ReplayFilter.ALL, List.of()))
            .isInstanceOf(ReplayException.class).hasMessageContaining("no journal under");
        assertThatThrownBy(() -> TimeBound.parse("soon")).isInstanceOf(ReplayException.class)
            .hasMessageContaining("'soon'");
        assertThat(TimeBound.parse("+2.5s").nanos()).isEqualTo(2_500_000_000L);
        assertThat(TimeBound.parse("500ms").nanos()).isEqualTo(500_000_000L);
        assertThat(TimeBound.parse("2026-12-02T17:13:29Z").relative()).isFalse();
    }
}
