package io.rfmrt.rfm;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DmaEngineTest
{
    private Path root;

    @BeforeEach
    void setUp()
    {
        root = SimTestSupport.freshRoot();
    }

    @AfterEach
    void tearDown()
    {
        SimTestSupport.removeRoot(root);
    }

    @Test
    void shouldFillTheReceiversNextSlotBeforeInterruptingInAutoMode()
    {
        try (RfmDevice one = RfmDevices.open("sim:dma?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dma=auto&dmaSlots=4&dmaSlotSize=256"))
        {
            two.enableEvent(EventType.INTR1);
            for (int i = 0; i < 16; i++)
            {
                one.window().putLong(0x1000 + i * 8L, 0x1111_0000L + i);
            }
            assertThat(two.dma().mode()).isEqualTo(DmaMode.AUTO);
            assertThat(two.dma().policy()).isEqualTo(DmaRingFullPolicy.DROP_NEWEST);
            assertThat(two.dma().slotCount()).isEqualTo(4);
            assertThat(two.dma().slotSize()).isEqualTo(256);
            final long beforeSend = System.nanoTime();
            assertThat(one.sendEvent(2, EventType.INTR1, 5, 0x1000, 128)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(two.dma().hardwareIndex()).as("one descriptor filled").isEqualTo(1);
            assertThat(two.dma().completedIndex()).as("none taken yet").isZero();

            final EventInfo info = new EventInfo();
            assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            final DmaCompletion done = new DmaCompletion();
            assertThat(two.dma().takeCompleted(done)).isTrue();
            assertThat(done.rfmOffset()).isEqualTo(0x1000);
            assertThat(done.length()).isEqualTo(128);
            assertThat(done.sourceNode()).isEqualTo(1);
            assertThat(done.eventData()).isEqualTo(5);
            // stamped when the copy completed: after the send began, before the interrupt arrived
            assertThat(done.completionNanos()).isBetween(beforeSend, info.arrivalNanos());
            for (int i = 0; i < 16; i++)
            {
                assertThat(done.buffer().getLong(i * 8)).isEqualTo(0x1111_0000L + i);
            }
            assertThat(done.buffer().addressOffset() % 4096).isZero();
            assertThat(two.dma().takeCompleted(new DmaCompletion())).isFalse();
            two.dma().release(done);
            assertThat(two.dma().freeIndex()).isEqualTo(1);
            assertThat(two.counter(RfmCounter.DMA_COMPLETED, null)).isEqualTo(1);
        }
    }

    @Test
    void shouldTakeRingsFromTheSmallestToTheLargestAndNameABadShape()
    {
        for (final String shape : new String[] {"dmaSlots=2&dmaSlotSize=64", "dmaSlots=65536&dmaSlotSize=64",
            "dmaSlots=2&dmaSlotSize=1048576"})
        {
            try (RfmDevice two = RfmDevices.open("sim:shape?node=2&size=1M&dma=auto&" + shape))
            {
                assertThat(two.dma().slotCount() + "x" + two.dma().slotSize()).as(shape)
                    .isEqualTo(shape.replaceAll("dmaSlots=(\\d+)&dmaSlotSize=(\\d+)", "$1x$2"));
            }
        }
        assertThatThrownBy(() -> RfmDevices.open("sim:shape?node=2&size=1M&dmaSlots=1"))
            .hasMessageContaining("dmaSlots 1 is outside 2..65536");
        assertThatThrownBy(() -> RfmDevices.open("sim:shape?node=2&size=1M&dmaSlots=131072"))
            .hasMessageContaining("dmaSlots 131072 is outside 2..65536");
        assertThatThrownBy(() -> RfmDevices.open("sim:shape?node=2&size=1M&dmaSlots=24"))
            .hasMessageContaining("DMA slot count 24 is not a power of two");
        assertThatThrownBy(() -> RfmDevices.open("sim:shape?node=2&size=1M&dmaSlotSize=32"))
            .hasMessageContaining("DMA slot size 32 is not a multiple of 64 between 64 and 1M");
        assertThatThrownBy(() -> RfmDevices.open("sim:shape?node=2&size=1M&dmaSlots=2&dmaSlotSize=1048640"))
            .hasMessageContaining("DMA slot size 1048640 is not a multiple of 64 between 64 and 1M");
        assertThatThrownBy(() -> RfmDevices.open("sim:shape?node=2&size=1M&dmaSlotSize=96"))
            .hasMessageContaining("DMA slot size 96 is not a multiple of 64");
    }

    @Test
    void shouldLockTheDmaBuffersWhenRunAsRoot()
    {
        assumeTrue("root".equals(System.getProperty("user.name")),
            "locking the DMA buffers (mlock) is checked only as root, where the memlock limit cannot refuse it");
        try (RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dma=auto&dmaSlots=4&dmaSlotSize=256"))
        {
            assertThat(((io.rfmrt.rfm.internal.sim.SimDevice)two).dmaBuffersLocked()).as("mlocked").isTrue();
        }
    }

    @Test
    void shouldCopyOnSubmitInOnDemandMode()
    {
        try (RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dma=on-demand&dmaSlots=2&dmaSlotSize=128"))
        {
            two.window().putLong(0x2008, 99);
            assertThat(two.dma().mode()).isEqualTo(DmaMode.ON_DEMAND);
            assertThat(two.dma().submit(0x2000, 16, 16)).isEqualTo(RfmStatus.SUCCESS);
            final DmaCompletion done = new DmaCompletion();
            assertThat(two.dma().takeCompleted(done)).isTrue();
            assertThat(done.destOffset()).isEqualTo(16);
            assertThat(done.buffer().getLong(16 + 8)).isEqualTo(99);
        }
    }

    @Test
    void shouldRejectTransfersThatBreakTheCardsRules()
    {
        try (RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dma=on-demand&dmaSlots=2&dmaSlotSize=128"))
        {
            final DmaEngine dma = two.dma();
            assertThatThrownBy(() -> dma.submit(0x1004, 64, 0))
                .isInstanceOf(RfmException.class).hasMessage("DMA source offset 0x1004 is not 8-byte aligned")
                .extracting(e -> ((RfmException)e).status()).isEqualTo(RfmStatus.UNALIGNED_OFFSET);
            assertThatThrownBy(() -> dma.submit(0x1000, 60, 0))
                .hasMessage("DMA length 60 is not a positive multiple of 8");
            assertThatThrownBy(() -> dma.submit(0x1000, 64, 8))
                .hasMessage("DMA destination offset 8 is not 16-byte aligned");
            assertThatThrownBy(() -> dma.submit(0x1000, 136, 0))
                .hasMessage("DMA length 136 at destination offset 0 exceeds the slot size 128 of node 2");
            assertThatThrownBy(() -> dma.submit((1 << 20) - 8, 16, 0))
                .hasMessage("DMA source 0xffff8 + 16 bytes is outside the memory (0x0..0xfffff)");
            assertThatThrownBy(() -> dma.submit(0x1000, 0, 0))
                .hasMessage("DMA length 0 is not a positive multiple of 8");
            assertThat(two.counter(RfmCounter.DMA_REJECTED, null)).isEqualTo(6);
            assertThat(dma.hardwareIndex()).isZero();
            // the last 16 bytes of the memory are inside it
            assertThat(dma.submit((1 << 20) - 16, 16, 0)).isEqualTo(RfmStatus.SUCCESS);

            // the sending side checks its own rules too
            assertThatThrownBy(() -> two.sendEvent(3, EventType.INTR1, 0, 0x1001, 64))
                .hasMessage("DMA source offset 0x1001 is not 8-byte aligned");
        }
    }

    @Test
    void shouldDropAndCountWhenTheRingIsFullUnderDropNewest()
    {
        try (RfmDevice one = RfmDevices.open("sim:dma?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dmaSlots=2&dmaSlotSize=128"))
        {
            two.enableEvent(EventType.INTR1);
            for (int i = 0; i < 5; i++)
            {
                one.sendEvent(2, EventType.INTR1, i, 0, 64);
            }
            assertThat(two.counter(RfmCounter.DMA_COMPLETED, null)).isEqualTo(2);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(3);
            // the events still arrive: the receiver sees that transfers are missing
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isEqualTo(5);

            final DmaCompletion done = new DmaCompletion();
            assertThat(two.dma().takeCompleted(done)).isTrue();
            assertThat(done.eventData()).isZero();
            two.dma().release(done);
            one.sendEvent(2, EventType.INTR1, 9, 0, 64);
            assertThat(two.counter(RfmCounter.DMA_COMPLETED, null)).isEqualTo(3);
        }
    }

    @Test
    void shouldFailASubmitIntoAFullRingOnDemandWhateverThePolicy()
    {
        for (final String policy : new String[] {"drop-newest", "backpressure"})
        {
            try (RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dma=on-demand&dmaSlots=2&dmaSlotSize=128" +
                "&dmaPolicy=" + policy))
            {
                assertThat(two.dma().submit(0, 64, 0)).isEqualTo(RfmStatus.SUCCESS);
                assertThat(two.dma().submit(64, 64, 0)).isEqualTo(RfmStatus.SUCCESS);
                assertThat(two.dma().submit(128, 64, 0)).as(policy).isEqualTo(RfmStatus.DMA_FAILED);
                assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(1);
                assertThat(two.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isEqualTo(
                    "backpressure".equals(policy) ? 1 : 0);
            }
        }
    }

    @Test
    void shouldLayOutTheRingFileAsDocumented() throws java.io.IOException
    {
        try (RfmDevice one = RfmDevices.open("sim:layout?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:layout?node=2&size=1M&dmaSlots=4&dmaSlotSize=128&dma=auto"))
        {
            two.enableEvent(EventType.INTR1);
            final long before = System.nanoTime();
            one.sendEvent(2, EventType.INTR1, 7, 0x400, 64);
            one.sendEvent(2, EventType.INTR1, 8, 0x800, 32);
            // what a reader of the file sees (docs/protocol.md, "DMA ring"), little-endian
            final java.nio.ByteBuffer file = java.nio.ByteBuffer.wrap(java.nio.file.Files.readAllBytes(
                root.resolve("layout").resolve("dma-002"))).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            assertThat(file.getLong(0)).isEqualTo(0x414d4454524d4652L);
            assertThat(file.getInt(12)).as("slot count").isEqualTo(4);
            assertThat(file.getInt(16)).as("slot size").isEqualTo(128);
            assertThat(file.getInt(20)).as("mode").isEqualTo(DmaMode.AUTO.id());
            assertThat(file.getInt(24)).as("policy").isEqualTo(DmaRingFullPolicy.DROP_NEWEST.id());
            assertThat(file.getInt(28)).as("node id").isEqualTo(2);
            assertThat(file.getLong(32)).as("backpressure time-out").isEqualTo(1_000_000L);
            assertThat(file.getLong(64)).as("hardware index").isEqualTo(2);
            for (int i = 0; i < 2; i++)
            {
                final int descriptor = 4096 + i * 64;
                assertThat(file.getLong(descriptor)).as("rfm offset").isEqualTo(0x400L * (i + 1));
                assertThat(file.getInt(descriptor + 8)).as("slot").isEqualTo(i);
                assertThat(file.getInt(descriptor + 12)).as("length").isEqualTo(64 >> i);
                assertThat(file.getInt(descriptor + 16)).as("dest offset").isZero();
                assertThat(file.getInt(descriptor + 20)).as("status").isZero();
                assertThat(file.getLong(descriptor + 24)).as("completion nanos").isGreaterThanOrEqualTo(before);
                assertThat(file.getInt(descriptor + 32)).as("source node").isEqualTo(1);
                assertThat(file.getInt(descriptor + 36)).as("event data").isEqualTo(7 + i);
                assertThat(file.getLong(descriptor + 40)).as("completion sequence").isEqualTo(i + 1);
            }
        }
    }

    @Test
    void shouldStallThenDropUnderBackpressureWhenTheConsumerDoesNotFreeSlots()
    {
        try (RfmDevice one = RfmDevices.open("sim:dma?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dmaSlots=2&dmaSlotSize=128&dmaPolicy=backpressure"))
        {
            two.enableEvent(EventType.INTR1);
            for (int i = 0; i < 3; i++)
            {
                one.sendEvent(2, EventType.INTR1, i, 0, 64);
            }
            assertThat(two.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(1);
        }
    }

    @Test
    void shouldWaitUpToDmaWaitForTheConsumerToFreeASlot() throws Exception
    {
        try (RfmDevice one = RfmDevices.open("sim:dma?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dmaSlots=2&dmaSlotSize=128" +
                "&dmaPolicy=backpressure&dmaWait=2s"))
        {
            two.enableEvent(EventType.INTR1);
            one.sendEvent(2, EventType.INTR1, 0, 0, 64);
            one.sendEvent(2, EventType.INTR1, 1, 0, 64);
            // the ring is full: the third transfer waits until the consumer frees the oldest slot, 100 ms later
            final Thread consumer = new Thread(() ->
            {
                final DmaCompletion done = new DmaCompletion();
                sleep(100);
                if (two.dma().takeCompleted(done))
                {
                    two.dma().release(done);
                }
            });
            final long start = System.nanoTime();
            consumer.start();
            assertThat(one.sendEvent(2, EventType.INTR1, 2, 0, 64)).isEqualTo(RfmStatus.SUCCESS);
            final long waitedNs = System.nanoTime() - start;
            consumer.join();
            assertThat(waitedNs).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
            assertThat(two.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isZero();
        }
    }

    @Test
    void shouldDropAfterDmaWaitWhenTheConsumerFreesNothingAndNotWaitAgainUntilItDoes()
    {
        try (RfmDevice one = RfmDevices.open("sim:dma?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dmaSlots=2&dmaSlotSize=128" +
                "&dmaPolicy=backpressure&dmaWait=150ms"))
        {
            two.enableEvent(EventType.INTR1);
            one.sendEvent(2, EventType.INTR1, 0, 0, 64);
            one.sendEvent(2, EventType.INTR1, 1, 0, 64);
            final long start = System.nanoTime();
            one.sendEvent(2, EventType.INTR1, 2, 0, 64);
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(150));
            assertThat(two.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(1);

            // a consumer that has not freed a slot since is not waited for again (no second stall): a stopped node
            // costs one wait
            for (int i = 3; i < 10; i++)
            {
                one.sendEvent(2, EventType.INTR1, i, 0, 64);
            }
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(8);
            assertThat(two.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isEqualTo(1);

            // once it frees a slot, the next transfer takes it and a full ring is waited for again
            final DmaCompletion done = new DmaCompletion();
            assertThat(two.dma().takeCompleted(done)).isTrue();
            two.dma().release(done);
            one.sendEvent(2, EventType.INTR1, 10, 0, 64);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(8);
            final long third = System.nanoTime();
            one.sendEvent(2, EventType.INTR1, 11, 0, 64);
            assertThat(System.nanoTime() - third).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(150));
            assertThat(two.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)).isEqualTo(2);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(9);
        }
    }

    @Test
    void shouldRefuseADmaWaitWithoutBackpressureOrUnitOrOverAnHour()
    {
        assertThatThrownBy(() -> RfmDevices.open("sim:dma?node=2&dmaWait=5ms"))
            .isInstanceOf(RfmException.class)
            .hasMessage("device URI 'sim:dma?node=2&dmaWait=5ms': dmaWait 5ms needs dmaPolicy=backpressure (a ring " +
                "that drops never waits)");
        assertThatThrownBy(() -> RfmDevices.open("sim:dma?node=2&dmaPolicy=backpressure&dmaWait=5"))
            .isInstanceOf(RfmException.class)
            .hasMessage("device URI 'sim:dma?node=2&dmaPolicy=backpressure&dmaWait=5': dmaWait '5' is not a " +
                "duration with its unit (e.g. 50ms)");
        assertThatThrownBy(() -> RfmDevices.open("sim:dma?node=2&dmaPolicy=backpressure&dmaWait=-5ms"))
            .isInstanceOf(RfmException.class)
            .hasMessageContaining("dmaWait '-5ms' is not a duration with its unit");
        assertThatThrownBy(() -> RfmDevices.open("sim:dma?node=2&dmaPolicy=backpressure&dmaWait=61m"))
            .isInstanceOf(RfmException.class)
            .hasMessage("device URI 'sim:dma?node=2&dmaPolicy=backpressure&dmaWait=61m': dmaWait 61m is outside 0-1h");
        // nothing was made for a refused URI
        assertThat(root.resolve("dma")).doesNotExist();
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void shouldTreatTakenButUnreleasedDescriptorsAsInUseAcrossWrapAround()
    {
        try (RfmDevice one = RfmDevices.open("sim:dma?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dmaSlots=4&dmaSlotSize=128"))
        {
            two.enableEvent(EventType.INTR1);
            final DmaCompletion[] held = new DmaCompletion[4];
            for (int i = 0; i < 4; i++)
            {
                one.window().putLong(0x100 * i, 1000 + i);
                assertThat(one.sendEvent(2, EventType.INTR1, i, 0x100 * i, 64)).isEqualTo(RfmStatus.SUCCESS);
                held[i] = new DmaCompletion();
                assertThat(two.dma().takeCompleted(held[i])).isTrue();
            }
            // all four taken by the consumer, none given back: the card has no free descriptor
            assertThat(two.dma().completedIndex()).isEqualTo(4);
            assertThat(two.dma().freeIndex()).isZero();
            one.window().putLong(0x800, 5000);
            one.sendEvent(2, EventType.INTR1, 4, 0x800, 64);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.DMA_COMPLETED, null)).isEqualTo(4);
            assertThat(held[0].buffer().getLong(0)).as("the consumer's slot 0 is not overwritten").isEqualTo(1000);
            assertThat(two.dma().takeCompleted(new DmaCompletion())).isFalse();

            // one given back: the next transfer wraps into slot 0, and only one fits
            two.dma().release(held[0]);
            one.sendEvent(2, EventType.INTR1, 5, 0x800, 64);
            one.sendEvent(2, EventType.INTR1, 6, 0x800, 64);
            assertThat(two.counter(RfmCounter.DMA_COMPLETED, null)).isEqualTo(5);
            assertThat(two.counter(RfmCounter.DMA_DROPPED, null)).isEqualTo(2);
            final DmaCompletion wrapped = new DmaCompletion();
            assertThat(two.dma().takeCompleted(wrapped)).isTrue();
            assertThat(wrapped.descriptorIndex()).isEqualTo(4);
            assertThat(wrapped.eventData()).isEqualTo(5);
            assertThat(wrapped.buffer().getLong(0)).isEqualTo(5000);
            assertThat(held[1].buffer().getLong(0)).isEqualTo(1001);
        }
    }

    @Test
    void shouldRefuseOutOfOrderRelease()
    {
        try (RfmDevice two = RfmDevices.open("sim:dma?node=2&size=1M&dma=on-demand&dmaSlots=4&dmaSlotSize=128"))
        {
            two.dma().submit(0, 64, 0);
            two.dma().submit(64, 64, 0);
            final DmaCompletion first = new DmaCompletion();
            final DmaCompletion second = new DmaCompletion();
            assertThat(two.dma().takeCompleted(first)).isTrue();
            assertThat(two.dma().takeCompleted(second)).isTrue();
            assertThatThrownBy(() -> two.dma().release(second))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("DMA descriptor 1 released out of order, next to release is 0");
            two.dma().release(first);
            two.dma().release(second);
            assertThat(two.dma().freeIndex()).isEqualTo(2);
        }
    }
}
