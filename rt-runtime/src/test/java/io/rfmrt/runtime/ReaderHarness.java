package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
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
import io.rfmrt.runtime.internal.PollingAgent;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalTestSupport;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One input channel's receive duties as a node wires them (ISR-wake and consumer, the inline handler, or the polling
 * duty), driven by the caller without threads, and publishers that write into the channel as a real one does, or
 * leave a slot torn, or write a frame again. The handler records each frame as {@code "P<publisher>#<seq>"}.
 */
final class ReaderHarness implements AutoCloseable
{
    /** The ways a node reads a channel: DMA mode and handler mode. */
    enum Mode
    {
        AUTO_BLOCKING("auto", false, false),
        AUTO_INLINE("auto", true, false),
        ON_DEMAND_BLOCKING("on-demand", false, false),
        ON_DEMAND_INLINE("on-demand", true, false),
        POLLING("on-demand", false, true);

        final String dma;
        final boolean inline;
        final boolean polling;

        Mode(final String dma, final boolean inline, final boolean polling)
        {
            this.dma = dma;
            this.inline = inline;
            this.polling = polling;
        }

        /**
         * @return whether the node finds frames by number in memory (on-demand DMA, polling), not by their events.
         */
        boolean findsByNumber()
        {
            return !dma.equals("auto");
        }
    }

    private static final int PAYLOAD = 16;

    final Mode mode;
    final ChannelSpec channel;
    final RfmDevice sender;
    final RfmDevice device;
    private Counters counters;
    final List<String> handled = new ArrayList<>();
    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[PAYLOAD]);
    private FrameReceiver receiver;
    private JournalWriter journal;
    private IsrWakeAgent isr;
    private ConsumerAgent consumer;
    private PollingAgent polling;
    private int publishers;

    /**
     * @param network  a network name unique to the test.
     * @param mode     how the node reads.
     * @param slots    the channel's slots.
     * @param dmaSlots the receiving card's DMA ring.
     */
    ReaderHarness(final String network, final Mode mode, final int slots, final int dmaSlots)
    {
        this.mode = mode;
        this.channel = new ChannelSpec("sensor", 1, 0x10000, slots, 128, EventType.INTR1, 2);
        this.sender = RfmDevices.open("sim:" + network + "?node=1&size=1M");
        this.device = RfmDevices.open("sim:" + network + "?node=2&size=1M&dmaSlots=" + dmaSlots +
            "&dmaSlotSize=128&dma=" + mode.dma);
        device.enableEvent(EventType.INTR1);
        reset();
    }

    /**
     * Start afresh on the same cards: the channel's slots emptied, the card's events taken, a new receiver and new
     * duties (a node started again).
     */
    void reset()
    {
        sender.window().setMemory(channel.offset(), (int)channel.length(), (byte)0);
        publishers = 0;
        restartNode();
    }

    /**
     * The node starts again on the same cards (what is in the channel's slots stays): the card's events and completed
     * transfers so far dropped, a new receiver and new duties.
     */
    void restartNode()
    {
        final io.rfmrt.rfm.EventInfo info = new io.rfmrt.rfm.EventInfo();
        while (device.pollEvent(EventType.INTR1, info) == RfmStatus.SUCCESS)
        {
            // drop the doorbells of the last run
        }
        final DmaCompletion spare = new DmaCompletion();
        while (device.dma().takeCompleted(spare))
        {
            device.dma().release(spare);
        }
        handled.clear();
        counters = new Counters();
        final NanoClock clock = new StepClock();
        receiver = new FrameReceiver(device, channel);
        journal = JournalTestSupport.detachedWriter("reader", 1 << 16);
        final FrameHandlerRecorder recorder = new FrameHandlerRecorder();
        if (mode.polling)
        {
            polling = new PollingAgent(new ChannelSpec[] {channel}, new FrameReceiver[] {receiver}, recorder,
                new StageLatencies(), counters, journal, clock, 1000);
            return;
        }
        final int[] channelBySource = new int[RfmDevice.MAX_NODE_ID + 1];
        Arrays.fill(channelBySource, -1);
        channelBySource[channel.node()] = 0;
        final DmaCompletion[] completions = new DmaCompletion[device.dma().slotCount()];
        Arrays.setAll(completions, i -> new DmaCompletion());
        final HandoffRing handoff = new HandoffRing(completions.length);
        consumer = new ConsumerAgent(handoff, device.dma(), completions, recorder, new StageLatencies(), counters,
            journal, clock);
        final IsrWakeAgent agent = new IsrWakeAgent(device, EventType.INTR1, new FrameReceiver[] {receiver},
            channelBySource, completions, handoff, counters, journal, clock);
        isr = mode.inline ? agent.inline(consumer) : agent;
    }

    private final class FrameHandlerRecorder implements FrameHandler
    {
        @Override
        public void onFrame(final io.rfmrt.rfm.channel.FrameView frame, final StageStamps stamps)
        {
            handled.add("P" + frame.buffer().getLong(frame.payloadOffset()) + "#" +
                frame.buffer().getLong(frame.payloadOffset() + 8));
            assertThat(frame.buffer().getLong(frame.payloadOffset() + 8)).as("payload and header agree")
                .isEqualTo(frame.seq());
        }
    }

    /** A publishing process: a new incarnation, numbered from 1. */
    final class Publisher
    {
        final FramePublisher frames = new FramePublisher(sender, channel);
        final int id = ++publishers;

        /**
         * Publish frames as a publisher does.
         *
         * @param count frames.
         * @return this.
         */
        Publisher publish(final int count)
        {
            for (int i = 0; i < count; i++)
            {
                write(frames.lastSeq() + 1);
            }
            return this;
        }

        /**
         * Leave the next frame's slot at {@code -seq} with part of its payload written, as a publisher that dies in
         * the middle of a write leaves it; the numbering goes on after it.
         *
         * @param announce send the frame's event all the same (a card then moves the torn slot by DMA in auto mode).
         * @return the torn frame's number.
         */
        long tear(final boolean announce)
        {
            final long seq = frames.lastSeq() + 1;
            final long slot = channel.slotOffset(seq);
            final RfmWindow window = sender.window();
            window.putLongThenStoreStoreFence(slot + FrameHeaderDescriptor.SEQ_OFFSET, -seq);
            window.putLong(slot + FrameHeaderDescriptor.HEADER_SIZE, 0xDEAD);
            if (announce)
            {
                assertThat(sender.sendEvent(channel.target(), channel.event(), (int)seq, slot,
                    FrameHeaderDescriptor.transferLength(PAYLOAD))).isEqualTo(RfmStatus.SUCCESS);
            }
            frames.resumeAfter(seq);
            return seq;
        }

        /**
         * Write frame {@code seq} of this incarnation again, whole, and announce it (a duplicate or a stale frame).
         *
         * @param seq its number.
         */
        void rewrite(final long seq)
        {
            final long last = frames.lastSeq();
            frames.resumeAfter(seq - 1);
            write(seq);
            frames.resumeAfter(last);
        }

        private void write(final long seq)
        {
            payload.putLong(0, id);
            payload.putLong(8, seq);
            assertThat(frames.publish(payload, 0, PAYLOAD, 0)).isEqualTo(RfmStatus.SUCCESS);
        }
    }

    /**
     * @return a new publishing process on the channel.
     */
    Publisher start()
    {
        return new Publisher();
    }

    /**
     * Run the node's duties until they find nothing more: wakes (or polls) and the consumer.
     */
    void drain()
    {
        if (mode.polling)
        {
            while (polling.poll() > 0)
            {
                // take everything there is
            }
            return;
        }
        int work;
        do
        {
            work = isr.doWork(RfmDevice.NO_WAIT);
            while (consumer.doWork() > 0)
            {
                // hand everything on
            }
        }
        while (work > 0);
    }

    long count(final FrameCounter counter)
    {
        return receiver.counter(counter);
    }

    long count(final RuntimeCounter counter)
    {
        return counters.get(counter);
    }

    FrameReceiver receiver()
    {
        return receiver;
    }

    /**
     * @return the journal's fault records of torn frames and of restarts, taken.
     */
    List<String> takeTornAndRestartFaults()
    {
        return JournalTestSupport.takeQueued(journal).stream()
            .filter(r -> r.startsWith("FAULT code=" + FrameStatus.TORN.id() + " ") ||
                r.startsWith("FAULT code=" + JournalCodes.FAULT_PUBLISHER_RESTART + " "))
            .map(r -> r.replaceAll(" nanos=\\d+", ""))
            .toList();
    }

    @Override
    public void close()
    {
        sender.close();
        device.close();
    }
}
