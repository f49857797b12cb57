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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code rfmrt node} with its memory locked (the shipped default) and its journal on a file system too small for a
 * journal file: mapping one would take all of its pages at once. The journal is a counted, warned loss; the node runs
 * on and stops as usual. The file system is a 40 MiB tmpfs in a private mount namespace (root only).
 */
class SmallJournalDiskTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-small-journal-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldRunOnWithACountedJournalLossWhenTheJournalDiskIsTooSmall(@TempDir final Path dir) throws Exception
    {
        assumeTrue((Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0,
            "mounting a tmpfs in a private mount namespace needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/unshare")), "unshare(1) is not installed");
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
        final Path journals = Files.createDirectory(dir.resolve("journals"));
        Files.writeString(dir.resolve("node-1.yaml"), """
            device: sim:lab1?node=1
            layout: layout.yaml
            publish: {channel: sensor, rateHz: 1000, size: 64}
            threads:
              lockMemory: true
            strict: false
            journal: {enabled: true, dir: journals/node-1}
            heartbeat: 1s
            """);
        final Path classpath = Files.writeString(dir.resolve("cp"),
            System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path")));
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // another node's journal has taken all of the tmpfs already
        final String script = "set -u; mount -t tmpfs -o size=40m,mode=0770 rfmrt-journals " + journals +
            " || exit 99; dd if=/dev/zero of=" + journals + "/other bs=1M count=40 status=none 2>/dev/null; \"" + java +
            "\" " + String.join(" ", CliProcesses.childJvmFlags()) + " -Xmx256m -Drfmrt.sim.root=" + simRoot +
            " -cp \"$(cat " + classpath + ")\" " + Main.class.getName() + " node --seconds 3 --config " +
            dir.resolve("node-1.yaml");
        final Process node = new ProcessBuilder("/usr/bin/unshare", "-m", "--propagation", "private", "sh", "-c",
            script).start();
        final CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(node, true));
        final String out = read(node, false);
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final String stderr = err.get(60, TimeUnit.SECONDS);
        assumeTrue(node.exitValue() != 99, "tmpfs mount refused: " + stderr);

        // before: "cannot open a journal in ...: ... a fault occurred in a recent unsafe memory access operation",
        // exit 1
        assertThat(node.exitValue()).as(out + stderr).isZero();
        assertThat(out).as(out + stderr).contains("mlockall locked").contains("warning: journal " +
            journals.resolve("node-1") + " is losing records").contains("no space for its file: it needs " +
            "100,663,296 bytes free (a file of 83,886,080 and the floor of 16,777,216)").endsWith("stopped\n");
        assertThat(stderr).doesNotContain("Exception").doesNotContain("InternalError");
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
}
