package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interrupt is a doorbell, the ring is the truth: events lost to a full FIFO, or never raised, lose no frame
 * whose bytes arrived. Driven without threads.
 */
class DrainTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 512, 128, EventType.INTR1, 2);
    private static final int DMA_SLOTS = 256;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-drain-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    private static void publish(final FramePublisher publisher, final int count)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        for (int i = 0; i < count; i++)
        {
            payload.putLong(0, publisher.lastSeq() + 1);
            publisher.publish(payload, 0, payload.capacity(), 0);
        }
    }

    private static void consumeAll(final ReceivePath path)
    {
        while (path.consumerAgent().doWork() > 0)
        {
            // hand everything on
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "on-demand"})
    void shouldTakeEveryFrameOfAnOverflowedFifoInOneWake(final String dma)
    {
        try (RfmDevice sender = RfmDevices.open("sim:drain?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:drain?node=2&size=1M&dmaSlots=" + DMA_SLOTS +
                "&dmaSlotSize=128&dma=" + dma))
        {
            final List<Long> handled = new ArrayList<>();
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> handled.add(frame.buffer().getLong(frame.payloadOffset())),
                null, null, SystemNanoClock.INSTANCE);
            receiver.enableEvent(EventType.INTR1);
            // 200 frames while the ISR side is stalled: the 127-entry FIFO overflows
            publish(new FramePublisher(sender, SENSOR), 200);
            assertThat(receiver.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR1)).isEqualTo(200 - 127);

            assertThat(path.isrAgent().doWork(RfmDevice.NO_WAIT)).isEqualTo(200);
            consumeAll(path);
            assertThat(path.isrAgent().doWork(RfmDevice.NO_WAIT)).isZero();

            assertThat(handled).hasSize(200);
            for (int i = 0; i < 200; i++)
            {
                assertThat(handled.get(i)).isEqualTo(i + 1L);
            }
            assertThat(path.counter(FrameCounter.GAPS)).isZero();
            assertThat(path.counter(RuntimeCounter.EVENTS)).isEqualTo(127);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "on-demand"})
    void shouldTakeFramesWhoseEventsWereLostOnTheNextWake(final String dma)
    {
        try (RfmDevice sender = RfmDevices.open("sim:lost?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:lost?node=2&size=1M&dmaSlots=" + DMA_SLOTS +
                "&dmaSlotSize=128&dma=" + dma))
        {
            final List<Long> handled = new ArrayList<>();
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> handled.add(frame.buffer().getLong(frame.payloadOffset())),
                null, null, SystemNanoClock.INSTANCE);
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            receiver.enableEvent(EventType.INTR1);
            // ten frames reach memory (and the DMA ring) and their doorbells are lost, as a masked interrupt's are
            publish(publisher, 10);
            assertThat(receiver.clearEvents(EventType.INTR1)).isEqualTo(10);
            assertThat(path.isrAgent().doWork(RfmDevice.NO_WAIT)).isZero();
            publish(publisher, 1);

            assertThat(path.isrAgent().doWork(RfmDevice.NO_WAIT)).isEqualTo(11);
            consumeAll(path);
            assertThat(handled).hasSize(11);
            assertThat(handled.get(10)).isEqualTo(11L);
            assertThat(path.counter(RuntimeCounter.EVENTS)).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "on-demand"})
    void shouldStopAtTheBoundAndGoOnWithoutWaiting(final String dma)
    {
        try (RfmDevice sender = RfmDevices.open("sim:bound?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:bound?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=" + dma))
        {
            final List<Long> handled = new ArrayList<>();
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> handled.add(frame.buffer().getLong(frame.payloadOffset())),
                null, null, SystemNanoClock.INSTANCE);
            receiver.enableEvent(EventType.INTR1);
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            // more frames than the ring holds: auto mode fills 16 descriptors, on-demand reads 16 per wake
            publish(publisher, 16);
            assertThat(path.isrAgent().doWork(RfmDevice.NO_WAIT)).isEqualTo(16);
            consumeAll(path);
            assertThat(path.counter(RuntimeCounter.DRAIN_BOUND)).isEqualTo(1);
            publish(publisher, 4);
            // no event is waiting for these (the first wake cleared them all), yet the bounded drain goes on
            receiver.clearEvents(EventType.INTR1);
            assertThat(path.isrAgent().doWork(RfmDevice.NO_WAIT)).isEqualTo(4);
            consumeAll(path);
            assertThat(handled).hasSize(20);
            assertThat(path.counter(FrameCounter.GAPS)).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    void shouldGiveBackTheDescriptorOfAFrameFromAnUnknownSource()
    {
        try (RfmDevice sender = RfmDevices.open("sim:unknown?node=1&size=1M");
            RfmDevice stranger = RfmDevices.open("sim:unknown?node=3&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:unknown?node=2&size=1M&dmaSlots=4&dmaSlotSize=128&dma=auto"))
        {
            final List<Long> handled = new ArrayList<>();
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> handled.add(frame.seq()), null, null,
                SystemNanoClock.INSTANCE);
            receiver.enableEvent(EventType.INTR1);
            // node 3 publishes no channel here: its transfer lands in the ring all the same
            stranger.sendEvent(2, EventType.INTR1, 1, 0x10000, 64);
            assertThat(path.isrAgent().doWork(RfmDevice.NO_WAIT)).isEqualTo(1);
            consumeAll(path);
            assertThat(path.counter(RuntimeCounter.UNKNOWN_SOURCE)).isEqualTo(1);
            assertThat(receiver.dma().freeIndex()).as("descriptor given back").isEqualTo(1);
            // the ring goes round more than once after it: nothing is held
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            for (int i = 0; i < 3; i++)
            {
                publish(publisher, 3);
                path.isrAgent().doWork(RfmDevice.NO_WAIT);
                consumeAll(path);
            }
            assertThat(handled).hasSize(9).startsWith(1L).endsWith(9L);
            assertThat(receiver.dma().freeIndex()).isEqualTo(10);
            assertThat(receiver.counter(RfmCounter.DMA_DROPPED, null)).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    void shouldCountFramesTheJournalDroppedOnTheConsumer(@org.junit.jupiter.api.io.TempDir final Path journalDir)
    {
        try (RfmDevice sender = RfmDevices.open("sim:jdrop?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:jdrop?node=2&size=1M&dmaSlots=" + DMA_SLOTS +
                "&dmaSlotSize=128&dma=auto");
            io.rfmrt.runtime.journal.Journal journal = io.rfmrt.runtime.journal.Journal.start(
                io.rfmrt.runtime.journal.JournalConfig.of(journalDir, 2).withRingCapacityBytes(4096)))
        {
            final io.rfmrt.runtime.journal.JournalWriter consumer = journal.newWriter("consumer");
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> { }, null, consumer, SystemNanoClock.INSTANCE);
            receiver.enableEvent(EventType.INTR1);
            // the journal thread stalls: its 4 KiB ring takes some frame records, the rest are dropped
            io.rfmrt.runtime.journal.JournalTestSupport.pause(journal);
            publish(new FramePublisher(sender, SENSOR), 100);
            path.isrAgent().doWork(RfmDevice.NO_WAIT);
            consumeAll(path);
            assertThat(path.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(100);
            assertThat(consumer.dropped()).isBetween(1L, 99L);
            assertThat(path.counter(RuntimeCounter.JOURNAL_DROPS)).isEqualTo(consumer.dropped());
            io.rfmrt.runtime.journal.JournalTestSupport.resume(journal);
        }
    }
}
