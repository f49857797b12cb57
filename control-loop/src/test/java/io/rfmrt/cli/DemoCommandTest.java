package io.rfmrt.cli;

import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short real demo: two processes, the receive path, the journal read back.
 */
class DemoCommandTest
{
    @Test
    void shouldRunTwoProcessesAndLeaveAJournalThatReadsBack(@TempDir final Path out) throws Exception
    {
        final Path simRoot = Path.of("/dev/shm", "rfmrt-demo-test-" + UUID.randomUUID());
        final Process demo = cli(simRoot, "demo", "--seconds", "2", "--out", out.toString());
        final String output = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(demo.waitFor(120, TimeUnit.SECONDS)).isTrue();
        // the demo removed its network; only the empty root is left
        java.nio.file.Files.deleteIfExists(simRoot);
        assertThat(demo.exitValue()).as(output).isZero();
        assertThat(output).contains("receiver: 2000 of 2000 frames, lost 0, torn 0, crc 0");
        assertThat(output).contains("sender: 2000 frames published");
        assertThat(output).containsPattern("(?m)^e2e\\s+[0-9.]+\\s+");

        long frames = 0;
        long lastSeq = 0;
        try (JournalReader reader = JournalReader.open(out.resolve("journal").resolve("node-2")))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FRAME)
                {
                    frames++;
                    assertThat(record.seq()).isEqualTo(lastSeq + 1);
                    lastSeq = record.seq();
                    assertThat(record.source()).isEqualTo(1);
                    assertThat(record.payload().getLong(record.payloadOffset())).isEqualTo(record.seq());
                }
            }
        }
        assertThat(frames).isEqualTo(2000);
    }

    private static Process cli(final Path simRoot, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("rfmrt.test.jvm.flags", "").trim().split("\\s+")));
        command.add("-Xmx256m");
        command.add("-D" + SimNetwork.ROOT_PROPERTY + "=" + simRoot);
        command.add("-cp");
        command.add(System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path")));
        command.add(Main.class.getName());
        command.addAll(Arrays.asList(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
