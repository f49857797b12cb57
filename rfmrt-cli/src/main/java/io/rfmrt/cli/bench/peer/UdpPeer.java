package io.rfmrt.cli.bench.peer;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;

/**
 * The plain-socket baseline of {@code bench peers}: one UDP datagram per frame over loopback, received by a
 * blocking {@link DatagramChannel#receive} (the kernel wakes the receive thread). The receiver binds an ephemeral
 * port on 127.0.0.1 and names it on its ready line; default socket buffer sizes.
 */
public final class UdpPeer implements PeerTransport
{
    @Override
    public Sender sender(final Path dir, final String variant, final String option) throws Exception
    {
        final DatagramChannel channel = DatagramChannel.open();
        final ByteBuffer out = ByteBuffer.allocateDirect(FRAME_BYTES).order(ByteOrder.nativeOrder());
        final UnsafeBuffer view = new UnsafeBuffer(out);
        return new Sender()
        {
            @Override
            public void connect(final String readyArgs) throws Exception
            {
                final int port;
                try
                {
                    port = Integer.parseInt(readyArgs.trim());
                }
                catch (final NumberFormatException ex)
                {
                    throw new IllegalStateException("the UDP receiver named no port: '" + readyArgs + "'", ex);
                }
                if (port < 1 || port > 65_535)
                {
                    throw new IllegalStateException("the UDP receiver named port " + port);
                }
                channel.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            }

            @Override
            public boolean send(final UnsafeBuffer frame)
            {
                view.putBytes(0, frame, 0, FRAME_BYTES);
                out.clear();
                try
                {
                    return channel.write(out) == FRAME_BYTES;
                }
                catch (final IOException ex)
                {
                    // ECONNREFUSED and friends: the datagram did not go out, it counts as lost
                    return false;
                }
            }

            @Override
            public void close() throws Exception
            {
                channel.close();
            }
        };
    }

    @Override
    public Receiver receiver(final Path dir, final String variant) throws Exception
    {
        final DatagramChannel channel = DatagramChannel.open();
        final ByteBuffer in = ByteBuffer.allocateDirect(2048).order(ByteOrder.nativeOrder());
        final UnsafeBuffer view = new UnsafeBuffer(in);
        return new Receiver()
        {
            @Override
            public String open() throws Exception
            {
                channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                channel.configureBlocking(true);
                return Integer.toString(((InetSocketAddress)channel.getLocalAddress()).getPort());
            }

            @Override
            public void run(final Handler handler) throws Exception
            {
                try
                {
                    while (true)
                    {
                        in.clear();
                        channel.receive(in);
                        if (in.position() >= FRAME_BYTES)
                        {
                            handler.onFrame(view, 0);
                        }
                    }
                }
                catch (final ClosedChannelException ex)
                {
                    // stop() closed the channel (AsynchronousCloseException): the end of the run
                }
            }

            @Override
            public void stop()
            {
                try
                {
                    channel.close();
                }
                catch (final IOException ex)
                {
                    // closing is the stop signal; a failure to close leaves the join to time out and say so
                }
            }

            @Override
            public void close() throws Exception
            {
                channel.close();
            }
        };
    }
}
