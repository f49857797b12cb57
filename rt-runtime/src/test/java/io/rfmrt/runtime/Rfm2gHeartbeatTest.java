package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heartbeat of a node on an RFM2g card (the native stand-in) carries the driver's event statistics; on a sim
 * device it does not.
 */
class Rfm2gHeartbeatTest
{
    @TempDir
    Path dir;

    private String was;
    private Path root;

    @BeforeEach
    void setUp()
    {
        was = System.getProperty(SimNetwork.ROOT_PROPERTY);
        root = Path.of("/dev/shm").resolve("rfmrt-rfm2g-beat-" + dir.getFileName());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        if (Files.exists(root))
        {
            try (var paths = Files.walk(root))
            {
                for (final Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
        if (was == null)
        {
            System.clearProperty(SimNetwork.ROOT_PROPERTY);
        }
        else
        {
            System.setProperty(SimNetwork.ROOT_PROPERTY, was);
        }
    }

    @Test
    void shouldCarryTheDriversEventStatisticsOnACard() throws IOException
    {
        try (RfmDevice sim = RfmDevices.open("sim:beat?node=1&size=1M"))
        {
            final Path node = dir.resolve("rfm2g0");
            Files.writeString(node, "network=" + SimNetwork.dir("beat") + "\nnode=2\ndmaBuffer=4096\n");
            try (RfmDevice card = RfmDevices.open("rfm2g:" + node))
            {
                final List<String> lines = new ArrayList<>();
                final Heartbeat beat = new Heartbeat(card, null, lines::add);
                beat.beat();
                assertThat(lines.get(0)).startsWith("node 2 | card ").endsWith(" | driver no events");

                card.enableEvent(EventType.INTR1);
                for (int i = 0; i < 3; i++)
                {
                    assertThat(sim.sendEvent(2, EventType.INTR1, i)).isEqualTo(RfmStatus.SUCCESS);
                }
                beat.beat();
                assertThat(lines.get(1)).containsPattern(" \\| driver intr1 count=3 queued=\\d+ peak=\\d+");
                assertThat(lines.get(1)).doesNotContain("intr2");
            }
            final List<String> simLines = new ArrayList<>();
            new Heartbeat(sim, null, simLines::add).beat();
            assertThat(simLines.get(0)).startsWith("node 1 | card ").doesNotContain("driver");
        }
    }

    @Test
    void shouldEndEachLineWithTheAppsSegmentWhenItGivesOne() throws IOException
    {
        try (RfmDevice sim = RfmDevices.open("sim:beat-app?node=1&size=1M"))
        {
            final List<String> lines = new ArrayList<>();
            final String[] segment = {"loop period p99 1003.2 us"};
            final Heartbeat beat = new Heartbeat(sim, null, lines::add).app(() -> segment[0]);
            beat.beat();
            assertThat(lines.get(0)).startsWith("node 1 | card ").endsWith(" | app loop period p99 1003.2 us");
            segment[0] = null;
            beat.beat();
            assertThat(lines.get(1)).doesNotContain("| app");
        }
    }
}
