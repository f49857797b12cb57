package io.rfmrt.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.Heartbeat;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Journals on a full disk: the losses are counted and shown (heartbeat, demo summary and summary.json), with one
 * warning line the first time, and the demo still ends with its summary. Needs root to mount a 2 MiB tmpfs.
 */
class JournalLossTest
{
    @TempDir
    Path temp;

    private Path mount;
    private boolean mounted;
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-loss-test-" + UUID.randomUUID());

    private static int run(final String... command) throws Exception
    {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @BeforeEach
    void mountTinyTmpfs() throws Exception
    {
        assumeTrue((Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0, "needs root to mount a tmpfs");
        mount = Files.createDirectories(temp.resolve("tiny"));
        mounted = run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount.toString()) == 0;
        assumeTrue(mounted, "mount -t tmpfs works here");
    }

    @AfterEach
    void unmount() throws Exception
    {
        if (mounted && run("umount", mount.toString()) != 0)
        {
            run("umount", "-l", mount.toString());
        }
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldShowJournalWriteErrorsInTheHeartbeatAndWarnOnce() throws Exception
    {
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        final List<String> warnings = new ArrayList<>();
        final List<String> lines = new ArrayList<>();
        try (RfmDevice device = RfmDevices.open("sim:loss?node=1&size=1M");
            Journal journal = Journal.start(JournalConfig.of(mount.resolve("journal"), 1)))
        {
            final JournalWriter writer = journal.newWriter("isr");
            final Heartbeat heartbeat = new Heartbeat(device, null, lines::add).journal(journal, warnings::add);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (journal.stats().writeErrors() == 0 && System.nanoTime() < deadline)
            {
                writer.fault(1, 1, 1, System.nanoTime());
                Thread.sleep(1);
            }
            assertThat(journal.stats().writeErrors()).as("the full disk refused records").isPositive();
            heartbeat.beat();
            heartbeat.beat();
        }
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).containsPattern("\\| journal written=\\d+ drops=0 write-errors=[1-9]\\d*");
        assertThat(warnings).as("one warning, the first time").hasSize(1);
        // a 2 MiB folder has no room for a whole journal file: the journal says so before it maps anything
        assertThat(warnings.get(0)).contains("is losing records").contains("no space for its file")
            .contains(" are free");
    }

    @Test
    void shouldStillSummariseADemoWhoseJournalsCouldNotBeWritten() throws Exception
    {
        final Path out = mount.resolve("demo");
        final Process demo = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, "demo", "--seconds", "2",
            "--out", out.toString());
        final byte[] err = demo.getErrorStream().readAllBytes();
        final String text = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8) +
            new String(err, StandardCharsets.UTF_8);
        assertThat(demo.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(demo.exitValue()).as(text).isZero();
        assertThat(text).contains("is losing records").contains("rfmrt demo: warning: the journals lost ")
            .containsPattern("journal_write_errors\\s+[1-9]\\d*").doesNotContain("internal error", "\tat ");
        assertThat(text).contains("summary\n");
        final JsonNode summary = new ObjectMapper().readTree(Files.readString(out.resolve("summary.json")));
        assertThat(summary.get("journal_write_errors").asLong()).isPositive();
        assertThat(summary.get("plant").get("journal_write_errors").asLong()).isPositive();
    }
}
