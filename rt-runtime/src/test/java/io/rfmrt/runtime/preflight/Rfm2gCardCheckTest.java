package io.rfmrt.runtime.preflight;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.rfm2g.Rfm2gProbe;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.rfmrt.runtime.preflight.CheckStatus.FAIL;
import static io.rfmrt.runtime.preflight.CheckStatus.PASS;
import static io.rfmrt.runtime.preflight.CheckStatus.WARN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RFM2g card item: only with an rfm2g device URI; the card itself is the native stand-in of the vendor library
 * on an emulated network.
 */
class Rfm2gCardCheckTest
{
    @TempDir
    Path dir;

    private String was;

    @BeforeEach
    void setUp()
    {
        was = System.getProperty(SimNetwork.ROOT_PROPERTY);
        System.setProperty(SimNetwork.ROOT_PROPERTY, dir.resolve("sim").toString());
    }

    @AfterEach
    void tearDown()
    {
        if (was == null)
        {
            System.clearProperty(SimNetwork.ROOT_PROPERTY);
        }
        else
        {
            System.setProperty(SimNetwork.ROOT_PROPERTY, was);
        }
    }

    private static PreflightReport run(final String device)
    {
        return Preflight.run(Fixtures.tree(Fixtures.RT_NODE), PreflightOptions.defaults().withDevice(device));
    }

    @Test
    void shouldAddTheItemOnlyForAnRfm2gDevice()
    {
        assertThat(run(null).items()).extracting(PreflightItem::check).doesNotContain(CheckId.RFM2G_CARD);
        assertThat(run("sim:lab?node=1").items()).extracting(PreflightItem::check)
            .doesNotContain(CheckId.RFM2G_CARD);
        final PreflightReport report = run("rfm2g:" + dir.resolve("rfm2g0"));
        assertThat(report.items()).extracting(PreflightItem::check).endsWith(CheckId.RFM2G_CARD);
        final PreflightItem card = report.item(CheckId.RFM2G_CARD);
        assertThat(card.status()).isEqualTo(FAIL);
        assertThat(card.value()).isEqualTo("device node " + dir.resolve("rfm2g0") +
            " missing (is the rfm2g driver loaded?)");
        assertThat(card.hint()).contains("mem=", "dmaBase=", "dmaThreshold=");
    }

    @Test
    void shouldReportDriverDmaBufferAndThresholdOfTheCard() throws IOException
    {
        // the sim node creates the network the stand-in card joins
        final RfmDevice sim = RfmDevices.open("sim:checked?node=1&size=64K");
        try
        {
            final Path node = dir.resolve("rfm2g0");
            Files.writeString(node, "network=" + SimNetwork.dir("checked") + "\nnode=4\ndmaBuffer=131072\n");

            final PreflightItem good = run("rfm2g:" + node + "?dmaThreshold=512&dmaBase=0x40000000").item(
                CheckId.RFM2G_CARD);
            assertThat(good.status()).as(good.value()).isEqualTo(PASS);
            assertThat(good.value()).isEqualTo(node + ", driver standin-1.0, DMA threshold 512 bytes, 131072 " +
                "bytes of host buffers in the reserved DMA buffer");

            final PreflightItem noBuffer = run("rfm2g:" + node + "?dmaThreshold=512").item(CheckId.RFM2G_CARD);
            assertThat(noBuffer.status()).isEqualTo(WARN);
            assertThat(noBuffer.value()).endsWith("no reserved DMA buffer (dmaBase= not set): reads fall back to PIO");

            final PreflightItem never = run("rfm2g:" + node + "?dmaBase=0x40000000&dmaSlots=16").item(
                CheckId.RFM2G_CARD);
            assertThat(never.status()).isEqualTo(WARN);
            assertThat(never.value()).contains("DMA threshold never");

            // the card is there but the ring does not fit the reserved buffer: the vendor call's status is the value
            final PreflightItem refused = run("rfm2g:" + node + "?dmaBase=0x40000000&dmaSlots=64&dmaSlotSize=4096")
                .item(CheckId.RFM2G_CARD);
            assertThat(refused.status()).isEqualTo(FAIL);
            assertThat(refused.value()).contains("RFM2G_OUT_OF_RANGE");
        }
        finally
        {
            sim.close();
        }
    }

    @Test
    void shouldJudgeAProbe()
    {
        assertThat(Rfm2gCardCheck.item(new Rfm2gProbe("/dev/rfm2g0", true, "RFM2gOpen failed", null, null, -1, false,
            0)).status()).isEqualTo(FAIL);
        assertThat(Rfm2gCardCheck.item(new Rfm2gProbe("/dev/rfm2g0", true, null, "R08.00", "PCIE-5565", 256, true,
            4096)).status()).isEqualTo(PASS);
        assertThat(Rfm2gCardCheck.item(new Rfm2gProbe("/dev/rfm2g0", true, null, "R08.00", "PCIE-5565", 256, false,
            4096)).status()).isEqualTo(WARN);
    }
}
