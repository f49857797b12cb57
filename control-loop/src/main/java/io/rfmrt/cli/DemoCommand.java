package io.rfmrt.cli;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.WaitStrategy;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.concurrent.SystemNanoClock;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
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

    @Option(names = "--out", defaultValue = "rfmrt-demo", paramLabel = "DIR",
        description = "Where the journal goes (default ./${DEFAULT-VALUE}).")
    Path outDir;

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
            java.nio.file.Files.createDirectories(outDir);
            final Process receiver = ChildJvm.builder("demo-peer", network, outDir.toAbsolutePath().toString())
                .inheritIO().start();
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
                (c.enabledMask() & EventType.INTR1.mask()) != 0 && (c.enabledMask() & EventType.INTR2.mask()) != 0);
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
     * The receiving node of the demo, in its own process: the runtime's receive path (ISR-wake thread on the
     * interrupt, consumer thread running the handler), a journal, a live line per second, a per-stage table at the
     * end.
     */
    @Command(name = "demo-peer", hidden = true)
    static final class Peer implements Callable<Integer>
    {
        @Parameters(index = "0")
        String network;

        @Parameters(index = "1")
        Path out;

        @Override
        public Integer call() throws Exception
        {
            final PrintWriter console = new PrintWriter(System.out, true);
            final Path journalDir = out.resolve("journal").resolve("node-2");
            final long[] badPayload = {0};
            try (RfmDevice device = RfmDevices.open("sim:" + network + "?node=2&dmaSlots=64&dmaSlotSize=128");
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, false, Path.of("/")),
                    warning -> System.err.println("receiver: " + warning));
                Journal journal = Journal.start(JournalConfig.of(journalDir, 2)))
            {
                device.enableEvent(EventType.INTR2);
                final ReceivePath path = new ReceivePath(device, List.of(CHANNEL), EventType.INTR1,
                    WaitStrategy.blocking(), (frame, stamps) ->
                    {
                        final long n = frame.buffer().getLong(frame.payloadOffset());
                        if (frame.buffer().getLong(frame.payloadOffset() + 8) != ~n || n != frame.seq())
                        {
                            badPayload[0]++;
                        }
                    }, journal.newWriter("isr"), journal.newWriter("consumer"), SystemNanoClock.INSTANCE);
                final int cpu = env.rtCpus().isEmpty() ? -1 : env.rtCpus().get(0);
                path.start(env, cpu, 80, cpu, 70);
                console.print(env.placementTable());
                console.flush();

                final EventInfo stop = new EventInfo();
                int second = 0;
                long sent = -1;
                long lastHandled = 0;
                while (sent < 0)
                {
                    if (device.awaitEvent(EventType.INTR2, TimeUnit.SECONDS.toNanos(1), stop) == RfmStatus.SUCCESS)
                    {
                        sent = stop.data() & 0xFFFF_FFFFL;
                        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                        while (path.counter(RuntimeCounter.FRAMES_HANDLED) + path.counter(FrameCounter.GAPS) < sent &&
                            System.nanoTime() < deadline)
                        {
                            Thread.sleep(1);
                        }
                    }
                    path.latencies().sample();
                    final Histogram e2e = path.latencies().interval(Stage.END_TO_END);
                    final long handled = path.counter(RuntimeCounter.FRAMES_HANDLED);
                    if (sent < 0 && handled > lastHandled)
                    {
                        second++;
                        console.printf("%4d s  frames %7d (+%d)  lost %d  torn %d  crc %d  e2e p50 %6.1f us  p99 %7.1f us" +
                            "  max %8.1f us%n", second, handled, handled - lastHandled,
                            path.counter(FrameCounter.GAPS), path.counter(FrameCounter.TORN),
                            path.counter(FrameCounter.CRC_ERRORS), e2e.getValueAtPercentile(50) / 1e3,
                            e2e.getValueAtPercentile(99) / 1e3, e2e.getMaxValue() / 1e3);
                        lastHandled = handled;
                    }
                }
                path.close();
                path.latencies().sample();
                final long received = path.counter(RuntimeCounter.FRAMES_HANDLED);
                console.printf("%nreceiver: %d of %d frames, lost %d, torn %d, crc %d, duplicate %d, stale %d, " +
                    "dma missing %d, bad payload %d%n", received, sent, sent - received,
                    path.counter(FrameCounter.TORN), path.counter(FrameCounter.CRC_ERRORS),
                    path.counter(FrameCounter.DUPLICATES), path.counter(FrameCounter.STALE),
                    path.counter(FrameCounter.DMA_MISSING), badPayload[0]);
                console.printf("%-10s %9s %9s %9s %9s %9s   (microseconds, %d frames)%n", "stage", "p50", "p90",
                    "p99", "p99.9", "max", path.latencies().cumulative(Stage.END_TO_END).getTotalCount());
                for (final Stage stage : Stage.values())
                {
                    final Map<String, Object> s = Histograms.summary(path.latencies().cumulative(stage));
                    console.printf("%-10s %9s %9s %9s %9s %9s%n", stage.label(), s.get("p50_us"), s.get("p90_us"),
                        s.get("p99_us"), s.get("p999_us"), s.get("max_us"));
                }
                journal.close();
                console.printf("journal: %s (%d records, %d dropped, %d write errors)%n", journalDir,
                    journal.stats().recordsWritten(), journal.stats().droppedRingFull(),
                    journal.stats().writeErrors());
                return received == sent && badPayload[0] == 0 ? Main.EXIT_OK : Main.EXIT_ERROR;
            }
        }
    }
}
