package io.rfmrt.cli.demo;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A demo that was killed leaves its {@code demo-PID} network; the next demo removes it, and only it: not the network
 * of a demo that still runs, nor any other network, nor one a live process still holds a node of.
 */
class DemoReclaimTest
{
    /** The control block's creation time (epoch ms), as laid out in docs/protocol.md. */
    private static final int CREATED_OFFSET = 32;

    private Path simRoot;
    private Process live;
    private Process later;

    @BeforeEach
    void setUp()
    {
        simRoot = Path.of("/dev/shm", "rfmrt-reclaim-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        for (final Process p : new Process[]{live, later})
        {
            if (p != null)
            {
                p.destroyForcibly();
            }
        }
        System.clearProperty(SimNetwork.ROOT_PROPERTY);
        CliProcesses.removeTree(simRoot);
    }

    private static long deadPid() throws Exception
    {
        final Process gone = new ProcessBuilder("true").start();
        assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return gone.pid();
    }

    @Test
    void shouldRemoveTheNetworkOfADemoThatIsGoneAndKeepALiveOnes() throws Exception
    {
        // a demo that still runs: its process started before it made its network
        live = new ProcessBuilder("sleep", "600").start();
        final String running = "demo-" + live.pid();
        SimNetwork.create(running, 64 << 10).close();
        final long dead = deadPid();
        final String killed = "demo-" + dead;
        SimNetwork.create(killed, 64 << 10).close();
        // the pid of a demo killed an hour ago, taken since by a process that started after the network was made
        later = new ProcessBuilder("sleep", "600").start();
        final String reused = "demo-" + later.pid();
        SimNetwork.create(reused, 64 << 10).close();
        final Instant now = Instant.now();
        try (RandomAccessFile control = new RandomAccessFile(simRoot.resolve(reused).resolve("control").toFile(),
            "rw"))
        {
            control.seek(CREATED_OFFSET);
            control.writeLong(Long.reverseBytes(now.minus(Duration.ofHours(1)).toEpochMilli()));
        }
        // a gone demo's network that a live process still holds a node of (a child that outlived it) is left
        final long deadHeld = deadPid();
        final String held = "demo-" + deadHeld;
        SimNetwork.create("lab", 64 << 10).close();
        SimNetwork.create("demo-x", 64 << 10).close();

        try (RfmDevice holder = RfmDevices.open("sim:" + held + "?node=1&size=64K"))
        {
            final List<String> lines = DemoLeftovers.reclaimAbandoned(now);

            assertThat(lines).hasSize(3);
            assertThat(lines).contains(
                "removed network " + killed + ", made 0 s ago by a demo that is gone (no process " + dead + ")",
                "removed network " + reused + ", made 3600 s ago by a demo that is gone (process " + later.pid() +
                    " started after the network was made: its pid was reused)");
            assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("left network " + held + ": ")
                .contains("has live nodes [1 (pid " + ProcessHandle.current().pid() + ")]"));
            assertThat(SimNetwork.exists(held)).isTrue();
        }
        assertThat(simRoot.resolve(killed)).doesNotExist();
        assertThat(simRoot.resolve(reused)).doesNotExist();
        assertThat(SimNetwork.exists(running)).isTrue();
        assertThat(SimNetwork.exists("lab")).isTrue();
        assertThat(SimNetwork.exists("demo-x")).isTrue();
        // once nothing holds it, the gone demo's network goes too
        assertThat(DemoLeftovers.reclaimAbandoned(now)).containsExactly("removed network " + held +
            ", made 0 s ago by a demo that is gone (no process " + deadHeld + ")");
        assertThat(DemoLeftovers.reclaimAbandoned(now)).as("nothing left to reclaim").isEmpty();
    }
}
