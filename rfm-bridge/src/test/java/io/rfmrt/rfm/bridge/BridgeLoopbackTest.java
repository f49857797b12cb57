package io.rfmrt.rfm.bridge;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two bridged hosts in one JVM over UDP on the loopback interface: what a write and an event do across them.
 */
class BridgeLoopbackTest
{
    private TwoHosts hosts;

    @BeforeEach
    void setUp() throws Exception
    {
        hosts = new TwoHosts();
    }

    @AfterEach
    void tearDown()
    {
        hosts.close();
    }

    @Test
    void shouldReflectAWriteOnTheOtherHost() throws Exception
    {
        hosts.start(true);
        hosts.start(false);
        hosts.awaitLinkUp();
        try (RfmDevice a = TwoHosts.open(hosts.dirA, 1); RfmDevice b = TwoHosts.open(hosts.dirB, 2))
        {
            a.window().putLongVolatile(0x100, 0x1122334455667788L);
            hosts.await(() -> b.window().getLongVolatile(0x100) == 0x1122334455667788L, "the write on host b");
            b.window().putIntVolatile(0x200, 42);
            hosts.await(() -> a.window().getIntVolatile(0x200) == 42, "the write on host a");
        }
    }

    @Test
    void shouldDeliverAnEventAfterItsDataOnTheOtherHost() throws Exception
    {
        hosts.start(true);
        hosts.start(false);
        hosts.awaitLinkUp();
        try (RfmDevice a = TwoHosts.open(hosts.dirA, 1); RfmDevice b = TwoHosts.open(hosts.dirB, 2))
        {
            b.enableEvent(EventType.INTR1);
            hosts.await(() -> remoteHeld(hosts.dirA, 2), "node 2 held on host a for host b");
            final EventInfo info = new EventInfo();
            for (int i = 1; i <= 2000; i++)
            {
                a.window().putLongRelease(0x1000, i);
                assertThat(a.sendEvent(2, EventType.INTR1, i)).isEqualTo(RfmStatus.SUCCESS);
                assertThat(b.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(5), info))
                    .isEqualTo(RfmStatus.SUCCESS);
                assertThat(info.sourceNode()).isEqualTo(1);
                assertThat(info.data()).isEqualTo(i);
                assertThat(b.window().getLongAcquire(0x1000)).isGreaterThanOrEqualTo(info.data());
            }
        }
    }

    private static boolean remoteHeld(final java.nio.file.Path dir, final int node)
    {
        try (NetworkImage image = NetworkImage.attach(dir, TwoHosts.NETWORK))
        {
            return image.isPresent(node) && image.isRemote(node);
        }
    }

    @Test
    void shouldRefuseANodeIdHeldOnTheOtherHostNamingHostAndPid() throws Exception
    {
        hosts.start(true);
        hosts.start(false);
        hosts.awaitLinkUp();
        try (RfmDevice a = TwoHosts.open(hosts.dirA, 3))
        {
            hosts.await(() -> remoteHeld(hosts.dirB, 3), "node 3 held on host b for host a");
            assertThatThrownBy(() -> TwoHosts.open(hosts.dirB, 3))
                .isInstanceOf(RfmException.class)
                .hasMessageContaining("node 3 of network 'lab' is held by process " + ProcessHandle.current().pid() +
                    " on host 'host-a' (host id 1)")
                .satisfies(ex -> assertThat(((RfmException)ex).status()).isEqualTo(RfmStatus.NODE_IN_USE));
        }
    }

    @Test
    void shouldResynchroniseAHostWhoseBridgeRestarted() throws Exception
    {
        hosts.start(true);
        hosts.start(false);
        hosts.awaitLinkUp();
        try (RfmDevice a = TwoHosts.open(hosts.dirA, 1); RfmDevice b = TwoHosts.open(hosts.dirB, 2))
        {
            a.window().putLongVolatile(0x800, 1);
            hosts.await(() -> b.window().getLongVolatile(0x800) == 1, "first write");
            hosts.stop(false);
            hosts.await(() -> a.checkRingContinuity() == RfmStatus.LINK_TEST_FAIL, "link down on host a");
            for (int i = 0; i < 512; i++)
            {
                a.window().putLongVolatile(0x10000 + i * 8L, i + 1);
                b.window().putLongVolatile(0x20000 + i * 8L, -(i + 1));
            }
            hosts.start(false);
            hosts.awaitLinkUp();
            hosts.await(() -> TwoHosts.imageCrc(hosts.dirA) == TwoHosts.imageCrc(hosts.dirB), "equal images");
            assertThat(b.window().getLongVolatile(0x10000 + 511 * 8L)).isEqualTo(512);
            assertThat(a.window().getLongVolatile(0x20000 + 511 * 8L)).isEqualTo(-512);
        }
    }

    @Test
    void shouldResendWhatDidNotFitAFullLogAndRefuseEventsUntilThen() throws Exception
    {
        hosts.start(true);
        hosts.start(false);
        hosts.awaitLinkUp();
        try (RfmDevice a = TwoHosts.open(hosts.dirA, 1); RfmDevice b = TwoHosts.open(hosts.dirB, 2))
        {
            hosts.await(() -> remoteHeld(hosts.dirA, 2), "node 2 held on host a for host b");
            // one store of the whole memory: 256 records of 4 KiB cannot all fit a 1 MiB log at once
            final byte[] pattern = new byte[(int)TwoHosts.MEMORY];
            for (int pass = 1; pass <= 3; pass++)
            {
                for (int i = 0; i < pattern.length; i++)
                {
                    pattern[i] = (byte)(i * 31 + 7 * pass);
                }
                a.window().putBytes(0, pattern, 0, pattern.length);
            }
            hosts.await(() -> bridgeStatus(hosts.dirA).counter(BridgeCounter.OVERFLOW_WORDS_RESENT) > 0,
                "the marked words sent again");
            hosts.await(() -> TwoHosts.imageCrc(hosts.dirA) == TwoHosts.imageCrc(hosts.dirB), "equal images");
            final BridgeStatus status = bridgeStatus(hosts.dirA);
            assertThat(status.counter(BridgeCounter.LOG_OVERFLOWS)).isPositive();
            assertThat(status.counter(BridgeCounter.OVERFLOW_WORDS_RESENT)).isPositive();
            assertThat(status.overflowPending()).isFalse();
            assertThat(status.records()).extracting(BridgeStatus.Record::kind).contains(BridgeRecordKind.LOG_OVERFLOW);
            b.enableEvent(EventType.INTR1);
            a.window().putLongRelease(0x100, 77);
            assertThat(a.sendEvent(2, EventType.INTR1, 77)).isEqualTo(RfmStatus.SUCCESS);
            final EventInfo info = new EventInfo();
            assertThat(b.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(5), info)).isEqualTo(RfmStatus.SUCCESS);
            assertThat(b.window().getLongAcquire(0x100)).isEqualTo(77);
        }
    }

    @Test
    void shouldCutAHostOffWhenItsBridgeStopsRenewingItsLease() throws Exception
    {
        hosts.start(true);
        hosts.start(false);
        hosts.awaitLinkUp();
        try (RfmDevice a = TwoHosts.open(hosts.dirA, 1))
        {
            assertThat(a.checkRingContinuity()).isEqualTo(RfmStatus.SUCCESS);
            // a bridge that stops (as one killed would) renews its lease no more: the host reads as cut off
            hosts.freeze(true);
            hosts.await(() -> a.checkRingContinuity() == RfmStatus.LINK_TEST_FAIL, "the lease ran out");
            assertThat(a.sendEvent(RfmDevice.ALL_NODES, EventType.INTR1, 1)).isEqualTo(RfmStatus.LINK_TEST_FAIL);
        }
    }

    @Test
    void shouldRefuseASecondBridgeAndANodeThatJoinedBeforeTheNetworkWasBridged() throws Exception
    {
        hosts.start(true);
        assertThatThrownBy(() -> Bridge.launch(hosts.context(true)))
            .isInstanceOf(RfmException.class)
            .hasMessage("network 'lab' is bridged already by live process " + ProcessHandle.current().pid() +
                " on this host (one bridge per network and host)");
        try (RfmDevice b = TwoHosts.open(hosts.dirB, 4))
        {
            assertThatThrownBy(() -> hosts.start(false))
                .isInstanceOf(RfmException.class)
                .hasMessage("node 4 of network 'lab' (process " + ProcessHandle.current().pid() + ") joined before " +
                    "the network was bridged: its writes would not reach the other hosts; stop it, start the bridge, " +
                    "then start it again");
        }
        hosts.start(false);
        hosts.awaitLinkUp();
    }

    static BridgeStatus bridgeStatus(final java.nio.file.Path dir)
    {
        final String before = System.getProperty(io.rfmrt.rfm.sim.SimNetwork.ROOT_PROPERTY);
        System.setProperty(io.rfmrt.rfm.sim.SimNetwork.ROOT_PROPERTY, dir.getParent().toString());
        try (io.rfmrt.rfm.sim.SimNetwork net = io.rfmrt.rfm.sim.SimNetwork.attach(TwoHosts.NETWORK))
        {
            return BridgeStatus.of(net);
        }
        finally
        {
            System.setProperty(io.rfmrt.rfm.sim.SimNetwork.ROOT_PROPERTY, before);
        }
    }
}
