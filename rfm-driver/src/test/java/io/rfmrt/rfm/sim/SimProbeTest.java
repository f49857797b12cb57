package io.rfmrt.rfm.sim;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SimProbe} reads what the cards of a network did, from outside them, and changes nothing: owners, presence,
 * queued events, counters, and the three indexes of a node's DMA ring as the card fills it and the node takes and
 * releases descriptors.
 */
class SimProbeTest
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
    void shouldReadTheCardsAndTheDmaRingOfANetworkAsTheyChange()
    {
        try (RfmDevice one = RfmDevices.open("sim:probe?node=1&size=1M");
            RfmDevice two = RfmDevices.open("sim:probe?node=2&size=1M&dma=auto&dmaSlots=4&dmaSlotSize=256");
            SimProbe probe = SimProbe.attach("probe"))
        {
            final long pid = ProcessHandle.current().pid();
            assertThat(probe.ownerPid(1)).isEqualTo(pid);
            assertThat(probe.ownerPid(2)).isEqualTo(pid);
            assertThat(probe.ownerPid(3)).as("no card 3").isZero();
            assertThat(probe.isPresent(2)).isTrue();
            assertThat(probe.isPresent(3)).isFalse();
            assertThat(probe.attachRing(3)).as("no card 3, no DMA ring").isFalse();
            assertThat(probe.attachRing(2)).isTrue();
            assertThat(probe.attachRing(2)).as("mapped once, then kept").isTrue();

            two.enableEvent(EventType.INTR1);
            assertThat(one.sendEvent(2, EventType.INTR1, 7, 0x1000, 128)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(one.sendEvent(2, EventType.INTR1, 8, 0x1000, 128)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(probe.queued(2, EventType.INTR1)).isEqualTo(2);
            assertThat(probe.queued(2, EventType.INTR2)).isZero();
            assertThat(probe.ringFilled(2)).isEqualTo(2);
            assertThat(probe.ringTaken(2)).isZero();
            assertThat(probe.ringReleased(2)).isZero();
            assertThat(probe.counter(2, RfmCounter.DMA_COMPLETED, null))
                .isEqualTo(two.counter(RfmCounter.DMA_COMPLETED, null)).isEqualTo(2);

            // the node takes one event and one descriptor, and releases it: the probe follows, and takes nothing
            assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, new EventInfo()))
                .isEqualTo(RfmStatus.SUCCESS);
            final DmaCompletion done = new DmaCompletion();
            assertThat(two.dma().takeCompleted(done)).isTrue();
            assertThat(probe.ringTaken(2)).isEqualTo(1);
            two.dma().release(done);
            assertThat(probe.queued(2, EventType.INTR1)).isEqualTo(1);
            assertThat(probe.ringReleased(2)).isEqualTo(1);
            assertThat(probe.ringFilled(2)).isEqualTo(2);

            // what the probe read is still there for the node
            assertThat(two.dma().takeCompleted(done)).isTrue();
            assertThat(done.eventData()).isEqualTo(8);
            assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, new EventInfo()))
                .isEqualTo(RfmStatus.SUCCESS);
        }
    }
}
