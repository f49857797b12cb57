package io.rfmrt.cli.rfm;

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
 * A network name that breaks the naming rule is refused in one line that says which part of the rule it broke.
 */
class NetworkNameTest
{
    private final Path root = Path.of("/dev/shm", "rfmrt-name-test-" + UUID.randomUUID());

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

    // before: each said only "is not 1-64 letters, digits, '.', '_' or '-'", which '.hidden' and '..x' seem to be
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "--network=-x;'-x';it starts with '-'",
        "--network=.hidden;'.hidden';it starts with '.'",
        "--network=..x;'..x';it starts with '.'",
        "--network=lab~1;'lab~1';it has '~' at 4"})
    void shouldSayWhichRuleANameBreaks(final String option, final String quoted, final String rule)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = Main.run(new String[]{"rfm", "create", option, "--size", "1M"}, new PrintWriter(out, true),
            new PrintWriter(err, true));

        assertThat(exit).as(out + err.toString()).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("rfmrt: Invalid value for option '--network': network name " + quoted +
            " is not 1-64 letters, digits, '.', '_' or '-' starting with a letter or digit: " + rule +
            " (see 'rfmrt rfm create --help')" + System.lineSeparator());
        assertThat(root).doesNotExist();
    }
}
