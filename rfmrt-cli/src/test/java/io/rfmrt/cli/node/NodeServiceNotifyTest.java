package io.rfmrt.cli.node;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.NotifyListener;
import io.rfmrt.control.node.ControlFrames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt node} under a {@code Type=notify} unit, with a real datagram socket in the service manager's place:
 * {@code READY=1} once armed, {@code WATCHDOG=1} while it runs, {@code STOPPING=1} on SIGTERM, exit 0; and a bad
 * {@code $NOTIFY_SOCKET} refused in one line before anything starts.
 */
class NodeServiceNotifyTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-node-notify-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    private static Path nodeFile(final Path dir) throws IOException
    {
        Files.writeString(dir.resolve("layout.yaml"), ControlFrames.layoutText());
        Files.writeString(dir.resolve("node.yaml"), """
            device: sim:notify?node=2&dmaSlots=2048&dmaSlotSize=128
            layout: layout.yaml
            receive: {channels: [axis.sensor], wait: blocking}
            threads: {isr: {priority: 0}, consumer: {priority: 0}, lockMemory: false, cpuDmaLatency: false}
            strict: false
            heartbeat: 0
            """);
        return dir.resolve("node.yaml");
    }

    static long watchdogs(final List<String> messages)
    {
        return messages.stream().filter("WATCHDOG=1"::equals).count();
    }

    @Test
    void shouldSayReadyFeedTheWatchdogAndSayStopping(@TempDir final Path dir) throws Exception
    {
        final List<String> messages;
        try (NotifyListener manager = new NotifyListener(dir.resolve("notify")))
        {
            final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD,
                Map.of("NOTIFY_SOCKET", manager.path().toString(), "WATCHDOG_USEC", "200000"),
                "node", "--config", nodeFile(dir).toString());
            try
            {
                // READY after the warm-up, then a WATCHDOG every 100 ms: wait for three of them
                final List<String> seen = manager.awaitMessages(node, 120, m -> watchdogs(m) >= 3);
                assertThat(seen).as("before the first WATCHDOG").isNotEmpty();
                assertThat(seen.get(0)).startsWith("READY=1\nSTATUS=armed: none on sim:notify?node=2");
                assertThat(watchdogs(seen)).as(seen.toString()).isGreaterThanOrEqualTo(3);
            }
            finally
            {
                node.toHandle().destroy();
                assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(node.exitValue()).isZero();
            messages = manager.drain();
        }
        assertThat(messages.get(messages.size() - 1)).as(messages.toString()).isEqualTo("STOPPING=1\nSTATUS=stopping");
    }

    @Test
    void shouldRefuseANotifySocketItCannotUseInOneLine(@TempDir final Path dir) throws Exception
    {
        final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE,
            Map.of("NOTIFY_SOCKET", "relative/notify"), "node", "--config", nodeFile(dir).toString());
        final String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(node.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(node.exitValue()).as(out + err).isEqualTo(2);
        assertThat(err.strip()).isEqualTo("rfmrt: NOTIFY_SOCKET='relative/notify': neither a path nor an " +
            "abstract socket (@name)");
    }
}
