package io.rfmrt.cli.bench;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.common.Progress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code rfmrt bench} run, passing or failing, leaves the emulator's root as it found it: no {@code bench-PID} or
 * {@code bench-PID-floor} folder, nothing in them.
 */
class BenchLeavesNothingTest
{
    private Path dir;
    private Path simRoot;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-bench-leaves-test");
        simRoot = dir.resolve("sim");
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldLeaveNoNetworkFolderAfterAPassingEventsRun() throws Exception
    {
        final Process bench = CliProcesses.start(simRoot, ProcessBuilder.Redirect.INHERIT, "bench", "events",
            "--count", "200", "--rate", "1000", "--json");
        final String out = readAll(bench.getInputStream());

        assertThat(bench.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(bench.exitValue()).as(out).isZero();
        assertThat(leftInRoot()).isEmpty();
    }

    @Test
    void shouldLeaveNoNetworkFolderAfterAPassingCompareRunWithItsFloors() throws Exception
    {
        final Process bench = CliProcesses.start(simRoot, ProcessBuilder.Redirect.INHERIT, "bench", "compare",
            "--seconds", "1", "--rate", "1000", "--rows", "poll-1khz", "--json");
        final String out = readAll(bench.getInputStream());

        assertThat(bench.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(bench.exitValue()).as(out).isZero();
        assertThat(leftInRoot()).isEmpty();
    }

    @Test
    void shouldLeaveNoNetworkFolderWhenAPeerDiesMidRun() throws Exception
    {
        final Path err = dir.resolve("bench.err");
        // 2 s a mode: the futex peer is killed as soon as it is started, while the network's folder holds its file
        final Process bench = CliProcesses.start(simRoot, ProcessBuilder.Redirect.to(err.toFile()), "bench", "events",
            "--count", "20000", "--rate", "10000", "--json");
        final CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readAll(bench.getInputStream()));

        final ProcessHandle peer = awaitChild(bench, "\0bench-peer\0futex\0");
        peer.destroyForcibly();

        assertThat(bench.waitFor(3, TimeUnit.MINUTES)).isTrue();
        final String out = stdout.get(30, TimeUnit.SECONDS);
        assertThat(bench.exitValue()).as(out + Files.readString(err)).isEqualTo(1);
        // after the progress lines, the line saying what failed
        final String said = Files.readString(err);
        assertThat(said.lines().filter(l -> !Progress.LINE.matcher(l).find()).findFirst()).as(said).get()
            .asString().startsWith("rfmrt: ");
        assertThat(said).doesNotContain("Exception");
        assertThat(leftInRoot()).isEmpty();
    }

    /** Names in the root, and in any folder there, that a run left. */
    private List<String> leftInRoot() throws IOException
    {
        if (!Files.exists(simRoot))
        {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(simRoot))
        {
            return paths.filter(p -> !p.equals(simRoot)).map(p -> simRoot.relativize(p).toString()).sorted().toList();
        }
    }

    private static ProcessHandle awaitChild(final Process bench, final String marker) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && bench.isAlive())
        {
            final Optional<ProcessHandle> child = bench.toHandle().descendants()
                .filter(p -> commandLine(p).contains(marker))
                .findFirst();
            if (child.isPresent())
            {
                return child.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no child with '" + marker.replace('\0', ' ') + "' started within 120 s");
    }

    private static String commandLine(final ProcessHandle process)
    {
        try
        {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                StandardCharsets.UTF_8);
        }
        catch (final IOException gone)
        {
            return "";
        }
    }

    private static String readAll(final InputStream in)
    {
        try
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
