package io.rfmrt.cli.node;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code rfmrt stat --watch} on a terminal, as a person sees it: run in a tmux pane (./run-tests installs tmux), its
 * screen read with {@code tmux capture-pane}. Each reading replaces the last in place, and beside every total is
 * its change per second; on a pipe the same command prints plain blocks, one after the other, with no escape
 * sequence.
 */
class StatWatchScreenTest
{
    private static final Path TMUX = Path.of("/usr/bin/tmux");
    private static final Pattern FRAMES_HANDLED = Pattern.compile(
        "(?m)^ +1: +([0-9]+) +([0-9.]+|-)/s - frames handled$");

    private final Path simRoot = Path.of("/dev/shm", "rfmrt-stat-watch-" + UUID.randomUUID());
    private final String socket = "rfmrt-stat-watch-" + UUID.randomUUID();
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception
    {
        if (Files.isExecutable(TMUX))
        {
            run(List.of(TMUX.toString(), "-L", socket, "kill-server"));
        }
        for (final Process p : processes)
        {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        CliProcesses.removeTree(simRoot);
    }

    private static String run(final List<String> command) throws IOException, InterruptedException
    {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private String screen() throws IOException, InterruptedException
    {
        return run(List.of(TMUX.toString(), "-L", socket, "capture-pane", "-p", "-t", "watch"));
    }

    private static String shellQuote(final String word)
    {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    @Test
    void shouldRedrawInPlaceWithRatesOnATerminalAndPrintPlainBlocksOnAPipe(@TempDir final Path dir) throws Exception
    {
        assumeTrue(Files.isExecutable(TMUX), "tmux not installed (./run-tests installs it)");
        for (final String name : List.of("layout.yaml", "node-1.yaml", "node-2.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
        }
        for (final String name : List.of("node-1.yaml", "node-2.yaml"))
        {
            final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
                dir.resolve(name).toString());
            processes.add(node);
            CliProcesses.awaitLine(node, "process:");
        }

        // a pane tall enough for two readings: appended, both would show
        final String command = CliProcesses.command(simRoot, Main.class, "stat", "--network", "lab1", "--node", "2",
            "--watch", "500ms").stream().map(StatWatchScreenTest::shellQuote).collect(Collectors.joining(" "));
        run(List.of(TMUX.toString(), "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "watch", "-x", "200",
            "-y", "150", command));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String screen = screen();
        List<Long> handled = new ArrayList<>();
        while (System.nanoTime() < deadline)
        {
            final Matcher m = FRAMES_HANDLED.matcher(screen);
            if (m.find() && !"-".equals(m.group(2)) && Double.parseDouble(m.group(2)) > 0)
            {
                handled.add(Long.parseLong(m.group(1)));
                if (handled.size() >= 2 && handled.get(handled.size() - 1) > handled.get(0))
                {
                    break;
                }
            }
            Thread.sleep(200);
            screen = screen();
        }
        assertThat(handled).as(screen).hasSizeGreaterThanOrEqualTo(2);
        assertThat(handled.get(handled.size() - 1)).as("the total moves on the same screen").isGreaterThan(handled.get(0));
        assertThat(screen).as(screen).startsWith("rfmrt stat at ").contains(", every 500 ms; Ctrl-C stops");
        assertThat(screen.split("node 2 of lab1: ", -1)).as("one reading on the screen: " + screen).hasSize(2);
        assertThat(FRAMES_HANDLED.matcher(screen).results().count()).isEqualTo(1);

        // on a pipe: plain blocks, one after the other, no escape sequence
        final Process piped = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "stat", "--network",
            "lab1", "--node", "2", "--watch", "300ms");
        processes.add(piped);
        final StringBuilder out = new StringBuilder();
        final byte[] buffer = new byte[8192];
        while (out.toString().split("node 2 of lab1: ", -1).length < 4)
        {
            final int n = piped.getInputStream().read(buffer);
            assertThat(n).as(out.toString()).isPositive();
            out.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
        assertThat(out.toString()).doesNotContain("\u001b").doesNotContain("rfmrt stat at ");
        final List<String> rates = FRAMES_HANDLED.matcher(out).results().map(r -> r.group(2)).toList();
        assertThat(rates.get(0)).as("no rate before a second reading").isEqualTo("-");
        assertThat(Double.parseDouble(rates.get(1))).as(out.toString()).isPositive();
    }
}
