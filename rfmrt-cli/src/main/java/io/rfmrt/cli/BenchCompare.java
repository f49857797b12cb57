package io.rfmrt.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.ReceiveWarmUp;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.ThreadNotStoppedException;
import io.rfmrt.runtime.WaitStrategy;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import io.rfmrt.runtime.threads.ThreadStats;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code rfmrt bench compare}: the same traffic, a sender process and a receiver process on a fresh emulated
 * network, through each receive mode in turn — interrupt (blocking consumer), interrupt with the handler inline on
 * the ISR-wake thread, interrupt with the journal on, spin-then-block, busy-spin, and the article's polling baseline
 * at 1 kHz and 10 kHz — and, measured in the same run, the machine's timer floor (cyclictest) and one-hop wake floor
 * (a plain cross-process futex wake). A receiver whose thread died makes the run fail (exit 1, the mode named).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "Interrupt vs inline vs spin vs polling receive, side by side, with the timer and wake floors.")
final class BenchCompare implements Callable<Integer>
{
    /** Each mode runs --seconds after one second of warm-up, which is left out of the latency and CPU figures. */
    static final String WARMUP_NOTE = "each after 1 s of warm-up, left out of latency and CPU";
    /** What the CPU figure is. */
    static final String CPU_NOTE = "cpu% = receiver process CPU time / wall time of the measured part, " +
        "percent of one core";

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "5", description = "Seconds per mode (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "1000", description = "Frames per second, 1..1000000 " +
        "(default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--size", defaultValue = "64", description = "Payload bytes (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--sender", defaultValue = BenchRun.UNIFORM_JITTER, paramLabel = "KIND",
        description = "uniform-jitter (default: each send time moved by a uniform random offset within half a " +
            "period either way) or fixed-period (exact multiples of the period).")
    String sender;

    @Option(names = "--modes", split = ",", paramLabel = "MODE",
        description = "Modes to run (default: all): interrupt, interrupt-inline, interrupt-journal, " +
            "spin-then-block, busy-spin, poll-1khz, poll-10khz.")
    List<String> only;

    @Override
    public Integer call() throws Exception
    {
        if (seconds < 1 || seconds > 600 || rate < 1 || rate > 1_000_000 || size < 8 ||
            size > BenchRun.CHANNEL.maxPayload())
        {
            throw new Main.UsageException("--seconds 1..600, --rate 1..1000000, --size 8.." +
                BenchRun.CHANNEL.maxPayload());
        }
        checkSender(sender);
        final PrintWriter out = spec.commandLine().getOut();
        if (only != null)
        {
            BenchRun.checkModes(only);
        }
        final List<Map<String, Object>> modes = new ArrayList<>();
        for (final String[] mode : BenchRun.MODES)
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
            modes.add(BenchRun.run(mode, BenchRun.Traffic.steady(sender, rate, seconds, size)));
        }
        if (!json)
        {
            out.printf("measuring the floors (cyclictest %d s, futex wake) ...%n", seconds);
            out.flush();
        }
        final Map<String, Object> floors = BenchRun.floors(seconds);

        final Map<String, Object> result = new LinkedHashMap<>();
        result.put("machine", MachineInfo.describe());
        result.put("date", ZonedDateTime.now().toString());
        result.put("seconds", seconds);
        result.put("rate_hz", rate);
        result.put("size_bytes", size);
        result.put("sender", sender);
        result.put("note", WARMUP_NOTE + "; " + CPU_NOTE);
        result.put("modes", modes);
        result.put("floors", floors);
        final int exit = failures(modes, spec.commandLine().getErr());
        if (json)
        {
            out.println(new ObjectMapper().writeValueAsString(result));
            return exit;
        }
        out.printf("%n%d-byte frames at %d Hz, %s sender, %d s per mode (%s); latency publish -> handler end (us)%n",
            size, rate, sender, seconds, WARMUP_NOTE);
        table(out, modes, floors);
        out.println(CPU_NOTE);
        return exit;
    }

    static void checkSender(final String sender)
    {
        if (!BenchRun.UNIFORM_JITTER.equals(sender) && !BenchRun.FIXED_PERIOD.equals(sender))
        {
            throw new Main.UsageException("--sender '" + sender + "' is not uniform-jitter or fixed-period");
        }
    }

    /**
     * @return exit code: 1 when a mode's receiver failed, each one named on {@code err}.
     */
    static int failures(final List<Map<String, Object>> modes, final PrintWriter err)
    {
        int exit = Main.EXIT_OK;
        for (final Map<String, Object> m : modes)
        {
            if (m.get("failure") != null)
            {
                err.println("rfmrt bench: mode " + m.get("mode") + " failed: " + m.get("failure"));
                exit = Main.EXIT_ERROR;
            }
        }
        err.flush();
        return exit;
    }

    static void table(final PrintWriter out, final List<Map<String, Object>> modes, final Map<String, Object> floors)
    {
        @SuppressWarnings("unchecked")
        final Map<String, Object> wake = (Map<String, Object>)floors.get("wake");
        @SuppressWarnings("unchecked")
        final Map<String, Object> timer = (Map<String, Object>)floors.get("timer");
        final double wakeP50 = ((Number)wake.get("p50_us")).doubleValue();
        out.printf("%-18s %8s %6s %8s %8s %8s %8s %8s %9s %6s %6s   stages p50: transfer isr handoff handler%n",
            "mode", "frames", "lost", "mean", "p50", "p90", "p99", "p99.9", "max", "cpu%", "p50/w");
        for (final Map<String, Object> m : modes)
        {
            if (m.get("failure") != null)
            {
                out.printf("%-18s FAILED: %s%n", m.get("mode"), m.get("failure"));
                continue;
            }
            @SuppressWarnings("unchecked")
            final Map<String, Object> stages = (Map<String, Object>)m.get("stages_p50_us");
            out.printf("%-18s %8s %6s %8s %8s %8s %8s %8s %9s %6s %6.2f   %s %s %s %s%n", m.get("mode"),
                m.get("frames"), m.get("lost"), m.get("mean_us"), m.get("p50_us"), m.get("p90_us"), m.get("p99_us"),
                m.get("p999_us"), m.get("max_us"), m.get("cpu_pct"),
                ((Number)m.get("p50_us")).doubleValue() / Math.max(0.1, wakeP50), stages.get("transfer"),
                stages.get("isr"), stages.get("handoff"), stages.get("handler"));
        }
        out.printf("%-18s %8s %6s %8s %8s %8s %8s %8s %9s%n", "floor: timer", timer.get("count"), "-",
            timer.get("mean_us"), timer.get("p50_us"), timer.get("p90_us"), timer.get("p99_us"), timer.get("p999_us"),
            timer.get("max_us"));
        out.printf("%-18s %8s %6s %8s %8s %8s %8s %8s %9s%n", "floor: futex wake", wake.get("count"), "-",
            wake.get("mean_us"), wake.get("p50_us"), wake.get("p90_us"), wake.get("p99_us"), wake.get("p999_us"),
            wake.get("max_us"));
        out.println("p50/w = the mode's p50 over the one-hop wake floor's p50; lost frames by cause in --json " +
            "(gaps, torn, dma_dropped, fifo_overflows); RT thread faults and preemptions after warm-up in --json");
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
        String journalOn;

        @Parameters(index = "4")
        int consumerPriority;

        @Parameters(index = "5")
        long warmupFrames;

        @Override
        public Integer call() throws Exception
        {
            ChildJvm.haltWhenParentGone("bench-receiver");
            final WaitStrategy strategy = WaitStrategy.parse(wait);
            final boolean withJournal = "on".equals(journalOn);
            final String dma = strategy.kind() == WaitStrategy.Kind.POLLING ? "on-demand" : "auto";
            final Path journalDir = withJournal ? Files.createTempDirectory("rfmrt-bench-journal") : null;
            try (RfmDevice device = RfmDevices.open("sim:" + network + "?node=2&dmaSlots=" + BenchRun.DMA_SLOTS +
                "&dmaSlotSize=256&dma=" + dma);
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, true, Path.of("/")),
                    warning -> System.err.println("bench-receiver: " + warning));
                Journal journal = withJournal ? Journal.start(JournalConfig.of(journalDir, 2)) : null)
            {
                final long[] sum = {0};
                final FrameHandler handler = (frame, stamps) -> sum[0] += frame.buffer().getLong(frame.payloadOffset());
                final ReceivePath path = new ReceivePath(device, List.of(BenchRun.CHANNEL), EventType.INTR1, strategy,
                    handler,
                    journal == null ? null : journal.newWriter("isr"),
                    journal == null ? null : journal.newWriter("consumer"), SystemNanoClock.INSTANCE);
                final int cpu = env.rtCpus().isEmpty() ? -1 : env.rtCpus().get(0);
                ReceiveWarmUp.warmUp(device, List.of(BenchRun.CHANNEL), EventType.INTR1, strategy,
                    ReceiveWarmUp.WARMUP_FRAMES_DEFAULT, handler);
                path.start(env, cpu, 80, cpu, consumerPriority);
                System.out.println("ready");
                System.out.flush();

                final com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
                // this thread only watches the markers: 10 ms naps keep its own CPU use out of the figures
                while (path.counter(RuntimeCounter.FRAMES_HANDLED) + path.counter(FrameCounter.GAPS) < warmupFrames &&
                    device.window().getLongAcquire(BenchRun.TOTAL_OFFSET) == 0 && !path.errors().failed())
                {
                    Thread.sleep(10);
                }
                path.latencies().discard();
                final long warmGaps = path.counter(FrameCounter.GAPS);
                final long warmDropped = device.counter(io.rfmrt.rfm.RfmCounter.DMA_DROPPED, null);
                final List<ThreadStats> warm = path.threadStats();
                final long cpu0 = os.getProcessCpuTime();
                final long wall0 = System.nanoTime();
                long total;
                while ((total = device.window().getLongAcquire(BenchRun.TOTAL_OFFSET)) == 0 && !path.errors().failed())
                {
                    Thread.sleep(10);
                }
                final long cpu1 = os.getProcessCpuTime();
                final long wall1 = System.nanoTime();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (path.counter(RuntimeCounter.FRAMES_HANDLED) + path.counter(FrameCounter.GAPS) < total &&
                    System.nanoTime() < deadline && !path.errors().failed())
                {
                    Thread.sleep(1);
                }
                final List<ThreadStats> end = path.threadStats();
                final List<RtThread> threads = path.threads();
                try
                {
                    path.close();
                }
                catch (final ThreadNotStoppedException ex)
                {
                    // the thread still runs over the device's memory: end the process with it mapped (closing the
                    // device would unmap it under the thread and crash the JVM)
                    System.err.println("bench-receiver: " + ex.getMessage());
                    System.err.flush();
                    Runtime.getRuntime().halt(Main.EXIT_ERROR);
                }
                path.latencies().sample();

                final Map<String, Object> r = new LinkedHashMap<>();
                r.put("frames", path.counter(RuntimeCounter.FRAMES_HANDLED));
                final Histogram e2e = path.latencies().cumulative(Stage.END_TO_END);
                r.put("mean_us", Math.round(e2e.getMean() / 100.0) / 10.0);
                r.putAll(Histograms.summary(e2e));
                r.put("histogram", Histograms.encode(e2e));
                final String failure = path.failure();
                // a dead receiver or a window too short to time has no CPU figure: the run is invalid, not 0 %
                final long wall = wall1 - wall0;
                r.put("cpu_pct", failure != null || wall < TimeUnit.MILLISECONDS.toNanos(100) ? null :
                    Math.round(1000.0 * (cpu1 - cpu0) / wall) / 10.0);
                r.put("failure", failure);
                r.put("gaps", path.counter(FrameCounter.GAPS));
                r.put("gaps_in_warmup", warmGaps);
                r.put("dma_dropped_in_warmup", warmDropped);
                r.put("torn", path.counter(FrameCounter.TORN));
                r.put("dma_missing", path.counter(FrameCounter.DMA_MISSING));
                long overflows = 0;
                for (final EventType type : EventType.values())
                {
                    overflows += device.counter(io.rfmrt.rfm.RfmCounter.FIFO_OVERFLOWS, type);
                }
                r.put("fifo_overflows", overflows);
                r.put("dma_dropped", device.counter(io.rfmrt.rfm.RfmCounter.DMA_DROPPED, null));
                r.put("handoff_full", path.counter(RuntimeCounter.HANDOFF_FULL));
                r.put("events", path.counter(RuntimeCounter.EVENTS));
                r.put("empty_wakes", path.counter(RuntimeCounter.EMPTY_WAKES));
                r.put("bounded_drains", path.counter(RuntimeCounter.DRAIN_BOUND));
                r.put("errors", path.counter(RuntimeCounter.ERRORS));
                final Map<String, Object> stages = new LinkedHashMap<>();
                for (final Stage stage : Stage.values())
                {
                    stages.put(stage.label(),
                        Histograms.micros(path.latencies().cumulative(stage).getValueAtPercentile(50)));
                }
                r.put("stages_p50_us", stages);
                final List<Map<String, Object>> hygiene = new ArrayList<>();
                for (int i = 0; i < threads.size(); i++)
                {
                    final ThreadStats delta = end.get(i).minus(warm.get(i));
                    final Map<String, Object> t = new LinkedHashMap<>();
                    t.put("thread", threads.get(i).placement().thread());
                    t.put("minor_faults", delta.minorFaults());
                    t.put("involuntary_switches", delta.involuntarySwitches());
                    hygiene.add(t);
                }
                r.put("threads", hygiene);
                if (journal != null)
                {
                    r.put("journal_records", journal.stats().recordsWritten());
                }
                ChildResult.write(System.out, r);
                if (failure != null)
                {
                    System.err.println("bench-receiver: " + failure);
                    return Main.EXIT_ERROR;
                }
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
