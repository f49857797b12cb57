package io.rfmrt.runtime;

import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplaySummary;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A running node's counters file shows what its threads and its heartbeat count, read as another process reads it
 * (the file, not the node's objects); the heartbeat journals COUNTERS records that a replay reads; the file goes
 * with an orderly stop.
 */
class NodeCountersFileTest
{
    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-counters-node-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    @Test
    void shouldShowTheRunningNodesCountersInItsFileAndJournalThem(@TempDir final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("layout.yaml"), """
            memorySize: 1M
            channels:
              - {name: sensor,  node: 1, offset: 0x10000, slots: 16, slotSize: 128, event: INTR1, to: 2}
            """);
        Files.writeString(dir.resolve("node.yaml"), """
            device: sim:cnt?node=2&size=1M&dma=auto
            layout: layout.yaml
            receive:
              channels: [sensor]
              wait: BLOCKING
            threads:
              cpus: []
              isr:       {priority: 0}
              consumer:  {priority: 0}
              lockMemory: false
            journal:
              enabled: true
              dir: journal
            heartbeat: 100ms
            """);
        final NodeContext config = NodeConfig.load(dir.resolve("node.yaml"));
        final List<String> beats = new ArrayList<>();
        final RfmNode node = new RfmNode(config.out(line -> { })).heartbeatSink(line ->
        {
            synchronized (beats)
            {
                beats.add(line);
            }
        });
        final Path file = root.resolve("cnt").resolve("node-2.counters");
        final int sent = 500;
        try (RfmDevice sender = RfmDevices.open("sim:cnt?node=1&size=1M"))
        {
            node.start();
            assertThat(node.counters().file()).isEqualTo(file);
            final FramePublisher publisher = new FramePublisher(sender, config.inputs().get(0));
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (int i = 0; i < sent; i++)
            {
                while (publisher.lastSeq() - node.receivePath().counter(RuntimeCounter.FRAMES_HANDLED) > 4 &&
                    System.nanoTime() < deadline)
                {
                    Thread.onSpinWait();
                }
                publisher.publish(payload, 0, payload.capacity(), 0);
            }
            // two more beats, so that the card's counters of the last frames are in the file
            final int seen;
            synchronized (beats)
            {
                seen = beats.size();
            }
            while (System.nanoTime() < deadline)
            {
                synchronized (beats)
                {
                    if (beats.size() >= seen + 2)
                    {
                        break;
                    }
                }
                Thread.sleep(10);
            }
            final CountersSnapshot running = CountersSnapshot.read(file);
            assertThat(running.alive()).isTrue();
            assertThat(running.node()).isEqualTo(2);
            assertThat(running.device()).isEqualTo("sim:cnt?node=2&size=1M&dma=auto");
            assertThat(running.value(CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED))).isEqualTo(sent);
            assertThat(running.value(CounterIds.frame(0, FrameCounter.FRAMES))).isEqualTo(sent);
            assertThat(running.value(CounterIds.card(RfmCounter.EVENTS_RECEIVED))).isEqualTo(sent);
            assertThat(running.value(CounterIds.card(RfmCounter.FIFO_OVERFLOWS))).isZero();
            assertThat(running.value(CounterIds.journal(CounterIds.JOURNAL_WRITTEN))).isPositive();
            assertThat(running.errors()).isEmpty();
            node.close();
        }
        assertThat(file).as("removed on an orderly stop").doesNotExist();

        long lastFrames = -1;
        int records = 0;
        try (JournalReader reader = JournalReader.open(dir.resolve("journal")))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.COUNTERS)
                {
                    records++;
                    assertThat(record.counterCount()).isEqualTo(JournalCodes.COUNTERS_LENGTH);
                    lastFrames = record.counter(JournalCodes.COUNTERS_FRAME_BASE + FrameCounter.FRAMES.id());
                }
            }
        }
        assertThat(records).as("COUNTERS records, one per beat and a last one").isGreaterThanOrEqualTo(3);
        assertThat(lastFrames).isEqualTo(sent);
        final ReplaySummary summary = Replay.run(dir.resolve("journal"), ReplayFilter.ALL, List.of());
        final NodeAnalysis analysis = summary.nodes().get(0);
        // 0, not the -1 ("n/a") of a journal without COUNTERS records
        assertThat(analysis.fifoOverflows()).isZero();
        assertThat(analysis.journalDrops()).isZero();
    }
}
