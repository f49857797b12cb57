package io.rfmrt.cli.bench.peer;

import io.rfmrt.cli.bridge.BridgeCommand;
import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Aeron over UDP between two hosts as a transport of {@code rfmrt bench hosts}: the floor under the bridge, on the
 * same link. Each side embeds a media driver (folder in {@code dir}, threading mode and idle strategy as the bridge
 * row it stands beside); the sender publishes each frame on {@code aeron:udp?endpoint=RECEIVER}, the receiver
 * subscribes there and polls ({@code poll(handler, 10)}) under the idle strategy. With INVOKER the polling thread
 * runs its driver too, as the bridge does. The variant is {@code IDLE:MODE:ENDPOINT}.
 */
public final class AeronUdpPeer implements PeerTransport
{
    static final int STREAM_ID = 1002;
    private static final long OFFER_BOUND_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private static String[] parts(final String variant)
    {
        final String[] parts = variant.split(":", 3);
        if (parts.length != 3)
        {
            throw new IllegalArgumentException("aeron-udp variant '" + variant + "' is not IDLE:MODE:HOST:PORT");
        }
        return parts;
    }

    private static MediaDriver driver(final Path dir, final String name, final ThreadingMode mode,
        final String idle)
    {
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(dir.resolve(name).toString())
            .threadingMode(mode)
            .sharedIdleStrategy(BridgeCommand.idleStrategy(idle).get())
            .senderIdleStrategy(BridgeCommand.idleStrategy(idle).get())
            .receiverIdleStrategy(BridgeCommand.idleStrategy(idle).get())
            .conductorIdleStrategy(BridgeCommand.idleStrategy(idle).get())
            .asyncExecutorEnabled(false)
            .reResolutionCheckIntervalNs(0)
            .publicationTermBufferLength(4 << 20)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
    }

    @Override
    public Sender sender(final Path dir, final String variant, final String option)
    {
        final String[] p = parts(variant);
        final MediaDriver driver = driver(dir, "aeron-sender", BridgeCommand.threadingMode(p[1]), p[0]);
        final AgentInvoker invoker = driver.sharedAgentInvoker();
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir.resolve("aeron-sender")
            .toString()).driverAgentInvoker(invoker).useConductorAgentInvoker(invoker != null));
        final AgentInvoker client = invoker != null ? aeron.conductorAgentInvoker() : null;
        final Publication publication = aeron.addExclusivePublication("aeron:udp?endpoint=" + p[2], STREAM_ID);
        return new Sender()
        {
            @Override
            public void connect(final String readyArgs) throws Exception
            {
                final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
                while (!publication.isConnected())
                {
                    duty();
                    if (System.nanoTime() > deadline)
                    {
                        throw new IllegalStateException("the Aeron publication found no subscriber in 60 s");
                    }
                    Thread.sleep(1);
                }
            }

            private void duty()
            {
                if (invoker != null)
                {
                    invoker.invoke();
                    client.invoke();
                }
            }

            @Override
            public boolean send(final UnsafeBuffer frame)
            {
                long deadline = 0;
                while (publication.offer(frame, 0, FRAME_BYTES) < 0)
                {
                    if (publication.isClosed())
                    {
                        return false;
                    }
                    duty();
                    final long now = System.nanoTime();
                    if (deadline == 0)
                    {
                        deadline = now + OFFER_BOUND_NS;
                    }
                    else if (now > deadline)
                    {
                        return false;
                    }
                }
                // INVOKER: the sending thread is the driver, it puts the frame on the wire now
                duty();
                return true;
            }

            @Override
            public void close()
            {
                publication.close();
                aeron.close();
                driver.close();
            }
        };
    }

    @Override
    public Receiver receiver(final Path dir, final String variant)
    {
        final String[] p = parts(variant);
        final IdleStrategy idle = BridgeCommand.idleStrategy(p[0]).get();
        final MediaDriver driver = driver(dir, "aeron-receiver", BridgeCommand.threadingMode(p[1]), p[0]);
        final AgentInvoker invoker = driver.sharedAgentInvoker();
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(dir.resolve("aeron-receiver")
            .toString()).driverAgentInvoker(invoker).useConductorAgentInvoker(invoker != null));
        final AgentInvoker client = invoker != null ? aeron.conductorAgentInvoker() : null;
        final Subscription subscription = aeron.addSubscription("aeron:udp?endpoint=" + p[2], STREAM_ID);
        return new Receiver()
        {
            private volatile boolean running = true;

            @Override
            public String open()
            {
                return "";
            }

            @Override
            public void run(final Handler handler)
            {
                final FragmentHandler fragments = (buffer, offset, length, header) ->
                {
                    if (length >= FRAME_BYTES)
                    {
                        handler.onFrame(buffer, offset);
                    }
                };
                while (running)
                {
                    int work = 0;
                    if (invoker != null)
                    {
                        work += invoker.invoke();
                        work += client.invoke();
                    }
                    work += subscription.poll(fragments, 10);
                    idle.idle(work);
                }
            }

            @Override
            public void stop()
            {
                running = false;
            }

            @Override
            public void close()
            {
                subscription.close();
                aeron.close();
                driver.close();
            }
        };
    }
}
