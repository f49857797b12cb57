package io.rfmrt.cli.demo;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt demo} owns its two child processes: a signal stops all three cleanly with a partial summary, a killed
 * demo leaves no child running, and a second run into the same folder starts clean.
 */
class DemoLifecycleTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-demo-life-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    private Process demo(final Path out, final String seconds) throws IOException
    {
        return CliProcesses.start(simRoot, ProcessBuilder.Redirect.INHERIT, "demo", "--seconds", seconds, "--out",
            out.toString());
    }

    private static String awaitProgress(final BufferedReader lines, final String prefix) throws IOException
    {
        final StringBuilder seen = new StringBuilder();
        String line;
        while ((line = lines.readLine()) != null)
        {
            seen.append(line).append('\n');
            if (line.trim().startsWith(prefix))
            {
                return seen.toString();
            }
        }
        throw new AssertionError("demo ended before '" + prefix + "': " + seen);
    }

    @Test
    void shouldStopBothChildrenAndSummariseThePartialRunOnSigterm(@TempDir final Path out) throws Exception
    {
        final Process demo = demo(out, "60");
        final BufferedReader lines = new BufferedReader(new InputStreamReader(demo.getInputStream(),
            StandardCharsets.UTF_8));
        final String before = awaitProgress(lines, "2 s");
        final List<ProcessHandle> children = demo.toHandle().children().toList();
        assertThat(children).as("plant and controller processes").hasSize(2);
        demo.toHandle().destroy();
        final StringBuilder rest = new StringBuilder(before);
        String line;
        while ((line = lines.readLine()) != null)
        {
            rest.append(line).append('\n');
        }
        assertThat(demo.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(demo.exitValue()).as(rest.toString()).isEqualTo(143);
        assertThat(rest.toString()).contains("summary (interrupted by SIGTERM: partial run)")
            .contains("rfmrt demo: interrupted by SIGTERM after ");
        for (final ProcessHandle child : children)
        {
            assertThat(child.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
        }
        try (var networks = Files.list(simRoot))
        {
            assertThat(networks.toList()).as("the demo's network was removed").isEmpty();
        }
        assertThat(out.resolve("summary.json")).content().contains("\"interrupted\" : \"SIGTERM\"");
        assertThat(frames(out.resolve("journal/controller"))).as("journal flushed and closed cleanly").isPositive();
    }

    @Test
    void shouldFailTheRunAtOnceNamingTheChildWhoseThreadFailed(@TempDir final Path out) throws Exception
    {
        // a release's JIT: the fault below must meet the compiled code a release runs
        final Process demo = CliProcesses.startWithReleaseJit(simRoot, ProcessBuilder.Redirect.PIPE, "demo",
            "--seconds", "60",
            "--out", out.toString());
        final StringBuilder err = new StringBuilder();
        final Thread errReader = new Thread(() ->
        {
            try (BufferedReader e = new BufferedReader(new InputStreamReader(demo.getErrorStream(),
                StandardCharsets.UTF_8)))
            {
                String l;
                while ((l = e.readLine()) != null)
                {
                    synchronized (err)
                    {
                        err.append(l).append('\n');
                    }
                }
            }
            catch (final IOException ignore)
            {
                // the demo ended
            }
        });
        errReader.start();
        final BufferedReader lines = new BufferedReader(new InputStreamReader(demo.getInputStream(),
            StandardCharsets.UTF_8));
        final String before = awaitProgress(lines, "2 s");
        final List<ProcessHandle> children = demo.toHandle().children().toList();
        assertThat(children).as("plant and controller processes").hasSize(2);
        // damage what both children map: the controller's DMA ring, which the plant's card writes each frame into;
        // the thread that touches it next fails (SIGBUS becomes an InternalError), and its node stops with exit 1
        final Path network;
        try (var networks = Files.list(simRoot))
        {
            network = networks.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        try (var ring = new java.io.RandomAccessFile(network.resolve("dma-002").toFile(), "rw"))
        {
            ring.setLength(0);
        }
        final long damagedAt = System.nanoTime();
        final StringBuilder rest = new StringBuilder(before);
        String line;
        while ((line = lines.readLine()) != null)
        {
            rest.append(line).append('\n');
        }
        assertThat(demo.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final double seconds = (System.nanoTime() - damagedAt) / 1e9;
        errReader.join(5_000);
        final String errText;
        synchronized (err)
        {
            errText = err.toString();
        }
        assertThat(demo.exitValue()).as(rest + errText).isEqualTo(1);
        assertThat(errText).as(rest.toString()).containsPattern("the (plant|controller) process failed \\(exit codes");
        assertThat(seconds).as("the demo stops once a child failed, not at its time-outs").isLessThan(30);
        for (final ProcessHandle child : children)
        {
            assertThat(child.onExit().get(30, TimeUnit.SECONDS).isAlive()).as("child " + child.pid()).isFalse();
        }
    }

    @Test
    void shouldLeaveNoChildRunningWhenTheDemoIsKilled(@TempDir final Path out) throws Exception
    {
        final Process demo = demo(out, "60");
        final BufferedReader lines = new BufferedReader(new InputStreamReader(demo.getInputStream(),
            StandardCharsets.UTF_8));
        awaitProgress(lines, "1 s");
        final List<ProcessHandle> children = demo.toHandle().children().toList();
        assertThat(children).hasSize(2);
        demo.destroyForcibly();
        assertThat(demo.waitFor(30, TimeUnit.SECONDS)).isTrue();
        for (final ProcessHandle child : children)
        {
            assertThat(child.onExit().get(30, TimeUnit.SECONDS).isAlive()).as("child " + child.pid()).isFalse();
        }
        assertThat(frames(out.resolve("journal/controller"))).as("the children flushed their journals")
            .isPositive();
    }

    @Test
    void shouldStartCleanWhenRunTwiceIntoTheSameFolder(@TempDir final Path out) throws Exception
    {
        for (int run = 0; run < 2; run++)
        {
            final Process demo = demo(out, "1");
            final String text = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(demo.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(demo.exitValue()).as(text).isZero();
            if (run == 1)
            {
                assertThat(text).contains("held a previous run; its journals, summary and plots were removed");
            }
        }
        final StringWriter report = new StringWriter();
        assertThat(Main.run(new String[]{"replay", out.toString()}, new PrintWriter(report, true),
            new PrintWriter(new StringWriter(), true))).isZero();
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("source \\d+: ([0-9,]+) frames")
            .matcher(report.toString());
        int sources = 0;
        while (m.find())
        {
            sources++;
            assertThat(Long.parseLong(m.group(1).replace(",", ""))).as("frames of one 1 s run only")
                .isBetween(1L, 1_000L);
        }
        assertThat(sources).isEqualTo(2);
        assertThat(report.toString()).doesNotContainPattern("[1-9][0-9,]* out of order");
    }

    /** Frames in a journal, which must read to its end without damage (it was closed, not cut off). */
    private static long frames(final Path journal)
    {
        long frames = 0;
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                frames += record.kind() == RecordKind.FRAME ? 1 : 0;
            }
            assertThat(reader.damage()).as("damage in " + journal).isEmpty();
        }
        return frames;
    }
}
