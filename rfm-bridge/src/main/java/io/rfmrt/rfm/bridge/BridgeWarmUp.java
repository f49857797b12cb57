package io.rfmrt.rfm.bridge;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.internal.sim.SimDevice;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The JIT warm-up of a bridge, before the real one starts: two bridges of the same kind in this process, each on a
 * private emulated network of its own, joined over UDP on the loopback interface, carry frames and their events from
 * a node on one to a node on the other (outbound log drain, Aeron's sender and receiver, inbound apply, the receiving
 * card's DMA) until the JIT compilers have nothing left to do; then everything of it is closed and removed.
 * <p>
 * Why: a bridge started cold runs its drain and apply as profiled code for seconds, because its optimising compiler
 * runs at an ordinary priority beside the real-time threads of the host and gets little cpu; it drains the outbound
 * log at part of the senders' rate meanwhile, then catches up in a burst that overflows a receiving node's DMA ring
 * (measured in docs/benchmarks.md, "The bridge's start-up burst"). A node warms its receive path up before it reports
 * RUNNING for the same reason.
 * <p>
 * Called once, from the thread that starts a bridge, before {@link Bridge#launch}; it starts and stops unpinned
 * threads of its own and allocates freely.
 */
public final class BridgeWarmUp
{
    /** Frames carried by default: enough for the optimising compiler to have seen every hot path many times. */
    public static final int FRAMES_DEFAULT = 20_000;

    /** Longest warm-up: frames past those asked for go on only while the JIT is still compiling. */
    public static final long LIMIT_NS = TimeUnit.SECONDS.toNanos(20);

    private static final long MEMORY = 1 << 20;
    private static final int LOG_CAPACITY = 1 << 20;
    private static final int TERM_LENGTH = 1 << 20;
    private static final int SENDER = 1;
    private static final int RECEIVER = 2;
    private static final ChannelSpec CHANNEL = new ChannelSpec("bridge-warm-up", SENDER, 0x10000, 1024, 128,
        EventType.INTR1, RECEIVER);
    private static final int IN_FLIGHT = 256;
    private static final long STEP_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private BridgeWarmUp()
    {
    }

    /**
     * What a warm-up did.
     *
     * @param sent      frames published on the first private network.
     * @param received  frames taken from the DMA ring on the second.
     * @param bad       of them, frames the receiving node's checks refused (none in a sound warm-up).
     * @param elapsedNs how long it took, set-up and removal included.
     * @param problem   why it stopped short (the bridges did not connect, a bridge failed), or {@code null}.
     */
    public record Result(long sent, long received, long bad, long elapsedNs, String problem)
    {
    }

    /**
     * Warm a bridge's code up on two private networks shaped like {@code real}: same network name (the folders are
     * another's, {@code .bridge-warm-up-PID} beside the real network's), same media driver threading and idle, the
     * duty cycles on unpinned threads with {@code idle} as the real one's; at least {@code frames} frames, then on
     * while {@code compilerIdle} says the JIT compilers are busy, at most {@link #LIMIT_NS} in all.
     *
     * @param real         the real bridge's context, concluded.
     * @param idle         the idle strategy the real bridge's duty cycle will use, made for a bridge.
     * @param compilerIdle whether the JIT compilers have been idle for a while.
     * @param frames       frames at least, e.g. {@link #FRAMES_DEFAULT}.
     * @return what it did; a warm-up that could not run says why and leaves nothing behind.
     * @throws UncheckedIOException when its folders cannot be made or removed.
     */
    public static Result run(final BridgeContext real, final Function<Bridge, IdleStrategy> idle,
        final BooleanSupplier compilerIdle, final int frames)
    {
        final long start = System.nanoTime();
        final String network = real.network();
        final Path scratch = real.networkDir().resolveSibling(".bridge-warm-up-" + ProcessHandle.current().pid());
        final Path dirA = scratch.resolve("a").resolve(network);
        final Path dirB = scratch.resolve("b").resolve(network);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        AgentRunner runnerA = null;
        AgentRunner runnerB = null;
        RfmDevice sender = null;
        RfmDevice receiver = null;
        Thread receiveThread = null;
        final AtomicLong received = new AtomicLong();
        final ReceiveLoop loop = new ReceiveLoop(received);
        long sent = 0;
        String problem = null;
        try
        {
            deleteTree(scratch);
            Files.createDirectories(dirA);
            Files.createDirectories(dirB);
            final int portA = freePort();
            final int portB = freePort();
            final Bridge a = Bridge.launch(context(real, dirA, 1, portA, 2, portB, failure));
            runnerA = start(a, idle, failure);
            final Bridge b = Bridge.launch(context(real, dirB, 2, portB, 1, portA, failure));
            runnerB = start(b, idle, failure);
            if (!await(() -> a.linkUp() && b.linkUp(), failure))
            {
                problem = failure.get() != null ? describe(failure.get()) : "its two bridges did not connect in " +
                    TimeUnit.NANOSECONDS.toSeconds(STEP_TIMEOUT_NS) + " s";
                return new Result(0, 0, 0, System.nanoTime() - start, problem);
            }
            sender = open(dirA, network, SENDER, 64, 2048);
            receiver = open(dirB, network, RECEIVER, CHANNEL.slots(), CHANNEL.slotSize());
            receiver.enableEvent(EventType.INTR1);
            if (!await(() -> remoteHeld(dirA, network, RECEIVER), failure))
            {
                problem = failure.get() != null ? describe(failure.get()) : "its receiving node never appeared " +
                    "on its sending host";
                return new Result(0, 0, 0, System.nanoTime() - start, problem);
            }
            loop.device = receiver;
            receiveThread = new Thread(loop, "rfmrt-bridge-warm-up-rx");
            receiveThread.setDaemon(true);
            receiveThread.start();
            sent = send(new FramePublisher(sender, CHANNEL), received, frames, compilerIdle, failure, start);
            final long drainDeadline = System.nanoTime() + STEP_TIMEOUT_NS;
            while (received.get() < sent && failure.get() == null && System.nanoTime() < drainDeadline &&
                loop.failure == null)
            {
                Thread.sleep(1);
            }
            if (failure.get() != null || loop.failure != null)
            {
                problem = describe(failure.get() != null ? failure.get() : loop.failure);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bridge warm-up in " + scratch + ": " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            problem = "interrupted";
        }
        catch (final RuntimeException ex)
        {
            problem = describe(ex);
        }
        finally
        {
            loop.running = false;
            if (receiver != null)
            {
                receiver.cancelAwait(EventType.INTR1);
            }
            join(receiveThread);
            closeAll(runnerA, runnerB, sender, receiver);
            deleteTree(scratch);
        }
        return new Result(sent, received.get(), loop.bad, System.nanoTime() - start, problem);
    }

    private static long send(final FramePublisher publisher, final AtomicLong received, final int frames,
        final BooleanSupplier compilerIdle, final AtomicReference<Throwable> failure, final long start)
        throws InterruptedException
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
        long sent = 0;
        while ((sent < frames || !compilerIdle.getAsBoolean()) && System.nanoTime() - start < LIMIT_NS &&
            failure.get() == null)
        {
            // a bounded number in flight: the receiving ring never overflows, so every frame takes the whole path
            if (sent - received.get() >= IN_FLIGHT)
            {
                // give the cpu to the bridges and the receiver it waits for (the count does not move while waiting)
                Thread.yield();
                continue;
            }
            payload.putLong(0, sent);
            if (publisher.publish(payload, 0, payload.capacity(), 0) == RfmStatus.SUCCESS)
            {
                sent++;
            }
            else
            {
                Thread.sleep(1);
            }
        }
        return sent;
    }

    private static BridgeContext context(final BridgeContext real, final Path dir, final int hostId, final int port,
        final int peerId, final int peerPort, final AtomicReference<Throwable> failure)
    {
        return new BridgeContext()
            .network(dir, real.network())
            .memorySize(MEMORY)
            .hostId(hostId)
            .hostName("warm-up-" + hostId)
            .channel("aeron:udp?endpoint=127.0.0.1:" + port)
            .peer(new BridgeContext.Peer(peerId, "127.0.0.1:" + peerPort))
            .logCapacity(LOG_CAPACITY)
            .termLength(TERM_LENGTH)
            .threadingMode(real.threadingMode())
            .driverIdle(real.driverIdle())
            .errorHandler(error -> failure.compareAndSet(null, error))
            .conclude();
    }

    private static AgentRunner start(final Bridge bridge, final Function<Bridge, IdleStrategy> idle,
        final AtomicReference<Throwable> failure)
    {
        final AgentRunner runner = new AgentRunner(idle.apply(bridge), error -> failure.compareAndSet(null, error),
            null, bridge);
        AgentRunner.startOnThread(runner);
        return runner;
    }

    private static RfmDevice open(final Path dir, final String network, final int node, final int slots,
        final int slotSize)
    {
        return SimDevice.open("sim:" + network + "?node=" + node, NetworkImage.createOrAttach(dir, network, MEMORY),
            node, DmaMode.AUTO, DmaRingFullPolicy.DROP_NEWEST, slots, slotSize, false);
    }

    private static boolean remoteHeld(final Path dir, final String network, final int node)
    {
        try (NetworkImage image = NetworkImage.attach(dir, network))
        {
            return image.isPresent(node) && image.isRemote(node);
        }
    }

    private static boolean await(final BooleanSupplier condition, final AtomicReference<Throwable> failure)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + STEP_TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (failure.get() != null || System.nanoTime() > deadline)
            {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    private static int freePort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    private static void join(final Thread thread)
    {
        if (thread == null)
        {
            return;
        }
        try
        {
            thread.join(TimeUnit.NANOSECONDS.toMillis(STEP_TIMEOUT_NS));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeAll(final AgentRunner runnerA, final AgentRunner runnerB, final RfmDevice sender,
        final RfmDevice receiver)
    {
        for (final AutoCloseable c : new AutoCloseable[] {sender, receiver, runnerA, runnerB})
        {
            if (c == null)
            {
                continue;
            }
            try
            {
                c.close();
            }
            catch (final Exception ignore)
            {
                // the warm-up is over: what is left of it is removed with its folder below
            }
        }
    }

    private static void deleteTree(final Path root)
    {
        if (!Files.exists(root))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            final List<Path> all = paths.sorted(Comparator.reverseOrder()).toList();
            for (final Path p : all)
            {
                Files.deleteIfExists(p);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("bridge warm-up: cannot remove " + root + ": " + ex.getMessage(), ex);
        }
    }

    private static String describe(final Throwable t)
    {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /**
     * The receiving node of the warm-up: waits for the frames' events and takes every completed DMA transfer, as a
     * node's receive path does.
     */
    private static final class ReceiveLoop implements Runnable
    {
        private final AtomicLong received;
        volatile RfmDevice device;
        volatile boolean running = true;
        volatile Throwable failure;
        volatile long bad;

        ReceiveLoop(final AtomicLong received)
        {
            this.received = received;
        }

        @Override
        public void run()
        {
            try
            {
                final FrameReceiver frames = new FrameReceiver(device, CHANNEL);
                final EventInfo event = new EventInfo();
                final DmaCompletion done = new DmaCompletion();
                final FrameView view = new FrameView();
                while (running)
                {
                    if (device.awaitEvent(EventType.INTR1, TimeUnit.MILLISECONDS.toNanos(10), event) !=
                        RfmStatus.SUCCESS)
                    {
                        continue;
                    }
                    while (device.dma().takeCompleted(done))
                    {
                        if (frames.receiveCompleted(done, view) != FrameStatus.OK)
                        {
                            bad++;
                        }
                        device.dma().release(done);
                        // every transfer taken counts, whole or not: the sender waits on this count
                        received.lazySet(received.get() + 1);
                    }
                }
            }
            catch (final Throwable t)
            {
                failure = t;
            }
        }
    }
}
