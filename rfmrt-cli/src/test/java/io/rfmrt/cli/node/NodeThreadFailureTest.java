package io.rfmrt.cli.node;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code rfmrt node} as systemd runs it, in its own process, when one of its RT threads fails for real: something
 * outside the node truncates the DMA ring of the node it sends to, which the node's card (the sender side of the
 * emulator) fills on every frame. The publisher thread's next access to the mapping takes SIGBUS, which the JVM
 * turns into an {@link InternalError} on that thread. The node must count and journal it, name the thread on
 * stderr, flush its journal, release its node id and exit 1 (the systemd unit's {@code Restart=on-failure}).
 */
class NodeThreadFailureTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-node-failure-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldExitOneNamingTheThreadWhenItsPeersDmaRingIsTruncated(@TempDir final Path dir) throws Exception
    {
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
        Files.writeString(dir.resolve("node-1.yaml"), """
            device: sim:lab1?node=1
            layout: layout.yaml
            receive: {channels: [command], wait: blocking}
            publish: {channel: sensor, rateHz: 1000, size: 64}
            threads:
              lockMemory: false
            strict: false
            journal: {enabled: true, dir: journal}
            heartbeat: 1s
            """);
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        // the receiving node, held here: its DMA ring (dma-002) is what the node under test fills per frame
        try (RfmDevice receiver = RfmDevices.open("sim:lab1?node=2&dma=auto"))
        {
            receiver.enableEvent(EventType.INTR1);
            final Path ring = simRoot.resolve("lab1").resolve("dma-002");
            assertThat(ring).exists();

            // a release's JIT: the fault below must meet the compiled code a release runs
            final Process node = CliProcesses.startWithReleaseJit(simRoot, ProcessBuilder.Redirect.PIPE, "node",
                "--config", dir.resolve("node-1.yaml").toString());
            final CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(node));
            final BufferedReader lines = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8));
            final StringBuilder stdout = new StringBuilder();
            String line;
            while ((line = lines.readLine()) != null)
            {
                stdout.append(line).append('\n');
                if (line.startsWith("process:"))
                {
                    break;
                }
            }
            if (line == null)
            {
                throw new AssertionError("the node ended before it ran: " + stdout + stderr.get(30, TimeUnit.SECONDS));
            }
            // frames flow into the ring (the publisher's fill path is compiled), then the ring's file loses its pages
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (receiver.counter(RfmCounter.DMA_COMPLETED, null) < 50 &&
                System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            try (FileChannel file = FileChannel.open(ring, StandardOpenOption.WRITE))
            {
                file.truncate(0);
            }
            while ((line = lines.readLine()) != null)
            {
                stdout.append(line).append('\n');
            }
            assertThat(node.waitFor(30, TimeUnit.SECONDS)).as("the node exits by itself").isTrue();
            final String err = stderr.get(30, TimeUnit.SECONDS);
            // 1, not 134: the JVM did not crash on the SIGBUS
            assertThat(node.exitValue()).as(stdout + err).isEqualTo(1);
            assertThat(err.lines().filter(l -> l.startsWith("rfmrt node: ")))
                .as(err).containsExactly("rfmrt node: thread rfmrt-publisher: InternalError: a fault occurred in a " +
                    "recent unsafe memory access operation in compiled Java code; stopping the node");
            assertThat(err).as("one report per failure, no second trace from the JVM")
                .doesNotContain("Exception in thread");
            assertThat(stdout.toString()).endsWith("stopping: closing threads, flushing the journal, releasing the " +
                "node\nstopped after a thread failed\n");
        }

        // the node id is free again at once
        try (RfmDevice again = RfmDevices.open("sim:lab1?node=1"))
        {
            assertThat(again.nodeId()).isEqualTo(1);
        }
        long faults = 0;
        try (JournalReader reader = JournalReader.open(dir.resolve("journal")))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FAULT && record.code() == JournalCodes.FAULT_THREAD_FAILED)
                {
                    faults++;
                }
            }
        }
        assertThat(faults).as("FAULT records of the failed thread, flushed before exit").isPositive();
    }

    @ParameterizedTest(name = "{0} truncated")
    @ValueSource(strings = {"memory", "control"})
    void shouldExitOneRatherThanCrashOrHangWhenANetworkFileIsTruncated(final String file, @TempDir final Path dir)
        throws Exception
    {
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
        Files.writeString(dir.resolve("node-1.yaml"), """
            device: sim:lab1?node=1
            layout: layout.yaml
            receive: {channels: [command], wait: blocking}
            publish: {channel: sensor, rateHz: 1000, size: 64}
            threads:
              lockMemory: false
            strict: false
            journal: {enabled: true, dir: journal}
            heartbeat: 1s
            """);
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        final String stdout;
        final String err;
        final Process node;
        // a receiving node, held here only to count the frames that reach it; it never touches the memory image
        final RfmDevice receiver = RfmDevices.open("sim:lab1?node=2&dma=auto");
        try
        {
            receiver.enableEvent(EventType.INTR1);
            // a release's JIT: the fault below must meet the compiled code a release runs
            node = CliProcesses.startWithReleaseJit(simRoot, ProcessBuilder.Redirect.PIPE, "node", "--config",
                dir.resolve("node-1.yaml").toString());
            final CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(node));
            final BufferedReader lines = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8));
            final StringBuilder out = new StringBuilder();
            String line;
            while ((line = lines.readLine()) != null)
            {
                out.append(line).append('\n');
                if (line.startsWith("process:"))
                {
                    break;
                }
            }
            if (line == null)
            {
                throw new AssertionError("the node ended before it ran: " + out + stderr.get(30, TimeUnit.SECONDS));
            }
            // frames flow (the publisher's path is compiled), then the reflective memory or the control block loses
            // its pages under the node. Memory: the checksum used to run over the mapped slot, where the fault crashed
            // the JVM (exit 134, an hs_err file, no journal). Control: the shutdown's wake of the ISR thread faulted,
            // the main thread died and the ISR thread stayed in its futex wait for ever (a hung node, SIGTERM lost)
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // the held ring takes its descriptors and then drops: completed + dropped = frames that reached node 2
            while (framesReached(receiver) < 2_000 && System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            assertThat(framesReached(receiver)).as("frames before the truncation").isGreaterThanOrEqualTo(2_000);
            try (FileChannel channel = FileChannel.open(simRoot.resolve("lab1").resolve(file),
                StandardOpenOption.WRITE))
            {
                channel.truncate(0);
            }
            while ((line = lines.readLine()) != null)
            {
                out.append(line).append('\n');
            }
            assertThat(node.waitFor(30, TimeUnit.SECONDS)).as("the node exits by itself").isTrue();
            stdout = out.toString();
            err = stderr.get(30, TimeUnit.SECONDS);
        }
        finally
        {
            if (file.equals("control"))
            {
                // this process's card is in the damaged control block too: its close refuses to write there (an
                // atomic update of a truncated page from interpreted code would crash this JVM); with the memory
                // image cut short it releases its claim as usual
                assertThatThrownBy(receiver::close).isInstanceOf(RfmException.class)
                    .hasMessageContaining("control was cut to 0 of its").hasMessageContaining("node 2 not released");
            }
            else
            {
                receiver.close();
            }
        }
        assertThat(node.exitValue()).as(stdout + err).isEqualTo(1);
        assertThat(err.lines().filter(l -> l.startsWith("rfmrt node: thread "))).as(err).isNotEmpty()
            .allSatisfy(l -> assertThat(l).contains("InternalError: a fault occurred in a recent unsafe memory access")
                .endsWith("; stopping the node"));
        assertThat(err).doesNotContain("A fatal error has been detected by the Java Runtime Environment")
            .as("one report per failure, no second trace from the JVM").doesNotContain("Exception in thread");
        assertThat(stdout).contains("stopped after a thread failed");
        if (file.equals("control"))
        {
            assertThat(err).contains("rfmrt node: stopping: ").contains("control was cut to 0 of its");
        }
        long faults = 0;
        try (JournalReader reader = JournalReader.open(dir.resolve("journal")))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                faults += record.kind() == RecordKind.FAULT && record.code() == JournalCodes.FAULT_THREAD_FAILED ? 1 : 0;
            }
        }
        assertThat(faults).as("FAULT records of the failed thread, flushed before exit").isPositive();
    }

    @Test
    void shouldExitOneWithOneReportWhenItsCountersFileIsTruncated(@TempDir final Path dir) throws Exception
    {
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
        Files.writeString(dir.resolve("node-1.yaml"), """
            device: sim:lab1?node=1
            layout: layout.yaml
            publish: {channel: sensor, rateHz: 1000, size: 64}
            threads:
              lockMemory: false
            strict: false
            journal: {enabled: false}
            heartbeat: 0s
            """);
        // the receiving node under test: it counts every frame and every wake in its counters file (it alone
        // journals: a journal is one node's, and two nodes in one folder would share the default journal.dir)
        Files.writeString(dir.resolve("node-2.yaml"), """
            device: sim:lab1?node=2&dma=auto
            layout: layout.yaml
            receive: {channels: [sensor], wait: blocking}
            threads:
              lockMemory: false
            strict: false
            journal: {enabled: true, dir: journal}
            heartbeat: 1s
            """);
        final Process receiver = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, "node", "--config",
            dir.resolve("node-2.yaml").toString());
        final CompletableFuture<String> receiverErr = CompletableFuture.supplyAsync(() -> readAll(receiver));
        final BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
            StandardCharsets.UTF_8));
        final StringBuilder out = new StringBuilder();
        Process sender = null;
        try
        {
            awaitRunning(lines, out, receiverErr);
            sender = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
                dir.resolve("node-1.yaml").toString());
            final Path counters = simRoot.resolve("lab1").resolve("node-2.counters");
            final int handled = CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (CountersSnapshot.read(counters).value(handled) < 2_000 && System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            assertThat(CountersSnapshot.read(counters).value(handled)).as("frames before the truncation")
                .isGreaterThanOrEqualTo(2_000);
            try (FileChannel channel = FileChannel.open(counters, StandardOpenOption.WRITE))
            {
                channel.truncate(0);
            }
            // before: the error policy faulted on the file it records into, the threads died with the JVM's traces
            // and the node ran on with no frames and no heartbeats until a signal
            final CompletableFuture<Void> rest = CompletableFuture.runAsync(() -> readRest(lines, out));
            assertThat(receiver.waitFor(30, TimeUnit.SECONDS)).as("the node exits by itself: " + out).isTrue();
            rest.get(30, TimeUnit.SECONDS);
        }
        finally
        {
            receiver.destroyForcibly();
            if (sender != null)
            {
                sender.destroy();
                assertThat(sender.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
        }
        final String err = receiverErr.get(30, TimeUnit.SECONDS);
        assertThat(receiver.exitValue()).as(out + err).isEqualTo(1);
        assertThat(err.lines().filter(l -> l.startsWith("rfmrt node: "))).as(err).singleElement()
            .satisfies(l -> assertThat(l).startsWith("rfmrt node: thread rfmrt-")
                .contains("not recorded: the counters file " + simRoot.resolve("lab1").resolve("node-2.counters") +
                    " was cut to 0 of its ")
                .endsWith(" bytes under this node; stopping the node"));
        assertThat(err).as("one report per failure, no second trace from the JVM").doesNotContain("Exception in thread")
            .doesNotContain("A fatal error has been detected by the Java Runtime Environment");
        assertThat(out.toString()).endsWith("stopped after a thread failed\n");
        assertThat(journalFaults(dir.resolve("journal"))).as("the FAULT record is journaled").isPositive();
    }

    private static void awaitRunning(final BufferedReader lines, final StringBuilder out,
        final CompletableFuture<String> err) throws Exception
    {
        String line;
        while ((line = lines.readLine()) != null)
        {
            out.append(line).append('\n');
            if (line.startsWith("process:"))
            {
                return;
            }
        }
        throw new AssertionError("the node ended before it ran: " + out + err.get(30, TimeUnit.SECONDS));
    }

    private static void readRest(final BufferedReader lines, final StringBuilder out)
    {
        try
        {
            String line;
            while ((line = lines.readLine()) != null)
            {
                synchronized (out)
                {
                    out.append(line).append('\n');
                }
            }
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static long journalFaults(final Path journal)
    {
        long faults = 0;
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                faults += record.kind() == RecordKind.FAULT && record.code() == JournalCodes.FAULT_THREAD_FAILED ? 1 : 0;
            }
        }
        return faults;
    }

    private static long framesReached(final RfmDevice receiver)
    {
        return receiver.counter(RfmCounter.DMA_COMPLETED, null) + receiver.counter(RfmCounter.DMA_DROPPED, null);
    }

    private static String readAll(final Process process)
    {
        try
        {
            return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
