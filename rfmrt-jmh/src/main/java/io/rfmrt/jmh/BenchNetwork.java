package io.rfmrt.jmh;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.sim.SimNetwork;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * An emulated network of two nodes for one benchmark's state: node 1 publishes {@link #CHANNEL} to node 2, whose card
 * moves each frame into its DMA ring on arrival (auto mode) when it takes the channel's event. Made in the
 * emulator's root ({@code rfmrt.sim.root}, {@code RFMRT_SIM_ROOT}, or /dev/shm/rfmrt) under a name of its own, and
 * removed by {@link #close()}.
 */
public final class BenchNetwork implements AutoCloseable
{
    /** The payload of every frame, the size the targets are stated for. */
    public static final int PAYLOAD_BYTES = 64;
    /** Descriptors of node 2's DMA ring: one batch of the batched benchmarks fits it. */
    public static final int DMA_SLOTS = 256;
    /** The channel: node 1 publishes to node 2 on INTR1, 256 slots of 128 bytes. */
    public static final ChannelSpec CHANNEL = new ChannelSpec("jmh", 1, 0x4000, 256, 128, EventType.INTR1, 2);

    private static final AtomicInteger NAMES = new AtomicInteger();

    private final String name;
    private final RfmDevice sender;
    private final RfmDevice receiver;

    /**
     * @param takesFrames whether node 2 takes the channel's event (and so its card moves the frames into its ring).
     */
    public BenchNetwork(final boolean takesFrames)
    {
        name = "jmh-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
        sender = RfmDevices.open("sim:" + name + "?node=1&size=1M");
        receiver = RfmDevices.open("sim:" + name + "?node=2&size=1M&dmaSlots=" + DMA_SLOTS + "&dmaSlotSize=128");
        if (takesFrames)
        {
            receiver.enableEvent(CHANNEL.event());
        }
    }

    /**
     * @return node 1's device, the publisher's.
     */
    public RfmDevice sender()
    {
        return sender;
    }

    /**
     * @return node 2's device, the receiver's.
     */
    public RfmDevice receiver()
    {
        return receiver;
    }

    @Override
    public void close()
    {
        receiver.close();
        sender.close();
        SimNetwork.destroy(name, true);
    }
}
