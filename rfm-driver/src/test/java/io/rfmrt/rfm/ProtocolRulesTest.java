package io.rfmrt.rfm;

import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The rules of docs/protocol.md that an independent implementation must follow, checked against the emulator.
 */
class ProtocolRulesTest
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

    private static RfmDevice open(final int node)
    {
        return RfmDevices.open("sim:lab?node=" + node + "&size=1M");
    }

    @Test
    void shouldCountOnlyTheRingAndCardRefusals()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2); SimNetwork net = SimNetwork.attach("lab"))
        {
            // argument errors: returned, not counted
            assertThat(one.sendEvent(2, EventType.SYNC_LOSS, 0)).isEqualTo(RfmStatus.BAD_PARAMETER);
            assertThat(one.sendEvent(300, EventType.INTR1, 0)).isEqualTo(RfmStatus.OUT_OF_RANGE);
            assertThat(one.counter(RfmCounter.SENDS_REFUSED, null)).isZero();
            assertThat(one.counter(RfmCounter.EVENTS_SENT, EventType.SYNC_LOSS)).isZero();

            // to self, ring open, transmitter off: counted, nothing sent
            assertThat(one.sendEvent(1, EventType.INTR1, 0)).isEqualTo(RfmStatus.NODE_ID_SELF);
            net.link(false);
            assertThat(one.sendEvent(2, EventType.INTR1, 0)).isEqualTo(RfmStatus.LINK_TEST_FAIL);
            net.link(true);
            one.transmit(false);
            assertThat(one.sendEvent(2, EventType.INTR1, 0)).isEqualTo(RfmStatus.TRANSMIT_DISABLED);
            assertThat(one.counter(RfmCounter.SENDS_REFUSED, null)).isEqualTo(3);
            assertThat(one.counter(RfmCounter.EVENTS_SENT, EventType.INTR1)).isZero();
            assertThat(two.counter(RfmCounter.EVENTS_DISABLED, EventType.INTR1)).isZero();
        }
    }

    @Test
    void shouldCountASendThatWentOnTheRingEvenWhenNoCardTookIt()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            assertThat(one.sendEvent(7, EventType.INTR2, 0)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(one.counter(RfmCounter.EVENTS_SENT, EventType.INTR2)).isEqualTo(1);
            assertThat(one.counter(RfmCounter.SENDS_UNDELIVERED, null)).isEqualTo(1);

            // present but not enabled: sent on the sender, dropped and counted on the receiver
            assertThat(one.sendEvent(2, EventType.INTR2, 0)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(one.counter(RfmCounter.EVENTS_SENT, EventType.INTR2)).isEqualTo(2);
            assertThat(one.counter(RfmCounter.SENDS_UNDELIVERED, null)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.EVENTS_DISABLED, EventType.INTR2)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR2)).isZero();
        }
    }

    @Test
    void shouldRaiseRxFifoFullFromTheCardItselfWithTheTypeId()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR3);
            two.enableEvent(EventType.RXFIFO_FULL);
            for (int i = 0; i < EventType.FIFO_CAPACITY; i++)
            {
                assertThat(one.sendEvent(2, EventType.INTR3, i)).isEqualTo(RfmStatus.SUCCESS);
            }
            assertThat(one.sendEvent(2, EventType.INTR3, -1)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(two.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR3)).isEqualTo(1);
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR3)).isEqualTo(127);
            final EventInfo info = new EventInfo();
            assertThat(two.pollEvent(EventType.RXFIFO_FULL, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.sourceNode()).isEqualTo(2);
            assertThat(info.data()).isEqualTo(EventType.INTR3.id());
        }
    }

    @Test
    void shouldRaiseSyncLossAndResetWithTheReceiverAsSource()
    {
        try (RfmDevice two = open(2); SimNetwork net = SimNetwork.attach("lab"))
        {
            two.enableEvent(EventType.SYNC_LOSS);
            two.enableEvent(EventType.RESET);
            net.link(false);
            final EventInfo info = new EventInfo();
            assertThat(two.pollEvent(EventType.SYNC_LOSS, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.sourceNode()).isEqualTo(2);
            assertThat(info.data()).isZero();
            assertThat(two.isEventEnabled(EventType.SYNC_LOSS)).as("self-disabling").isFalse();
            assertThat(two.counter(RfmCounter.SYNC_LOSSES, null)).isEqualTo(1);
            net.reset();
            assertThat(net.linkUp()).isTrue();
            assertThat(two.pollEvent(EventType.RESET, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.sourceNode()).isEqualTo(2);
            assertThat(info.data()).isZero();
            assertThat(two.counter(RfmCounter.SYNC_LOSSES, null)).as("counters zeroed by the reset").isZero();
        }
    }

    @Test
    void shouldRefuseANetworkOfTheOldNumberingNamingTheFileAndBothVersions() throws Exception
    {
        open(1).close();
        final Path control = root.resolve("lab").resolve("control");
        try (RandomAccessFile file = new RandomAccessFile(control.toFile(), "rw");
            FileChannel channel = file.getChannel())
        {
            final MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, 16);
            map.order(ByteOrder.LITTLE_ENDIAN).putInt(8, 1);
            map.force();
        }
        assertThatThrownBy(() -> open(1))
            .isInstanceOf(RfmException.class)
            .hasMessage("network 'lab': control block " + control + " has layout version 1 (counters and FIFOs " +
                "placed by event type position); this build reads version 2 only: destroy the network and " +
                "create it again");
        assertThatThrownBy(() -> SimNetwork.attach("lab")).hasMessageContaining("has layout version 1")
            .extracting(e -> ((RfmException)e).status()).isEqualTo(RfmStatus.BAD_LAYOUT);
    }
}
