package io.rfmrt.rfm.internal.rfm2g;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmConfig;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.rfm2g.Rfm2gCard;
import io.rfmrt.rfm.rfm2g.Rfm2gEventStats;
import io.rfmrt.rfm.sim.SimNetwork;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node on the rfm2g backend (the vendor API, here the native stand-in) and a node on the sim backend share one
 * network: memory, events and frames cross between them through real native calls.
 */
class Rfm2gDeviceTest
{
    private static final int FRAMES = 10_000;
    private static final ChannelSpec SIM_TO_CARD = new ChannelSpec("down", 1, 0x10000, 16, 256, EventType.INTR1, 2);
    private static final ChannelSpec CARD_TO_SIM = new ChannelSpec("up", 2, 0x20000, 16, 256, EventType.INTR2, 1);

    private Path root;
    private RfmDevice sim;
    private Rfm2gCard card;

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
        sim = RfmDevices.open("sim:mixed?node=1&size=1M&dma=on-demand&dmaSlots=16&dmaSlotSize=256");
    }

    @AfterEach
    void tearDown()
    {
        if (card != null)
        {
            card.close();
        }
        sim.close();
        SimTestSupport.removeRoot(root);
    }

    private Rfm2gCard openCard(final String query)
    {
        final Path node = Rfm2gStandin.deviceNode(root, "mixed", 2, 64 * 1024);
        card = (Rfm2gCard)RfmDevices.open("rfm2g:" + node + query);
        return card;
    }

    @Test
    void shouldReportTheCardsConfiguration()
    {
        openCard("?dmaThreshold=256&dmaBase=0x40000000&dmaSlots=16&dmaSlotSize=256");
        final RfmConfig config = card.config();
        assertThat(config.backend()).isEqualTo("rfm2g");
        assertThat(config.nodeId()).isEqualTo(2);
        assertThat(config.boardId()).isEqualTo(RfmConfig.BOARD_ID_5565);
        assertThat(config.memorySize()).isEqualTo(1 << 20);
        assertThat(config.dmaMode()).isEqualTo(DmaMode.ON_DEMAND);
        assertThat(config.dmaSlotCount()).isEqualTo(16);
        assertThat(card.window().size()).isEqualTo(1 << 20);
        assertThat(card.driverVersion()).isEqualTo("standin-1.0");
        assertThat(card.dmaThreshold()).isEqualTo(256);
        assertThat(card.dmaBufferReserved()).isTrue();
        assertThat(card.dma().supports(DmaMode.ON_DEMAND)).isTrue();
        assertThat(card.dma().supports(DmaMode.AUTO)).isFalse();
        assertThat(sim.dma().supports(DmaMode.AUTO)).isTrue();
        assertThat(card.checkRingContinuity()).isEqualTo(RfmStatus.SUCCESS);
    }

    @Test
    void shouldShareMemoryWithTheSimNodeThroughTheWindowAndPeekPoke()
    {
        openCard("");
        card.window().putLongVolatile(0x100, 0x1122334455667788L);
        assertThat(sim.window().getLongVolatile(0x100)).isEqualTo(0x1122334455667788L);

        sim.window().putIntVolatile(0x200, 0xCAFEBABE);
        assertThat(card.peek(4, 0x200)).isEqualTo(0xCAFEBABEL);
        assertThat(card.peek(2, 0x200)).isEqualTo(0xBABEL);
        assertThat(card.peek(1, 0x203)).isEqualTo(0xCAL);
        card.poke(8, 0x208, -2L);
        assertThat(sim.window().getLongVolatile(0x208)).isEqualTo(-2L);
        card.poke(1, 0x210, 0x5A);
        assertThat(sim.window().getByte(0x210)).isEqualTo((byte)0x5A);
        assertThat(card.peek(8, 0x208)).isEqualTo(-2L);
    }

    @Test
    void shouldSendAndWaitWithDataBothWays()
    {
        openCard("");
        card.enableEvent(EventType.INTR1);
        sim.enableEvent(EventType.INTR2);
        final EventInfo info = new EventInfo();

        assertThat(sim.sendEvent(2, EventType.INTR1, 0xCAFE)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(card.awaitEvent(EventType.INTR1, 5_000_000_000L, info)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(info.type()).isEqualTo(EventType.INTR1);
        assertThat(info.sourceNode()).isEqualTo(1);
        assertThat(info.data()).isEqualTo(0xCAFE);

        assertThat(card.sendEvent(1, EventType.INTR2, 0xBEEF)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(sim.awaitEvent(EventType.INTR2, 5_000_000_000L, info)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(info.sourceNode()).isEqualTo(2);
        assertThat(info.data()).isEqualTo(0xBEEF);

        // to all: the sim node gets it, the sender does not
        assertThat(card.sendEvent(RfmDevice.ALL_NODES, EventType.INTR2, 7)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(sim.awaitEvent(EventType.INTR2, 5_000_000_000L, info)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(info.data()).isEqualTo(7);

        assertThat(card.sendEvent(2, EventType.INTR1, 1)).isEqualTo(RfmStatus.NODE_ID_SELF);
        assertThat(card.sendEvent(1, EventType.BAD_DATA, 1)).isEqualTo(RfmStatus.BAD_PARAMETER);
        assertThat(card.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isEqualTo(1);
        assertThat(card.counter(RfmCounter.EVENTS_SENT, EventType.INTR2)).isEqualTo(2);
        assertThat(sim.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR2)).isEqualTo(2);

        final Rfm2gEventStats stats = card.eventStats(EventType.INTR1);
        assertThat(stats.eventCount()).isEqualTo(1);
        assertThat(stats.eventsQueued()).isZero();
        assertThat(stats.overflowed()).isFalse();
        assertThat(stats.maxQueueSize()).isEqualTo(127);
        card.clearEventCounts(EventType.INTR1);
        assertThat(card.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isZero();
        assertThat(card.eventStats(EventType.INTR1).eventCount()).isZero();
    }

    @Test
    void shouldReportAnOverflowInTheDriversStatistics()
    {
        openCard("");
        card.enableEvent(EventType.INTR3);
        card.enableEvent(EventType.RXFIFO_FULL);
        // nobody drains: the 127-entry FIFO fills and the 128th event overflows
        for (int i = 0; i < 128; i++)
        {
            assertThat(sim.sendEvent(2, EventType.INTR3, i)).isEqualTo(RfmStatus.SUCCESS);
        }
        final Rfm2gEventStats full = card.eventStats(EventType.INTR3);
        assertThat(full.overflowed()).isTrue();
        assertThat(full.eventsQueued()).isEqualTo(127);
        final EventInfo info = new EventInfo();
        assertThat(card.awaitEvent(EventType.RXFIFO_FULL, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(info.data()).isEqualTo(EventType.INTR3.id());
        // the drain after a wake: every queued event, then TIMED_OUT without asking the driver to wait (a wait
        // with RFM2G_NO_WAIT would sleep a jiffy and record its time-out, 0, in the statistics)
        assertThat(card.awaitEvent(EventType.INTR3, 5_000_000_000L, info)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(info.data()).isZero();
        int drained = 1;
        while (card.pollEvent(EventType.INTR3, info) == RfmStatus.SUCCESS)
        {
            assertThat(info.data()).isEqualTo(drained++);
        }
        assertThat(drained).isEqualTo(127);
        try (NetworkImage image = NetworkImage.attach(SimNetwork.dir("mixed"), "mixed"))
        {
            // the stand-in counts its time-outs in the card's counter block: a poll of an empty queue adds none
            final long timeouts = image.card(2).counter(RfmCounter.AWAIT_TIMEOUTS.id());
            assertThat(card.pollEvent(EventType.INTR3, info)).isEqualTo(RfmStatus.TIMED_OUT);
            assertThat(image.card(2).counter(RfmCounter.AWAIT_TIMEOUTS.id())).isEqualTo(timeouts);
            assertThat(card.awaitEvent(EventType.INTR3, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.TIMED_OUT);
            assertThat(image.card(2).counter(RfmCounter.AWAIT_TIMEOUTS.id())).isEqualTo(timeouts + 1);
        }
        assertThat(card.eventStats(EventType.INTR3).queuePeak()).isEqualTo(127);
        card.clearEventCounts(null);
        assertThat(card.eventStats(EventType.INTR3).overflowed()).isFalse();
        assertThat(card.clearEvents(null)).isZero();
        for (int i = 0; i < 3; i++)
        {
            sim.sendEvent(2, EventType.INTR3, i);
        }
        assertThat(card.clearEvents(EventType.INTR3)).isEqualTo(3);
        assertThat(card.awaitEvent(EventType.INTR3, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.TIMED_OUT);
    }

    @Test
    void shouldCarryTenThousandFramesEachWayWithoutLoss()
    {
        openCard("?dmaThreshold=64&dmaBase=0x40000000&dmaSlots=16&dmaSlotSize=256");
        card.enableEvent(EventType.INTR1);
        sim.enableEvent(EventType.INTR2);
        final Rfm2gDevice device = (Rfm2gDevice)card;
        final long[] before = Rfm2gStandin.transfers(device);

        // sim publishes, the card reads each frame with RFM2gRead into its DMA buffer
        final FramePublisher simPublisher = new FramePublisher(sim, SIM_TO_CARD);
        final FrameReceiver cardFrames = new FrameReceiver(card, SIM_TO_CARD);
        // the card publishes, the sim node reads on demand
        final FramePublisher cardPublisher = new FramePublisher(card, CARD_TO_SIM);
        final FrameReceiver simFrames = new FrameReceiver(sim, CARD_TO_SIM);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[128]);
        final EventInfo info = new EventInfo();
        final DmaCompletion done = new DmaCompletion();
        final FrameView view = new FrameView();
        for (int i = 0; i < FRAMES; i++)
        {
            payload.putLong(0, i);
            assertThat(simPublisher.publish(payload, 0, 128, 0)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(card.awaitEvent(EventType.INTR1, 5_000_000_000L, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(cardFrames.receiveOnDemand(info.data(), done, view)).isEqualTo(FrameStatus.OK);
            assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(i);
            card.dma().release(done);

            payload.putLong(0, -i);
            assertThat(cardPublisher.publish(payload, 0, 128, 0)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(sim.awaitEvent(EventType.INTR2, 5_000_000_000L, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(simFrames.receiveOnDemand(info.data(), done, view)).isEqualTo(FrameStatus.OK);
            assertThat(view.buffer().getLong(view.payloadOffset())).isEqualTo(-i);
            sim.dma().release(done);
        }
        assertThat(cardFrames.counter(FrameCounter.FRAMES)).isEqualTo(FRAMES);
        assertThat(cardFrames.counter(FrameCounter.GAPS)).isZero();
        assertThat(simFrames.counter(FrameCounter.FRAMES)).isEqualTo(FRAMES);
        assertThat(simFrames.counter(FrameCounter.GAPS)).isZero();
        final long[] after = Rfm2gStandin.transfers(device);
        // every frame (32-byte header + 128 bytes, above the 64-byte threshold) went by DMA
        assertThat(after[0] - before[0]).isEqualTo(FRAMES);
        assertThat(card.counter(RfmCounter.DMA_COMPLETED, null)).isEqualTo(FRAMES);
    }

    @Test
    void shouldReadByDmaAtTheThresholdIntoTheReservedBufferAndByPioOtherwise()
    {
        openCard("?dmaThreshold=256&dmaBase=0x40000000&dmaSlots=4&dmaSlotSize=512");
        final Rfm2gDevice device = (Rfm2gDevice)card;
        for (int i = 0; i < 512; i += 8)
        {
            sim.window().putLong(0x3000 + i, i * 3L);
        }
        final long[] start = Rfm2gStandin.transfers(device);

        assertThat(card.dma().submit(0x3000, 512, 0)).isEqualTo(RfmStatus.SUCCESS);
        final DmaCompletion done = new DmaCompletion();
        assertThat(card.dma().takeCompleted(done)).isTrue();
        assertThat(done.length()).isEqualTo(512);
        assertThat(done.buffer().getLong(504)).isEqualTo(504 * 3L);
        card.dma().release(done);
        final long[] afterLarge = Rfm2gStandin.transfers(device);
        assertThat(afterLarge[0] - start[0]).as("DMA reads").isEqualTo(1);

        // below the threshold: PIO, same result
        assertThat(card.dma().submit(0x3000, 128, 0)).isEqualTo(RfmStatus.SUCCESS);
        assertThat(card.dma().takeCompleted(done)).isTrue();
        assertThat(done.buffer().getLong(120)).isEqualTo(120 * 3L);
        card.dma().release(done);
        final long[] afterSmall = Rfm2gStandin.transfers(device);
        assertThat(afterSmall[0]).isEqualTo(afterLarge[0]);
        assertThat(afterSmall[1] - afterLarge[1]).as("PIO reads").isEqualTo(1);

        // a buffer outside the DMA mapping goes by PIO even above the threshold
        final ByteBuffer heapSide = BufferUtil.allocateDirectAligned(512, 64);
        card.read(0x3000, heapSide, 0, 512);
        assertThat(heapSide.order(ByteOrder.LITTLE_ENDIAN).getLong(8)).isEqualTo(8 * 3L);
        final long[] afterOutside = Rfm2gStandin.transfers(device);
        assertThat(afterOutside[0]).isEqualTo(afterSmall[0]);
        assertThat(afterOutside[1] - afterSmall[1]).isEqualTo(1);

        // the ring is bounded: four outstanding reads fill it, a fifth is refused and counted
        for (int i = 0; i < 4; i++)
        {
            assertThat(card.dma().submit(0x3000, 256, 0)).isEqualTo(RfmStatus.SUCCESS);
        }
        assertThat(card.dma().submit(0x3000, 256, 0)).isEqualTo(RfmStatus.DMA_FAILED);
        assertThat(card.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(1);
    }

    @Test
    void shouldFallBackToPioWithoutAReservedBuffer()
    {
        openCard("?dmaThreshold=8&dmaSlots=4&dmaSlotSize=256");
        assertThat(card.dmaBufferReserved()).isFalse();
        final Rfm2gDevice device = (Rfm2gDevice)card;
        sim.window().putLong(0x400, 99);
        final long[] before = Rfm2gStandin.transfers(device);
        assertThat(card.dma().submit(0x400, 256, 0)).isEqualTo(RfmStatus.SUCCESS);
        final DmaCompletion done = new DmaCompletion();
        assertThat(card.dma().takeCompleted(done)).isTrue();
        assertThat(done.buffer().getLong(0)).isEqualTo(99);
        final long[] after = Rfm2gStandin.transfers(device);
        assertThat(after[0]).isEqualTo(before[0]);
        assertThat(after[1] - before[1]).isEqualTo(1);
    }

    @Test
    void shouldSwitchLoopbackTransmitAndLedOnTheCard()
    {
        openCard("");
        assertThat(card.loopback()).isFalse();
        card.loopback(true);
        assertThat(card.loopback()).isTrue();
        assertThat(card.transmit()).isTrue();
        card.transmit(false);
        assertThat(card.transmit()).isFalse();
        assertThat(card.sendEvent(1, EventType.INTR1, 0)).isNotEqualTo(RfmStatus.SUCCESS);
        card.transmit(true);
        card.led(true);
        assertThat(card.led()).isTrue();
    }
}
