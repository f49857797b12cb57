package io.rfmrt.cli.bench.peer;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Aeron IPC as a peer of {@code bench peers}: a media driver embedded in the bench process (its folder in
 * {@code /dev/shm}), a publication on {@code aeron:ipc} there, a subscription in the receiver process polled
 * ({@code poll(handler, 10)}) under an idle strategy: {@code backoff} (Agrona's {@code BackoffIdleStrategy()}
 * defaults: 10 spins, 5 yields, then parks from 1 us doubling to 1 ms), {@code sleep-100us}
 * ({@code SleepingIdleStrategy} of 100 us) or {@code busy-spin}. The driver runs in the threading mode the bench
 * chose ({@code DEDICATED}, {@code SHARED} or {@code INVOKER}; with {@code INVOKER} the sender thread runs the
 * driver's duty cycle after each send, and a helper thread does it while the receiver starts). IPC terms of 4 MiB.
 */
public final class AeronPeer implements PeerTransport
{
    public static final String BACKOFF = "backoff";
    public static final String SLEEP_100US = "sleep-100us";
    public static final String BUSY_SPIN = "busy-spin";
    static final String CHANNEL = "aeron:ipc";
    static final int STREAM_ID = 1001;
    private static final int TERM_BYTES = 4 << 20;
    private static final long OFFER_BOUND_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

    /**
     * @param name a threading mode name.
     * @return it, or null when it is not DEDICATED, SHARED or INVOKER.
     */
    public static ThreadingMode threadingMode(final String name)
    {
        for (final ThreadingMode mode : new ThreadingMode[]{ThreadingMode.DEDICATED, ThreadingMode.SHARED,
            ThreadingMode.INVOKER})
        {
            if (mode.name().equalsIgnoreCase(name))
            {
                return mode;
            }
        }
        return null;
    }

    static IdleStrategy idleStrategy(final String variant)
    {
        switch (variant)
        {
            case BACKOFF:
                return new BackoffIdleStrategy();
            case SLEEP_100US:
                return new SleepingIdleStrategy(TimeUnit.MICROSECONDS.toNanos(100));
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            default:
                throw new IllegalArgumentException("aeron variant '" + variant + "' is not " + BACKOFF + ", " +
                    SLEEP_100US + " or " + BUSY_SPIN);
        }
    }

    private static String aeronDir(final Path dir)
    {
        return dir.resolve("aeron").toString();
    }

    @Override
    public Sender sender(final Path dir, final String variant, final String option)
    {
        final ThreadingMode mode = threadingMode(option);
        if (mode == null)
        {
            throw new IllegalArgumentException("aeron threading mode '" + option + "' is not DEDICATED, SHARED or " +
                "INVOKER");
        }
        final MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir(dir))
            .threadingMode(mode)
            .ipcTermBufferLength(TERM_BYTES)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        final AgentInvoker invoker = driver.sharedAgentInvoker();
        final Thread keeper = invoker == null ? null : new Thread(() ->
        {
            // runs the driver while the receiver process starts, until the sender thread takes over
            while (!Thread.currentThread().isInterrupted())
            {
                invoker.invoke();
                try
                {
                    Thread.sleep(1);
                }
                catch (final InterruptedException ex)
                {
                    return;
                }
            }
        }, "rfmrt-bench-aeron-invoker");
        if (keeper != null)
        {
            keeper.setDaemon(true);
            keeper.start();
        }
        final Aeron aeron;
        final Publication publication;
        try
        {
            aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir(dir)));
            publication = aeron.addPublication(CHANNEL, STREAM_ID);
        }
        catch (final RuntimeException ex)
        {
            if (keeper != null)
            {
                keeper.interrupt();
            }
            driver.close();
            throw ex;
        }
        return new Sender()
        {
            @Override
            public void connect(final String readyArgs) throws Exception
            {
                final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
                while (!publication.isConnected())
                {
                    if (System.nanoTime() > deadline)
                    {
                        throw new IllegalStateException("the Aeron publication found no subscriber in 20 s");
                    }
                    Thread.sleep(1);
                }
                if (keeper != null)
                {
                    keeper.interrupt();
                    keeper.join();
                }
            }

            @Override
            public boolean send(final UnsafeBuffer frame)
            {
                long result;
                long deadline = 0;
                while ((result = publication.offer(frame, 0, FRAME_BYTES)) < 0)
                {
                    if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
                    {
                        return false;
                    }
                    if (invoker != null)
                    {
                        invoker.invoke();
                    }
                    final long now = System.nanoTime();
                    if (deadline == 0)
                    {
                        deadline = now + OFFER_BOUND_NS;
                    }
                    else if (now > deadline)
                    {
                        return false;
                    }
                    Thread.onSpinWait();
                }
                if (invoker != null)
                {
                    invoker.invoke();
                }
                return true;
            }

            @Override
            public void close() throws Exception
            {
                if (keeper != null)
                {
                    keeper.interrupt();
                    keeper.join();
                }
                publication.close();
                aeron.close();
                driver.close();
            }
        };
    }

    @Override
    public Receiver receiver(final Path dir, final String variant)
    {
        final IdleStrategy idle = idleStrategy(variant);
        final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir(dir)));
        final Subscription subscription = aeron.addSubscription(CHANNEL, STREAM_ID);
        return new Receiver()
        {
            private volatile boolean running = true;

            @Override
            public String open() throws Exception
            {
                final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
                while (!subscription.isConnected())
                {
                    if (System.nanoTime() > deadline)
                    {
                        throw new IllegalStateException("the Aeron subscription found no publication in 20 s");
                    }
                    Thread.sleep(1);
                }
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
                    idle.idle(subscription.poll(fragments, 10));
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
            }
        };
    }
}
