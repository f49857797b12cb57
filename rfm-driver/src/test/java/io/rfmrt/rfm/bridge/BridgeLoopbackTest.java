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
}
