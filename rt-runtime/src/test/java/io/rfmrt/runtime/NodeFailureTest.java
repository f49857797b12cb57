package io.rfmrt.runtime;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node whose thread throws fails loudly: the failure names the thread, the error is counted and journaled as a
 * FAULT record, and the node, closed in order, releases its node id. One case per kind of thread.
 */
class NodeFailureTest
{
    private static final String LAYOUT = """
        memorySize: 1M
        channels:
          - {name: sensor,  node: 1, offset: 0x10000, slots: 16, slotSize: 128, event: INTR1, to: 2}
          - {name: command, node: 2, offset: 0x10800, slots: 16, slotSize: 128, event: INTR2, to: 1}
        """;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-failure-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    @ParameterizedTest(name = "{0} thread, wait {1}")
    @CsvSource({
        "rfmrt-consumer, BLOCKING, handler",
        "rfmrt-isr, INLINE, handler",
        "rfmrt-consumer, POLLING(200000), handler",
        "rfmrt-publisher, BLOCKING, publisher",
        "rfmrt-heartbeat, BLOCKING, heartbeat"})
    void shouldStopTheNodeInOrderWhenAThreadThrows(final String thread, final String wait, final String where,
        @TempDir final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("layout.yaml"), LAYOUT);
        final String dma = wait.startsWith("POLLING") ? "on-demand" : "auto";
        Files.writeString(dir.resolve("node.yaml"), """
            device: sim:fail?node=2&size=1M&dma=%s
            layout: layout.yaml
            receive:
              channels: [sensor]
              wait: %s
            publish:
              channel: command
              rateHz: 1000
              size: 16
            threads:
              cpus: []
              isr:       {priority: 0}
              consumer:  {priority: 0}
              publisher: {priority: 0}
              lockMemory: false
            journal:
              enabled: true
              dir: journal
            heartbeat: 100ms
            """.formatted(dma, wait));
        final NodeContext config = NodeConfig.load(dir.resolve("node.yaml"));
        final List<String> out = new ArrayList<>();
        final long[] frames = {0};
        final RfmNode node = new RfmNode(config.out(out::add));
        switch (where)
        {
            case "handler" -> node.handler((frame, stamps) ->
            {
                if (++frames[0] == 5)
                {
                    throw new IllegalStateException("handler broke on frame " + frame.seq());
                }
            });
            case "publisher" -> node.payloadWriter((count, payload) ->
            {
                if (count == 5)
                {
                    throw new IllegalStateException("payload writer broke");
                }
            });
            default -> node.heartbeatSink(line ->
            {
                throw new IllegalStateException("heartbeat sink broke");
            });
        }
        try (RfmDevice sender = RfmDevices.open("sim:fail?node=1&size=1M"))
        {
            node.start();
            final ChannelSpec sensor = config.inputs().get(0);
            final FramePublisher publisher = new FramePublisher(sender, sensor);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!node.errors().awaitFailure(5, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline)
            {
                publisher.publish(payload, 0, payload.capacity(), 0);
            }
            assertThat(node.failure()).as("failure").startsWith("thread " + thread + ": IllegalStateException");
            assertThat(node.errors().errors()).isPositive();
            node.close();

            // the claim is released: the node id can be taken again
            try (RfmDevice again = RfmDevices.open("sim:fail?node=2&size=1M"))
            {
                assertThat(again.nodeId()).isEqualTo(2);
            }
        }
        int faults = 0;
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
        assertThat(faults).as("FAULT records of the failed thread").isPositive();
    }
}
