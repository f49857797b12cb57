package io.rfmrt.runtime;

import com.sun.management.ThreadMXBean;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReceivePathTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 16, 128, EventType.INTR1, 2);

    private Path root;
    private RtEnvironment env;
    private final List<String> warnings = new ArrayList<>();

    @BeforeEach
    void setUp()
    {
        root = Path.of("/dev/shm", "rfmrt-rt-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
        env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")), warnings::add);
    }

    @AfterEach
    void tearDown() throws IOException
    {
        env.close();
        if (Files.exists(root))
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** Publish frames, keeping at most a few in flight so that no FIFO or DMA ring overflows. */
    private static void publish(final FramePublisher publisher, final ReceivePath path, final int count)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (int i = 0; i < count; i++)
        {
            while (publisher.lastSeq() - path.counter(RuntimeCounter.FRAMES_HANDLED) -
                path.counter(FrameCounter.TORN) >= 4)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new AssertionError("receive path stalled at " +
                        path.counter(RuntimeCounter.FRAMES_HANDLED) + " frames");
                }
                Thread.onSpinWait();
            }
            payload.putLong(0, publisher.lastSeq() + 1);
            publisher.publish(payload, 0, payload.capacity(), 0);
        }
    }

    private static void awaitHandled(final ReceivePath path, final long count)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (path.counter(RuntimeCounter.FRAMES_HANDLED) < count && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"BLOCKING", "SPIN_THEN_BLOCK(10000)", "BUSY_SPIN", "POLLING(100000)", "INLINE"})
    void shouldDeliverEveryFrameInOrderWithEveryWaitStrategy(final String strategy)
    {
        final WaitStrategy wait = WaitStrategy.parse(strategy);
        final String dma = wait.kind() == WaitStrategy.Kind.POLLING ? "on-demand" : "auto";
        try (RfmDevice sender = RfmDevices.open("sim:rp?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:rp?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=" + dma))
        {
            final long[] expected = {1};
            final long[] outOfOrder = {0};
            final long[] badStamps = {0};
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1, wait,
                (frame, stamps) ->
                {
                    if (frame.buffer().getLong(frame.payloadOffset()) != expected[0]++ || stamps.seq() != frame.seq())
                    {
                        outOfOrder[0]++;
                    }
                    if (!(stamps.sendNanos() <= stamps.wokeNanos() && stamps.wokeNanos() <= stamps.validatedNanos() &&
                        stamps.validatedNanos() <= stamps.consumerStartNanos()))
                    {
                        badStamps[0]++;
                    }
                }, null, null, SystemNanoClock.INSTANCE);
            path.start(env, 1, 0, 1, 0);
            publish(new FramePublisher(sender, SENSOR), path, 2_000);
            awaitHandled(path, 2_000);
            path.close();

            // the threads have ended: their figures are the ones read as the close began, not "unreadable" (-1)
            assertThat(path.threadStats()).hasSameSizeAs(path.threads()).allSatisfy(stats ->
            {
                assertThat(stats.minorFaults()).isNotNegative();
                assertThat(stats.involuntarySwitches()).isNotNegative();
            });
            assertThat(path.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(2_000);
            assertThat(outOfOrder[0]).isZero();
            assertThat(badStamps[0]).isZero();
            assertThat(path.counter(FrameCounter.GAPS)).isZero();
            path.latencies().sample();
            for (final Stage stage : Stage.values())
            {
                assertThat(path.latencies().cumulative(stage).getTotalCount()).as(stage.label()).isEqualTo(2_000);
            }
            if (wait.kind() == WaitStrategy.Kind.POLLING)
            {
                assertThat(path.counter(RuntimeCounter.EVENTS)).isZero();
                assertThat(path.counter(RuntimeCounter.POLLS)).isPositive();
            }
            else
            {
                assertThat(path.counter(RuntimeCounter.EVENTS)).isEqualTo(2_000);
                assertThat(receiver.dma().freeIndex()).isEqualTo(2_000);
            }
            if (wait.kind() == WaitStrategy.Kind.BLOCKING)
            {
                assertThat(path.counter(RuntimeCounter.CONSUMER_PARKS)).isPositive();
            }
            if (wait.kind() == WaitStrategy.Kind.BUSY_SPIN)
            {
                assertThat(path.counter(RuntimeCounter.CONSUMER_PARKS)).isZero();
            }
        }
    }

    @Test
    void shouldRefuseTwoInputChannelsOfOnePublisherWhenBuiltDirectly()
    {
        final ChannelSpec second = new ChannelSpec("status", 1, 0x20000, 16, 128, EventType.INTR1, 2);
        try (RfmDevice receiver = RfmDevices.open("sim:rp?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            assertThatThrownBy(() -> new ReceivePath(receiver, List.of(SENSOR, second), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> { }, null, null, SystemNanoClock.INSTANCE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("receive.channels 'sensor' and 'status' are both published by node 1 (the receiver " +
                    "tells channels apart by publisher)");
        }
    }

    @Test
    void shouldValidateOnDemandTransfersAndJournalEveryFrame(@TempDir final Path journalDir)
    {
        try (RfmDevice sender = RfmDevices.open("sim:rp?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:rp?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=on-demand");
            Journal journal = Journal.start(JournalConfig.of(journalDir, 2)))
        {
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> { }, journal.newWriter("isr"),
                journal.newWriter("consumer"), SystemNanoClock.INSTANCE);
            path.start(env, -1, 0, -1, 0);
            publish(new FramePublisher(sender, SENSOR), path, 500);
            awaitHandled(path, 500);
            path.close();
            journal.close();
            assertThat(path.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(500);

            long frames = 0;
            long lastSeq = 0;
            try (JournalReader reader = JournalReader.open(journalDir))
            {
                final JournalRecord record = new JournalRecord();
                while (reader.next(record))
                {
                    if (record.kind() == RecordKind.FRAME)
                    {
                        frames++;
                        assertThat(record.seq()).isEqualTo(lastSeq + 1);
                        lastSeq = record.seq();
                        assertThat(record.payload().getLong(record.payloadOffset())).isEqualTo(record.seq());
                        assertThat(record.handlerEndNanos()).isGreaterThanOrEqualTo(record.consumerStartNanos());
                        assertThat(record.wokeNanos()).isGreaterThanOrEqualTo(record.sendNanos());
                    }
                }
            }
            assertThat(frames).isEqualTo(500);
        }
    }

    @Test
    void shouldCountFramesTheCardDroppedForAFullRingAsGapsAndDrainTheRest(@TempDir final Path journalDir)
    {
        // a two-slot ring that nobody drains yet: later transfers are dropped by the card, their events still come
        try (RfmDevice sender = RfmDevices.open("sim:rp?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:rp?node=2&size=1M&dmaSlots=2&dmaSlotSize=128");
            Journal journal = Journal.start(JournalConfig.of(journalDir, 2)))
        {
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> { }, journal.newWriter("isr"),
                journal.newWriter("consumer"), SystemNanoClock.INSTANCE);
            receiver.enableEvent(EventType.INTR1);
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
            for (int i = 0; i < 5; i++)
            {
                publisher.publish(payload, 0, 64, 0);
            }
            path.start(env, -1, 0, -1, 0);
            awaitHandled(path, 2);
            publisher.publish(payload, 0, 64, 0);
            awaitHandled(path, 3);
            path.close();
            journal.close();
            assertThat(path.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(3);
            assertThat(path.counter(FrameCounter.GAPS)).isEqualTo(3);
            assertThat(path.counter(FrameCounter.DMA_MISSING)).isZero();
            assertThat(receiver.counter(io.rfmrt.rfm.RfmCounter.DMA_DROPPED, null)).isEqualTo(3);
            assertThat(path.counter(RuntimeCounter.EVENTS)).isEqualTo(6);

            final List<Long> seqs = new ArrayList<>();
            try (JournalReader reader = JournalReader.open(journalDir))
            {
                final JournalRecord record = new JournalRecord();
                while (reader.next(record))
                {
                    if (record.kind() == RecordKind.FRAME)
                    {
                        seqs.add(record.seq());
                    }
                }
            }
            assertThat(seqs).containsExactly(1L, 2L, 6L);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"BLOCKING", "INLINE"})
    void shouldNotAllocateOnTheIsrAndConsumerThreadsInSteadyState(final String strategy)
    {
        final WaitStrategy wait = WaitStrategy.parse(strategy);
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        try (RfmDevice sender = RfmDevices.open("sim:rp?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:rp?node=2&size=1M&dmaSlots=16&dmaSlotSize=128");
            Journal journal = Journal.start(JournalConfig.of(root.resolve("journal"), 2));
            // the counters in a mapped file, as a node keeps them: their increments are on the measured threads
            NodeCounters counters = NodeCounters.create(NodeCounters.fileFor("sim:rp?node=2", 2), 2, "sim:rp?node=2",
                List.of(SENSOR)))
        {
            final long[] sum = {0};
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                wait, (frame, stamps) -> sum[0] += frame.buffer().getLong(frame.payloadOffset()),
                journal.newWriter("isr"), journal.newWriter("consumer"), SystemNanoClock.INSTANCE,
                new RtErrorPolicy(null), counters);
            path.start(env, -1, 0, -1, 0);
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            final List<RtThread> rt = path.threads();
            assertThat(rt).hasSize(wait.kind() == WaitStrategy.Kind.INLINE ? 1 : 2);

            publish(publisher, path, 60_000);
            awaitHandled(path, 60_000);
            final long[] windows = new long[3];
            int measured = 0;
            do
            {
                final long before = allocated(threads, rt);
                publish(publisher, path, 100_000);
                awaitHandled(path, 60_000 + 100_000L * (measured + 1));
                windows[measured] = allocated(threads, rt) - before;
            }
            while (windows[measured++] != 0 && measured < windows.length);
            path.close();

            final long frames = 60_000 + 100_000L * measured;
            assertThat(path.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(frames);
            assertThat(sum[0]).isEqualTo(frames * (frames + 1) / 2);
            if (wait.kind() == WaitStrategy.Kind.BLOCKING)
            {
                assertThat(path.counter(RuntimeCounter.CONSUMER_PARKS)).as("the consumer blocked").isPositive();
            }
            assertThat(windows[measured - 1]).as("bytes allocated by the ISR-wake and consumer threads per window " +
                "of 100,000 frames: %s", java.util.Arrays.toString(java.util.Arrays.copyOf(windows, measured)))
                .isZero();
            // what the threads counted is in the file, as another process reads it
            final CountersSnapshot file = CountersSnapshot.read(counters.file());
            assertThat(file.value(CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED))).isEqualTo(frames);
            assertThat(file.value(CounterIds.frame(0, FrameCounter.FRAMES))).isEqualTo(frames);
            assertThat(file.value(CounterIds.runtime(RuntimeCounter.EVENTS))).isEqualTo(
                path.counter(RuntimeCounter.EVENTS)).isPositive();
        }
    }

    private static long allocated(final ThreadMXBean threads, final List<RtThread> rt)
    {
        long sum = 0;
        for (final RtThread t : rt)
        {
            sum += threads.getThreadAllocatedBytes(t.thread().getId());
        }
        return sum;
    }
}
