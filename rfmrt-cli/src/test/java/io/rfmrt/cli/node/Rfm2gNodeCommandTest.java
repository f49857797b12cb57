package io.rfmrt.cli.node;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt node} on an RFM2g card (the native stand-in of the vendor library) receives the frames a sim node of
 * the same network publishes, and stops at {@code --seconds} with exit 0.
 */
class Rfm2gNodeCommandTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-rfm2g-node-test-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldReceiveASimPublishersFramesOnTheCardAndStopAtSeconds(@TempDir final Path dir) throws Exception
    {
        for (final String name : List.of("layout.yaml", "node-1.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
        }
        final Path deviceNode = dir.resolve("rfm2g0");
        Files.writeString(deviceNode, "network=" + simRoot.resolve("lab1") + "\nnode=2\ndmaBuffer=4096\n");
        Files.writeString(dir.resolve("card.yaml"), "device: rfm2g:" + deviceNode + "\nlayout: layout.yaml\n" +
            "receive: {channels: [sensor], wait: blocking}\nthreads:\n  lockMemory: false\nstrict: false\n" +
            "journal: {enabled: true, dir: journal/card}\nheartbeat: 1s\n");

        final Process publisher = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
            dir.resolve("node-1.yaml").toString());
        try
        {
            // the card joins the ring the publisher has created
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.exists(simRoot.resolve("lab1").resolve("control")))
            {
                assertThat(publisher.isAlive()).as("the publisher stopped").isTrue();
                assertThat(System.nanoTime()).as("the publisher never created the network").isLessThan(deadline);
                Thread.sleep(20);
            }
            final Process card = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, "node", "--config",
                dir.resolve("card.yaml").toString(), "--seconds", "4");
            final CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(card.getErrorStream()));
            final CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(card.getInputStream()));
            // while it runs, its counters are in a folder named after the card's device node
            CliRun stat = CliRun.of("stat", "--root", simRoot.toString(), "--network", "rfm2g0", "--node", "2");
            final long statDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (stat.exit() != 0 && card.isAlive() && System.nanoTime() < statDeadline)
            {
                Thread.sleep(50);
                stat = CliRun.of("stat", "--root", simRoot.toString(), "--network", "rfm2g0", "--node", "2");
            }
            assertThat(stat.out()).as(stat.err()).contains("node 2 of rfm2g0: pid " + card.pid() + " running, rfm2g:" +
                deviceNode).contains(" - sensor (node 1): frames");
            final String stdout = out.get(120, TimeUnit.SECONDS);
            assertThat(card.waitFor(120, TimeUnit.SECONDS)).isTrue();
            final String all = stdout + stderr.get(30, TimeUnit.SECONDS);
            assertThat(card.exitValue()).as(all).isZero();
            assertThat(stdout).contains("node 2 on rfm2g:" + deviceNode).endsWith("stopped\n");
            assertThat(all).contains("| driver ");
        }
        finally
        {
            publisher.toHandle().destroy();
            assertThat(publisher.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(frames(dir.resolve("journal/card"))).as("sensor frames the card received").isGreaterThan(100);
    }

    private static String readAll(final java.io.InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static long frames(final Path journal)
    {
        long frames = 0;
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FRAME)
                {
                    frames++;
                }
            }
        }
        return frames;
    }
}
