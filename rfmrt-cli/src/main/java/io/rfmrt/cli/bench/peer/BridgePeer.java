package io.rfmrt.cli.bench.peer;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.JitWatch;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * rfmrt across hosts as a transport of {@code rfmrt bench hosts}: the sender is node 1 on host A's copy of a bridged
 * network, publishing each frame into a channel (payload, header, sequence, then INTR1 with DMA) as any node does;
 * host A's bridge sends it to host B's, which stores it and delivers the event; the receiver is node 2 on host B, a
 * thread that waits for INTR1 in the kernel, takes the frame from its DMA ring, checks it ({@code FrameReceiver}) and
 * hands it to the handler: rfmrt's receive path with the handler on the waking thread. Each side's emulator root
 * comes from its process's {@code rfmrt.sim.root}; the variant names the network and, after a {@code ?}, the device URI
 * parameters of the receiving node's DMA ring ({@link #variant}).
 */
public final class BridgePeer implements PeerTransport
{
    /** The bench's channel: node 1 to node 2, 1024 slots of 128 bytes. */
    static final ChannelSpec CHANNEL = new ChannelSpec("bench-hosts", 1, 0x10000, 1024, 128, EventType.INTR1, 2);
    /** The receiving node's DMA ring: slots. */
    public static final int SLOTS = 1024;
    private static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    /**
     * The variant that names a bridged network and the receiving node's DMA ring-full handling.
     *
     * @param network the bridged network's name.
     * @param ring    device URI parameters of the receiving node's ring (e.g.
     *                {@code dmaPolicy=backpressure&dmaWait=100ms}), or empty for the defaults.
     * @return the variant {@link #sender} and {@link #receiver} take.
     */
    public static String variant(final String network, final String ring)
    {
        return ring.isEmpty() ? network : network + "?" + ring;
    }

    private static String network(final String variant)
    {
        final int question = variant.indexOf('?');
        return question < 0 ? variant : variant.substring(0, question);
    }

    private static String ring(final String variant)
    {
        final int question = variant.indexOf('?');
        return question < 0 ? "" : "&" + variant.substring(question + 1);
    }

    @Override
    public Sender sender(final Path dir, final String variant, final String option)
    {
        final String network = network(variant);
        final RfmDevice device = RfmDevices.open("bridge:" + network + "?node=1");
        final FramePublisher publisher = new FramePublisher(device, CHANNEL);
        return new Sender()
        {
            @Override
            public void connect(final String readyArgs) throws Exception
            {
                // node 2 is up on host B; its card here is a stand-in once B's bridge said so
                final long deadline = System.nanoTime() + CONNECT_TIMEOUT_NS;
                while (!remoteHeld(network, CHANNEL.target()))
                {
                    if (System.nanoTime() > deadline)
                    {
                        throw new IllegalStateException("node " + CHANNEL.target() + " never appeared on host A");
                    }
                    Thread.sleep(10);
                }
            }

            @Override
            public boolean send(final UnsafeBuffer frame)
            {
                return publisher.publish(frame, 0, FRAME_BYTES, 0) == RfmStatus.SUCCESS;
            }

            @Override
            public void close()
            {
                device.close();
            }
        };
    }

    private static boolean remoteHeld(final String network, final int node)
    {
        try (SimNetwork net = SimNetwork.attach(network))
        {
            return net.cards().stream().anyMatch(c -> c.node() == node && c.present() && c.remote());
        }
    }

    @Override
    public Receiver receiver(final Path dir, final String variant)
    {
        return new RingReceiver(RfmDevices.open("bridge:" + network(variant) +
            "?node=2&dmaSlots=" + SLOTS + "&dmaSlotSize=128" + ring(variant)));
    }

    /**
     * Warm the receive loop up before the real one opens: the same loop ({@link RingReceiver}) and the handler's own
     * code on a private emulated network of this host (node 1 publishing to node 2's ring as the real sender does),
     * on ordinary threads, at least {@code frames} frames and on until this JVM's JIT compilers have been idle for a
     * while (at most {@value #WARM_UP_LIMIT_S} s), then the network is removed. Without it the receiving node ran
     * its first seconds of traffic in profiled code, and its thread slept 0.1–1.3 s inside the JVM while the JIT's
     * ordinary-priority threads, which got little cpu beside the bench's real-time ones, installed the optimised
     * code: its ring filled, the receiving bridge waited out {@code dmaWait} and dropped frames
     * (docs/benchmarks.md, "Where the bridge's frames were lost").
     *
     * @param variant the real run's variant: the ring's parameters are copied.
     * @param handler a handler of the same class as the real one (its figures are thrown away).
     * @param frames  frames at least.
     * @return frames sent, and whether the JIT was found idle.
     */
    public static String warmUp(final String variant, final Handler handler, final int frames) throws Exception
    {
        final String network = "benchwarm" + ProcessHandle.current().pid();
        final RingReceiver receiver = new RingReceiver(RfmDevices.open("sim:" + network + "?node=" + CHANNEL.target() +
            "&size=1048576&dmaSlots=" + SLOTS + "&dmaSlotSize=128" + ring(variant)));
        long sent = 0;
        boolean idle = false;
        try (RfmDevice tx = RfmDevices.open("sim:" + network + "?node=" + CHANNEL.node()))
        {
            receiver.open();
            final Thread rx = new Thread(() ->
            {
                try
                {
                    receiver.run(handler);
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException(ex);
                }
            }, "bench-warm-rx");
            rx.start();
            try
            {
                final FramePublisher publisher = new FramePublisher(tx, CHANNEL);
                final UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME_BYTES]);
                final JitWatch jit = new JitWatch();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WARM_UP_LIMIT_S);
                while ((sent < frames || !(idle = jit.idle())) && System.nanoTime() < deadline)
                {
                    frame.putLong(SEQ_OFFSET, ++sent);
                    frame.putLong(STAMP_OFFSET, System.nanoTime());
                    publisher.publish(frame, 0, FRAME_BYTES, 0);
                    if ((sent & 15) == 0)
                    {
                        // pauses, so that the loop's sleeping path runs too, not only a full ring's
                        LockSupport.parkNanos(50_000);
                    }
                }
            }
            finally
            {
                receiver.stop();
                rx.join(TimeUnit.SECONDS.toMillis(5));
            }
        }
        finally
        {
            receiver.close();
            RfmDevices.destroyNetwork(network);
        }
        JitWatch.awaitIdle(TimeUnit.SECONDS.toNanos(10));
        return sent + " frames" + (idle ? "" : ", the JIT still busy at the limit");
    }

    /** Frames of {@link #warmUp} by default. */
    public static final int WARM_UP_FRAMES = 20_000;

    /** Longest warm-up of {@link #warmUp}, in seconds. */
    private static final int WARM_UP_LIMIT_S = 20;

    /**
     * The receiving node's loop: a thread that waits for INTR1 in the kernel, then takes every frame whose DMA
     * completed, checks it and hands it to the handler.
     */
    static final class RingReceiver implements Receiver
    {
        private final RfmDevice device;
        private final FrameReceiver frames;
        private volatile boolean running = true;

        RingReceiver(final RfmDevice device)
        {
            this.device = device;
            this.frames = new FrameReceiver(device, CHANNEL);
        }

        @Override
        public String open()
        {
            device.enableEvent(EventType.INTR1);
            return "";
        }

        @Override
        public void run(final Handler handler)
        {
            final EventInfo event = new EventInfo();
            final DmaCompletion done = new DmaCompletion();
            final FrameView view = new FrameView();
            while (running)
            {
                if (device.awaitEvent(EventType.INTR1, RfmDevice.INFINITE_TIMEOUT, event) != RfmStatus.SUCCESS)
                {
                    continue;
                }
                // the interrupt is a doorbell: take every frame whose DMA completed
                while (device.dma().takeCompleted(done))
                {
                    if (frames.receiveCompleted(done, view) == FrameStatus.OK)
                    {
                        handler.onFrame(view.buffer(), view.payloadOffset());
                    }
                    device.dma().release(done);
                }
            }
        }

        @Override
        public void stop()
        {
            running = false;
            device.cancelAwait(EventType.INTR1);
        }

        @Override
        public Map<String, Long> lossCauses()
        {
            final Map<String, Long> m = new LinkedHashMap<>();
            // frames the publisher's sequence skipped (the channel ring lapped before they were read), frames
            // refused, and the card's DMA transfers dropped on a full ring
            m.put("gaps", frames.counter(FrameCounter.GAPS));
            m.put("torn", frames.counter(FrameCounter.TORN));
            m.put("crc_errors", frames.counter(FrameCounter.CRC_ERRORS));
            m.put("stale", frames.counter(FrameCounter.STALE));
            m.put("bad_header", frames.counter(FrameCounter.BAD_HEADER));
            m.put("dma_missing", frames.counter(FrameCounter.DMA_MISSING));
            m.put("dma_dropped", device.counter(RfmCounter.DMA_DROPPED, null));
            m.put("fifo_overflows", device.counter(RfmCounter.FIFO_OVERFLOWS, EventType.INTR1));
            return m;
        }

        @Override
        public void close()
        {
            device.close();
        }
    }
}
