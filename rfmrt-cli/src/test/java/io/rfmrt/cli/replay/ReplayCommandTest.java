package io.rfmrt.cli.replay;

import io.rfmrt.cli.Main;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.control.replay.ControlRerunTest;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt replay} end to end: summary, exports, plots, re-run, and one clear line with the right exit code for
 * folders it cannot read.
 */
class ReplayCommandTest
{
    @TempDir
    Path temp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args)
    {
        final CommandLine cli = new CommandLine(new ReplayCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldSummariseExportPlotAndRerun() throws Exception
    {
        ControlRerunTest.writeControlJournal(temp.resolve("run").resolve("journal").resolve("node-2"));
        final Path gains = temp.resolve("gains.yaml");
        Files.writeString(gains, "positionGainPerS: 40\n");
        final int code = run(temp.resolve("run").toString(), "--csv", temp.resolve("f.csv").toString(), "--hgrm",
            temp.resolve("stages").toString(), "--hlog", temp.resolve("stages.hlog").toString(), "--plots",
            temp.resolve("plots").toString(), "--rerun");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("journal/node-2 (node 2)", "0 divergences", "csv: 1,500 frames",
            "hlog: 5 stages, tagged e2e,transfer,isr,handoff,handler, written to " + temp.resolve("stages.hlog"));
        for (final String stage : List.of("e2e", "transfer", "isr", "handoff", "handler"))
        {
            assertThat(temp.resolve("stages").resolve(stage + ".hgrm")).content()
                .startsWith("       Value     Percentile TotalCount 1/(1-Percentile)");
        }
        final HistogramLogReader reader = new HistogramLogReader(temp.resolve("stages.hlog").toString());
        final List<String> tags = new ArrayList<>();
        for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram())
        {
            tags.add(h.getTag());
            assertThat(((Histogram)h).getTotalCount()).as(h.getTag()).isEqualTo(ControlRerunTest.CYCLES);
        }
        reader.close();
        assertThat(tags).containsExactly("e2e", "transfer", "isr", "handoff", "handler");
        assertThat(Files.readAllLines(temp.resolve("f.csv"))).hasSize(1 + ControlRerunTest.CYCLES);
        assertThat(temp.resolve("plots").resolve("replay-latency.png")).isNotEmptyFile();
        assertThat(temp.resolve("plots").resolve("replay-percentiles.png")).isNotEmptyFile();
        assertThat(temp.resolve("plots").resolve("replay-tracking.png")).isNotEmptyFile();
        assertThat(temp.resolve("plots").resolve("tracking.png")).as("the demo's own plot name").doesNotExist();

        out.getBuffer().setLength(0);
        assertThat(run(temp.resolve("run").toString(), "--rerun", "--gains", gains.toString(), "--json")).isZero();
        assertThat(out.toString()).contains("\"divergences\" : ", "\"new_gains_tracking_rms\"")
            .doesNotContain("\"divergences\" : 0,");
    }

    @Test
    void shouldLeaveTheDemosOwnPlotsAlone() throws Exception
    {
        ControlRerunTest.writeControlJournal(temp.resolve("demo").resolve("journal").resolve("controller"));
        final Path plots = Files.createDirectories(temp.resolve("demo").resolve("plots"));
        Files.writeString(plots.resolve("tracking.png"), "the demo's tracking plot");
        Files.writeString(plots.resolve("latency.png"), "the demo's latency plot");
        assertThat(run(temp.resolve("demo").toString(), "--plots", plots.toString())).as(err.toString()).isZero();
        assertThat(plots.resolve("tracking.png")).hasContent("the demo's tracking plot");
        assertThat(plots.resolve("latency.png")).hasContent("the demo's latency plot");
        assertThat(out.toString()).contains("replay-tracking.png", "replay-latency.png");
    }

    @Test
    void shouldSayThatTheFilterRemovedEveryCycle()
    {
        ControlRerunTest.writeControlJournal(temp.resolve("late"));
        assertThat(run(temp.resolve("late").toString(), "--rerun", "--from", "+1000s")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("rerun: no control cycles between +1000s and the end (the filter " +
            "removed every CONTROL_INPUT sample").doesNotContain("not a controller node's journal");
    }

    @Test
    void shouldTreatABadTimeBoundAsABadCommandLine()
    {
        ControlRerunTest.writeControlJournal(temp.resolve("bad"));
        final StringWriter mainErr = new StringWriter();
        final int code = Main.run(new String[]{"replay", temp.resolve("bad").toString(), "--from", "banana"},
            new PrintWriter(new StringWriter(), true), new PrintWriter(mainErr, true));
        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(mainErr.toString()).isEqualTo("rfmrt: --from: time bound 'banana' is neither a time from the " +
            "journal start (+2.5s, 500ms, 1.5m) nor an ISO-8601 instant (2026-12-02T17:13:29Z)" +
            System.lineSeparator());
    }

    @Test
    void shouldAnswerHelpForTheReplayBenchmark()
    {
        final StringWriter help = new StringWriter();
        assertThat(Main.run(new String[]{"replay-bench", "--help"}, new PrintWriter(help, true),
            new PrintWriter(new StringWriter(), true))).isZero();
        assertThat(help.toString()).contains("Usage: rfmrt replay-bench", "--records", "--runs", "--dir");
    }

    @Test
    void shouldFollowForTheSecondsGivenThenSummarise()
    {
        ControlRerunTest.writeControlJournal(temp.resolve("live"));
        assertThat(run(temp.resolve("live").toString(), "--follow", "--seconds", "1.2")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("frames/s (1,500 total)", "source 1: 1,500 frames");
    }

    @Test
    void shouldReadWhatIsThereEvenWhenTheSecondsAreUpAtOnce()
    {
        ControlRerunTest.writeControlJournal(temp.resolve("done"));
        assertThat(run(temp.resolve("done").toString(), "--follow", "--seconds", "0")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("source 1: 1,500 frames");
    }

    @Test
    void shouldGiveOneLineAndExitOneWhenNothingCanBeRead() throws Exception
    {
        assertThat(run(temp.resolve("missing").toString())).isEqualTo(1);
        assertThat(err.toString()).contains("does not exist").doesNotContain("\tat ");
        Files.createDirectories(temp.resolve("other"));
        Files.writeString(temp.resolve("other").resolve("readme.txt"), "not a journal");
        err.getBuffer().setLength(0);
        assertThat(run(temp.resolve("other").toString())).isEqualTo(1);
        assertThat(err.toString()).contains("no journal under").doesNotContain("\tat ");
        Files.writeString(temp.resolve("other").resolve("20261202-17.cq4"), "garbage");
        err.getBuffer().setLength(0);
        assertThat(run(temp.resolve("other").toString())).isEqualTo(1);
        assertThat(err.toString()).doesNotContain("\tat ").isNotBlank();
    }

    @Test
    void shouldReadWhatIsLeftOfATruncatedJournal() throws Exception
    {
        final Path dir = temp.resolve("cut");
        ControlRerunTest.writeControlJournal(dir);
        final Path last;
        try (Stream<Path> files = Files.list(dir))
        {
            last = files.filter(f -> f.toString().endsWith(".cq4")).sorted().reduce((a, b) -> b).orElseThrow();
        }
        truncateWrittenTail(last);
        final int code = run(dir.toString());
        assertThat(err.toString()).doesNotContain("\tat ");
        assertThat(code).as(out + "" + err).isZero();
        assertThat(out.toString()).contains("FRAME");
    }

    /**
     * Cut the file in the middle of what was written (the file is sparse and pre-sized: find the last non-zero byte).
     */
    private static void truncateWrittenTail(final Path file) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] == 0)
        {
            end--;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(end - 40);
        }
    }
}
