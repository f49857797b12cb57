package io.rfmrt.rfm;

import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimDeviceTest
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
    void shouldDeliverEventWithDataAndSourceNode()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR1);
            assertThat(one.sendEvent(2, EventType.INTR1, 0xCAFE)).isEqualTo(RfmStatus.SUCCESS);

            final EventInfo info = new EventInfo();
            assertThat(two.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(1), info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.type()).isEqualTo(EventType.INTR1);
            assertThat(info.sourceNode()).isEqualTo(1);
            assertThat(info.data()).isEqualTo(0xCAFE);
            assertThat(info.toString()).isEqualTo("event INTR1 from node 1 data 0x0000cafe");
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isEqualTo(1);
            assertThat(one.counter(RfmCounter.EVENTS_SENT, EventType.INTR1)).isEqualTo(1);
        }
    }

    @Test
    void shouldWakeABlockedWaiterWhenTheEventArrives() throws Exception
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR3);
            final EventInfo info = new EventInfo();
            final CompletableFuture<RfmStatus> waiter = CompletableFuture.supplyAsync(
                () -> two.awaitEvent(EventType.INTR3, RfmDevice.INFINITE_TIMEOUT, info));
            // the waiter is asleep in the kernel: nothing is queued yet
            Thread.sleep(100);
            assertThat(waiter).isNotDone();
            one.sendEvent(2, EventType.INTR3, 7);
            assertThat(waiter.get(5, TimeUnit.SECONDS)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.data()).isEqualTo(7);
            assertThat(two.counter(RfmCounter.INTERRUPTS_RAISED, null)).isEqualTo(1);
        }
    }

    @Test
    void shouldDeliverCardRaisedFaultEventsAndDisableBadDataWhenItFires()
    {
        try (RfmDevice two = open(2); SimNetwork net = SimNetwork.attach("lab"))
        {
            two.enableEvent(EventType.BAD_DATA);
            two.enableEvent(EventType.ROGUE_PKT);
            assertThat(net.raiseCardEvent(2, EventType.ROGUE_PKT, 0x40)).isTrue();
            assertThat(net.raiseCardEvent(2, EventType.BAD_DATA, 0x80)).isTrue();
            assertThat(two.isEventEnabled(EventType.BAD_DATA)).isFalse();
            assertThat(net.raiseCardEvent(2, EventType.BAD_DATA, 0x81)).as("disabled after firing").isFalse();
            final EventInfo info = new EventInfo();
            assertThat(two.awaitEvent(EventType.ROGUE_PKT, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.data()).isEqualTo(0x40);
            assertThat(two.awaitEvent(EventType.BAD_DATA, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.data()).isEqualTo(0x80);
            assertThat(two.counter(RfmCounter.EVENTS_DISABLED, EventType.BAD_DATA)).isEqualTo(1);
        }
    }

    @Test
    void shouldRefuseSelfSendUnlessLoopback()
    {
        try (RfmDevice one = open(1))
        {
            one.enableEvent(EventType.INTR2);
            assertThat(one.sendEvent(1, EventType.INTR2, 1)).isEqualTo(RfmStatus.NODE_ID_SELF);
            assertThat(one.counter(RfmCounter.SENDS_REFUSED, null)).isEqualTo(1);

            one.loopback(true);
            assertThat(one.sendEvent(1, EventType.INTR2, 2)).isEqualTo(RfmStatus.SUCCESS);
            final EventInfo info = new EventInfo();
            assertThat(one.awaitEvent(EventType.INTR2, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(info.sourceNode()).isEqualTo(1);
            assertThat(info.data()).isEqualTo(2);
        }
    }

    @Test
    void shouldRefuseUnsendableTypesAndBadNodes()
    {
        try (RfmDevice one = open(1))
        {
            assertThat(one.sendEvent(2, EventType.SYNC_LOSS, 0)).isEqualTo(RfmStatus.BAD_PARAMETER);
            assertThat(one.sendEvent(256, EventType.INTR1, 0)).isEqualTo(RfmStatus.OUT_OF_RANGE);
            assertThat(one.sendEvent(-1, EventType.INTR1, 0)).isEqualTo(RfmStatus.OUT_OF_RANGE);
            assertThat(one.sendEvent(77, EventType.INTR1, 0)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(one.counter(RfmCounter.SENDS_UNDELIVERED, null)).isEqualTo(1);
        }
    }

    @Test
    void shouldDropAndCountEventsOfDisabledTypes()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            one.sendEvent(2, EventType.INTR4, 1);
            assertThat(two.counter(RfmCounter.EVENTS_DISABLED, EventType.INTR4)).isEqualTo(1);
            assertThat(two.awaitEvent(EventType.INTR4, RfmDevice.NO_WAIT, new EventInfo()))
                .isEqualTo(RfmStatus.EVENT_NOT_ENABLED);
            two.enableEvent(EventType.INTR4);
            assertThat(two.awaitEvent(EventType.INTR4, RfmDevice.NO_WAIT, new EventInfo()))
                .isEqualTo(RfmStatus.TIMED_OUT);
        }
    }

    @Test
    void shouldCountFifoOverflowAndRaiseRxFifoFull()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR1);
            two.enableEvent(EventType.RXFIFO_FULL);
            for (int i = 0; i < EventType.FIFO_CAPACITY + 3; i++)
            {
                one.sendEvent(2, EventType.INTR1, i);
            }
            assertThat(two.counter(RfmCounter.EVENTS_RECEIVED, EventType.INTR1)).isEqualTo(EventType.FIFO_CAPACITY);
            assertThat(two.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR1)).isEqualTo(3);

            final EventInfo info = new EventInfo();
            int overflowEvents = 0;
            while (two.awaitEvent(EventType.RXFIFO_FULL, RfmDevice.NO_WAIT, info) == RfmStatus.SUCCESS)
            {
                assertThat(info.data()).isEqualTo(EventType.INTR1.id());
                overflowEvents++;
            }
            assertThat(overflowEvents).isEqualTo(3);

            // the oldest 127 survive, in order
            for (int i = 0; i < EventType.FIFO_CAPACITY; i++)
            {
                assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
                assertThat(info.data()).isEqualTo(i);
            }
            assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.TIMED_OUT);
        }
    }

    @Test
    void shouldTimeOutAfterTheGivenTime()
    {
        try (RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR1);
            final long start = System.nanoTime();
            assertThat(two.awaitEvent(EventType.INTR1, TimeUnit.MILLISECONDS.toNanos(50), new EventInfo()))
                .isEqualTo(RfmStatus.TIMED_OUT);
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
            assertThat(two.counter(RfmCounter.AWAIT_TIMEOUTS, null)).isEqualTo(1);
        }
    }

    @Test
    void shouldCancelAWaiterAndRefuseASecondOne() throws Exception
    {
        try (RfmDevice two = open(2))
        {
            two.enableEvent(EventType.INTR1);
            final CompletableFuture<RfmStatus> waiter = CompletableFuture.supplyAsync(
                () -> two.awaitEvent(EventType.INTR1, RfmDevice.INFINITE_TIMEOUT, new EventInfo()));
            // give the waiter time to get into the kernel; it holds the type from then on
            Thread.sleep(200);
            assertThat(waiter).isNotDone();
            assertThat(two.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, new EventInfo()))
                .isEqualTo(RfmStatus.EVENT_IN_USE);

            two.cancelAwait(EventType.INTR1);
            assertThat(waiter.get(5, TimeUnit.SECONDS)).isEqualTo(RfmStatus.WAIT_EVENT_CANCELED);
            assertThat(two.counter(RfmCounter.AWAIT_CANCELS, null)).isEqualTo(1);
        }
    }

    @Test
    void shouldBroadcastToEveryNodeButTheSender()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2); RfmDevice three = open(3))
        {
            for (final RfmDevice d : new RfmDevice[]{one, two, three})
            {
                d.enableEvent(EventType.RESET);
            }
            assertThat(one.sendEvent(RfmDevice.ALL_NODES, EventType.RESET, 9)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(one.clearEvents(EventType.RESET)).isZero();
            assertThat(two.clearEvents(EventType.RESET)).isEqualTo(1);
            assertThat(three.clearEvents(null)).isEqualTo(1);
        }
    }

    @Test
    void shouldRefuseSendsAndRaiseSyncLossWhileTheLinkIsDown()
    {
        try (RfmDevice one = open(1); RfmDevice two = open(2); SimNetwork net = SimNetwork.attach("lab"))
        {
            one.enableEvent(EventType.SYNC_LOSS);
            two.enableEvent(EventType.SYNC_LOSS);
            assertThat(one.checkRingContinuity()).isEqualTo(RfmStatus.SUCCESS);

            assertThat(net.link(false)).isTrue();
            assertThat(one.checkRingContinuity()).isEqualTo(RfmStatus.LINK_TEST_FAIL);
            assertThat(one.sendEvent(2, EventType.INTR1, 1)).isEqualTo(RfmStatus.LINK_TEST_FAIL);
            final EventInfo info = new EventInfo();
            assertThat(one.awaitEvent(EventType.SYNC_LOSS, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(two.awaitEvent(EventType.SYNC_LOSS, RfmDevice.NO_WAIT, info)).isEqualTo(RfmStatus.SUCCESS);
            // SYNC_LOSS disables itself when it fires, as on the card
            assertThat(two.isEventEnabled(EventType.SYNC_LOSS)).isFalse();

            assertThat(net.link(true)).isTrue();
            assertThat(one.checkRingContinuity()).isEqualTo(RfmStatus.SUCCESS);
            two.enableEvent(EventType.INTR1);
            assertThat(one.sendEvent(2, EventType.INTR1, 1)).isEqualTo(RfmStatus.SUCCESS);
        }
    }

    @Test
    void shouldRefuseSendsWhileTheTransmitterIsOff()
    {
        try (RfmDevice one = open(1))
        {
            one.transmit(false);
            assertThat(one.sendEvent(2, EventType.INTR1, 0)).isEqualTo(RfmStatus.TRANSMIT_DISABLED);
            one.transmit(true);
            assertThat(one.transmit()).isTrue();
        }
    }

    @Test
    void shouldRefuseANodeHeldByALiveProcessAndFreeItOnClose()
    {
        final RfmDevice first = open(4);
        assertThatThrownBy(() -> open(4))
            .isInstanceOf(RfmException.class)
            .hasMessageContaining("node 4 of network 'lab' is held by live process " + ProcessHandle.current().pid())
            .extracting(e -> ((RfmException)e).status()).isEqualTo(RfmStatus.NODE_IN_USE);
        first.close();
        try (RfmDevice again = open(4))
        {
            assertThat(again.nodeId()).isEqualTo(4);
        }
    }

    @Test
    void shouldCreateSharedFilesGroupReadableAndWritable() throws Exception
    {
        try (RfmDevice one = open(1))
        {
            try (Stream<Path> files = Files.list(root.resolve("lab")).filter(Files::isRegularFile))
            {
                for (final Path file : files.toList())
                {
                    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                        .as(file.toString()).isEqualTo("rw-rw----");
                }
            }
            assertThat(one.config().memorySize()).isEqualTo(1 << 20);
            assertThat(one.config().boardId()).isEqualTo(0x65);
        }
    }

    @Test
    void shouldRefuseToAttachToAForeignControlBlock() throws Exception
    {
        open(1).close();
        final Path control = root.resolve("lab").resolve("control");
        final byte[] bytes = Files.readAllBytes(control);
        bytes[0] ^= 0x5A;
        Files.write(control, bytes);
        assertThatThrownBy(() -> open(1))
            .isInstanceOf(RfmException.class)
            .hasMessageContaining("network 'lab' has a foreign or corrupt control block " + control + ": magic 0x");
    }

    @Test
    void shouldRejectBadUris()
    {
        assertThatThrownBy(() -> RfmDevices.open("sim:lab")).hasMessageContaining("needs node=N");
        assertThatThrownBy(() -> RfmDevices.open("sim:lab?node=300"))
            .hasMessageContaining("node 300 is outside 0..255");
        assertThatThrownBy(() -> RfmDevices.open("sim:lab?node=1&colour=red"))
            .hasMessageContaining("unknown parameter 'colour'");
        assertThatThrownBy(() -> RfmDevices.open("sim:bad name?node=1")).hasMessageContaining("network name");
        assertThatThrownBy(() -> RfmDevices.open("sim:lab?node=1&size=12345"))
            .hasMessageContaining("memory size 12345");
        assertThatThrownBy(() -> RfmDevices.open("pcie:lab?node=1")).hasMessageContaining("backend 'pcie'");
    }

    @Test
    void shouldKeepADevicesFilesInItsNetworksFolderOrInOneNamedAfterItsCard()
    {
        assertThat(RfmDevices.folder("sim:lab1?node=3&dma=auto", false)).isEqualTo(root.resolve("lab1"));
        assertThat(RfmDevices.folder("bridge:lab2?node=1", false)).isEqualTo(root.resolve("lab2"));
        assertThat(Files.exists(root)).as("nothing made without create").isFalse();

        final Path card = RfmDevices.folder("rfm2g:/dev/rfm2g0?dmaThreshold=never", true);
        assertThat(card).isEqualTo(root.resolve("rfm2g0"));
        assertThat(Files.isDirectory(card)).isTrue();
    }

    @Test
    void shouldRefuseAFolderNameThatIsNoName()
    {
        assertThatThrownBy(() -> RfmDevices.folder("rfm2g:/", false))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("device URI 'rfm2g:/' names no device node");
        assertThatThrownBy(() -> RfmDevices.folder("sim:a/b?node=1", false))
            .isInstanceOf(RfmException.class).hasMessageContaining("network name 'a/b' is a path");
    }

    @Test
    void shouldTellWhetherANetworkExists()
    {
        assertThat(RfmDevices.networkExists("lab3")).isFalse();
        SimNetwork.create("lab3", 4096).close();
        assertThat(RfmDevices.networkExists("lab3")).isTrue();
        assertThat(RfmDevices.networkExists("lab4")).isFalse();
        assertThatThrownBy(() -> RfmDevices.networkExists("-x"))
            .isInstanceOf(RfmException.class).hasMessageContaining("network name '-x' is not 1-64");
    }

    @Test
    void shouldCheckBoundsAndAlignmentOfMemoryAccess()
    {
        try (RfmDevice one = open(1))
        {
            final RfmWindow window = one.window();
            window.putLongRelease(0x100, 42);
            assertThat(window.getLongAcquire(0x100)).isEqualTo(42);
            window.putInt(0x104, 7);
            assertThat(window.getInt(0x104)).isEqualTo(7);
            assertThatThrownBy(() -> window.putInt(0x13, 1))
                .isInstanceOf(RfmException.class)
                .hasMessage("offset 0x13 is not 4-byte aligned for putInt");
            assertThatThrownBy(() -> window.getLong(1 << 20))
                .hasMessage("offset 0x100000 + 8 bytes is outside the memory (0x0..0xfffff) for getLong");
            assertThatThrownBy(() -> window.putBytes((1 << 20) - 4, new byte[8], 0, 8))
                .extracting(e -> ((RfmException)e).status()).isEqualTo(RfmStatus.OUT_OF_RANGE);
        }
    }

    @Test
    void shouldRefuseToWriteIntoAControlBlockCutShortUnderIt() throws Exception
    {
        final RfmDevice one = open(1);
        one.enableEvent(EventType.INTR1);
        final Path control = root.resolve("lab").resolve("control");
        final long size = Files.size(control);
        try (java.nio.channels.FileChannel file = java.nio.channels.FileChannel.open(control,
            java.nio.file.StandardOpenOption.WRITE))
        {
            file.truncate(4096);
        }

        // the release's atomic updates would land past the file's end, which crashes a JVM in interpreted code
        assertThatThrownBy(one::close).isInstanceOf(RfmException.class)
            .hasMessage("network 'lab': " + control + " was cut to 4096 of its " + size +
                " bytes under this node: node 1 not released (destroy the network and create it again)");
    }

    @Test
    void shouldReleaseAsUsualWhenTheControlFileWasReplacedRatherThanCutShort() throws Exception
    {
        final RfmDevice one = open(1);
        final Path control = root.resolve("lab").resolve("control");
        Files.move(control, control.resolveSibling("control.old"));
        Files.write(control, new byte[0]);

        // the mapping keeps the old file's pages: writing there is safe, and the release lands in the old file
        one.close();
        Files.move(control.resolveSibling("control.old"), control, StandardCopyOption.REPLACE_EXISTING);
        try (RfmDevice again = open(1))
        {
            assertThat(again.nodeId()).isEqualTo(1);
        }
    }
}
