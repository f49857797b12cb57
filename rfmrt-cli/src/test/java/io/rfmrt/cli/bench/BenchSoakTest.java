package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.common.ExitCodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt bench soak} for real, briefly (12 s in 3-s intervals), in its own JVM: every interval is there with
 * every process and its RT threads, the frame counts add up, and the exit code says whether the targets were met. The
 * targets themselves are not asserted: whether a loaded machine collects or compiles in 9 s is the benchmark's
 * finding, not a test's.
 */
class BenchSoakTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-soak-test");
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldLookAtEveryIntervalAndAccountForEveryFrameSent() throws Exception
    {
        final Path out = dir.resolve("soak");
        final Process process = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.INHERIT, "bench",
            "soak", "--seconds", "12", "--interval", "3", "--rate", "2000", "--out", out.toString(), "--json");
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        process.getInputStream().transferTo(stdout);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).isTrue();
        final String output = stdout.toString(StandardCharsets.UTF_8);
        final JsonNode soak = new ObjectMapper().readTree(output);

        assertThat(soak.get("what").asText()).isEqualTo("bench");
        assertThat(soak.get("mode").asText()).isEqualTo("interrupt-inline");
        assertThat(process.exitValue()).as(output)
            .isEqualTo(soak.get("met").asBoolean() ? ExitCodes.OK : ExitCodes.TARGETS_MISSED);

        final JsonNode totals = soak.get("totals");
        final long sent = totals.get("sent").asLong();
        assertThat(sent).isEqualTo(12 * 2000);
        // the receiver's own counts: every frame sent was handled or seen missing
        assertThat(totals.get("received").asLong() + totals.get("gaps").asLong()).as(totals.toString())
            .isEqualTo(sent);

        final JsonNode intervals = soak.get("intervals");
        assertThat(intervals.size()).isEqualTo(4);
        long sentInIntervals = 0;
        long receivedInIntervals = 0;
        double lastEnd = 0;
        for (int i = 0; i < intervals.size(); i++)
        {
            final JsonNode interval = intervals.get(i);
            assertThat(interval.get("index").asInt()).isEqualTo(i + 1);
            assertThat(interval.get("warm_up").asBoolean()).isEqualTo(i == 0);
            assertThat(interval.get("end_s").asDouble()).isGreaterThan(lastEnd);
            lastEnd = interval.get("end_s").asDouble();
            sentInIntervals += interval.get("sent").asLong();
            final List<String> processes = new ArrayList<>();
            for (final JsonNode p : interval.get("processes"))
            {
                processes.add(p.get("process").asText());
                assertThat(p.get("rss_bytes").asLong()).as(p.toString()).isPositive();
                assertThat(p.get("rss_anon_bytes").asLong()).as(p.toString()).isPositive()
                    .isLessThanOrEqualTo(p.get("rss_bytes").asLong());
                assertThat(p.get("heap_used_bytes").asLong()).as(p.toString()).isPositive();
                assertThat(p.get("gc").asLong()).as(p.toString()).isNotNegative();
                assertThat(p.get("compilations").asLong()).as(p.toString()).isNotNegative();
            }
            assertThat(processes).containsExactly("receiver", "sender");
            final JsonNode receiver = interval.get("processes").get(0);
            receivedInIntervals += receiver.get("received").asLong();
            assertThat(receiver.get("lost").asLong()).isNotNegative();
            assertThat(receiver.get("lost_causes").has("dma_dropped")).isTrue();
            final List<String> threads = new ArrayList<>();
            for (final JsonNode t : receiver.get("threads"))
            {
                threads.add(t.get("thread").asText());
                assertThat(t.get("minor_faults").asLong()).as(t.toString()).isNotNegative();
                assertThat(t.get("involuntary_switches").asLong()).as(t.toString()).isNotNegative();
            }
            assertThat(threads).containsExactly("rfmrt-isr");
        }
        // the sender's thread, looked at while it sends (it has ended by the last look)
        assertThat(intervals.get(0).get("processes").get(1).get("threads").get(0).get("thread").asText())
            .isEqualTo(BenchRun.SENDER_THREAD);
        assertThat(sentInIntervals).isEqualTo(sent);
        assertThat(receivedInIntervals).isPositive().isLessThanOrEqualTo(totals.get("received").asLong());

        final List<String> targets = new ArrayList<>();
        for (final JsonNode t : soak.get("targets"))
        {
            targets.add(t.get("name").asText());
        }
        assertThat(targets).hasSize(5).contains("0 lost", "0 GC", "0 compilations");
        for (final JsonNode t : totals.get("threads_after_warmup"))
        {
            assertThat(t.get("minor_faults").asLong()).as(t.toString()).isNotNegative();
        }
        assertThat(Files.readAllBytes(out.resolve("soak.png"))).startsWith(0x89, 'P', 'N', 'G');
        assertThat(new ObjectMapper().readTree(out.resolve("soak.json").toFile()).get("intervals").size())
            .isEqualTo(4);
    }
}
