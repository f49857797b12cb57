package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.journal.RecordKind;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Replay counts what was journalled without knowing who wrote it: frames, holes in seq, faults by code, state
 * transitions and samples by id, told to listeners by kind; exports CSV, one .hgrm per stage and a tagged .hlog;
 * says one clear line for folders without journals.
 */
class ReplayTest
{
    private static final int FRAMES = 2_000;
    private static final long[] SKIPPED = {100, 101, 102, 500};
    /** An application's fault code and states, as this test registers them. */
    static final int FAULT_LATE = 100;
    static final int RUN = 1;
    static final int HOLD = 2;
    static final int RESUME = 3;
    static final int SAMPLE_HEAT = 7;

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
     * application faults {@link #FAULT_LATE}, three transitions RUN → HOLD → RESUME → RUN and two samples.
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
                retry(() -> w.fault(FAULT_LATE, 300, 50_000, at));
            }
            retry(() -> w.state(RUN, HOLD, base + 1_000_000_000L));
            retry(() -> w.state(HOLD, RESUME, base + 1_100_000_000L));
            retry(() -> w.state(RESUME, RUN, base + 1_200_000_000L));
            retry(() -> w.sample(SAMPLE_HEAT, base + 1_300_000_000L, 1, RUN, 20.5, 0.25, 0, 0, 0, 0));
            retry(() -> w.sample(SAMPLE_HEAT, base + 1_400_000_000L, 2, RUN, 21.5, 0.5, 0, 0, 0, 0));
        }
    }

    @Test
    void shouldCountWhatWasJournalled() throws Exception
    {
        final Path dir = temp.resolve("run");
        writeJournal(dir.resolve("journal").resolve("node-2"), 2, SKIPPED);
        final Path csv = temp.resolve("frames.csv");
        final ReplaySummary summary;
        final ReplayVocabulary vocabulary = ReplayVocabulary.runtime().fault(FAULT_LATE, "LATE")
            .sample(SAMPLE_HEAT, "HEAT", "temperature", "duty");
        final Kinds kinds = new Kinds(vocabulary);
        try (ReplayExports.Csv export = new ReplayExports.Csv(csv))
        {
            summary = Replay.run(dir, ReplayFilter.ALL, vocabulary, List.of(export, kinds));
        }
        assertThat(summary.vocabulary()).isSameAs(vocabulary);
        assertThat(summary.nodes()).hasSize(1);
        final NodeAnalysis node = summary.nodes().get(0);
        assertThat(node.name()).isEqualTo("journal/node-2");
        assertThat(node.nodeId()).isEqualTo(2);
        assertThat(node.count(RecordKind.FRAME)).isEqualTo(FRAMES - SKIPPED.length);
        assertThat(node.count(RecordKind.FAULT)).isEqualTo(6);
        assertThat(node.faults(1)).isEqualTo(2);
        assertThat(node.faults(2)).isEqualTo(1);
        assertThat(node.faults(FAULT_LATE)).isEqualTo(3);
        assertThat(node.faults()).containsExactly(Map.entry(1, 2L), Map.entry(2, 1L), Map.entry(FAULT_LATE, 3L));
        assertThat(node.transitions()).containsExactly(
            Map.entry(new NodeAnalysis.Transition(RUN, HOLD), 1L),
            Map.entry(new NodeAnalysis.Transition(HOLD, RESUME), 1L),
            Map.entry(new NodeAnalysis.Transition(RESUME, RUN), 1L));
        assertThat(node.sampleKinds()).containsExactly(Map.entry(SAMPLE_HEAT, 2L));
        assertThat(node.fifoOverflows()).isEqualTo(-1);
        assertThat(node.header().nodeId()).isEqualTo(2);
        assertThat(node.clock().nanos()).isEqualTo(node.header().nanos());
        // the listener was told of every record kept, by kind, after the journal was opened
        assertThat(kinds.journals).isEqualTo(1);
        assertThat(kinds.frames).isEqualTo(FRAMES - SKIPPED.length);
        assertThat(kinds.faultNames).hasToString("TORN,TORN,CRC_ERROR,LATE,LATE,LATE,");
        assertThat(kinds.states).isEqualTo(3);
        assertThat(kinds.duty).isEqualTo(0.75);
        final SourceStats source = node.sources().get(0);
        assertThat(source.missing()).isEqualTo(SKIPPED.length);
        assertThat(source.holes()).isEqualTo(2);
        assertThat(summary.worstFrames().get(0).seq()).isEqualTo(777);
        assertThat(summary.worstFrames()).hasSize(Replay.WORST_FRAMES);
        final List<String> lines = Files.readAllLines(csv);
        assertThat(lines.get(0)).isEqualTo(ReplayExports.CSV_HEADER);
        assertThat(lines).hasSize(1 + FRAMES - SKIPPED.length);

        assertStageHistogramsReadBackByHdrHistogram(summary);
    }

    /**
     * The tagged interval log, read back by HdrHistogram's own {@link HistogramLogReader}, holds each stage's
     * histogram exactly; each stage's {@code .hgrm} is what HdrHistogram's own {@link HistogramLogProcessor} prints
     * for that stage's tag in that log.
     */
    private void assertStageHistogramsReadBackByHdrHistogram(final ReplaySummary summary) throws Exception
    {
        final Path hlog = temp.resolve("stages.hlog");
        ReplayExports.writeHlog(summary, hlog);
        final Map<String, Histogram> read = new LinkedHashMap<>();
        final HistogramLogReader reader = new HistogramLogReader(hlog.toString());
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram())
        {
            assertThat(read.put(h.getTag(), (Histogram)h)).as("tag " + h.getTag() + " twice").isNull();
        }
        reader.close();
        assertThat(read.keySet()).containsExactly("e2e", "transfer", "isr", "handoff", "handler");
        for (final Stage stage : ReplaySummary.STAGE_ORDER)
        {
            final Histogram expected = summary.histogram(stage);
            assertThat(expected.getTotalCount()).as(stage.label()).isEqualTo(FRAMES - SKIPPED.length);
            assertThat(read.get(stage.label())).as(stage.label()).isEqualTo(expected);
        }

        final List<Path> files = ReplayExports.writeHgrm(summary, temp.resolve("hgrm"));
        assertThat(files).extracting(p -> p.getFileName().toString())
            .containsExactly("e2e.hgrm", "transfer.hgrm", "isr.hgrm", "handoff.hgrm", "handler.hgrm");
        for (final Stage stage : ReplaySummary.STAGE_ORDER)
        {
            final Path processed = temp.resolve("processed-" + stage.label());
            final HistogramLogProcessor processor = new HistogramLogProcessor(new String[]{"-i", hlog.toString(),
                "-o", processed.toString(), "-tag", stage.label(), "-outputValueUnitRatio", "1000"});
            processor.run();
            final Path ours = temp.resolve("hgrm").resolve(ReplayExports.hgrmFileName(stage));
            // the processor heads its file with the time range it took; the distribution follows, line for line
            final List<String> theirs = Files.readAllLines(Path.of(processed + ".hgrm"));
            assertThat(theirs.get(0)).startsWith("#[Overall percentile distribution between 0.000 and");
            assertThat(Files.readAllLines(ours)).as(stage.label()).isEqualTo(theirs.subList(1, theirs.size()));
        }
        final String e2e = Files.readString(files.get(0));
        assertThat(e2e).startsWith("       Value     Percentile TotalCount 1/(1-Percentile)");
        final String firstValue = e2e.lines().filter(l -> l.matches("\\s+[0-9.]+\\s+[0-9.]+\\s+\\d+.*"))
            .findFirst().orElseThrow();
        assertThat(Double.parseDouble(firstValue.trim().split("\\s+")[0])).isBetween(19.9, 20.1);
    }

    /** Counts what it is told, by kind; names faults and reads sample values by the vocabulary. */
    static final class Kinds implements ReplayListener
    {
        final ReplayVocabulary vocabulary;
        final StringBuilder faultNames = new StringBuilder();
        int journals;
        long frames;
        long states;
        double duty;

        Kinds(final ReplayVocabulary vocabulary)
        {
            this.vocabulary = vocabulary;
        }

        @Override
        public void journal(final NodeAnalysis node)
        {
            journals++;
        }

        @Override
        public void frame(final NodeAnalysis node, final JournalRecord record)
        {
            assertThat(record.kind()).isEqualTo(RecordKind.FRAME);
            frames++;
        }

        @Override
        public void fault(final NodeAnalysis node, final JournalRecord record)
        {
            faultNames.append(vocabulary.faultName(record.code())).append(',');
        }

        @Override
        public void state(final NodeAnalysis node, final JournalRecord record)
        {
            assertThat(record.kind()).isEqualTo(RecordKind.STATE);
            states++;
        }

        @Override
        public void sample(final NodeAnalysis node, final JournalRecord record)
        {
            duty += vocabulary.value(record, "duty");
        }
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
