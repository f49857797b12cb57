package io.rfmrt.cli.rfm;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.rfm.internal.SharedFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Making a network, as several operators or processes do it at once, and where there is no room for it: exactly one
 * process creates it, and a refusal says why in one line and leaves nothing behind. Each case runs the CLI in its
 * own processes.
 */
class NetworkCreateTest
{
    private final Path root = Path.of("/dev/shm", "rfmrt-create-test-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(root);
    }

    private record Run(int exit, String out, String err)
    {
        String all()
        {
            return out + err;
        }
    }

    @Test
    void shouldLetExactlyOneOfRacingCreatesMakeTheNetworkAndTellTheOthersWhy() throws Exception
    {
        final List<Process> racers = new ArrayList<>();
        for (int i = 0; i < 8; i++)
        {
            racers.add(CliProcesses.start(root, ProcessBuilder.Redirect.PIPE, "rfm", "create", "--network", "r",
                "--size", (i % 2 + 1) + "M"));
        }
        final List<Run> runs = new ArrayList<>();
        for (final Process racer : racers)
        {
            runs.add(finish(racer));
        }

        // before: every racer that found no network built one (5 to 10 said "created"), the 1M ones reported 2M
        assertThat(runs).as(runs.toString()).filteredOn(r -> r.exit() == 0).singleElement()
            .satisfies(r -> assertThat(r.out()).startsWith("created network r: "));
        final long size = runs.stream().filter(r -> r.exit() == 0).findFirst().orElseThrow().out()
            .contains(": 1048576 bytes") ? 1 << 20 : 2 << 20;
        final String other = String.format(" with %,d bytes of memory, not the %,d asked for", size,
            size == 1 << 20 ? 2 << 20 : 1 << 20);
        final String exists = "rfmrt: network 'r' already exists in " + root.resolve("r");
        assertThat(runs).filteredOn(r -> r.exit() != 0).hasSize(7).allSatisfy(r ->
        {
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err()).isIn(exists + "\n", exists + other + "\n");
        });
        assertThat(runs).filteredOn(r -> r.err().contains(other)).as("each refused size named").hasSize(4);
        try (Stream<Path> files = Files.list(root.resolve("r")))
        {
            assertThat(files.map(p -> p.getFileName().toString()))
                .containsExactlyInAnyOrder(".create.lock", "control", "memory");
        }
    }

    @Test
    void shouldRefuseACreateOrPokeOnAControlSymlinkLeavingNothingBehind() throws Exception
    {
        final Path dir = root.resolve("s");
        SharedFiles.createDirectories(dir);
        final Path elsewhere = Files.createTempFile("rfmrt-control-target", "");
        try
        {
            Files.createSymbolicLink(dir.resolve("control"), elsewhere);
            for (final String[] args : List.of(new String[]{"rfm", "create", "--network", "s", "--size", "1M"},
                new String[]{"rfm", "poke", "--network", "s", "--node", "1", "--offset", "0", "--value", "1"}))
            {
                final Run run = finish(CliProcesses.start(root, ProcessBuilder.Redirect.PIPE, args));
                // before: memory and .create.lock were left beside the link
                assertThat(run.exit()).as(run.all()).isEqualTo(1);
                assertThat(run.err()).as(run.all()).isEqualTo("rfmrt: cannot create network 's': " +
                    dir.resolve("control") + " is a symbolic link; remove it\n");
                try (Stream<Path> files = Files.list(dir))
                {
                    assertThat(files.map(p -> p.getFileName().toString())).as(args[1]).containsExactly("control");
                }
            }
            assertThat(Files.size(elsewhere)).as("the link's target is untouched").isZero();
        }
        finally
        {
            Files.deleteIfExists(elsewhere);
        }
    }

    @Test
    void shouldRefuseInOneLineNamingTheSpaceWhenTheFileSystemIsFull() throws Exception
    {
        assumeTrue(isRoot(), "mounting a tmpfs in a private mount namespace needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "unshare(1) is not installed");
        Files.createDirectories(root);
        final Path classpath = Files.writeString(root.resolveSibling(root.getFileName() + ".cp"),
            System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path")));
        try
        {
            // a 1 MiB tmpfs over the root, seen only by the child; the network folders are made on it
            final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            final String cli = "\"" + java + "\" -Xmx256m -Drfmrt.sim.root=" + root + " -cp \"$(cat " + classpath +
                ")\" " + Main.class.getName() + " ";
            final String script = "set -u; mount -t tmpfs -o size=1m,mode=0770 rfmrt-full " + root + " || exit 99; " +
                "dd if=/dev/zero of=" + root + "/filler bs=4096 count=64 status=none; " +
                cli + "rfm create --network x; echo \"exit $?\"; " +
                cli + "rfm create --network y --size 1M; echo \"exit $?\"; " +
                cli + "rfm poke --network z --node 1 --offset 0 --value 1; echo \"exit $?\"; " +
                "rm " + root + "/filler; ls -A " + root + "; echo listed";
            final Process child = new ProcessBuilder("/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c",
                script).start();
            final Run run = finish(child);
            assumeTrue(run.exit() != 99, "tmpfs mount refused: " + run.err());
            final String needed = String.format("%,d", (16L << 20) + 18_878_464L);
            final String free = String.format("%,d", (1L << 20) - 64 * 4096);
            // before: "InternalError: a fault occurred in a recent unsafe memory access operation", with
            // .control.tmp-PID, memory and .create.lock left behind on the full tmpfs
            assertThat(run.err()).as(run.all()).isEqualTo(
                "rfmrt: no space in " + root.resolve("x") + " for network 'x' (memory 16,777,216 bytes, control " +
                    "block 18,878,464): it needs " + needed + " bytes, " + free + " are free\n" +
                "rfmrt: no space in " + root.resolve("y") + " for network 'y' (memory 1,048,576 bytes, control " +
                    "block 18,878,464): it needs " + String.format("%,d", (1L << 20) + 18_878_464L) + " bytes, " +
                    free + " are free\n" +
                "rfmrt: no space in " + root.resolve("z") + " for network 'z' (memory 16,777,216 bytes, control " +
                    "block 18,878,464): it needs " + needed + " bytes, " + free + " are free\n");
            assertThat(run.out()).as("every refusal exits 1 and leaves the tmpfs empty")
                .isEqualTo("exit 1\nexit 1\nexit 1\nlisted\n");
        }
        finally
        {
            Files.deleteIfExists(classpath);
        }
    }

    private static Run finish(final Process process) throws Exception
    {
        final var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(process, true));
        final String out = read(process, false);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the process ends").isTrue();
        return new Run(process.exitValue(), out, err.get(60, TimeUnit.SECONDS));
    }

    private static String read(final Process process, final boolean err)
    {
        try
        {
            return new String((err ? process.getErrorStream() : process.getInputStream()).readAllBytes(),
                StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static boolean isRoot() throws IOException
    {
        return (Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    }
}
