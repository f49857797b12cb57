package io.rfmrt.rfm;

import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RfmDevicesFolderTest
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
}
