package io.rfmrt.cli.bridge;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt bridge} refuses a bad command line in one line, exit 2, before it makes anything: no network folder,
 * no network files, no media driver.
 */
class BridgeOptionsTest
{
    private final Path root = Path.of("/dev/shm", "rfmrt-bridge-options-" + UUID.randomUUID());

    @BeforeEach
    void setUp()
    {
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        System.clearProperty(SimNetwork.ROOT_PROPERTY);
        CliProcesses.removeTree(root);
    }

    // before: host id 0 made a 45 MB network first; a port of 99999 or an address of no interface here gave
    // "internal error: io.aeron.exceptions.RegistrationException"
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = ';', value = {
        "0;aeron:udp?endpoint=127.0.0.1:40555;--host-id 0 is not 1-255",
        "1;aeron:udp?endpoint=127.0.0.1:99999;--channel 'aeron:udp?endpoint=127.0.0.1:99999': port 99999 is not 1-65535",
        "1;aeron:udp?endpoint=192.0.2.77:40555;--channel 'aeron:udp?endpoint=192.0.2.77:40555': cannot listen on " +
            "192.0.2.77:40555: Cannot assign requested address",
        "1;udp://127.0.0.1:40555;--channel 'udp://127.0.0.1:40555' is not aeron:udp?endpoint=ADDRESS:PORT"})
    void shouldRefuseABadHostIdOrChannelBeforeMakingAnything(final int hostId, final String channel,
        final String message)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = Main.run(new String[]{"bridge", "--network", "b", "--host-id", Integer.toString(hostId),
            "--channel", channel, "--peers", "2@127.0.0.1:40556", "--seconds", "1"},
            new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(exit).as(out + err.toString()).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("rfmrt: " + message + System.lineSeparator());
        assertThat(root).as("nothing made").doesNotExist();
    }
}
