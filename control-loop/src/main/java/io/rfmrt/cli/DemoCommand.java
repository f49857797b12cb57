package io.rfmrt.cli;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
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
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code rfmrt demo}: a sender and a receiver node in two processes on a fresh emulated network. The sender
 * publishes frames at a fixed rate on an absolute schedule; the receiver sleeps in the kernel until each frame's
 * interrupt, takes the frame from its DMA buffer, validates it and records its latency.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Two processes exchange frames over the interrupt + DMA path of an emulated RFM network.")
final class DemoCommand implements Callable<Integer>
{
    static final ChannelSpec CHANNEL = new ChannelSpec("demo", 1, 0x10000, 64, 128, EventType.INTR1, 2);

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "10", description = "How long to run (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "1000", description = "Frames per second (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--size", defaultValue = "64", description = "Payload bytes, 16..96 (default ${DEFAULT-VALUE}).")
    int size;

    @Override
    public Integer call() throws Exception
    {
        if (seconds < 1 || rate < 1 || rate > 20_000 || size < 16 || size > CHANNEL.maxPayload())
        {
            throw new Main.UsageException("--seconds ≥ 1, --rate 1..20000 and --size 16.." + CHANNEL.maxPayload());
        }
        final PrintWriter out = spec.commandLine().getOut();
        final String network = "demo-" + ProcessHandle.current().pid();
        SimNetwork.create(network, 1 << 20).close();
        try
        {
            out.printf("rfmrt demo: node 1 publishes %d-byte frames at %d Hz for %d s to node 2 in another process%n",
                size, rate, seconds);
            out.printf("network %s, channel at 0x%x (%d slots x %d bytes), INTR1 + auto DMA%n", network,
                CHANNEL.offset(), CHANNEL.slots(), CHANNEL.slotSize());
            out.flush();
            final Process receiver = ChildJvm.builder("demo-peer", network).inheritIO().start();
            try (RfmDevice sender = RfmDevices.open("sim:" + network + "?node=1"))
            {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!receiverReady(network))
                {
                    if (System.nanoTime() > deadline || !receiver.isAlive())
                    {
                        throw new IllegalStateException("the receiver process did not come up");
                    }
                    Thread.sleep(10);
                }
                final long sent = publish(sender);
                sender.sendEvent(2, EventType.INTR2, (int)sent);
                if (!receiver.waitFor(30, TimeUnit.SECONDS))
                {
                    receiver.destroyForcibly();
                    throw new IllegalStateException("the receiver process did not finish");
                }
                out.printf("sender: %d frames published%n", sent);
                return receiver.exitValue() == 0 ? Main.EXIT_OK : Main.EXIT_ERROR;
            }
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
    }

    private static boolean receiverReady(final String network)
    {
        try (SimNetwork net = SimNetwork.attach(network))
        {
            return net.cards().stream().anyMatch(c -> c.node() == 2 && c.ownerAlive() &&
                (c.enabledMask() & EventType.INTR2.mask()) != 0);
        }
    }

    private long publish(final RfmDevice sender)
    {
        final FramePublisher publisher = new FramePublisher(sender, CHANNEL);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        final long period = TimeUnit.SECONDS.toNanos(1) / rate;
        final long total = (long)seconds * rate;
        long next = System.nanoTime() + period;
        for (long i = 1; i <= total; i++)
        {
            // absolute schedule: park to just before the deadline, spin the rest
            final long park = next - System.nanoTime() - 60_000;
            if (park > 0)
            {
                LockSupport.parkNanos(park);
            }
            while (System.nanoTime() < next)
            {
                Thread.onSpinWait();
            }
            next += period;
            payload.putLong(0, i);
            payload.putLong(8, ~i);
            publisher.publish(payload, 0, size, 0);
        }
        return total;
    }

    /**
     * The receiving node of the demo, in its own process.
     */
    @Command(name = "demo-peer", hidden = true)
    static final class Peer implements Callable<Integer>
    {
        @Parameters(index = "0")
        String network;

        @Override
        public Integer call()
        {
            final PrintWriter out = new PrintWriter(System.out, true);
            try (RfmDevice device = RfmDevices.open("sim:" + network + "?node=2&dmaSlots=64&dmaSlotSize=128"))
            {
                device.enableEvent(EventType.INTR1);
                device.enableEvent(EventType.INTR2);
                final FrameReceiver frames = new FrameReceiver(device, CHANNEL);
                final FrameView view = new FrameView();
                final DmaCompletion done = new DmaCompletion();
                final EventInfo event = new EventInfo();
                final Histogram total = Histograms.create();
                final Histogram interval = Histograms.create();
                long badPayload = 0;
                long sent = -1;
                long nextReport = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                int second = 0;
                while (sent < 0)
                {
                    final RfmStatus status = device.awaitEvent(EventType.INTR1, TimeUnit.MILLISECONDS.toNanos(100),
                        event);
                    if (status == RfmStatus.SUCCESS)
                    {
                        // one descriptor per event, in order; none when the ring was full on arrival
                        if (device.dma().takeCompleted(done))
                        {
                            if (frames.receiveCompleted(done, view) == FrameStatus.OK)
                            {
                                final long latency = System.nanoTime() - view.sendNanos();
                                Histograms.record(total, latency);
                                Histograms.record(interval, latency);
                                final long n = view.buffer().getLong(view.payloadOffset());
                                if (view.buffer().getLong(view.payloadOffset() + 8) != ~n || n != view.seq())
                                {
                                    badPayload++;
                                }
                            }
                            device.dma().release(done);
                        }
                        else
                        {
                            frames.countDmaMissing();
                        }
                    }
                    else if (device.awaitEvent(EventType.INTR2, RfmDevice.NO_WAIT, event) == RfmStatus.SUCCESS)
                    {
                        sent = event.data() & 0xFFFF_FFFFL;
                    }
                    final long now = System.nanoTime();
                    if (now >= nextReport && interval.getTotalCount() > 0)
                    {
                        second++;
                        final Map<String, Object> s = Histograms.summary(interval);
                        out.printf("%4d s  frames %8d  lost %d  torn %d  crc %d  latency p50 %6.1f us  p99 %7.1f us" +
                            "  max %8.1f us%n", second, frames.counter(FrameCounter.FRAMES),
                            frames.counter(FrameCounter.GAPS), frames.counter(FrameCounter.TORN),
                            frames.counter(FrameCounter.CRC_ERRORS), s.get("p50_us"), s.get("p99_us"), s.get("max_us"));
                        interval.reset();
                        nextReport += TimeUnit.SECONDS.toNanos(1);
                    }
                }
                final long received = frames.counter(FrameCounter.FRAMES);
                final Map<String, Object> s = Histograms.summary(total);
                out.printf("receiver: %d of %d frames, lost %d, torn %d, crc %d, duplicate %d, stale %d, dma missing %d," +
                    " bad payload %d%n", received, sent, sent - received, frames.counter(FrameCounter.TORN),
                    frames.counter(FrameCounter.CRC_ERRORS), frames.counter(FrameCounter.DUPLICATES),
                    frames.counter(FrameCounter.STALE), frames.counter(FrameCounter.DMA_MISSING), badPayload);
                out.printf("latency publish -> validated in the receiver (us): p50 %s  p90 %s  p99 %s  p99.9 %s  " +
                    "max %s%n", s.get("p50_us"), s.get("p90_us"), s.get("p99_us"), s.get("p999_us"), s.get("max_us"));
                return received == sent && badPayload == 0 ? Main.EXIT_OK : Main.EXIT_ERROR;
            }
        }
    }
}
