package io.rfmrt.cli.node;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three plans, each publisher a process of its own, into a real {@code rfmrt node} in auto and in
 * on-demand DMA mode: a publisher that exits after 40 frames and a new one that publishes 20 while the old frames are
 * still in the slots; 10 good frames, a torn one, 10 good; 10 good, a torn one, the process exits, a new one publishes
 * 5; and a publisher that left 40 frames before the node started, then a new one that publishes 20. What the node
 * counts and journals is what docs/protocol.md ("Finding frames by number") says.
 */
class ReaderProcessesTest
{
    private static final String LAYOUT = """
        memorySize: 16M
        channels:
          - {name: restart, node: 1, offset: 0x10000, slots: 64, slotSize: 128, event: INTR1, to: 2}
          - {name: torn,    node: 3, offset: 0x20000, slots: 64, slotSize: 128, event: INTR1, to: 2}
          - {name: dies,    node: 4, offset: 0x30000, slots: 64, slotSize: 128, event: INTR1, to: 2}
          - {name: late,    node: 5, offset: 0x40000, slots: 64, slotSize: 128, event: INTR1, to: 2}
          - {name: burst,   node: 6, offset: 0x50000, slots: 512, slotSize: 128, event: INTR1, to: 2}
        """;

    private final Path simRoot = Path.of("/dev/shm", "rfmrt-reader-processes-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "on-demand"})
    void shouldCountWhatTheDocsSayForRestartedAndTornPublishersInOtherProcesses(final String dma,
        @TempDir final Path dir) throws Exception
    {
        final String network = "rdr" + Long.toHexString(System.nanoTime() & 0xffffff);
        final String device = "sim:" + network + "?node=2&dma=" + dma + "&dmaSlots=2048&dmaSlotSize=128";
        Files.writeString(dir.resolve("layout.yaml"), LAYOUT);
        Files.writeString(dir.resolve("node.yaml"), "device: " + device + "\nlayout: layout.yaml\n" +
            "receive: {channels: [restart, torn, dies, late, burst], rateHz: 100}\nthreads: {lockMemory: false}\n" +
            "journal: {enabled: true, dir: journal}\nheartbeat: 0\n");
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        // a publisher that has gone before the node starts: its 40 frames stay in the slots
        publish(dir, network, 5, "late", "p40");
        final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD, "node", "--config",
            dir.resolve("node.yaml").toString());
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8));
            awaitLine(out, "process:");
            final Path counters = NodeCounters.fileFor(device, 2);

            // the first frames the node sees come from a new process on the channel the old one left
            publish(dir, network, 5, "late", "p20");
            awaitCounter(counters, CounterIds.frame(3, FrameCounter.FRAMES), 20);

            publish(dir, network, 1, "restart", "p40");
            awaitCounter(counters, CounterIds.frame(0, FrameCounter.FRAMES), 40);
            publish(dir, network, 1, "restart", "p20");
            awaitCounter(counters, CounterIds.frame(0, FrameCounter.FRAMES), 60);

            publish(dir, network, 3, "torn", "p10", "t", "p10");
            awaitCounter(counters, CounterIds.frame(1, FrameCounter.FRAMES), 20);

            publish(dir, network, 4, "dies", "p10", "t");
            awaitCounter(counters, CounterIds.frame(2, FrameCounter.FRAMES), 10);
            publish(dir, network, 4, "dies", "p5");
            awaitCounter(counters, CounterIds.frame(2, FrameCounter.FRAMES), 15);
            awaitCounter(counters, CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED), 115);

            // a burst of 300 frames, the publisher restarted in its middle (no pause), 300 more from 1
            publish(dir, network, 6, "burst", "p300", "r", "p300");
            awaitCounter(counters, CounterIds.frame(4, FrameCounter.PUBLISHER_RESTARTS), 1);
            final long burstFrames = awaitSteady(counters, CounterIds.frame(4, FrameCounter.FRAMES));

            final CountersSnapshot seen = CountersSnapshot.read(counters);
            assertThat(channel(seen, 0)).as("restart").isEqualTo("frames=60 torn=0 gaps=0 duplicates=0 stale=0 " +
                "restarts=1");
            assertThat(channel(seen, 1)).as("torn").isEqualTo("frames=20 torn=1 gaps=1 duplicates=0 stale=0 " +
                "restarts=0");
            assertThat(channel(seen, 2)).as("torn, then the publisher dies").isEqualTo("frames=15 torn=1 gaps=0 " +
                "duplicates=0 stale=0 restarts=1");
            assertThat(channel(seen, 3)).as("started after the old publisher left").isEqualTo("frames=20 torn=0 " +
                "gaps=0 duplicates=0 stale=0 restarts=0");
            // in auto mode the card copied every frame at its send, so the whole first burst is read; by number, the
            // old frames the new incarnation overwrote before the reader came to them are not (no gap, no stale)
            final long oldRead = burstFrames - 300;
            assertThat(oldRead).as("frames of the first burst read").isBetween("auto".equals(dma) ? 300L : 1L, 300L);
            assertThat(channel(seen, 4)).as("restart in the middle of a burst").isEqualTo("frames=" + burstFrames +
                " torn=0 gaps=0 duplicates=0 stale=0 restarts=1");
        }
        finally
        {
            // SIGTERM: the node drains, flushes its journal and exits 0
            node.toHandle().destroy();
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(node.exitValue()).isZero();

        final Map<Integer, List<Long>> frames = new HashMap<>();
        final List<String> faults = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(dir.resolve("journal")))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FRAME)
                {
                    frames.computeIfAbsent(record.source(), s -> new ArrayList<>()).add(record.seq());
                }
                else if (record.kind() == RecordKind.FAULT && (record.code() == FrameStatus.TORN.id() ||
                    record.code() == JournalCodes.FAULT_PUBLISHER_RESTART))
                {
                    faults.add((record.code() == FrameStatus.TORN.id() ? "torn" : "restart") + " seq=" +
                        record.seq() + " source=" + record.value());
                }
            }
        }
        assertThat(frames.get(1)).as("every frame of both processes once, none of the old again")
            .isEqualTo(concat(oneTo(1, 40), oneTo(1, 20)));
        assertThat(frames.get(3)).isEqualTo(concat(oneTo(1, 10), oneTo(12, 21)));
        assertThat(frames.get(4)).isEqualTo(concat(oneTo(1, 10), oneTo(1, 5)));
        assertThat(frames.get(5)).as("none of the frames left before the node started").isEqualTo(oneTo(1, 20));
        final List<Long> burst = frames.get(6);
        assertThat(burst).as("the first burst's frames up to where it was read, then every frame of the second once")
            .hasSizeGreaterThan(300).isEqualTo(concat(oneTo(1, burst.size() - 300), oneTo(1, 300)));
        assertThat(faults).containsExactlyInAnyOrder("restart seq=1 source=1", "torn seq=11 source=3",
            "torn seq=11 source=4", "restart seq=1 source=4", "restart seq=1 source=6");
    }

    private static String channel(final CountersSnapshot seen, final int channel)
    {
        return "frames=" + seen.value(CounterIds.frame(channel, FrameCounter.FRAMES)) +
            " torn=" + seen.value(CounterIds.frame(channel, FrameCounter.TORN)) +
            " gaps=" + seen.value(CounterIds.frame(channel, FrameCounter.GAPS)) +
            " duplicates=" + seen.value(CounterIds.frame(channel, FrameCounter.DUPLICATES)) +
            " stale=" + seen.value(CounterIds.frame(channel, FrameCounter.STALE)) +
            " restarts=" + seen.value(CounterIds.frame(channel, FrameCounter.PUBLISHER_RESTARTS));
    }

    private void publish(final Path dir, final String network, final int node, final String channel,
        final String... plan) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("sim:" + network + "?node=" + node,
            dir.resolve("layout.yaml").toString(), channel));
        args.addAll(List.of(plan));
        final Process publisher = CliProcesses.startMain(simRoot, ProcessBuilder.Redirect.PIPE, PlanPublisher.class,
            args.toArray(new String[0]));
        final String stderr = new String(publisher.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(publisher.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(publisher.exitValue()).as(stderr).isZero();
    }

    private static void awaitCounter(final Path file, final int id, final long value) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long seen = -1;
        while (System.nanoTime() < deadline)
        {
            seen = CountersSnapshot.read(file).value(id);
            if (seen >= value)
            {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("counter " + id + " reached " + seen + ", not " + value + ", in 30 s");
    }

    /** The counter's value once it has stood still for a second (the node has read all it will). */
    private static long awaitSteady(final Path file, final int id) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long last = CountersSnapshot.read(file).value(id);
        long since = System.nanoTime();
        while (System.nanoTime() - since < TimeUnit.SECONDS.toNanos(1))
        {
            assertThat(System.nanoTime() - deadline).as("counter " + id + " stood still within 30 s").isNegative();
            Thread.sleep(20);
            final long now = CountersSnapshot.read(file).value(id);
            if (now != last)
            {
                last = now;
                since = System.nanoTime();
            }
        }
        return last;
    }

    private static void awaitLine(final BufferedReader reader, final String prefix) throws IOException
    {
        final StringBuilder seen = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null)
        {
            seen.append(line).append('\n');
            if (line.startsWith(prefix))
            {
                return;
            }
        }
        throw new AssertionError("node ended before printing '" + prefix + "': " + seen);
    }

    private static List<Long> oneTo(final long from, final long to)
    {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    private static List<Long> concat(final List<Long> a, final List<Long> b)
    {
        final List<Long> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
