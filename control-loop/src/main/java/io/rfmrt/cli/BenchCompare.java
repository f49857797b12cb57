package io.rfmrt.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
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
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code rfmrt bench compare}: the same traffic, a sender process and a receiver process on a fresh emulated
 * network, through each receive mode in turn — interrupt (blocking consumer), the same with the journal on,
 * spin-then-block, busy-spin, and the article's polling baseline at 1 kHz and 10 kHz — and the machine's wake
 * floor by cyclictest, all in one run.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "Interrupt vs spin vs polling receive, side by side, with the cyclictest floor.")
final class BenchCompare implements Callable<Integer>
{
    static final ChannelSpec CHANNEL = new ChannelSpec("bench", 1, 0x10000, 64, 256, EventType.INTR1, 2);
    static final int START_OFFSET = 0x100;
    static final int TOTAL_OFFSET = 0x108;

    /**
     * The modes, in the order they run: name, wait strategy, journal, consumer priority (SCHED_FIFO).
     */
    static final String[][] MODES = {
        {"interrupt", "BLOCKING", "off", "70"},
        {"interrupt-journal", "BLOCKING", "on", "70"},
        {"spin-then-block", "SPIN_THEN_BLOCK(50000)", "off", "70"},
        {"busy-spin", "BUSY_SPIN", "off", "70"},
        {"poll-1khz", "POLLING(1000000)", "off", "70"},
        {"poll-10khz", "POLLING(100000)", "off", "70"}};

    /** Each mode runs --seconds after one second of warm-up, which is left out of the latency and CPU figures. */
    static final String WARMUP_NOTE = "each after 1 s of warm-up, left out of latency and CPU";

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "5", description = "Seconds per mode (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "1000", description = "Frames per second (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--size", defaultValue = "64", description = "Payload bytes (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--modes", split = ",", paramLabel = "MODE",
        description = "Modes to run (default: all): interrupt, interrupt-journal, spin-then-block, busy-spin, " +
            "poll-1khz, poll-10khz.")
    List<String> only;

    @Override
    public Integer call() throws Exception
    {
        if (seconds < 1 || seconds > 600 || rate < 1 || rate > 50_000 || size < 8 || size > CHANNEL.maxPayload())
        {
            throw new Main.UsageException("--seconds 1..600, --rate 1..50000, --size 8.." + CHANNEL.maxPayload());
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (only != null)
        {
            for (final String name : only)
            {
                if (java.util.Arrays.stream(MODES).noneMatch(m -> m[0].equals(name)))
                {
                    throw new Main.UsageException("--modes: unknown mode '" + name + "'");
                }
            }
        }
        final List<Map<String, Object>> modes = new ArrayList<>();
        for (final String[] mode : MODES)
        {
            if (only != null && !only.contains(mode[0]))
            {
                continue;
            }
            if (!json)
            {
                out.printf("running %s for %d s ...%n", mode[0], seconds);
                out.flush();
            }
            modes.add(runMode(mode[0], mode[1], "on".equals(mode[2]), Integer.parseInt(mode[3])));
        }
        final Map<String, Object> floor = new LinkedHashMap<>();
        floor.put("tool", "cyclictest");
        if (!json)
        {
            out.printf("running cyclictest for %d s ...%n", seconds);
            out.flush();
        }
        final Histogram cyclic = Cyclictest.result(Cyclictest.start(seconds));
        floor.put("samples", cyclic.getTotalCount());
        floor.put("p50_us", Histograms.micros(cyclic.getValueAtPercentile(50)));
        floor.put("p99_us", Histograms.micros(cyclic.getValueAtPercentile(99)));
        floor.put("max_us", Histograms.micros(cyclic.getMaxValue()));

        final Map<String, Object> result = new LinkedHashMap<>();
        result.put("machine", MachineInfo.describe());
        result.put("date", ZonedDateTime.now().toString());
        result.put("seconds", seconds);
        result.put("rate_hz", rate);
        result.put("size_bytes", size);
        result.put("note", WARMUP_NOTE);
        result.put("modes", modes);
        result.put("floor", floor);
        if (json)
        {
            out.println(new ObjectMapper().writeValueAsString(result));
            return Main.EXIT_OK;
        }
        out.printf("%n%d-byte frames at %d Hz, %d s per mode (%s); latency publish -> handler end (us)%n", size,
            rate, seconds, WARMUP_NOTE);
        out.printf("%-18s %7s %5s %8s %8s %8s %8s %9s %6s   stages p50: transfer isr handoff handler%n", "mode",
            "frames", "lost", "p50", "p90", "p99", "p99.9", "max", "cpu%");
        for (final Map<String, Object> m : modes)
        {
            @SuppressWarnings("unchecked")
            final Map<String, Object> stages = (Map<String, Object>)m.get("stages_p50_us");
            out.printf("%-18s %7s %5s %8s %8s %8s %8s %9s %6s   %s %s %s %s%n", m.get("mode"), m.get("frames"),
                m.get("lost"), m.get("p50_us"), m.get("p90_us"), m.get("p99_us"), m.get("p999_us"), m.get("max_us"),
                m.get("cpu_pct"), stages.get("transfer"), stages.get("isr"), stages.get("handoff"),
                stages.get("handler"));
        }
        out.printf("%-18s %7s %5s %8s %8s %8s %8s %9s%n", "floor (cyclictest)", floor.get("samples"), "-",
            floor.get("p50_us"), "-", floor.get("p99_us"), "-", floor.get("max_us"));
        return Main.EXIT_OK;
    }

    private Map<String, Object> runMode(final String mode, final String wait, final boolean journal,
        final int consumerPriority) throws Exception
    {
        final String network = "bench-" + ProcessHandle.current().pid() + "-" + mode;
        SimNetwork.create(network, 1 << 20).close();
        try
        {
            final Process receiver = ChildJvm.start("bench-receiver", network, mode, wait, Boolean.toString(journal),
                Integer.toString(consumerPriority), Integer.toString(rate));
            final BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                StandardCharsets.UTF_8));
            final String ready = lines.readLine();
            if (!"ready".equals(ready))
            {
                receiver.destroyForcibly();
                throw new IllegalStateException(mode + ": the receiver process said '" + ready + "'");
            }
            final long[] total = new long[1];
            try (RfmDevice sender = RfmDevices.open("sim:" + network + "?node=1");
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")),
                    warning -> { }))
            {
                // the sender stands for another machine: its own thread, SCHED_FIFO 60, on the housekeeping core
                env.start("rfmrt-bench-sender", env.housekeepingCpu(), 60, () -> total[0] = send(sender)).join(
                    TimeUnit.SECONDS.toMillis(seconds + 60L));
            }
            final String line = lines.readLine();
            if (!receiver.waitFor(60, TimeUnit.SECONDS) || line == null || !line.startsWith("result "))
            {
                receiver.destroyForcibly();
                throw new IllegalStateException(mode + ": the receiver process gave no result");
            }
            final JsonNode r = new ObjectMapper().readTree(line.substring("result ".length()));
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("mode", mode);
            m.put("wait", wait);
            m.put("journal", journal);
            m.put("sent", total[0]);
            m.put("frames", r.get("frames").asLong());
            m.put("lost", total[0] - r.get("frames").asLong());
            for (final String key : List.of("p50_us", "p90_us", "p99_us", "p999_us", "max_us", "cpu_pct"))
            {
                m.put(key, r.get(key).asDouble());
            }
            for (final String key : List.of("gaps", "torn", "dma_missing", "fifo_overflows", "dma_dropped"))
            {
                m.put(key, r.get(key).asLong());
            }
            m.put("stages_p50_us", new ObjectMapper().convertValue(r.get("stages_p50_us"), Map.class));
            return m;
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
    }

    private long send(final RfmDevice sender)
    {
        final FramePublisher publisher = new FramePublisher(sender, CHANNEL);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        final long period = TimeUnit.SECONDS.toNanos(1) / rate;
        final long total = (long)(seconds + 1) * rate;
        long next = System.nanoTime() + period;
        sender.window().putLongRelease(START_OFFSET, System.nanoTime());
        for (long i = 1; i <= total; i++)
        {
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
            publisher.publish(payload, 0, size, 0);
        }
        sender.window().putLongRelease(TOTAL_OFFSET, total);
        return total;
    }

    /**
     * The receiving process of one mode.
     */
    @Command(name = "bench-receiver", hidden = true)
    static final class Receiver implements Callable<Integer>
    {
        @Parameters(index = "0")
        String network;

        @Parameters(index = "1")
        String mode;

        @Parameters(index = "2")
        String wait;

        @Parameters(index = "3")
        boolean journalOn;

        @Parameters(index = "4")
        int consumerPriority;

        @Parameters(index = "5")
        int warmupFrames;

        @Override
        public Integer call() throws Exception
        {
            final WaitStrategy strategy = WaitStrategy.parse(wait);
            final String dma = strategy.kind() == WaitStrategy.Kind.POLLING ? "on-demand" : "auto";
            final Path journalDir = journalOn ? Files.createTempDirectory("rfmrt-bench-journal") : null;
            try (RfmDevice device = RfmDevices.open("sim:" + network + "?node=2&dmaSlots=64&dmaSlotSize=256&dma=" +
                dma);
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, true, Path.of("/")),
                    warning -> System.err.println("bench-receiver: " + warning));
                Journal journal = journalOn ? Journal.start(JournalConfig.of(journalDir, 2)) : null)
            {
                final long[] sum = {0};
                final ReceivePath path = new ReceivePath(device, List.of(CHANNEL), EventType.INTR1, strategy,
                    (frame, stamps) -> sum[0] += frame.buffer().getLong(frame.payloadOffset()),
                    journal == null ? null : journal.newWriter("isr"),
                    journal == null ? null : journal.newWriter("consumer"), SystemNanoClock.INSTANCE);
                final int cpu = env.rtCpus().isEmpty() ? -1 : env.rtCpus().get(0);
                path.start(env, cpu, 80, cpu, consumerPriority);
                System.out.println("ready");
                System.out.flush();

                final com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
                // this thread only watches the markers: 10 ms naps keep its own CPU use out of the figures
                while (path.counter(RuntimeCounter.FRAMES_HANDLED) + path.counter(FrameCounter.GAPS) < warmupFrames &&
                    device.window().getLongAcquire(TOTAL_OFFSET) == 0)
                {
                    Thread.sleep(10);
                }
                path.latencies().discard();
                final long cpu0 = os.getProcessCpuTime();
                final long wall0 = System.nanoTime();
                long total;
                while ((total = device.window().getLongAcquire(TOTAL_OFFSET)) == 0)
                {
                    Thread.sleep(10);
                }
                final long cpu1 = os.getProcessCpuTime();
                final long wall1 = System.nanoTime();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                while (path.counter(RuntimeCounter.FRAMES_HANDLED) < total && System.nanoTime() < deadline)
                {
                    Thread.sleep(1);
                }
                path.close();
                path.latencies().sample();

                final Map<String, Object> r = new LinkedHashMap<>();
                r.put("frames", path.counter(RuntimeCounter.FRAMES_HANDLED));
                r.putAll(Histograms.summary(path.latencies().cumulative(Stage.END_TO_END)));
                r.put("cpu_pct", Math.round(1000.0 * (cpu1 - cpu0) / Math.max(1, wall1 - wall0)) / 10.0);
                r.put("gaps", path.counter(FrameCounter.GAPS));
                r.put("torn", path.counter(FrameCounter.TORN));
                r.put("dma_missing", path.counter(FrameCounter.DMA_MISSING));
                long overflows = 0;
                for (final EventType type : EventType.values())
                {
                    overflows += device.counter(io.rfmrt.rfm.RfmCounter.FIFO_OVERFLOWS, type);
                }
                r.put("fifo_overflows", overflows);
                r.put("dma_dropped", device.counter(io.rfmrt.rfm.RfmCounter.DMA_DROPPED, null));
                final Map<String, Object> stages = new LinkedHashMap<>();
                for (final Stage stage : Stage.values())
                {
                    stages.put(stage.label(),
                        Histograms.micros(path.latencies().cumulative(stage).getValueAtPercentile(50)));
                }
                r.put("stages_p50_us", stages);
                if (journal != null)
                {
                    r.put("journal_records", journal.stats().recordsWritten());
                }
                System.out.println("result " + new ObjectMapper().writeValueAsString(r));
                System.out.flush();
            }
            finally
            {
                if (journalDir != null)
                {
                    try (java.util.stream.Stream<Path> files = Files.walk(journalDir))
                    {
                        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                    }
                }
            }
            return Main.EXIT_OK;
        }
    }
}
