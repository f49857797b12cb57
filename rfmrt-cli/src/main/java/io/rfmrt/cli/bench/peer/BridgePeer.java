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
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
        final RfmDevice device = RfmDevices.open("bridge:" + network(variant) +
            "?node=2&dmaSlots=" + SLOTS + "&dmaSlotSize=128" + ring(variant));
        final FrameReceiver frames = new FrameReceiver(device, CHANNEL);
        return new Receiver()
        {
            private volatile boolean running = true;

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
        };
    }
}
