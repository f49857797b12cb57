package io.rfmrt.cli.bridge;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.NotifyListener;
import org.agrona.concurrent.Agent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt bridge} under a {@code Type=notify} unit (deploy/systemd/rfmrt-bridge@.service), with a datagram
 * socket in the service manager's place: {@code READY=1} once its media driver and publications are up and its
 * thread runs, {@code WATCHDOG=1} while the duty cycle goes round, {@code STOPPING=1} on SIGTERM; the liveness check
 * itself driven without a thread; a bad {@code $NOTIFY_SOCKET} refused before the network is made.
 */
class BridgeServiceNotifyTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-bridge-notify-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    private static int freeUdpPort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    private static long watchdogs(final List<String> messages)
    {
        return messages.stream().filter("WATCHDOG=1"::equals).count();
    }

    private String[] bridgeArgs(final int port, final int peerPort)
    {
        return new String[]{"bridge", "--network", "notify", "--host-id", "1", "--channel",
            "aeron:udp?endpoint=127.0.0.1:" + port, "--peers", "2@127.0.0.1:" + peerPort, "--size", "1M",
            "--log-size", "1M", "--priority", "0"};
    }

    @Test
    void shouldSayReadyOnceUpFeedTheWatchdogAndSayStopping(@TempDir final Path dir) throws Exception
    {
        final int port = freeUdpPort();
        final List<String> messages;
        try (NotifyListener manager = new NotifyListener(dir.resolve("notify")))
        {
            final Process bridge = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD,
                Map.of("NOTIFY_SOCKET", manager.path().toString(), "WATCHDOG_USEC", "200000"),
                bridgeArgs(port, freeUdpPort()));
            try
            {
                final List<String> seen = manager.awaitMessages(bridge, 60, m -> watchdogs(m) >= 3);
                assertThat(seen).as("before the first WATCHDOG").isNotEmpty();
                assertThat(seen.get(0)).isEqualTo("READY=1\nSTATUS=up: network notify, host 1, listening on " +
                    "aeron:udp?endpoint=127.0.0.1:" + port);
                assertThat(watchdogs(seen)).as(seen.toString()).isGreaterThanOrEqualTo(3);
                // the media driver it reported ready is there
                assertThat(simRoot.resolve("notify").resolve("bridge-aeron").resolve("cnc.dat")).exists();
            }
            finally
            {
                bridge.toHandle().destroy();
                assertThat(bridge.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
            final String out = new String(bridge.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(bridge.exitValue()).as(out).isZero();
            messages = manager.drain();
        }
        assertThat(messages.get(messages.size() - 1)).as(messages.toString()).isEqualTo("STOPPING=1\nSTATUS=stopping");
    }

    @Test
    void shouldStopFeedingTheWatchdogWhenTheDutyCycleStallsOrFails() throws Exception
    {
        final Agent idle = new Agent()
        {
            @Override
            public int doWork()
            {
                return 0;
            }

            @Override
            public String roleName()
            {
                return "idle";
            }
        };
        final BridgeCommand.DutyCycles cycles = new BridgeCommand.DutyCycles(idle);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final BridgeCommand.Progress alive = new BridgeCommand.Progress(cycles, failure);

        cycles.doWork();
        assertThat(alive.getAsBoolean()).as("a duty cycle since the start").isTrue();
        assertThat(alive.getAsBoolean()).as("none since the last ping: stalled").isFalse();
        cycles.doWork();
        cycles.doWork();
        assertThat(alive.getAsBoolean()).as("going round again").isTrue();
        failure.set(new IllegalStateException("failed"));
        cycles.doWork();
        assertThat(alive.getAsBoolean()).as("failed").isFalse();
    }

    @Test
    void shouldRefuseANotifySocketItCannotUseBeforeMakingTheNetwork() throws Exception
    {
        final Process bridge = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE,
            Map.of("NOTIFY_SOCKET", "relative/notify"), bridgeArgs(freeUdpPort(), freeUdpPort()));
        final String out = new String(bridge.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String err = new String(bridge.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bridge.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(bridge.exitValue()).as(out + err).isEqualTo(2);
        assertThat(err.strip()).isEqualTo("rfmrt: NOTIFY_SOCKET='relative/notify': neither a path nor an " +
            "abstract socket (@name)");
        assertThat(simRoot.resolve("notify")).as("no network made").doesNotExist();
    }
}
