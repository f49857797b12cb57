package io.rfmrt.cli;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The service manager's end of {@code $NOTIFY_SOCKET}, for tests where systemd is not PID 1: a Unix datagram socket
 * bound to a path, read without blocking.
 */
public final class NotifyListener implements AutoCloseable
{
    private static final int AF_UNIX = 1;
    private static final int SOCK_DGRAM = 2;
    private static final int MSG_DONTWAIT = 0x40;

    private final int socket;
    private final Path path;
    private final List<String> messages = new ArrayList<>();

    /**
     * @param path where to bind; becomes the child's {@code NOTIFY_SOCKET}.
     */
    public NotifyListener(final Path path)
    {
        this.path = path;
        socket = Sockets.socket(AF_UNIX, SOCK_DGRAM, 0);
        if (socket < 0)
        {
            throw new IllegalStateException("socket(AF_UNIX, SOCK_DGRAM) failed");
        }
        final Memory address = new Memory(110);
        address.clear();
        address.setShort(0, (short)AF_UNIX);
        final byte[] bytes = path.toString().getBytes(StandardCharsets.UTF_8);
        address.write(2, bytes, 0, bytes.length);
        if (Sockets.bind(socket, Pointer.nativeValue(address), 2 + bytes.length + 1) != 0)
        {
            Sockets.close(socket);
            throw new IllegalStateException("bind " + path + " failed");
        }
    }

    /**
     * @return the bound path.
     */
    public Path path()
    {
        return path;
    }

    /**
     * @return the next message waiting, or null.
     */
    public String receive()
    {
        final Memory buffer = new Memory(4096);
        final long length = Sockets.recv(socket, Pointer.nativeValue(buffer), buffer.size(), MSG_DONTWAIT);
        if (length < 0)
        {
            return null;
        }
        final String message = new String(buffer.getByteArray(0, (int)length), StandardCharsets.UTF_8);
        messages.add(message);
        return message;
    }

    /**
     * Read until {@code done} holds for the messages so far, the child exits, or {@code seconds} pass.
     *
     * @param child   the notifying process.
     * @param seconds the bound.
     * @param done    when to stop.
     * @return every message received so far, oldest first.
     */
    public List<String> awaitMessages(final Process child, final long seconds, final Predicate<List<String>> done)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.test(messages) && System.nanoTime() < deadline && child.isAlive())
        {
            if (receive() == null)
            {
                Thread.sleep(10);
            }
        }
        return messages;
    }

    /**
     * @return every message received so far and still waiting, oldest first.
     */
    public List<String> drain()
    {
        while (receive() != null)
        {
            // collected
        }
        return messages;
    }

    @Override
    public void close()
    {
        Sockets.close(socket);
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
