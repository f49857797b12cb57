package io.rfmrt.cli.rfm;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt rfm wait} makes nothing (a network that does not exist is an error naming it, whatever the timeout),
 * and says its timeout as given, however short.
 */
class RfmWaitTest
{
    private Path root;

    @BeforeEach
    void setUp()
    {
        root = Path.of("/dev/shm", "rfmrt-wait-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(root);
    }

    @Test
    void shouldRefuseToWaitOnANetworkThatDoesNotExistAndCreateNothing()
    {
        for (final String timeout : new String[] {"0", "1ns", "200ms"})
        {
            final CliRun run = CliRun.of("rfm", "wait", "--network", "nowhere", "--node", "2", "--type", "INTR1",
                "--timeout", timeout);

            assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.ERROR);
            assertThat(run.err()).isEqualTo("rfmrt: network 'nowhere' does not exist; rfm wait joins a network, it " +
                "does not create one (rfm create, or start its bridge)" + System.lineSeparator());
            assertThat(run.out()).isEmpty();
            assertThat(root).as("--timeout " + timeout + " made nothing").doesNotExist();
        }
    }

    @Test
    void shouldSayASubMillisecondTimeoutAsGiven()
    {
        assertThat(CliRun.of("rfm", "create", "--network", "lab", "--size", "1M").exit()).isZero();

        for (final String[] timeout : new String[][] {{"1ns", "1 ns"}, {"250us", "250 us"}, {"0", "0 s"},
            {"1500ms", "1500 ms"}})
        {
            final CliRun run = CliRun.of("rfm", "wait", "--network", "lab", "--node", "2", "--type", "INTR1",
                "--timeout", timeout[0]);

            assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.TIMEOUT);
            assertThat(run.err()).isEqualTo("rfmrt: no INTR1 event for node 2 within " + timeout[1] + " (0 of 1)" +
                System.lineSeparator());
        }
    }
}
