package io.rfmrt.runtime.systemd;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a service manager receives: a real Unix datagram socket stands in for systemd's, bound at a path and at an
 * abstract name, and every message is read back from it.
 */
class SystemdNotifyTest
{
    private static final int MSG_DONTWAIT = 0x40;

    @TempDir
    Path dir;
    private int listener = -1;

    @BeforeEach
    void setUp()
    {
        listener = SystemdNotify.Net.socket(SystemdNotify.AF_UNIX, SystemdNotify.SOCK_DGRAM, 0);
        assertThat(listener).isNotNegative();
    }

    @AfterEach
    void tearDown()
    {
        SystemdNotify.Net.close(listener);
    }

    private void bind(final String name)
    {
        final Memory address = new Memory(SystemdNotify.SOCKADDR_UN_SIZE);
        final int length = SystemdNotify.socketAddress(address, name);
        assertThat(SystemdNotify.Net.bind(listener, Pointer.nativeValue(address), length)).isZero();
    }

    /** The next datagram, or null when none is waiting. */
    private String receive()
    {
        final Memory buffer = new Memory(4096);
        final long length = SystemdNotify.Net.recv(listener, Pointer.nativeValue(buffer), buffer.size(), MSG_DONTWAIT);
        return length < 0 ? null : new String(buffer.getByteArray(0, (int)length), StandardCharsets.UTF_8);
    }

    @Test
    void shouldSendReadyStatusWatchdogAndStoppingToAPathSocket()
    {
        final String path = dir.resolve("notify").toString();
        bind(path);
        final SystemdNotify notify = SystemdNotify.from(Map.of("NOTIFY_SOCKET", path, "WATCHDOG_USEC", "4000000"), 7);
        assertThat(notify.active()).isTrue();
        assertThat(notify.watchdogNanos()).isEqualTo(4_000_000_000L);

        assertThat(notify.ready("armed: 3 channels\nat 1 kHz")).isTrue();
        assertThat(notify.watchdog()).isTrue();
        assertThat(notify.status("12,000 frames")).isTrue();
        assertThat(notify.stopping("SIGTERM: draining")).isTrue();
        notify.close();
        assertThat(notify.watchdog()).as("after close").isFalse();

        assertThat(receive()).isEqualTo("READY=1\nSTATUS=armed: 3 channels at 1 kHz");
        assertThat(receive()).isEqualTo("WATCHDOG=1");
        assertThat(receive()).isEqualTo("STATUS=12,000 frames");
        assertThat(receive()).isEqualTo("STOPPING=1\nSTATUS=SIGTERM: draining");
        assertThat(receive()).isNull();
    }

    @Test
    void shouldReachAnAbstractSocket()
    {
        final String name = "@rfmrt-notify-test-" + UUID.randomUUID();
        bind(name);
        final SystemdNotify notify = SystemdNotify.from(Map.of("NOTIFY_SOCKET", name), 7);
        assertThat(notify.watchdogNanos()).as("no WatchdogSec=").isZero();
        assertThat(notify.ready("up")).isTrue();
        assertThat(receive()).isEqualTo("READY=1\nSTATUS=up");
        notify.close();
    }

    @Test
    void shouldNeverBlockOnAManagerThatDoesNotRead()
    {
        final String path = dir.resolve("full").toString();
        bind(path);
        final SystemdNotify notify = SystemdNotify.from(Map.of("NOTIFY_SOCKET", path), 7);
        int sent = 0;
        for (int i = 0; i < 10_000; i++)
        {
            sent += notify.watchdog() ? 1 : 0;
        }
        notify.close();
        assertThat(sent).as("the socket's queue filled and the rest failed at once").isBetween(1, 9_999);
    }

    @Test
    void shouldDoNothingWithoutANotifySocket()
    {
        final SystemdNotify notify = SystemdNotify.from(Map.of("WATCHDOG_USEC", "1000"), 7);
        assertThat(notify.active()).isFalse();
        assertThat(notify.ready("up")).isFalse();
        assertThat(notify.watchdog()).isFalse();
        notify.close();
    }

    @Test
    void shouldKeepTheWatchdogForTheProcessItNames()
    {
        final String path = dir.resolve("n").toString();
        assertThat(SystemdNotify.from(Map.of("NOTIFY_SOCKET", path, "WATCHDOG_USEC", "1000",
            "WATCHDOG_PID", "8"), 7).watchdogNanos()).as("another process's").isZero();
        assertThat(SystemdNotify.from(Map.of("NOTIFY_SOCKET", path, "WATCHDOG_USEC", "1000",
            "WATCHDOG_PID", "7"), 7).watchdogNanos()).isEqualTo(1_000_000);
    }

    @Test
    void shouldNameTheVariableAndValueItCannotUse()
    {
        assertThatThrownBy(() -> SystemdNotify.from(Map.of("NOTIFY_SOCKET", "relative/path"), 7))
            .hasMessage("NOTIFY_SOCKET='relative/path': neither a path nor an abstract socket (@name)");
        assertThatThrownBy(() -> SystemdNotify.from(Map.of("NOTIFY_SOCKET", "/" + "x".repeat(120)), 7))
            .hasMessageStartingWith("NOTIFY_SOCKET='/xxx").hasMessageEndingWith("longer than 107 bytes");
        assertThatThrownBy(() -> SystemdNotify.from(Map.of("NOTIFY_SOCKET", "/run/n", "WATCHDOG_USEC", "soon"), 7))
            .hasMessage("WATCHDOG_USEC='soon': not a positive number of microseconds");
    }

    @Test
    void shouldSendTheWatchdogWithoutAllocating()
    {
        final String path = dir.resolve("alloc").toString();
        bind(path);
        final SystemdNotify notify = SystemdNotify.from(Map.of("NOTIFY_SOCKET", path), 7);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long tid = Thread.currentThread().getId();
        long allocated = -1;
        for (int window = 0; window < 20 && allocated != 0; window++)
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            for (int i = 0; i < 1_000; i++)
            {
                // the queue holds a few datagrams: it fills and the sends past it fail at once, never block
                notify.watchdog();
            }
            allocated = threads.getThreadAllocatedBytes(tid) - before;
            while (receive() != null)
            {
                // drained for the next window
            }
        }
        assertThat(notify.watchdog()).as("sent once the queue was drained").isTrue();
        assertThat(receive()).isEqualTo("WATCHDOG=1");
        notify.close();
        assertThat(allocated).as("bytes per 1,000 watchdog messages, after warm-up").isZero();
    }
}
