package io.rfmrt.rfm.sim;

import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SimTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The emulator's seam to the bridge, seen from a program that has no bridge on its class path (this module's tests):
 * a network that is not bridged has no {@link HostBridge}, and a bridged one is refused rather than attached without
 * its outbound log.
 */
class HostBridgeTest
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
    void shouldAttachANetworkWithoutABridgeFileWithNoHostBridge()
    {
        try (SimNetwork net = SimNetwork.create("plain", 1 << 20))
        {
            assertThat(HostBridge.present(net.dir())).isFalse();
            assertThat(net.bridge()).isNull();
        }
    }

    @Test
    void shouldRefuseABridgedNetworkWhenNoBridgeIsOnTheClassPath() throws Exception
    {
        final Path dir;
        try (SimNetwork net = SimNetwork.create("bridged", 1 << 20))
        {
            dir = net.dir();
        }
        Files.write(dir.resolve(HostBridge.FILE), new byte[4096]);
        assertThat(HostBridge.present(dir)).isTrue();

        assertThatThrownBy(() -> SimNetwork.attach("bridged"))
            .isInstanceOfSatisfying(RfmException.class, ex -> assertThat(ex.status()).isEqualTo(RfmStatus.NOT_SUPPORTED))
            .hasMessageContaining("network 'bridged' is bridged")
            .hasMessageContaining("no bridge (the rfm-bridge module) on its class path");
        assertThatThrownBy(() -> RfmDevices.open("sim:bridged?node=1").close())
            .isInstanceOf(RfmException.class)
            .hasMessageContaining("no bridge (the rfm-bridge module) on its class path");
    }
}
