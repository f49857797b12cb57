package io.rfmrt.cli.node;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.control.node.ControlFrames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    private static final int AF_UNIX = 1;
    private static final int SOCK_DGRAM = 2;
    private static final int MSG_DONTWAIT = 0x40;

    private final Path simRoot = Path.of("/dev/shm", "rfmrt-node-notify-" + UUID.randomUUID());
    private int socket = -1;

    @BeforeEach
    void setUp()
    {
        socket = Sockets.socket(AF_UNIX, SOCK_DGRAM, 0);
        assertThat(socket).isNotNegative();
    }

    @AfterEach
    void tearDown() throws IOException
    {
        Sockets.close(socket);
        CliProcesses.removeTree(simRoot);
    }

    private void bind(final Path path)
    {
        final Memory address = new Memory(110);
        address.clear();
        address.setShort(0, (short)AF_UNIX);
        final byte[] bytes = path.toString().getBytes(StandardCharsets.UTF_8);
        address.write(2, bytes, 0, bytes.length);
        assertThat(Sockets.bind(socket, Pointer.nativeValue(address), 2 + bytes.length + 1)).isZero();
    }

    private String receive()
    {
        final Memory buffer = new Memory(4096);
        final long length = Sockets.recv(socket, Pointer.nativeValue(buffer), buffer.size(), MSG_DONTWAIT);
        return length < 0 ? null : new String(buffer.getByteArray(0, (int)length), StandardCharsets.UTF_8);
    }

    private static Path nodeFile(final Path dir) throws IOException
    {
        Files.writeString(dir.resolve("layout.yaml"), ControlFrames.layoutText());
        Files.writeString(dir.resolve("node.yaml"), """
            device: sim:notify?node=2&dmaSlots=2048&dmaSlotSize=128
            layout: layout.yaml
            receive: {channels: [axis.sensor], wait: BLOCKING}
            threads: {isr: {priority: 0}, consumer: {priority: 0}, lockMemory: false, cpuDmaLatency: false}
            strict: false
            heartbeat: 0
            """);
        return dir.resolve("node.yaml");
    }

    @Test
    void shouldSayReadyFeedTheWatchdogAndSayStopping(@TempDir final Path dir) throws Exception
    {
        final Path notifySocket = dir.resolve("notify");
        bind(notifySocket);
        final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.DISCARD,
            Map.of("NOTIFY_SOCKET", notifySocket.toString(), "WATCHDOG_USEC", "200000"),
            "node", "--config", nodeFile(dir).toString());
        final List<String> messages = new ArrayList<>();
        try
        {
            // READY after the warm-up, then a WATCHDOG every 100 ms: wait for three of them
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (messages.stream().filter("WATCHDOG=1"::equals).count() < 3 && System.nanoTime() < deadline &&
                node.isAlive())
            {
                final String message = receive();
                if (message == null)
                {
                    Thread.sleep(10);
                }
                else
                {
                    messages.add(message);
                }
            }
            assertThat(messages).as("before the first WATCHDOG").isNotEmpty();
            assertThat(messages.get(0)).startsWith("READY=1\nSTATUS=armed: none on sim:notify?node=2");
            assertThat(messages.stream().filter("WATCHDOG=1"::equals).count()).as(messages.toString())
                .isGreaterThanOrEqualTo(3);
        }
        finally
        {
            node.toHandle().destroy();
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(node.exitValue()).isZero();
        String message;
        while ((message = receive()) != null)
        {
            messages.add(message);
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

    /** The libc calls a service manager's end of the socket needs. */
    static final class Sockets
    {
        static
        {
            Native.register(Sockets.class, NativeLibrary.getInstance("c"));
        }

        private Sockets()
        {
        }

        static native int socket(int domain, int type, int protocol);

        static native int bind(int fd, long address, int length);

        static native long recv(int fd, long buffer, long length, int flags);

        static native int close(int fd);
    }
}
