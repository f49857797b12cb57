package io.rfmrt.rfm.channel;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import io.rfmrt.rfm.sim.SimNetwork;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameChannelTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x1000, 4, 128, EventType.INTR1, 2);

    private Path root;
    private RfmDevice sender;
    private RfmDevice receiver;
    private final UnsafeBuffer payload = new UnsafeBuffer(new byte[96]);
    private final EventInfo event = new EventInfo();
    private final FrameView view = new FrameView();

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
    }

    @AfterEach
    void tearDown()
    {
        if (sender != null)
        {
            sender.close();
        }
        if (receiver != null)
        {
            receiver.close();
        }
        SimTestSupport.removeRoot(root);
    }

    private void open(final String receiverDma)
    {
        sender = RfmDevices.open("sim:frames?node=1&size=1M");
        receiver = RfmDevices.open("sim:frames?node=2&size=1M&dmaSlots=8&dmaSlotSize=128&dma=" + receiverDma);
        receiver.enableEvent(EventType.INTR1);
    }

    private RfmStatus publish(final FramePublisher publisher, final long value)
    {
        payload.putLong(0, value);
        payload.putLong(40, ~value);
        return publisher.publish(payload, 0, 48, 3);
    }

    private int nextEvent()
    {
        assertThat(receiver.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, event)).isEqualTo(RfmStatus.SUCCESS);
        return event.data();
    }

    @Test
    void shouldDeliverFramesThroughAutoDma()
    {
        open("auto");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final DmaCompletion done = new DmaCompletion();
        for (long i = 1; i <= 10; i++)
        {
            assertThat(publish(publisher, i * 100)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(nextEvent()).isEqualTo((int)i);
            assertThat(receiver.dma().takeCompleted(done)).isTrue();
            assertThat(frames.receiveCompleted(done, view)).isEqualTo(FrameStatus.OK);
            assertThat(view.seq()).isEqualTo(i);
            assertThat(view.length()).isEqualTo(48);
            assertThat(view.source()).isEqualTo(1);
            assertThat(view.flags()).isEqualTo(3);
            assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(i * 100);
            assertThat(view.buffer().getLong(view.payloadOffset() + 40)).isEqualTo(~(i * 100));
            assertThat(view.sendNanos()).isLessThanOrEqualTo(event.arrivalNanos());
            receiver.dma().release(done);
        }
        assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(10);
        assertThat(frames.counter(FrameCounter.GAPS)).isZero();
    }

    @Test
    void shouldDeliverFramesThroughOnDemandDmaAndCpuCopies()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final DmaCompletion done = new DmaCompletion();
        publish(publisher, 7);
        assertThat(frames.receiveOnDemand(nextEvent(), done, view)).isEqualTo(FrameStatus.OK);
        assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(7);
        receiver.dma().release(done);

        publish(publisher, 8);
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.OK);
        assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(8);
        assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(2);
    }

    @Test
    void shouldTakeTheFirstFrameOfARestartedPublisherAndResetItsSequence()
    {
        open("auto");
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final DmaCompletion done = new DmaCompletion();
        final FramePublisher first = new FramePublisher(sender, SENSOR);
        for (long i = 1; i <= 20; i++)
        {
            publish(first, i);
            nextEvent();
            assertThat(receiver.dma().takeCompleted(done)).isTrue();
            assertThat(frames.receiveCompleted(done, view)).isEqualTo(FrameStatus.OK);
            receiver.dma().release(done);
        }
        assertThat(frames.takeRestart()).isFalse();
        final FramePublisher second = new FramePublisher(sender, SENSOR);
        assertThat(second.incarnation()).isNotZero().isNotEqualTo(first.incarnation());
        for (long i = 1; i <= 3; i++)
        {
            publish(second, 100 + i);
            nextEvent();
            assertThat(receiver.dma().takeCompleted(done)).isTrue();
            assertThat(frames.receiveCompleted(done, view)).as("frame %d of the new incarnation", i)
                .isEqualTo(FrameStatus.OK);
            assertThat(view.seq()).isEqualTo(i);
            assertThat(frames.takeRestart()).isEqualTo(i == 1);
            receiver.dma().release(done);
        }
        assertThat(frames.counter(FrameCounter.PUBLISHER_RESTARTS)).isEqualTo(1);
        assertThat(frames.counter(FrameCounter.STALE)).isZero();
        assertThat(frames.counter(FrameCounter.GAPS)).isZero();
        assertThat(frames.incarnation(1)).isEqualTo(second.incarnation());
    }

    @Test
    void shouldFindARestartedPublisherByItsFirstSlotWhenReadingMemory()
    {
        open("on-demand");
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final FramePublisher first = new FramePublisher(sender, SENSOR);
        for (long i = 1; i <= 5; i++)
        {
            publish(first, i);
            nextEvent();
            assertThat(frames.nextToRead()).isEqualTo(i);
            assertThat(frames.receiveFromMemory((int)i, view)).isEqualTo(FrameStatus.OK);
        }
        assertThat(frames.nextToRead()).isEqualTo(FrameReceiver.NOTHING_NEW);
        publish(new FramePublisher(sender, SENSOR), 9);
        nextEvent();
        assertThat(frames.nextToRead()).isEqualTo(1);
        assertThat(frames.receiveFromMemory(1, view)).isEqualTo(FrameStatus.OK);
        assertThat(frames.takeRestart()).isTrue();
        assertThat(frames.lastSeq(1)).isEqualTo(1);
        assertThat(frames.nextToRead()).as("slots 2..5 hold the old incarnation's frames")
            .isEqualTo(FrameReceiver.NOTHING_NEW);
        assertThat(frames.expected()).isEqualTo(2);
    }

    @Test
    void shouldCountGapsDuplicatesAndStaleFrames()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        publish(publisher, 1);
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.OK);
        publish(publisher, 2);
        publish(publisher, 3);
        publish(publisher, 4);
        nextEvent();
        nextEvent();
        // read only frame 4: frames 2 and 3 were lost
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.OK);
        assertThat(frames.counter(FrameCounter.GAPS)).isEqualTo(2);
        assertThat(frames.receiveFromMemory(4, view)).isEqualTo(FrameStatus.DUPLICATE);
        assertThat(frames.receiveFromMemory(3, view)).isEqualTo(FrameStatus.STALE);
        assertThat(frames.counter(FrameCounter.DUPLICATES)).isEqualTo(1);
        assertThat(frames.counter(FrameCounter.STALE)).isEqualTo(1);
        assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(2);
    }

    @Test
    void shouldCountTornFrameWhenSenderLapsReader()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        publish(publisher, 1);
        final int announced = nextEvent();
        // while the reader copies slot 1, the publisher goes round the 4-slot ring and rewrites it
        assertThat(frames.readFault(() ->
        {
            for (int i = 0; i < SENSOR.slots(); i++)
            {
                publish(publisher, 1000 + i);
            }
        })).isSameAs(frames);
        assertThat(frames.receiveFromMemory(announced, view)).isEqualTo(FrameStatus.TORN);
        assertThat(frames.counter(FrameCounter.TORN)).isEqualTo(1);

        final DmaCompletion done = new DmaCompletion();
        assertThat(frames.receiveOnDemand((int)publisher.lastSeq(), done, view)).isEqualTo(FrameStatus.TORN);
        receiver.dma().release(done);
        assertThat(frames.counter(FrameCounter.TORN)).isEqualTo(2);
        assertThat(frames.counter(FrameCounter.FRAMES)).isZero();
    }

    @Test
    void shouldCountTornFrameWhenReadMidWrite()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        publish(publisher, 1);
        // a publisher stopped between its busy mark and its final sequence store
        sender.window().putLong(SENSOR.slotOffset(1), -5);
        assertThat(frames.receiveFromMemory(1, view)).isEqualTo(FrameStatus.TORN);
    }

    @Test
    void shouldCountCorruptPayloadAsCrcError()
    {
        open("auto");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        payload.putLong(0, 5);
        // corrupt the payload in memory after publishing, then read it by CPU
        publisher.publish(payload, 0, 48, 0);
        try (SimNetwork net = SimNetwork.attach("frames"))
        {
            net.corruptMemory(SENSOR.slotOffset(1) + FrameHeaderDescriptor.HEADER_SIZE + 3, 1, (byte)0x10);
        }
        assertThat(frames.receiveFromMemory(1, view)).isEqualTo(FrameStatus.CRC_ERROR);
        assertThat(frames.counter(FrameCounter.CRC_ERRORS)).isEqualTo(1);
    }

    @Test
    void shouldFilterOwnFrames()
    {
        sender = RfmDevices.open("sim:frames?node=1&size=1M&loopback=true");
        final ChannelSpec toAll = new ChannelSpec("all", 1, 0x1000, 4, 128, EventType.INTR2, RfmDevice.ALL_NODES);
        sender.enableEvent(EventType.INTR2);
        final FramePublisher publisher = new FramePublisher(sender, toAll);
        final FrameReceiver own = new FrameReceiver(sender, toAll);
        publisher.publish(payload, 0, 8, 0);
        assertThat(sender.awaitEvent(EventType.INTR2, RfmDevice.NO_WAIT, event)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(own.receiveFromMemory(event.data(), view)).isEqualTo(FrameStatus.SELF);
        assertThat(own.counter(FrameCounter.SELF_FILTERED)).isEqualTo(1);
        assertThat(own.selfFilter(false)).isSameAs(own);
        assertThat(own.receiveFromMemory(event.data(), view)).isEqualTo(FrameStatus.OK);
    }

    @Test
    void shouldDeliverAPayloadOfExactlyTheMaximumAndRefuseAHeaderOneByteOver()
    {
        open("auto");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final DmaCompletion done = new DmaCompletion();
        assertThat(SENSOR.maxPayload()).isEqualTo(96);
        for (int i = 0; i < 96; i++)
        {
            payload.putByte(i, (byte)(i + 1));
        }
        assertThat(publisher.publish(payload, 0, 96, 0)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(nextEvent()).isEqualTo(1);
        assertThat(receiver.dma().takeCompleted(done)).isTrue();
        assertThat(frames.receiveCompleted(done, view)).isEqualTo(FrameStatus.OK);
        assertThat(view.length()).isEqualTo(96);
        assertThat(view.buffer().getByte(view.payloadOffset() + 95)).isEqualTo((byte)96);
        receiver.dma().release(done);
        // the same slot read by CPU: 96 bytes is still a valid frame
        assertThat(frames.receiveFromMemory(1, view)).isEqualTo(FrameStatus.DUPLICATE);

        publisher.publish(payload, 0, 96, 0);
        nextEvent();
        assertThat(frames.receiveFromMemory(2, view)).isEqualTo(FrameStatus.OK);
        assertThat(view.length()).isEqualTo(96);

        // a header announcing 97 bytes in a slot that holds 96 is refused, not read past the slot
        publisher.publish(payload, 0, 8, 0);
        nextEvent();
        sender.window().putInt(SENSOR.slotOffset(3) + FrameHeaderDescriptor.LENGTH_OFFSET, 97);
        assertThat(frames.receiveFromMemory(3, view)).isEqualTo(FrameStatus.BAD_HEADER);
        assertThat(frames.counter(FrameCounter.BAD_HEADER)).isEqualTo(1);
        assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(2);
    }

    @Test
    void shouldTakeAFirstFrameNumberedAboveOneWithoutCountingAGap()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        // a publisher that resumes its numbering (after a restart of its node) starts at 42
        publisher.resumeAfter(41);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        publish(publisher, 1);
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.OK);
        assertThat(view.seq()).isEqualTo(42);
        assertThat(frames.counter(FrameCounter.GAPS)).isZero();
        assertThat(frames.lastSeq(1)).isEqualTo(42);
        publish(publisher, 2);
        publish(publisher, 3);
        nextEvent();
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.OK);
        assertThat(view.seq()).isEqualTo(44);
        assertThat(frames.counter(FrameCounter.GAPS)).isEqualTo(1);
    }

    @Test
    void shouldRefuseOversizedPayloadsAndForeignPublishers()
    {
        open("auto");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        assertThatThrownBy(() -> publisher.publish(payload, 0, 97, 0))
            .hasMessage("payload of 97 bytes does not fit channel 'sensor' (max 96)");
        assertThatThrownBy(() -> new FramePublisher(receiver, SENSOR))
            .hasMessage("channel 'sensor' is published by node 1, not by node 2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "on-demand"})
    void shouldDeliverAFrameWithoutPayloadEveryWay(final String dma)
    {
        open(dma);
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final DmaCompletion done = new DmaCompletion();
        assertThat(publisher.publish(payload, 0, 0, 5)).isEqualTo(RfmStatus.SUCCESS);
        if ("auto".equals(dma))
        {
            nextEvent();
            assertThat(receiver.dma().takeCompleted(done)).isTrue();
            assertThat(done.length()).isEqualTo(FrameHeaderDescriptor.HEADER_SIZE);
            assertThat(frames.receiveCompleted(done, view)).isEqualTo(FrameStatus.OK);
        }
        else
        {
            assertThat(frames.receiveOnDemand(nextEvent(), done, view)).isEqualTo(FrameStatus.OK);
        }
        assertThat(view.seq()).isEqualTo(1);
        assertThat(view.length()).isZero();
        assertThat(view.flags()).isEqualTo(5);
        receiver.dma().release(done);

        publisher.publish(payload, 0, 0, 0);
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.OK);
        assertThat(view.length()).isZero();
        assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(2);
        assertThat(frames.counter(FrameCounter.BAD_HEADER)).isZero();
    }

    @Test
    void shouldSayWhatATransferOfAnUnfinishedAnEmptyOrACutFrameIs()
    {
        open("auto");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final DmaCompletion done = new DmaCompletion();
        final int transfer = FrameHeaderDescriptor.transferLength(48);
        final List<FrameStatus> outcomes = new ArrayList<>();
        // slot 1 while its publisher is still writing it (its busy mark), slot 2 never written, then slot 1 once
        // written, announced with a transfer that stops short of its payload
        publish(publisher, 1);
        nextEvent();
        receiver.dma().takeCompleted(done);
        receiver.dma().release(done);
        sender.window().putLong(SENSOR.slotOffset(1), -1);
        sender.sendEvent(2, EventType.INTR1, 1, SENSOR.slotOffset(1), transfer);
        sender.sendEvent(2, EventType.INTR1, 2, SENSOR.slotOffset(2), transfer);
        sender.window().putLong(SENSOR.slotOffset(1), 1);
        sender.sendEvent(2, EventType.INTR1, 1, SENSOR.slotOffset(1), transfer - 8);
        while (receiver.dma().takeCompleted(done))
        {
            outcomes.add(frames.receiveCompleted(done, view));
            receiver.dma().release(done);
        }
        assertThat(outcomes).containsExactly(FrameStatus.TORN, FrameStatus.BAD_HEADER, FrameStatus.BAD_HEADER);
        // the CPU reading the empty slot says the same
        assertThat(frames.receiveFromMemory(2, view)).isEqualTo(FrameStatus.BAD_HEADER);
        assertThat(frames.counter(FrameCounter.TORN)).isEqualTo(1);
        assertThat(frames.counter(FrameCounter.BAD_HEADER)).isEqualTo(3);
        assertThat(frames.counter(FrameCounter.FRAMES)).isZero();
    }

    @Test
    void shouldCallAnOnDemandCopyOfAnEmptySlotABadHeaderEvenWhenTheSlotIsWrittenDuringTheRead()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final DmaCompletion done = new DmaCompletion();
        // an event for slot 1 before anything was published there: the card copies an empty slot, and the frame
        // lands in the slot before the copy is checked; what was copied decides, not what the slot holds now
        frames.readFault(() ->
        {
            frames.readFault(null);
            publish(publisher, 1);
        });
        assertThat(frames.receiveOnDemand(1, done, view)).isEqualTo(FrameStatus.BAD_HEADER);
        receiver.dma().release(done);
        assertThat(frames.counter(FrameCounter.BAD_HEADER)).isEqualTo(1);
        assertThat(frames.counter(FrameCounter.TORN)).isZero();
        // the frame's own event then reads it
        assertThat(nextEvent()).isEqualTo(1);
        assertThat(frames.receiveOnDemand(1, done, view)).isEqualTo(FrameStatus.OK);
        receiver.dma().release(done);
        assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(1);
    }

    @Test
    void shouldTakeAnySourceNodeIdUpTo255AndRefuseMore()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        publish(publisher, 1);
        // the header's source names the publisher; a frame relayed for node 255 is that node's
        sender.window().putShort(SENSOR.slotOffset(1) + FrameHeaderDescriptor.SOURCE_OFFSET, (short)255);
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.OK);
        assertThat(view.source()).isEqualTo(255);
        assertThat(frames.lastSeq(255)).isEqualTo(1);
        publish(publisher, 2);
        sender.window().putShort(SENSOR.slotOffset(2) + FrameHeaderDescriptor.SOURCE_OFFSET, (short)256);
        assertThat(frames.receiveFromMemory(nextEvent(), view)).isEqualTo(FrameStatus.BAD_HEADER);
        assertThat(frames.lastSeq(1)).isZero();
    }

    @Test
    void shouldTakeNoDescriptorForABadHeaderAndCountAFullRingOnDemand()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        assertThat(frames.channel()).isEqualTo(SENSOR);
        final DmaCompletion done = new DmaCompletion();
        publish(publisher, 1);
        sender.window().putInt(SENSOR.slotOffset(1) + FrameHeaderDescriptor.LENGTH_OFFSET, -1);
        assertThat(frames.receiveOnDemand(nextEvent(), done, view)).isEqualTo(FrameStatus.BAD_HEADER);
        assertThat(receiver.dma().hardwareIndex()).as("nothing transferred").isZero();

        // eight descriptors (the ring) taken and none given back: the ninth frame finds none
        final DmaCompletion[] held = new DmaCompletion[8];
        for (int i = 0; i < held.length; i++)
        {
            publish(publisher, 2 + i);
            held[i] = new DmaCompletion();
            assertThat(frames.receiveOnDemand(nextEvent(), held[i], view)).isEqualTo(FrameStatus.OK);
        }
        publish(publisher, 10);
        assertThat(frames.receiveOnDemand(nextEvent(), done, view)).isEqualTo(FrameStatus.DMA_MISSING);
        assertThat(frames.counter(FrameCounter.DMA_MISSING)).isEqualTo(1);
        assertThat(frames.counter(FrameCounter.FRAMES)).isEqualTo(8);
    }

    @Test
    void shouldMarkASlotBusyWhileItsFrameIsWritten()
    {
        open("on-demand");
        final FramePublisher publisher = new FramePublisher(sender, SENSOR, () -> 777);
        final FrameReceiver frames = new FrameReceiver(receiver, SENSOR);
        final List<FrameStatus> midWrite = new ArrayList<>();
        // the publisher reads its payload for the checksum after it has marked the slot and before it stores the
        // sequence number: a reader looking then must see the frame torn
        final UnsafeBuffer source = new UnsafeBuffer(new byte[48])
        {
            @Override
            public void getBytes(final int index, final byte[] dst, final int offset, final int length)
            {
                midWrite.add(frames.receiveFromMemory((int)publisher.lastSeq() + 1, view));
                super.getBytes(index, dst, offset, length);
            }
        };
        source.putLong(0, 42);
        publisher.publish(source, 0, 48, 0);
        publisher.publish(source, 0, 48, 0);
        assertThat(midWrite).containsExactly(FrameStatus.TORN, FrameStatus.TORN);
        assertThat(frames.receiveFromMemory(2, view)).isEqualTo(FrameStatus.OK);
        assertThat(view.sendNanos()).isEqualTo(777);
        assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(42);
        assertThat(publisher.lastSeq()).isEqualTo(2);
        assertThat(publisher.lastSendNanos()).isEqualTo(777);
        assertThat(publisher.channel()).isEqualTo(SENSOR);
    }

    @Test
    void shouldTakeAChannelThatEndsAtTheEndOfMemoryAndRefuseOneBeyond()
    {
        open("auto");
        final long end = 1 << 20;
        final ChannelSpec last = new ChannelSpec("last", 1, end - 4 * 128, 4, 128, EventType.INTR1, 2);
        assertThat(new FramePublisher(sender, last).channel()).isEqualTo(last);
        final ChannelSpec beyond = new ChannelSpec("beyond", 1, end - 4 * 128 + 64, 4, 128, EventType.INTR1, 2);
        assertThatThrownBy(() -> new FramePublisher(sender, beyond))
            .hasMessage("channel 'beyond' ends beyond the device memory of 1048576 bytes");
    }
}
