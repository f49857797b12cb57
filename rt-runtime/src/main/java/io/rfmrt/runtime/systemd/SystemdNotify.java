package io.rfmrt.runtime.systemd;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The service manager's notification protocol ({@code sd_notify(3)}), spoken without libsystemd: a datagram of
 * {@code KEY=VALUE} lines to the Unix socket named by {@code $NOTIFY_SOCKET}. A node under a {@code Type=notify} unit
 * says {@code READY=1} once it is armed, {@code WATCHDOG=1} while it is healthy (when the unit has
 * {@code WatchdogSec=}: {@code $WATCHDOG_USEC}, for this process when {@code $WATCHDOG_PID} names it or is unset),
 * {@code STATUS=...} for {@code systemctl status}, and {@code STOPPING=1} as it drains.
 * <p>
 * Without {@code $NOTIFY_SOCKET} every call does nothing and returns false. A name starting with {@code @} is an
 * abstract socket. {@link #watchdog()} sends a message made once, so a thread that must not allocate may call it.
 */
public final class SystemdNotify
{
    /** The environment variable naming the socket. */
    public static final String NOTIFY_SOCKET = "NOTIFY_SOCKET";
    /** The environment variable holding the unit's watchdog time-out in microseconds. */
    public static final String WATCHDOG_USEC = "WATCHDOG_USEC";
    /** The environment variable naming the process the watchdog is meant for. */
    public static final String WATCHDOG_PID = "WATCHDOG_PID";

    static final int AF_UNIX = 1;
    static final int SOCK_DGRAM = 2;
    static final int SOCK_CLOEXEC = 02000000;
    /** Never block on a service manager that does not read: the message is then lost, and the call says so. */
    static final int MSG_DONTWAIT = 0x40;
    static final int MSG_NOSIGNAL = 0x4000;
    /** {@code sizeof(struct sockaddr_un)}: a 2-byte family, then 108 bytes of path. */
    static final int SOCKADDR_UN_SIZE = 110;
    private static final int PATH_MAX = SOCKADDR_UN_SIZE - 2;
    private static final byte[] WATCHDOG = "WATCHDOG=1".getBytes(StandardCharsets.US_ASCII);

    private final String socketName;
    private final long watchdogNanos;
    private final Memory address;
    private final int addressLength;
    private final Memory watchdogMessage;
    private volatile int fd;

    private SystemdNotify(final String socketName, final long watchdogNanos)
    {
        this.socketName = socketName;
        this.watchdogNanos = watchdogNanos;
        if (socketName == null)
        {
            address = null;
            addressLength = 0;
            watchdogMessage = null;
            fd = -1;
            return;
        }
        address = new Memory(SOCKADDR_UN_SIZE);
        addressLength = socketAddress(address, socketName);
        watchdogMessage = new Memory(WATCHDOG.length);
        watchdogMessage.write(0, WATCHDOG, 0, WATCHDOG.length);
        // opened once here: any thread may then send, with no lock
        fd = Net.socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    }

    /**
     * @return the notifier this process's environment asks for.
     */
    public static SystemdNotify fromEnvironment()
    {
        return from(System.getenv(), ProcessHandle.current().pid());
    }

    /**
     * @param env an environment.
     * @param pid this process's id.
     * @return the notifier the environment asks for: inactive without {@code $NOTIFY_SOCKET}.
     * @throws IllegalArgumentException naming the variable and its value, when one cannot be used.
     */
    public static SystemdNotify from(final Map<String, String> env, final long pid)
    {
        final String socket = env.get(NOTIFY_SOCKET);
        if (socket == null || socket.isEmpty())
        {
            return new SystemdNotify(null, 0);
        }
        if (!socket.startsWith("/") && !socket.startsWith("@"))
        {
            throw new IllegalArgumentException(NOTIFY_SOCKET + "='" + socket +
                "': neither a path nor an abstract socket (@name)");
        }
        if (socket.getBytes(StandardCharsets.UTF_8).length >= PATH_MAX)
        {
            throw new IllegalArgumentException(NOTIFY_SOCKET + "='" + socket + "': longer than " + (PATH_MAX - 1) +
                " bytes");
        }
        return new SystemdNotify(socket, watchdogNanos(env, pid));
    }

    private static long watchdogNanos(final Map<String, String> env, final long pid)
    {
        final String usec = env.get(WATCHDOG_USEC);
        if (usec == null || usec.isEmpty())
        {
            return 0;
        }
        final String forPid = env.get(WATCHDOG_PID);
        if (forPid != null && !forPid.isEmpty() && !forPid.equals(Long.toString(pid)))
        {
            return 0;
        }
        try
        {
            final long value = Long.parseLong(usec);
            if (value <= 0)
            {
                throw new NumberFormatException();
            }
            return value * 1_000L;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(WATCHDOG_USEC + "='" + usec + "': not a positive number of " +
                "microseconds");
        }
    }

    /** Fill {@code sockaddr_un}; returns the length to pass (an abstract name has no terminating NUL). */
    static int socketAddress(final Memory into, final String name)
    {
        into.clear();
        into.setShort(0, (short)AF_UNIX);
        final byte[] path = name.getBytes(StandardCharsets.UTF_8);
        if (path[0] == '@')
        {
            path[0] = 0;
            into.write(2, path, 0, path.length);
            return 2 + path.length;
        }
        into.write(2, path, 0, path.length);
        return 2 + path.length + 1;
    }

    /**
     * @return whether {@code $NOTIFY_SOCKET} was given.
     */
    public boolean active()
    {
        return socketName != null;
    }

    /**
     * @return the unit's watchdog time-out for this process in nanoseconds, 0 when it has none: send
     *         {@link #watchdog()} at least twice per time-out.
     */
    public long watchdogNanos()
    {
        return watchdogNanos;
    }

    /**
     * @param status the line {@code systemctl status} shows.
     * @return whether the message was sent.
     */
    public boolean ready(final String status)
    {
        return send("READY=1\nSTATUS=" + oneLine(status));
    }

    /**
     * @param status the line {@code systemctl status} shows.
     * @return whether the message was sent.
     */
    public boolean status(final String status)
    {
        return send("STATUS=" + oneLine(status));
    }

    /**
     * @param status why it stops.
     * @return whether the message was sent.
     */
    public boolean stopping(final String status)
    {
        return send("STOPPING=1\nSTATUS=" + oneLine(status));
    }

    /**
     * Tell the service manager this process is healthy; no allocation.
     *
     * @return whether the message was sent.
     */
    public boolean watchdog()
    {
        return active() && sendRaw(watchdogMessage, WATCHDOG.length);
    }

    private static String oneLine(final String text)
    {
        return text.replace('\n', ' ');
    }

    private boolean send(final String message)
    {
        if (!active())
        {
            return false;
        }
        final byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        final Memory buffer = new Memory(bytes.length);
        buffer.write(0, bytes, 0, bytes.length);
        return sendRaw(buffer, bytes.length);
    }

    private boolean sendRaw(final Memory message, final int length)
    {
        final int socket = fd;
        return socket >= 0 && Net.sendto(socket, Pointer.nativeValue(message), length, MSG_DONTWAIT | MSG_NOSIGNAL,
            Pointer.nativeValue(address), addressLength) == length;
    }

    /**
     * Close the socket (sent datagrams stay delivered).
     */
    public void close()
    {
        final int socket = fd;
        fd = -1;
        if (socket >= 0)
        {
            Net.close(socket);
        }
    }

    /** The libc socket calls, direct-mapped with primitive arguments. */
    static final class Net
    {
        static
        {
            Native.register(Net.class, NativeLibrary.getInstance("c"));
        }

        private Net()
        {
        }

        static native int socket(int domain, int type, int protocol);

        static native long sendto(int fd, long buffer, long length, int flags, long address, int addressLength);

        static native int bind(int fd, long address, int addressLength);

        static native long recv(int fd, long buffer, long length, int flags);

        static native int close(int fd);
    }
}
