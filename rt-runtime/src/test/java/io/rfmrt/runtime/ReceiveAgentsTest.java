package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.internal.ConsumerAgent;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.HandoffRing;
import io.rfmrt.runtime.internal.IsrWakeAgent;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalTestSupport;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The receive path's two duties, ISR-wake and consumer, wired as a node wires them but driven by the test without
 * threads, with a clock that steps: what the handler, the stage histograms, the journals and the counters get for
 * good frames, refused frames, a restarted publisher, a full ring, an empty wake and a failed wait.
 */
class ReceiveAgentsTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 64, 128, EventType.INTR1, 2);
    private static final int PAYLOAD = 16;
    private static final long SEND_NANOS = 500;
    private static final int STRANGER = 3;

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-agents-test-");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    /** The ISR-wake and consumer duties of one input channel, wired as the receive path wires them. */
    private static final class Agents
    {
        final Counters counters = new Counters();
        final FrameReceiver receiver;
        final HandoffRing handoff;
        final StageLatencies latencies = new StageLatencies();
        final JournalWriter isrJournal;
        final JournalWriter consumerJournal;
        final IsrWakeAgent isr;
        final ConsumerAgent consumer;
        /** Payload (the publisher's seq) of every frame the handler got, in order. */
        final List<Long> seqs = new ArrayList<>();
        /** The stamps the handler got with each frame. */
        final List<String> stamps = new ArrayList<>();

        /**
         * @param device   the receiving card.
         * @param dma      its DMA engine as the consumer sees it.
         * @param handoff  hand-off capacity.
         * @param journals whether the duties journal (into detached writers).
         * @param inline   run the handler on the ISR-wake duty.
         */
        Agents(final RfmDevice device, final DmaEngine dma, final int handoff, final boolean journals,
            final boolean inline)
        {
            final NanoClock clock = new StepClock();
            receiver = new FrameReceiver(device, SENSOR);
            final int[] channelBySource = new int[RfmDevice.MAX_NODE_ID + 1];
            Arrays.fill(channelBySource, -1);
            channelBySource[SENSOR.node()] = 0;
            final DmaCompletion[] completions = new DmaCompletion[device.dma().slotCount()];
            Arrays.setAll(completions, i -> new DmaCompletion());
            this.handoff = new HandoffRing(handoff);
            consumerJournal = journals ? JournalTestSupport.detachedWriter("consumer", 1 << 16) : null;
            isrJournal = journals && !inline ? JournalTestSupport.detachedWriter("isr", 1 << 16) : consumerJournal;
            consumer = new ConsumerAgent(this.handoff, dma, completions, (frame, stamp) ->
            {
                seqs.add(frame.buffer().getLong(frame.payloadOffset()));
                stamps.add("seq=" + stamp.seq() + " source=" + stamp.source() + " send=" + stamp.sendNanos() +
                    " woke=" + stamp.wokeNanos() + " validated=" + stamp.validatedNanos() + " start=" +
                    stamp.consumerStartNanos());
            }, latencies, counters, consumerJournal, clock);
            final IsrWakeAgent agent = new IsrWakeAgent(device, EventType.INTR1, new FrameReceiver[] {receiver},
                channelBySource, completions, this.handoff, counters, isrJournal, clock);
            isr = inline ? agent.inline(consumer) : agent;
        }

        Agents(final RfmDevice device, final boolean journals)
        {
            this(device, device.dma(), device.dma().slotCount(), journals, false);
        }

        void consumeAll()
        {
            while (consumer.doWork() > 0)
            {
                // hand everything on
            }
        }

        long counter(final RuntimeCounter counter)
        {
            return counters.get(counter);
        }
    }

    private static void publish(final FramePublisher publisher, final int count)
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);
        for (int i = 0; i < count; i++)
        {
            payload.putLong(0, publisher.lastSeq() + 1);
            assertThat(publisher.publish(payload, 0, PAYLOAD, 0)).isEqualTo(RfmStatus.SUCCESS);
        }
    }

    private static FramePublisher publisher(final RfmDevice sender)
    {
        return new FramePublisher(sender, SENSOR, () -> SEND_NANOS);
    }

    /** A node that publishes no channel the receiver knows sends a frame-sized transfer with its event. */
    private static void strangerSends(final RfmDevice stranger, final int data)
    {
        assertThat(stranger.sendEvent(2, EventType.INTR1, data, 0x20000, FrameHeaderDescriptor.transferLength(PAYLOAD)))
            .isEqualTo(RfmStatus.SUCCESS);
    }

    /** Queue records until the writer's ring has no room left (a stalled journal thread). */
    private static void fill(final JournalWriter writer)
    {
        for (int i = 0; i < 100_000 && writer.state(0, 0, 0); i++)
        {
            // fill it
        }
        assertThat(writer.dropped()).as("the ring is full").isEqualTo(1);
    }

    private static List<Long> oneTo(final int n)
    {
        return LongStream.rangeClosed(1, n).boxed().toList();
    }

    private static List<String> withoutNanos(final List<String> records)
    {
        return records.stream().map(r -> r.replaceAll(" nanos=\\d+", "")).toList();
    }

    @Test
    void shouldGiveTheHandlerTheStampOfEveryStageAndRecordAndJournalThem()
    {
        try (RfmDevice sender = RfmDevices.open("sim:stamps?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:stamps?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final Agents agents = new Agents(device, true);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 1);

            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(1);
            assertThat(agents.seqs).as("handed off, not yet handled").isEmpty();
            assertThat(agents.consumer.doWork()).isEqualTo(1);

            // the ISR-wake duty reads the clock when it takes the frame and once it is valid; the consumer before
            // and after the handler
            assertThat(agents.stamps).containsExactly("seq=1 source=1 send=500 woke=1000 validated=2000 start=3000");
            assertThat(JournalTestSupport.takeQueued(agents.consumerJournal)).containsExactly(
                "FRAME seq=1 source=1 send=500 woke=1000 validated=2000 start=3000 end=4000 length=" + PAYLOAD);
            assertThat(JournalTestSupport.takeQueued(agents.isrJournal)).isEmpty();
            agents.latencies.sample();
            assertThat(agents.latencies.cumulative(Stage.TRANSFER).getMaxValue()).isEqualTo(500);
            assertThat(agents.latencies.cumulative(Stage.ISR).getMaxValue()).isEqualTo(1000);
            assertThat(agents.latencies.cumulative(Stage.HANDOFF).getMaxValue()).isEqualTo(1000);
            assertThat(agents.latencies.cumulative(Stage.HANDLER).getMaxValue()).isEqualTo(1000);
            assertThat(agents.latencies.cumulative(Stage.END_TO_END).getTotalCount()).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.EVENTS)).isEqualTo(1);
            assertThat(device.dma().freeIndex()).as("descriptor given back").isEqualTo(1);
            assertThat(agents.consumer.doWork()).isZero();
            assertThat(agents.isr.roleName()).isEqualTo(ReceiveThreads.ISR);
            assertThat(agents.consumer.roleName()).isEqualTo(ReceiveThreads.CONSUMER);
        }
    }

    @Test
    void shouldRunTheHandlerOnTheIsrDutyInlineAndJournalFramesAndFaultsThere()
    {
        try (RfmDevice sender = RfmDevices.open("sim:inline?node=1&size=1M");
            RfmDevice stranger = RfmDevices.open("sim:inline?node=3&size=1M");
            RfmDevice device = RfmDevices.open("sim:inline?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final Agents agents = new Agents(device, device.dma(), 16, true, true);
            device.enableEvent(EventType.INTR1);
            // a publisher numbering past 32 bits: the event carries the low half, the frame the whole number
            final FramePublisher publisher = publisher(sender);
            publisher.resumeAfter(1L << 32);
            publish(publisher, 1);
            strangerSends(stranger, 9);

            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(2);
            assertThat(agents.stamps).containsExactly(
                "seq=4294967297 source=1 send=500 woke=1000 validated=2000 start=3000");
            assertThat(agents.seqs).containsExactly(4294967297L);
            assertThat(agents.consumer.doWork()).as("nothing went through the hand-off").isZero();
            // one writer for the one thread: the frame, then the refused transfer from node 3 (its woke stamp)
            assertThat(JournalTestSupport.takeQueued(agents.consumerJournal)).containsExactly(
                "FRAME seq=4294967297 source=1 send=500 woke=1000 validated=2000 start=3000 end=4000 length=" +
                    PAYLOAD,
                "FAULT code=" + FrameStatus.BAD_HEADER.id() + " seq=-1 value=" + STRANGER + " nanos=5000");
            assertThat(agents.counter(RuntimeCounter.UNKNOWN_SOURCE)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(1);
            assertThat(device.dma().freeIndex()).as("both descriptors given back").isEqualTo(2);
        }
    }

    @Test
    void shouldJournalEveryRefusedFrameAndGiveItsDescriptorBack()
    {
        try (RfmDevice sender = RfmDevices.open("sim:refused?node=1&size=1M");
            RfmDevice stranger = RfmDevices.open("sim:refused?node=3&size=1M");
            RfmDevice device = RfmDevices.open("sim:refused?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final Agents agents = new Agents(device, true);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 1);
            // the same frame announced again (a duplicate), then a transfer from a node without a channel here
            assertThat(sender.sendEvent(2, EventType.INTR1, 1, SENSOR.slotOffset(1),
                FrameHeaderDescriptor.transferLength(PAYLOAD))).isEqualTo(RfmStatus.SUCCESS);
            strangerSends(stranger, 9);

            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(3);
            agents.consumeAll();
            assertThat(agents.seqs).containsExactly(1L);
            assertThat(withoutNanos(JournalTestSupport.takeQueued(agents.isrJournal))).containsExactly(
                "FAULT code=" + FrameStatus.DUPLICATE.id() + " seq=1 value=1",
                "FAULT code=" + FrameStatus.BAD_HEADER.id() + " seq=-1 value=" + STRANGER);
            assertThat(JournalTestSupport.takeQueued(agents.consumerJournal)).hasSize(1);
            assertThat(agents.receiver.counter(FrameCounter.DUPLICATES)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.UNKNOWN_SOURCE)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.JOURNAL_DROPS)).isZero();
            assertThat(device.dma().freeIndex()).as("every descriptor given back").isEqualTo(3);

            // the same refusal while the journal has no room: the record is lost, and counted
            fill(agents.isrJournal);
            strangerSends(stranger, 10);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(1);
            agents.consumeAll();
            assertThat(agents.counter(RuntimeCounter.JOURNAL_DROPS)).isEqualTo(1);
            assertThat(device.dma().freeIndex()).isEqualTo(4);
        }
    }

    @Test
    void shouldJournalAPublisherRestartAndCountTheRecordTheFullJournalDropped()
    {
        try (RfmDevice sender = RfmDevices.open("sim:restart?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:restart?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final Agents agents = new Agents(device, true);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 3);
            agents.isr.doWork(RfmDevice.NO_WAIT);
            agents.consumeAll();
            assertThat(JournalTestSupport.takeQueued(agents.isrJournal)).as("no restart yet").isEmpty();

            // the publisher starts again: its numbers start again at 1
            publish(publisher(sender), 2);
            agents.isr.doWork(RfmDevice.NO_WAIT);
            agents.consumeAll();
            assertThat(withoutNanos(JournalTestSupport.takeQueued(agents.isrJournal))).containsExactly(
                "FAULT code=" + JournalCodes.FAULT_PUBLISHER_RESTART + " seq=1 value=" + SENSOR.node());
            assertThat(agents.counter(RuntimeCounter.JOURNAL_DROPS)).isZero();

            // once more while the ISR-wake duty's journal ring is full: the record is lost, and counted
            fill(agents.isrJournal);
            publish(publisher(sender), 1);
            agents.isr.doWork(RfmDevice.NO_WAIT);
            agents.consumeAll();
            assertThat(agents.counter(RuntimeCounter.JOURNAL_DROPS)).isEqualTo(1);
            assertThat(agents.receiver.counter(FrameCounter.PUBLISHER_RESTARTS)).isEqualTo(2);
            assertThat(agents.seqs).containsExactly(1L, 2L, 3L, 1L, 2L, 1L);
            assertThat(agents.receiver.counter(FrameCounter.GAPS)).isZero();
        }
    }

    @Test
    void shouldHandOnARestartedPublishersFramesWithoutAJournal()
    {
        try (RfmDevice sender = RfmDevices.open("sim:nojournal?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:nojournal?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final Agents agents = new Agents(device, false);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 2);
            publish(publisher(sender), 1);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(3);
            agents.consumeAll();
            assertThat(agents.seqs).containsExactly(1L, 2L, 1L);
            assertThat(agents.receiver.counter(FrameCounter.PUBLISHER_RESTARTS)).isEqualTo(1);
        }
    }

    @Test
    void shouldCountAnEventFromANodeWithoutAChannelInOnDemandMode()
    {
        try (RfmDevice sender = RfmDevices.open("sim:odunknown?node=1&size=1M");
            RfmDevice stranger = RfmDevices.open("sim:odunknown?node=3&size=1M");
            RfmDevice device = RfmDevices.open(
                "sim:odunknown?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=on-demand"))
        {
            final Agents agents = new Agents(device, false);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 1);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.UNKNOWN_SOURCE)).as("the channel's own publisher").isZero();

            assertThat(stranger.sendEvent(2, EventType.INTR1, 1)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isZero();
            assertThat(agents.counter(RuntimeCounter.UNKNOWN_SOURCE)).isEqualTo(1);
            agents.consumeAll();
            assertThat(agents.seqs).containsExactly(1L);
        }
    }

    @Test
    void shouldCountAWakeThatFindsNoFrameAndAWaitThatFailed()
    {
        try (RfmDevice sender = RfmDevices.open("sim:empty?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:empty?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final Agents agents = new Agents(device, false);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 1);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.EMPTY_WAKES)).isZero();

            // an interrupt that moves no data
            assertThat(sender.sendEvent(2, EventType.INTR1, 7)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isZero();
            assertThat(agents.counter(RuntimeCounter.EMPTY_WAKES)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.EVENTS)).isEqualTo(2);

            // no interrupt at all: a time-out is no error and no wake
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isZero();
            assertThat(agents.counter(RuntimeCounter.EMPTY_WAKES)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.WAIT_ERRORS)).isZero();

            // a wait the card refuses is
            device.disableEvent(EventType.INTR1);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isZero();
            assertThat(agents.counter(RuntimeCounter.WAIT_ERRORS)).isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.EMPTY_WAKES)).isEqualTo(1);
        }
    }

    @Test
    void shouldSleepOnTheInterruptUntilAFrameOrACancel() throws InterruptedException
    {
        try (RfmDevice sender = RfmDevices.open("sim:sleep?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:sleep?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final Agents agents = new Agents(device, false);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 1);
            assertThat(agents.isr.doWork()).isEqualTo(1);

            // nothing more comes: the wake sleeps in the card until another thread cancels it
            final AtomicBoolean woke = new AtomicBoolean();
            final Thread canceller = new Thread(() ->
            {
                while (!woke.get())
                {
                    device.cancelAwait(EventType.INTR1);
                    LockSupport.parkNanos(1_000_000);
                }
            });
            canceller.start();
            final int taken = agents.isr.doWork();
            woke.set(true);
            canceller.join();
            assertThat(taken).isZero();
            assertThat(device.counter(RfmCounter.AWAIT_CANCELS, EventType.INTR1)).as("it slept").isEqualTo(1);
            assertThat(agents.counter(RuntimeCounter.WAIT_ERRORS)).as("a cancel is no error").isZero();
            assertThat(agents.counter(RuntimeCounter.EMPTY_WAKES)).isZero();
            agents.consumeAll();
            assertThat(agents.seqs).containsExactly(1L);
        }
    }

    @Test
    void shouldBoundAWakeWhileTheCardRefillsEveryDescriptorTheInlineHandlerGivesBack()
    {
        try (RfmDevice sender = RfmDevices.open("sim:refill?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:refill?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=auto"))
        {
            final FramePublisher publisher = publisher(sender);
            final int[] refills = {0};
            // each descriptor given back is filled again at once by the next frame, 32 times
            final Agents agents = new Agents(device, new ReleaseHook(device, () ->
            {
                if (refills[0]++ < 32)
                {
                    publish(publisher, 1);
                }
            }), 16, false, true);
            device.enableEvent(EventType.INTR1);
            publish(publisher, 16);

            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(agents.isr.drainLimit()).isEqualTo(16);
            assertThat(agents.seqs).hasSize(16);
            assertThat(agents.counter(RuntimeCounter.DRAIN_BOUND)).isEqualTo(1);
            while (agents.isr.doWork(RfmDevice.NO_WAIT) > 0)
            {
                // the bounded drains go on without waiting for an event
            }
            assertThat(agents.seqs).isEqualTo(oneTo(48));
            assertThat(agents.receiver.counter(FrameCounter.GAPS)).isZero();
        }
    }

    @Test
    void shouldTakeAtMostTheRingOfOnDemandFramesPerWakeAndTakeTheRestWithoutAnEvent()
    {
        try (RfmDevice sender = RfmDevices.open("sim:odbound?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:odbound?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=on-demand"))
        {
            final Agents agents = new Agents(device, false);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 20);

            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(16);
            assertThat(agents.counter(RuntimeCounter.EVENTS)).as("every doorbell in one wake").isEqualTo(20);
            assertThat(agents.receiver.counter(FrameCounter.DMA_MISSING)).as("stopped before the ring ran out")
                .isZero();
            agents.consumeAll();
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(4);
            agents.consumeAll();
            assertThat(agents.seqs).isEqualTo(oneTo(20));
            assertThat(agents.counter(RuntimeCounter.DRAIN_BOUND)).isEqualTo(1);
        }
    }

    @Test
    void shouldTakeAnOnDemandFrameTheFullRingRefusedOnceTheConsumerGaveDescriptorsBack()
    {
        try (RfmDevice sender = RfmDevices.open("sim:odfull?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:odfull?node=2&size=1M&dmaSlots=16&dmaSlotSize=128&dma=on-demand"))
        {
            final Agents agents = new Agents(device, true);
            device.enableEvent(EventType.INTR1);
            final FramePublisher publisher = publisher(sender);
            publish(publisher, 2);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(2);
            // the consumer has not given those two back: 14 descriptors for the next 16 frames
            publish(publisher, 16);
            agents.isr.doWork(RfmDevice.NO_WAIT);
            assertThat(agents.receiver.counter(FrameCounter.DMA_MISSING)).isEqualTo(1);
            assertThat(withoutNanos(JournalTestSupport.takeQueued(agents.isrJournal))).containsExactly(
                "FAULT code=" + FrameStatus.DMA_MISSING.id() + " seq=17 value=" + SENSOR.node());
            agents.consumeAll();
            assertThat(agents.seqs).isEqualTo(oneTo(16));

            // no event is left, yet the next wake takes the two frames the full ring held up
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(2);
            agents.consumeAll();
            assertThat(agents.seqs).isEqualTo(oneTo(18));
            assertThat(agents.receiver.counter(FrameCounter.GAPS)).isZero();
            assertThat(device.dma().freeIndex()).isEqualTo(18);
        }
    }

    @Test
    void shouldCountAFrameTheHandOffHadNoRoomFor()
    {
        try (RfmDevice sender = RfmDevices.open("sim:handoff?node=1&size=1M");
            RfmDevice device = RfmDevices.open("sim:handoff?node=2&size=1M&dmaSlots=4&dmaSlotSize=128&dma=auto"))
        {
            // a hand-off smaller than the DMA ring, which the receive path never builds
            final Agents agents = new Agents(device, device.dma(), 2, false, false);
            device.enableEvent(EventType.INTR1);
            publish(publisher(sender), 3);
            assertThat(agents.isr.doWork(RfmDevice.NO_WAIT)).isEqualTo(3);
            assertThat(agents.counter(RuntimeCounter.HANDOFF_FULL)).isEqualTo(1);
            agents.consumeAll();
            assertThat(agents.seqs).containsExactly(1L, 2L);
        }
    }
}
