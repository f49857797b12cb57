package io.rfmrt.rfm.internal.rfm2g;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java mapping of the vendor structures and codes against what the C compiler makes of the vendor
 * declarations: a small C program prints {@code sizeof}, {@code offsetof} and the enumerator values.
 */
class Rfm2gLayoutTest
{
    private static final Map<String, Long> C = new HashMap<>();

    @BeforeAll
    static void runTheLayoutPrinter() throws IOException, InterruptedException
    {
        final String program = System.getProperty("rfmrt.test.rfm2g.layout");
        assertThat(program).as("path of the layout printer the test build compiles").isNotNull();
        assertThat(Files.isExecutable(Path.of(program))).as(program).isTrue();
        final Process process = new ProcessBuilder(program).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        for (final String line : output.split("\n"))
        {
            final String[] parts = line.trim().split(" ");
            assertThat(parts).as(line).hasSize(2);
            C.put(parts[0], Long.parseLong(parts[1]));
        }
    }

    private static long c(final String name)
    {
        assertThat(C).as("the C side printed " + name).containsKey(name);
        return C.get(name);
    }

    @Test
    void shouldMapEventInfoAsTheCompilerLaysItOut()
    {
        assertThat(c("RFM2GEVENTINFO.size")).isEqualTo(Rfm2gCodes.EVENT_INFO_SIZE);
        assertThat(c("RFM2GEVENTINFO.ExtendedInfo")).isEqualTo(Rfm2gCodes.EVENT_INFO_EXTENDED_INFO);
        assertThat(c("RFM2GEVENTINFO.Event")).isEqualTo(Rfm2gCodes.EVENT_INFO_EVENT);
        assertThat(c("RFM2GEVENTINFO.Timeout")).isEqualTo(Rfm2gCodes.EVENT_INFO_TIMEOUT);
        assertThat(c("RFM2GEVENTINFO.NodeId")).isEqualTo(Rfm2gCodes.EVENT_INFO_NODE_ID);
        assertThat(c("RFM2GEVENTINFO.pDrvSpec")).isEqualTo(Rfm2gCodes.EVENT_INFO_DRV_SPEC);
    }

    @Test
    void shouldMapConfigAsTheCompilerLaysItOut()
    {
        assertThat(c("RFM2GCONFIG.size")).isEqualTo(Rfm2gCodes.CONFIG_SIZE);
        assertThat(c("RFM2GCONFIG.NodeId")).isEqualTo(Rfm2gCodes.CONFIG_NODE_ID);
        assertThat(c("RFM2GCONFIG.BoardId")).isEqualTo(Rfm2gCodes.CONFIG_BOARD_ID);
        assertThat(c("RFM2GCONFIG.Unit")).isEqualTo(Rfm2gCodes.CONFIG_UNIT);
        assertThat(c("RFM2GCONFIG.PlxRevision")).isEqualTo(Rfm2gCodes.CONFIG_PLX_REVISION);
        assertThat(c("RFM2GCONFIG.MemorySize")).isEqualTo(Rfm2gCodes.CONFIG_MEMORY_SIZE);
        assertThat(c("RFM2GCONFIG.Device")).isEqualTo(Rfm2gCodes.CONFIG_DEVICE);
        assertThat(c("RFM2GCONFIG.Name")).isEqualTo(Rfm2gCodes.CONFIG_NAME);
        assertThat(c("RFM2GCONFIG.Name") - c("RFM2GCONFIG.Device")).isEqualTo(Rfm2gCodes.CONFIG_DEVICE_LENGTH);
        assertThat(c("RFM2GCONFIG.DriverVersion")).isEqualTo(Rfm2gCodes.CONFIG_DRIVER_VERSION);
        assertThat(c("RFM2GCONFIG.DriverVersion") - c("RFM2GCONFIG.Name")).isEqualTo(Rfm2gCodes.CONFIG_NAME_LENGTH);
        assertThat(c("RFM2GCONFIG.BoardRevision") - c("RFM2GCONFIG.DriverVersion"))
            .isEqualTo(Rfm2gCodes.CONFIG_DRIVER_VERSION_LENGTH);
        assertThat(c("RFM2GCONFIG.BoardRevision")).isEqualTo(Rfm2gCodes.CONFIG_BOARD_REVISION);
        assertThat(c("RFM2GCONFIG.RevisionId")).isEqualTo(Rfm2gCodes.CONFIG_REVISION_ID);
        assertThat(c("RFM2GCONFIG.Lcsr1")).isEqualTo(Rfm2gCodes.CONFIG_LCSR1);
        assertThat(c("RFM2GCONFIG.PciConfig")).isEqualTo(Rfm2gCodes.CONFIG_PCI_CONFIG);
        assertThat(c("RFM2GCONFIG.BuildId")).isEqualTo(Rfm2gCodes.CONFIG_BUILD_ID);
    }

    @Test
    void shouldMapTheEventStatisticsAsTheCompilerLaysThemOut()
    {
        assertThat(c("RFM2GQINFO.size")).isEqualTo(Rfm2gCodes.QINFO_SIZE);
        assertThat(c("RFM2GQINFO.Event")).isEqualTo(Rfm2gCodes.QINFO_EVENT);
        assertThat(c("RFM2GQINFO.Overflowed")).isEqualTo(Rfm2gCodes.QINFO_OVERFLOWED);
        assertThat(c("RFM2GQINFO.QueuePeak")).isEqualTo(Rfm2gCodes.QINFO_QUEUE_PEAK);
        assertThat(c("RFM2GQINFO.EventCount")).isEqualTo(Rfm2gCodes.QINFO_EVENT_COUNT);
        assertThat(c("RFM2GQINFO.EventsQueued")).isEqualTo(Rfm2gCodes.QINFO_EVENTS_QUEUED);
        assertThat(c("RFM2GQINFO.QueueSize")).isEqualTo(Rfm2gCodes.QINFO_QUEUE_SIZE);
        assertThat(c("RFM2GQINFO.MaxQueueSize")).isEqualTo(Rfm2gCodes.QINFO_MAX_QUEUE_SIZE);
        assertThat(c("RFM2GQINFO.EventTimeout")).isEqualTo(Rfm2gCodes.QINFO_EVENT_TIMEOUT);
    }

    @Test
    void shouldUseTheVendorsNumbers()
    {
        assertThat(c("RFM2GEVENT_LAST")).isEqualTo(Rfm2gCodes.EVENT_LAST);
        assertThat(c("RFM2G_DMA_MMAP_OFFSET")).isEqualTo(Rfm2gCodes.DMA_MMAP_OFFSET);
        assertThat(c("RFM2G_MAX_ERROR_CODE")).isEqualTo(Rfm2gCodes.MAX_ERROR_CODE);
        for (final EventType type : EventType.values())
        {
            assertThat(c("RFM2GEVENT_" + type.name())).as(type.name()).isEqualTo(Rfm2gCodes.vendorEvent(type));
        }
        assertThat(Rfm2gCodes.STATUS_NAMES).hasSize(Rfm2gCodes.MAX_ERROR_CODE);
        for (int code = 0; code < Rfm2gCodes.STATUS_NAMES.length; code++)
        {
            assertThat(c(Rfm2gCodes.statusName(code))).as(Rfm2gCodes.statusName(code)).isEqualTo(code);
        }
        assertThat(c("RFM2G_EVENT_IN_USE")).isEqualTo(Rfm2gCodes.EVENT_IN_USE);
        assertThat(c("RFM2G_NOT_ENABLED")).isEqualTo(Rfm2gCodes.NOT_ENABLED);
        assertThat(c("RFM2G_EVENT_NOT_IN_USE")).isEqualTo(Rfm2gCodes.EVENT_NOT_IN_USE);
    }

    @Test
    void shouldMapStatusCodesByName()
    {
        for (final String name : new String[] {"SUCCESS", "TIMED_OUT", "EVENT_IN_USE", "OUT_OF_RANGE",
            "LINK_TEST_FAIL", "UNALIGNED_OFFSET", "WAIT_EVENT_CANCELED", "DMA_FAILED", "NODE_ID_SELF", "NOT_OPEN",
            "OS_ERROR", "NOT_SUPPORTED", "DRIVER_ERROR"})
        {
            assertThat(Rfm2gCodes.status((int)c("RFM2G_" + name))).isEqualTo(RfmStatus.valueOf(name));
        }
        assertThat(Rfm2gCodes.status((int)c("RFM2G_NOT_ENABLED"))).isEqualTo(RfmStatus.EVENT_NOT_ENABLED);
        assertThat(Rfm2gCodes.status((int)c("RFM2G_BAD_PARAMETER_4"))).isEqualTo(RfmStatus.BAD_PARAMETER);
        assertThat(Rfm2gCodes.status((int)c("RFM2G_NO_RFM2G_BOARD"))).isEqualTo(RfmStatus.NOT_FOUND);
        assertThat(Rfm2gCodes.status((int)c("RFM2G_NOT_IMPLEMENTED"))).isEqualTo(RfmStatus.NOT_SUPPORTED);
        assertThat(Rfm2gCodes.status(-1)).isEqualTo(RfmStatus.DRIVER_ERROR);
        assertThat(Rfm2gCodes.status(1000)).isEqualTo(RfmStatus.DRIVER_ERROR);
    }
}
