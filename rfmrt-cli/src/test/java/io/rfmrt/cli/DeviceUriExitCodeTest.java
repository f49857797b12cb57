package io.rfmrt.cli;

import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A device URI of the wrong form is a usage or configuration error, exit 2 with one line naming the URI, in every
 * command that takes one ({@code rfm peek/poke/send/wait/status --device}, the node file's {@code device:} for the
 * start and for {@code --check-config}), and nothing is made. A well-formed URI whose device cannot be had stays an
 * error, exit 1.
 */
class DeviceUriExitCodeTest
{
    private static final List<String[]> BAD = List.of(
        new String[] {"sim:../etc?node=2", "device URI 'sim:../etc?node=2': network name '../etc' is a path"},
        new String[] {"sim:lab?node=300", "device URI 'sim:lab?node=300': node 300 is outside 0..255"},
        new String[] {"sim:lab?node=2&bogus=1", "device URI 'sim:lab?node=2&bogus=1': unknown parameter 'bogus'"},
        new String[] {"nowhere:lab?node=2", "device URI 'nowhere:lab?node=2': backend 'nowhere' is not available"},
        new String[] {"sim:.hidden?node=2", "device URI 'sim:.hidden?node=2': network name '.hidden' is not"});

    @TempDir
    Path dir;

    private Path simRoot;

    @BeforeEach
    void setUp() throws Exception
    {
        simRoot = Path.of("/dev/shm", "rfmrt-device-uri-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldExitTwoOnABadDeviceUriInEveryRfmCommand()
    {
        for (final String[] bad : BAD)
        {
            assertUsage(CliRun.of("rfm", "peek", "--device", bad[0], "--offset", "100"), bad[1]);
            assertUsage(CliRun.of("rfm", "poke", "--device", bad[0], "--offset", "100", "--value", "1"), bad[1]);
            assertUsage(CliRun.of("rfm", "send", "--device", bad[0], "--to", "3", "--type", "INTR1"), bad[1]);
            assertUsage(CliRun.of("rfm", "wait", "--device", bad[0], "--type", "INTR1", "--timeout", "0"), bad[1]);
            assertUsage(CliRun.of("rfm", "status", "--device", bad[0]), bad[1]);
        }
        assertThat(simRoot).as("a refused URI makes nothing").doesNotExist();
    }

    @Test
    void shouldExitTwoOnABadDeviceUriInANodeFile() throws Exception
    {
        final Path file = dir.resolve("node.yaml");
        for (final String[] bad : BAD)
        {
            Files.writeString(file, "device: " + bad[0] + "\nlayout: layout.yaml\n" +
                "receive: {channels: [axis.sensor]}\n");
            assertUsage(CliRun.of("node", "--config", file.toString(), "--check-config"), bad[1]);
            assertUsage(CliRun.of("node", "--config", file.toString(), "--seconds", "1"), bad[1]);
        }
        assertThat(simRoot).as("a refused URI makes nothing").doesNotExist();
    }

    @Test
    void shouldStayAnErrorWhenAWellFormedDeviceCannotBeHad()
    {
        final CliRun run = CliRun.of("rfm", "peek", "--device", "bridge:lab?node=2", "--offset", "100");

        assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.ERROR);
        assertThat(run.err()).startsWith("rfmrt: device URI 'bridge:lab?node=2': network 'lab' is not bridged")
            .doesNotContain("Exception");
    }

    private static void assertUsage(final CliRun run, final String message)
    {
        assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains(message).startsWith("rfmrt: ").doesNotContain("Exception");
        assertThat(run.err().lines().count()).as(run.err()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
    }
}
