package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.runtime.internal.ConsumerAgent;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.HandoffRing;
import io.rfmrt.runtime.internal.IsrWakeAgent;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DMA descriptors must go back to the card in the order they were taken, whatever the batch shape: a full ring
 * whose consumer frees a descriptor that the card refills at once, and a frame the ISR side refuses before it took a
 * descriptor. Driven without threads, so the interleaving is exact.
 */
class ReleaseOrderTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 64, 128, EventType.INTR1, 2);
    private static final int DMA_SLOTS = 16;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-release-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    private static void publish(final FramePublisher publisher)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
        payload.putLong(0, publisher.lastSeq() + 1);
        assertThat(publisher.publish(payload, 0, payload.capacity(), 0)).isEqualTo(RfmStatus.SUCCESS);
    }

    @Test
    void shouldHandOnADescriptorTheCardRefilledWhileTheConsumerWasReleasingIt()
    {
        try (RfmDevice sender = RfmDevices.open("sim:order?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:order?node=2&size=1M&dmaSlots=" + DMA_SLOTS +
                "&dmaSlotSize=128&dma=auto"))
        {
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            final List<Long> handled = new ArrayList<>();
            final Counters counters = new Counters();
            final FrameReceiver[] receivers = {new FrameReceiver(receiver, SENSOR)};
            final int[] channelBySource = new int[RfmDevice.MAX_NODE_ID + 1];
            Arrays.fill(channelBySource, -1);
            channelBySource[SENSOR.node()] = 0;
            final DmaCompletion[] completions = new DmaCompletion[DMA_SLOTS];
            Arrays.setAll(completions, i -> new DmaCompletion());
            final HandoffRing handoff = new HandoffRing(DMA_SLOTS);
            final IsrWakeAgent isr = new IsrWakeAgent(receiver, EventType.INTR1, receivers, channelBySource,
                completions, handoff, counters, null, SystemNanoClock.INSTANCE);
            final int[] refills = {0};
            // the card refills each freed descriptor at once and the ISR side takes it, before the consumer has
            // finished with the entry it just released: the shape a full ring at 20 kHz has all the time
            final Runnable cardRefills = () ->
            {
                if (refills[0]++ < 3 * DMA_SLOTS)
                {
                    publish(publisher);
                    isr.doWork(RfmDevice.NO_WAIT);
                }
            };
            final ConsumerAgent consumer = new ConsumerAgent(handoff, new ReleaseHook(receiver, cardRefills),
                completions, (frame, stamps) -> handled.add(frame.buffer().getLong(frame.payloadOffset())),
                new StageLatencies(), counters, null, SystemNanoClock.INSTANCE);
            receiver.enableEvent(EventType.INTR1);
            for (int i = 0; i < DMA_SLOTS; i++)
            {
                publish(publisher);
                isr.doWork(RfmDevice.NO_WAIT);
            }
            assertThat(receiver.dma().hardwareIndex() - receiver.dma().freeIndex()).isEqualTo(DMA_SLOTS);

            while (consumer.doWork() > 0)
            {
                // each call releases one descriptor, and the hook refills it
            }

            final long total = 4L * DMA_SLOTS;
            assertThat(handled).hasSize((int)total);
            for (int i = 0; i < total; i++)
            {
                assertThat(handled.get(i)).isEqualTo(i + 1L);
            }
            assertThat(counters.get(RuntimeCounter.HANDOFF_FULL)).isZero();
            assertThat(receivers[0].counter(FrameCounter.GAPS)).isZero();
            assertThat(receiver.dma().freeIndex()).isEqualTo(total);
        }
    }

    @Test
    void shouldNotHandOnAFrameRefusedBeforeADescriptorWasTakenInOnDemandMode()
    {
        try (RfmDevice sender = RfmDevices.open("sim:bad?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:bad?node=2&size=1M&dmaSlots=" + DMA_SLOTS +
                "&dmaSlotSize=128&dma=on-demand"))
        {
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            final List<Long> handled = new ArrayList<>();
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) -> handled.add(frame.buffer().getLong(frame.payloadOffset())),
                null, null, SystemNanoClock.INSTANCE);
            receiver.enableEvent(EventType.INTR1);
            for (int i = 0; i < 3; i++)
            {
                publish(publisher);
                path.isrAgent().doWork(RfmDevice.NO_WAIT);
            }
            // a frame whose header length is out of range, as a broken sender would write it
            publish(publisher);
            sender.window().putInt(SENSOR.slotOffset(publisher.lastSeq()) + FrameHeaderDescriptor.LENGTH_OFFSET,
                1 << 20);
            path.isrAgent().doWork(RfmDevice.NO_WAIT);
            for (int i = 0; i < 3 * DMA_SLOTS; i++)
            {
                publish(publisher);
                path.isrAgent().doWork(RfmDevice.NO_WAIT);
                while (path.consumerAgent().doWork() > 0)
                {
                    // hand everything on
                }
            }

            assertThat(path.counter(FrameCounter.BAD_HEADER)).isEqualTo(1);
            assertThat(handled).hasSize(3 + 3 * DMA_SLOTS);
            assertThat(handled.get(3)).isEqualTo(5L);
            assertThat(receiver.dma().freeIndex()).isEqualTo(receiver.dma().completedIndex());
            assertThat(receiver.dma().freeIndex()).isEqualTo(3 + 3 * DMA_SLOTS);
        }
    }
}
