package io.rfmrt.rfm.bridge;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;
import io.aeron.driver.status.SystemCounterDescriptor;
import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.rfm.internal.bridge.BridgeFile;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.internal.sim.SimDevice;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The JIT warm-up of a bridge, before the real one starts: two bridges of the same kind in this process, each on a
 * private emulated network of its own, joined over UDP on the loopback interface, carry frames and their events from
 * a node on one to a node on the other (outbound log drain, Aeron's sender and receiver, inbound apply, the receiving
 * card's DMA) until the JIT compilers have nothing left to do; then everything of it is closed and removed.
 * <p>
 * Not only the paths of smooth traffic: a JIT log of a real bridge under load showed fresh compilations and
 * deoptimisations, seconds into the traffic, on paths a smooth warm-up never runs, and the stalls they caused
 * overflowed a receiving node's ring. So the warm-up runs them too, on its private bridges alone:
 * <ul>
 *     <li>loss: the media drivers' receive endpoints drop one data packet in {@link #DROP_EVERY} while frames are
 *     sent, so that Aeron's loss detection, NAKs and retransmits run;</li>
 *     <li>back pressure: the receiving node stops taking frames {@link #STALLS} times, until the sending bridge's
 *     offers were refused (or {@link #STALL_MAX_NS} passed): its ring fills, the receiving bridge waits on it (the
 *     ring asks to be waited for), stops polling, and the sending bridge's publication is back-pressured, so the
 *     drain's blocked path runs.</li>
 * </ul>
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
    // a small window (half a term) is filled by a stall of the receiving node sooner: back pressure with fewer frames
    // in flight than the outbound log holds
    private static final int TERM_LENGTH = 128 * 1024;
    private static final int SENDER = 1;
    private static final int RECEIVER = 2;
    private static final ChannelSpec CHANNEL = new ChannelSpec("bridge-warm-up", SENDER, 0x10000, 1024, 128,
        EventType.INTR1, RECEIVER);
    private static final int IN_FLIGHT = 256;
    private static final int STALL_IN_FLIGHT = 2048;
    private static final int RING_SLOTS = 256;
    // longer than a stop of the receiving node, shorter than the warm-up bridges' peer time-out (1 s)
    private static final long RING_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(800);

    /** One data packet in this many is dropped by the warm-up's receivers while frames are sent. */
    public static final int DROP_EVERY = 500;

    /** Times the receiving node stops taking frames, at 3/10, 5/10 and 7/10 of the frames asked for. */
    public static final int STALLS = 3;

    /**
     * Longest stop of the receiving node: shorter than its ring's wait (nothing is dropped) and than half the peer
     * time-out of the warm-up's bridges (the receiving one is held that long).
     */
    public static final long STALL_MAX_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long STEP_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private BridgeWarmUp()
    {
    }

    /**
     * What a warm-up did.
     *
     * @param sent          frames published on the first private network.
     * @param received      frames taken from the DMA ring on the second.
     * @param bad           of them, frames the receiving node's checks refused or that came out of order (none in a
     *                      sound warm-up).
     * @param elapsedNs     how long it took, set-up and removal included.
     * @param problem       why it stopped short (the bridges did not connect, a bridge failed), or {@code null}.
     * @param dropped       data packets the receivers dropped on purpose.
     * @param naks          NAKs the media drivers sent for them.
     * @param retransmits   retransmissions the media drivers sent.
     * @param backPressured offers the sending bridge's publication refused for now (back pressure, a term's end).
     * @param stalls        stops of the receiving node during which the sending bridge was back-pressured.
     * @param ringWaits     times the receiving bridge waited on the receiving node's full ring.
     */
    public record Result(long sent, long received, long bad, long elapsedNs, String problem, long dropped, long naks,
        long retransmits, long backPressured, long stalls, long ringWaits)
    {
        /**
         * @return what it did in words, for the line that reports it: {@code 20000 frames through a private pair of
         *         bridges in 3.1 s (0 refused by the receiving node's checks; 41 retransmitted, 96 back-pressured
         *         offers, 3 ring waits)}.
         */
        public String summary()
        {
            return String.format(Locale.ROOT, "%d frames through a private pair of bridges in %.1f s (%d refused by " +
                "the receiving node's checks; %d retransmitted, %d back-pressured offers, %d ring waits)", received,
                elapsedNs / 1e9, bad, retransmits, backPressured, ringWaits);
        }
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
        final ReceiveLoop loop = new ReceiveLoop(received, stallMarks(frames));
        final Loss lossA = new Loss();
        final Loss lossB = new Loss();
        NetworkImage viewA = null;
        long sent = 0;
        String problem = null;
        long[] paths = new long[5];
        try
        {
            deleteTree(scratch);
            Files.createDirectories(dirA);
            Files.createDirectories(dirB);
            final int portA = freePort();
            final int portB = freePort();
            final Bridge a = Bridge.launch(context(real, dirA, 1, portA, 2, portB, failure, lossA));
            runnerA = start(a, idle, failure);
            final Bridge b = Bridge.launch(context(real, dirB, 2, portB, 1, portA, failure, lossB));
            runnerB = start(b, idle, failure);
            if (!await(() -> a.linkUp() && b.linkUp(), failure))
            {
                problem = failure.get() != null ? describe(failure.get()) : "its two bridges did not connect in " +
                    TimeUnit.NANOSECONDS.toSeconds(STEP_TIMEOUT_NS) + " s";
                return new Result(0, 0, 0, System.nanoTime() - start, problem, 0, 0, 0, 0, 0, 0);
            }
            sender = open(dirA, network, SENDER, 64, 2048, DmaRingFullPolicy.DROP_NEWEST, 0);
            // the receiving node asks to be waited for: its stalls hold the receiving bridge, nothing is dropped
            receiver = open(dirB, network, RECEIVER, RING_SLOTS, CHANNEL.slotSize(), DmaRingFullPolicy.BACKPRESSURE,
                RING_WAIT_NS);
            receiver.enableEvent(EventType.INTR1);
            if (!await(() -> remoteHeld(dirA, network, RECEIVER), failure))
            {
                problem = failure.get() != null ? describe(failure.get()) : "its receiving node never appeared " +
                    "on its sending host";
                return new Result(0, 0, 0, System.nanoTime() - start, problem, 0, 0, 0, 0, 0, 0);
            }
            viewA = NetworkImage.attach(dirA, network);
            final BridgeFile fileA = BridgeFile.of(viewA.bridge());
            loop.device = receiver;
            loop.sendingBridge = fileA;
            receiveThread = new Thread(loop, "rfmrt-bridge-warm-up-rx");
            receiveThread.setDaemon(true);
            receiveThread.start();
            lossA.on = true;
            lossB.on = true;
            try
            {
                sent = send(new FramePublisher(sender, CHANNEL), received, loop, frames, compilerIdle, failure,
                    start);
            }
            finally
            {
                // the last frames are not left to a retransmit: the drain below ends sooner
                lossA.on = false;
                lossB.on = false;
            }
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
            // read while the drivers and the bridges still run: their counters go with them
            paths = new long[] {
                lossA.counter(SystemCounterDescriptor.NAK_MESSAGES_SENT) +
                    lossB.counter(SystemCounterDescriptor.NAK_MESSAGES_SENT),
                lossA.counter(SystemCounterDescriptor.RETRANSMITS_SENT) +
                    lossB.counter(SystemCounterDescriptor.RETRANSMITS_SENT),
                fileA.counter(BridgeCounter.BACK_PRESSURE),
                loop.stallsBackPressured,
                receiver.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null)};
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
            closeAll(runnerA, runnerB, sender, receiver, viewA);
            deleteTree(scratch);
        }
        return new Result(sent, received.get(), loop.bad, System.nanoTime() - start, problem,
            lossA.dropped.get() + lossB.dropped.get(), paths[0], paths[1], paths[2], paths[3], paths[4]);
    }

    /**
     * @return the counts of frames taken at which the receiving node stops: 3/10, 5/10, 7/10 of those asked for.
     */
    private static long[] stallMarks(final int frames)
    {
        final long[] marks = new long[STALLS];
        for (int i = 0; i < STALLS; i++)
        {
            marks[i] = Math.max(1, (long)frames * (3 + 2 * i) / 10);
        }
        return marks;
    }

    private static long send(final FramePublisher publisher, final AtomicLong received, final ReceiveLoop loop,
        final int frames, final BooleanSupplier compilerIdle, final AtomicReference<Throwable> failure,
        final long start)
        throws InterruptedException
    {
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
        long sent = 0;
        while ((sent < frames || !compilerIdle.getAsBoolean()) && System.nanoTime() - start < LIMIT_NS &&
            failure.get() == null)
        {
            // a bounded number in flight: the receiving ring seldom fills, so every frame takes the whole path;
            // while the receiving node stops, more: enough to fill its ring and the sending bridge's windows
            if (sent - received.get() >= (loop.stalled ? STALL_IN_FLIGHT : IN_FLIGHT))
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
        final int peerId, final int peerPort, final AtomicReference<Throwable> failure, final Loss loss)
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
            .driverCustomiser(loss)
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
        final int slotSize, final DmaRingFullPolicy policy, final long waitNs)
    {
        return SimDevice.open("sim:" + network + "?node=" + node, NetworkImage.createOrAttach(dir, network, MEMORY),
            node, DmaMode.AUTO, policy, slots, slotSize, false, waitNs);
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
        final RfmDevice receiver, final NetworkImage viewA)
    {
        for (final AutoCloseable c : new AutoCloseable[] {sender, receiver, viewA, runnerA, runnerB})
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
     * node's receive path does; at the marks it stops taking them until the sending bridge is back-pressured.
     */
    private static final class ReceiveLoop implements Runnable
    {
        private final AtomicLong received;
        private final long[] stallMarks;
        volatile RfmDevice device;
        volatile BridgeFile sendingBridge;
        volatile boolean running = true;
        volatile boolean stalled;
        volatile Throwable failure;
        volatile long bad;
        volatile long stallsBackPressured;

        ReceiveLoop(final AtomicLong received, final long[] stallMarks)
        {
            this.received = received;
            this.stallMarks = stallMarks;
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
                int nextStall = 0;
                while (running)
                {
                    // an event may have been lost to the card's full FIFO while the node stalled: the frames are
                    // taken whether one came or the wait timed out
                    device.awaitEvent(EventType.INTR1, TimeUnit.MILLISECONDS.toNanos(10), event);
                    while (running && device.dma().takeCompleted(done))
                    {
                        final long n = received.get();
                        if (frames.receiveCompleted(done, view) != FrameStatus.OK ||
                            view.buffer().getLong(view.payloadOffset()) != n)
                        {
                            bad++;
                        }
                        device.dma().release(done);
                        // every transfer taken counts, whole or not: the sender waits on this count
                        received.lazySet(n + 1);
                        if (nextStall < stallMarks.length && n + 1 == stallMarks[nextStall])
                        {
                            nextStall++;
                            stall();
                        }
                    }
                }
            }
            catch (final Throwable t)
            {
                failure = t;
            }
        }

        /**
         * Take nothing until the sending bridge's offers were refused and the receiving bridge waited on the full
         * ring, or {@link #STALL_MAX_NS} passed.
         */
        private void stall() throws InterruptedException
        {
            final long backPressure = sendingBridge.counter(BridgeCounter.BACK_PRESSURE);
            final long ringWaits = device.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null);
            final long deadline = System.nanoTime() + STALL_MAX_NS;
            stalled = true;
            try
            {
                while (running && System.nanoTime() - deadline < 0)
                {
                    if (sendingBridge.counter(BridgeCounter.BACK_PRESSURE) > backPressure &&
                        device.counter(RfmCounter.DMA_BACKPRESSURE_STALLS, null) > ringWaits)
                    {
                        stallsBackPressured++;
                        return;
                    }
                    Thread.sleep(1);
                }
            }
            finally
            {
                stalled = false;
            }
        }
    }

    /**
     * The lossy receive endpoint of one warm-up media driver (set on its context before it starts), and the context
     * kept to read its counters. The drops are deterministic: the {@link #DROP_FIRST}th data packet while on, then
     * one in {@link #DROP_EVERY}.
     */
    private static final class Loss implements LossGenerator, Consumer<MediaDriver.Context>
    {
        /** The first drop comes soon, so that a short warm-up sees one too. */
        private static final int DROP_FIRST = 50;
        private static final LossGenerator NONE = (address, buffer, length) -> false;

        final AtomicLong dropped = new AtomicLong();
        volatile boolean on;
        private volatile MediaDriver.Context driver;
        private long seen;

        @Override
        public void accept(final MediaDriver.Context ctx)
        {
            driver = ctx;
            ctx.receiveChannelEndpointSupplier((udpChannel, dispatcher, statusIndicator, context) ->
                new DebugReceiveChannelEndpoint(udpChannel, dispatcher, statusIndicator, context, this, NONE));
        }

        /** The driver's receiver thread only. */
        @Override
        public boolean shouldDropFrame(final InetSocketAddress address, final UnsafeBuffer buffer, final int length)
        {
            if (!on || ++seen % DROP_EVERY != DROP_FIRST)
            {
                return false;
            }
            dropped.incrementAndGet();
            return true;
        }

        long counter(final SystemCounterDescriptor descriptor)
        {
            final MediaDriver.Context ctx = driver;
            return ctx == null || ctx.systemCounters() == null ? 0 : ctx.systemCounters().get(descriptor).get();
        }
    }
}
