package io.rfmrt.cli.replay;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.control.replay.ControlRerunTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt replay} refuses a {@code --from} later than its {@code --to} (one line, exit 2) before reading anything,
 * for the summary and for {@code --play}; equal bounds and bounds of different kinds pass the check.
 */
class ReplayBoundsOrderTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-replay-bounds-test");
        // a real journal: a refusal is the bounds' doing, not an empty folder's
        ControlRerunTest.writeControlJournal(dir.resolve("journal").resolve("node-2"));
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldRefuseAFromLaterThanTo()
    {
        assertRefused(CliRun.of("replay", dir.toString(), "--from", "+5s", "--to", "2s"),
            "--from +5s is later than --to 2s; nothing lies between them");
        assertRefused(CliRun.of("replay", dir.toString(), "--from", "2026-12-02T17:13:30Z", "--to",
            "2026-12-02T17:13:29.5Z", "--json"),
            "--from 2026-12-02T17:13:30Z is later than --to 2026-12-02T17:13:29.5Z; nothing lies between them");
    }

    @Test
    void shouldRefuseAFromLaterThanToForPlay()
    {
        assertRefused(CliRun.of("replay", dir.toString(), "--play", "--network", "lab", "--from", "1s", "--to",
            "500ms"), "--from 1s is later than --to 500ms; nothing lies between them");
    }

    @Test
    void shouldLetEqualBoundsThroughToTheJournal()
    {
        final CliRun run = CliRun.of("replay", dir.toString(), "--from", "1s", "--to", "1000ms");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("journal/node-2 (node 2)");
    }

    private static void assertRefused(final CliRun run, final String message)
    {
        assertThat(run.exit()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).isEqualTo("rfmrt: " + message + System.lineSeparator());
        assertThat(run.out()).isEmpty();
    }
}
