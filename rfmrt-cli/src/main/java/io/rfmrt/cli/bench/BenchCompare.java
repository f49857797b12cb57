package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.Renamed;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.ReceiveWarmUp;
import io.rfmrt.runtime.RtErrorPolicy;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.ThreadNotStoppedException;
import io.rfmrt.runtime.WaitStrategy;
import io.rfmrt.runtime.counters.NodeCounters;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
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
    description = "Interrupt vs inline vs spin vs polling receive, side by side, with the timer and wake floors.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class BenchCompare implements Callable<Integer>
{
    /** Each mode runs --seconds after one second of warm-up, which is left out of the latency and CPU figures. */
    static final String WARMUP_NOTE = "each after 1 s of warm-up, left out of latency and CPU";
    /** What the CPU figure is. */
    static final String CPU_NOTE = "cpu% = receiver process CPU time / wall time of the measured part, " +
        "percent of one core";

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "5", paramLabel = "S",
        description = "Seconds per mode (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "1000", paramLabel = "HZ", description = "Frames per second, " +
        "1..1000000 (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--size", defaultValue = "64", paramLabel = "BYTES",
        description = "Payload bytes (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--sender", defaultValue = BenchRun.UNIFORM_JITTER, paramLabel = "KIND",
        description = "uniform-jitter (default: each send time moved by a uniform random offset within half a " +
            "period either way) or fixed-period (exact multiples of the period).")
    String sender;

    @Option(names = "--rows", split = ",", paramLabel = "NAME",
        description = "Rows (receive modes) to run (default: all): interrupt, interrupt-inline, interrupt-journal, " +
            "spin-then-block, busy-spin, poll-1khz, poll-10khz.")
    List<String> rows;

    @Option(names = "--modes", split = ",", hidden = true, description = "The old name of --rows.")
    List<String> oldModes;

    @Override
    public Integer call() throws Exception
    {
        if (seconds < 1 || seconds > 600 || rate < 1 || rate > 1_000_000 || size < 8 ||
            size > BenchRun.CHANNEL.maxPayload())
        {
            throw new UsageException("--seconds 1..600, --rate 1..1000000, --size 8.." +
                BenchRun.CHANNEL.maxPayload());
        }
        checkSender(sender);
        final PrintWriter out = spec.commandLine().getOut();
        final List<String> only = Renamed.pick(spec, "--modes", oldModes, rows);
        if (only != null)
        {
            BenchRun.checkModes(only);
        }
        final List<BenchRun.ModeRun> modes = new ArrayList<>();
        final List<String[]> selected = Arrays.stream(BenchRun.MODES)
            .filter(mode -> only == null || only.contains(mode[0])).toList();
        final Progress progress = Progress.steps(spec.commandLine().getErr(), selected.size() + 1,
            seconds + BenchRun.STEP_OVERHEAD_SECONDS);
        for (final String[] mode : selected)
        {
            progress.step(String.format("running %s for %d s ...", mode[0], seconds));
            modes.add(BenchRun.run(mode, BenchRun.Traffic.steady(sender, rate, seconds, size)));
        }
        progress.step(String.format("measuring the floors (cyclictest %d s, futex wake) ...", seconds));
        final BenchRun.Floors floors = BenchRun.floors(seconds);
        progress.finish();

        final Result result = new Result(MachineInfo.describe(), ZonedDateTime.now().toString(), seconds, rate, size,
            sender, WARMUP_NOTE + "; " + CPU_NOTE, modes, floors);
        final int exit = failures(modes, spec.commandLine().getErr());
        if (json)
        {
            out.println(ChildResult.json(result));
            return exit;
        }
        out.printf("%n%d-byte frames at %d Hz, %s sender, %d s per mode (%s); latency publish -> handler end (us)%n",
            size, rate, sender, seconds, WARMUP_NOTE);
        table(out, modes, floors);
        out.println(CPU_NOTE);
        for (final BenchRun.ModeRun m : modes)
        {
            lostLine(out, m.mode(), m);
            senderLine(out, m.mode(), m);
        }
        return exit;
    }

    /**
     * For a row that lost frames: its losses by cause ({@link BenchHosts#lossLine}) and the numbers the receiver saw
     * skipped, and when, or that it saw none skipped (every frame lost came after the last one it handled); nothing
     * for another row or a failed one.
     *
     * @param out where to print.
     * @param row the row's name as the line says it.
     * @param m   its run.
     */
    static void lostLine(final PrintWriter out, final String row, final BenchRun.ModeRun m)
    {
        if (m.failure() != null || m.figures() == null || m.figures().lost() <= 0)
        {
            return;
        }
        final SequenceSkips.Figures skips = m.counts().skips();
        final String skipped = skips == null ? "" : skips.line().isEmpty() ?
            "; none missing by number: every frame lost came after the last one handled" : "; missing " + skips.line();
        out.printf("lost by %s: %s%s%n", row, BenchHosts.lossLine(m.figures().lost(), m.counts().lossCauses()),
            skipped);
    }

    /**
     * For a row of a steady sender: how far the sender fell behind its send times ({@link SenderHoldUps}).
     *
     * @param out where to print.
     * @param row the row's name as the line says it.
     * @param m   its run.
     */
    static void senderLine(final PrintWriter out, final String row, final BenchRun.ModeRun m)
    {
        if (m.holdUps() != null)
        {
            out.printf("sender for %s: %s%n", row, m.holdUps().line());
        }
    }

    /**
     * What {@code bench compare --json} prints.
     *
     * @param machine   the machine it ran on.
     * @param date      when.
     * @param seconds   each mode's length.
     * @param rateHz    frames per second.
     * @param sizeBytes the frames' payload.
     * @param sender    the sender's pacing.
     * @param note      how the figures are taken.
     * @param modes     each mode's run.
     * @param floors    the timer and one-hop wake floors.
     */
    record Result(MachineInfo machine, String date, int seconds, int rateHz, int sizeBytes, String sender, String note,
        List<BenchRun.ModeRun> modes, BenchRun.Floors floors)
    {
    }

    static void checkSender(final String sender)
    {
        if (!BenchRun.UNIFORM_JITTER.equals(sender) && !BenchRun.FIXED_PERIOD.equals(sender))
        {
            throw new UsageException("--sender '" + sender + "' is not uniform-jitter or fixed-period");
        }
    }

    /**
     * @return exit code: 1 when a mode's receiver failed, each one named on {@code err}.
     */
    static int failures(final List<BenchRun.ModeRun> modes, final PrintWriter err)
    {
        int exit = ExitCodes.OK;
        for (final BenchRun.ModeRun m : modes)
        {
            if (m.failure() != null)
            {
                err.println("rfmrt bench: mode " + m.mode() + " failed: " + m.failure());
                exit = ExitCodes.ERROR;
            }
        }
        err.flush();
        return exit;
    }

    static void table(final PrintWriter out, final List<BenchRun.ModeRun> modes, final BenchRun.Floors floors)
    {
        final double wakeP50 = floors.wake().percentiles().p50Us();
        out.printf("%-18s %8s %6s %8s %8s %8s %8s %8s %9s %6s %6s   stages p50: transfer isr handoff handler%n",
            "mode", "frames", "lost", "mean", "p50", "p90", "p99", "p99.9", "max", "cpu%", "p50/w");
        for (final BenchRun.ModeRun m : modes)
        {
            if (m.failure() != null)
            {
                out.printf("%-18s FAILED: %s%n", m.mode(), m.failure());
                continue;
            }
            final BenchRun.ReceiverFigures f = m.figures();
            final Map<String, Double> stages = m.counts().stagesP50Us();
            out.printf("%-18s %8s %6s %8s %8s %8s %8s %8s %9s %6s %6.2f   %s %s %s %s%n", m.mode(), f.frames(),
                f.lost(), f.meanUs(), f.p50Us(), f.p90Us(), f.p99Us(), f.p999Us(), f.maxUs(),
                f.cpuPct() == null ? "-" : f.cpuPct(), f.p50Us() / Math.max(0.1, wakeP50), stages.get("transfer"),
                stages.get("isr"), stages.get("handoff"), stages.get("handler"));
        }
        for (final BenchRun.ModeRun m : modes)
        {
            if (m.cpuUntimed() != null)
            {
                out.printf("no cpu%% for %s: %s%n", m.mode(), m.cpuUntimed());
            }
        }
        floorRow(out, "floor: timer", floors.timer());
        floorRow(out, "floor: futex wake", floors.wake());
        out.println("p50/w = the mode's p50 over the one-hop wake floor's p50; lost frames by cause in --json " +
            "(gaps, torn, dma_dropped, fifo_overflows); RT thread faults and preemptions after warm-up in --json");
    }

    private static void floorRow(final PrintWriter out, final String name, final BenchRun.Floor floor)
    {
        final Histograms.Percentiles p = floor.percentiles();
        out.printf("%-18s %8s %6s %8s %8s %8s %8s %8s %9s%n", name, p.count(), "-", floor.meanUs(), p.p50Us(),
            p.p90Us(), p.p99Us(), p.p999Us(), p.maxUs());
    }

    /**
     * The receiving process of one mode.
     */
    @Command(name = "bench-receiver", hidden = true,
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    public static final class Receiver implements Callable<Integer>
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

        /** {@value #COUNTERS_FILE}: keep the counters in the node's counters file, for another process to read. */
        @Parameters(index = "6", arity = "0..1")
        String countersOn;

        /** The journal's folder (made by the caller, left to it), instead of a scratch folder. */
        @Parameters(index = "7", arity = "0..1")
        Path journalAt;

        /** The value of the counters parameter that asks for a counters file. */
        static final String COUNTERS_FILE = "counters-file";
        /** The receiver's node id. */
        static final int NODE = 2;

        /** The shortest window of the sending a CPU figure is taken over. */
        static final long MIN_CPU_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
        /** Taken once: {@code values()} copies its array at every call, 100 times a second here. */
        private static final RfmCounter[] CARD_COUNTERS = RfmCounter.values();
        private static final EventType[] EVENT_TYPES = EventType.values();

        private NodeCounters counters;
        private RfmDevice device;

        @Override
        public Integer call() throws Exception
        {
            ChildJvm.haltWhenParentGone("bench-receiver");
            final WaitStrategy strategy = WaitStrategy.parse(wait);
            final boolean withJournal = "on".equals(journalOn);
            final String dma = strategy.kind() == WaitStrategy.Kind.POLLING ? "on-demand" : "auto";
            final Path scratch = withJournal && journalAt == null ? Files.createTempDirectory("rfmrt-bench-journal") :
                null;
            final Path journalDir = withJournal ? journalAt != null ? journalAt : scratch : null;
            final String uri = "sim:" + network;
            try (RfmDevice device = RfmDevices.open(uri + "?node=" + NODE + "&dmaSlots=" + BenchRun.DMA_SLOTS +
                "&dmaSlotSize=256&dma=" + dma);
                NodeCounters nodeCounters = COUNTERS_FILE.equals(countersOn) ?
                    NodeCounters.create(NodeCounters.fileFor(uri, NODE), NODE, uri, List.of(BenchRun.CHANNEL)) :
                    NodeCounters.inMemory(List.of(BenchRun.CHANNEL));
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, true, Path.of("/")),
                    warning -> System.err.println("bench-receiver: " + warning));
                Journal journal = withJournal ? Journal.start(JournalConfig.of(journalDir, 2)) : null)
            {
                final long[] sum = {0};
                final SequenceSkips skips = new SequenceSkips(warmupFrames);
                final FrameHandler handler = (frame, stamps) ->
                {
                    final long number = frame.buffer().getLong(frame.payloadOffset());
                    sum[0] += number;
                    // the sender's frames are numbered from 1; the warm-up's are runs of numbers, each after a restart
                    if (number > 0)
                    {
                        skips.onFrame(number, stamps.consumerStartNanos());
                    }
                    else if (number == SequenceSkips.RESTART)
                    {
                        skips.reset();
                    }
                };
                final ReceivePath path = new ReceivePath(device, List.of(BenchRun.CHANNEL), EventType.INTR1, strategy,
                    handler,
                    journal == null ? null : journal.newWriter("isr"),
                    journal == null ? null : journal.newWriter("consumer"), SystemNanoClock.INSTANCE,
                    new RtErrorPolicy(null), nodeCounters);
                this.counters = nodeCounters;
                this.device = device;
                final int cpu = env.rtCpus().isEmpty() ? -1 : env.rtCpus().get(0);
                ReceiveWarmUp.warmUp(device, List.of(BenchRun.CHANNEL), EventType.INTR1, strategy,
                    ReceiveWarmUp.WARMUP_FRAMES_DEFAULT, handler, (buffer, channel, frame) ->
                    {
                        buffer.putLong(0, SequenceSkips.warmUpNumber(frame, warmupFrames));
                        return buffer.capacity();
                    });
                // the warm-up's threads have ended: the run's first frame is the first again
                skips.reset();
                path.start(env, cpu, 80, cpu, consumerPriority);
                System.out.println("ready");
                System.out.flush();

                final Window window = watch(path, device);
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
                    Runtime.getRuntime().halt(ExitCodes.ERROR);
                }
                path.latencies().sample();
                final Result r = result(path, device, window, threads, end, journal, skips.figures());
                final String failure = r.failure();
                ChildResult.write(System.out, r);
                if (failure != null)
                {
                    System.err.println("bench-receiver: " + failure);
                    return ExitCodes.ERROR;
                }
            }
            finally
            {
                if (scratch != null)
                {
                    Folders.deleteTree(scratch);
                }
            }
            return ExitCodes.OK;
        }

        /**
         * The receiver's result line.
         *
         * @param frames             frames handled.
         * @param meanUs             mean end-to-end latency after the warm-up, µs.
         * @param percentiles        its percentiles.
         * @param histogram          the end-to-end histogram ({@link Histograms#encode}).
         * @param cpuPct             the process's CPU while the sender sent, % of one core; {@code null} for a dead
         *                           receiver or a window too short to time.
         * @param cpuUntimed         why there is no CPU figure for a receiver that did not fail, or {@code null}
         *                           (left out).
         * @param failure            why the receive path failed, or {@code null}.
         * @param gaps               frames lost to gaps.
         * @param gapsInWarmup       of them, in the warm-up.
         * @param dmaDroppedInWarmup DMA drops in the warm-up.
         * @param torn               torn frames.
         * @param dmaMissing         frames whose DMA buffer was missing.
         * @param fifoOverflows      event FIFO overflows, all types.
         * @param dmaDropped         DMA drops.
         * @param handoffFull        frames the hand-off ring had no room for.
         * @param events             events taken.
         * @param emptyWakes         wakes that found no frame.
         * @param boundedDrains      drains cut short by their bound.
         * @param errors             errors counted.
         * @param stagesP50Us        each stage's median, µs, by its label.
         * @param threads            each receive thread's page faults and preemptions after the warm-up.
         * @param journalRecords     records journaled, or {@code null} without a journal (left out).
         * @param skips              the frames missing by number, and when.
         */
        record Result(long frames, double meanUs, @JsonUnwrapped Histograms.Percentiles percentiles, String histogram,
            Double cpuPct, @JsonInclude(JsonInclude.Include.NON_NULL) String cpuUntimed, String failure, long gaps,
            long gapsInWarmup, long dmaDroppedInWarmup, long torn, long dmaMissing, long fifoOverflows, long dmaDropped,
            long handoffFull, long events, long emptyWakes,
            long boundedDrains, long errors, Map<String, Double> stagesP50Us, List<ThreadHygiene> threads,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long journalRecords, SequenceSkips.Figures skips)
        {
        }

        /**
         * @param thread              the thread's name.
         * @param minorFaults         minor page faults after the warm-up.
         * @param involuntarySwitches involuntary context switches after the warm-up.
         */
        record ThreadHygiene(String thread, long minorFaults, long involuntarySwitches)
        {
        }

        /**
         * What the receiver saw while it watched: the warm-up's losses and thread figures, and the process's CPU time
         * and the wall clock at the start and at the end of the sending (ns).
         */
        private record Window(long warmGaps, long warmDropped, List<ThreadStats> warm, long cpu0, long wall0,
            long cpu1, long wall1)
        {
        }

        /**
         * Watch the markers until the warm-up is over, then until the sender is done, then until the frames sent
         * are in (2 s at most).
         */
        private Window watch(final ReceivePath path, final RfmDevice device) throws InterruptedException
        {
            // this thread only watches the markers: 10 ms naps keep its own CPU use out of the figures
            while (path.counter(RuntimeCounter.FRAMES_HANDLED) + path.counter(FrameCounter.GAPS) < warmupFrames &&
                device.window().getLongAcquire(BenchRun.TOTAL_OFFSET) == 0 && !path.errors().failed())
            {
                publishCard();
                Thread.sleep(10);
            }
            path.latencies().discard();
            final long warmGaps = path.counter(FrameCounter.GAPS);
            final long warmDropped = device.counter(RfmCounter.DMA_DROPPED, null);
            final List<ThreadStats> warm = path.threadStats();
            final long cpu0 = BenchRun.processCpuNanos();
            final long wall0 = System.nanoTime();
            long total;
            while ((total = device.window().getLongAcquire(BenchRun.TOTAL_OFFSET)) == 0 && !path.errors().failed())
            {
                publishCard();
                Thread.sleep(10);
            }
            final long cpu1 = BenchRun.processCpuNanos();
            final long wall1 = System.nanoTime();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
            while (path.counter(RuntimeCounter.FRAMES_HANDLED) + path.counter(FrameCounter.GAPS) < total &&
                System.nanoTime() < deadline && !path.errors().failed())
            {
                publishCard();
                Thread.sleep(1);
            }
            publishCard();
            return new Window(warmGaps, warmDropped, warm, cpu0, wall0, cpu1, wall1);
        }

        /**
         * Copy the card's counters (summed over event types) into the counters, as a node's heartbeat does, so that
         * a reader of the counters file sees the card's drops and overflows. On the watching thread; allocates
         * nothing (a soak watches this process's heap).
         */
        private void publishCard()
        {
            for (final RfmCounter c : CARD_COUNTERS)
            {
                long value = 0;
                if (c.perType())
                {
                    for (final EventType type : EVENT_TYPES)
                    {
                        value += device.counter(c, type);
                    }
                }
                else
                {
                    value = device.counter(c, null);
                }
                counters.card(c).setRelease(value);
            }
        }

        private static Result result(final ReceivePath path, final RfmDevice device, final Window window,
            final List<RtThread> threads, final List<ThreadStats> end, final Journal journal,
            final SequenceSkips.Figures skips)
        {
            final Histogram e2e = path.latencies().cumulative(Stage.END_TO_END);
            final String failure = path.failure();
            // a dead receiver or a window too short to time has no CPU figure: the run is invalid, not 0 %
            final long wall = window.wall1() - window.wall0();
            final Double cpuPct = failure != null || wall < MIN_CPU_WINDOW_NANOS ? null :
                Math.round(1000.0 * (window.cpu1() - window.cpu0()) / wall) / 10.0;
            final String cpuUntimed = failure != null || cpuPct != null ? null : String.format(
                "the sending after the warm-up lasted %.1f ms as the receiver watched it, under the %d ms a CPU " +
                "figure needs (the sender or the watching thread was held up)", wall / 1e6,
                TimeUnit.NANOSECONDS.toMillis(MIN_CPU_WINDOW_NANOS));
            long overflows = 0;
            for (final EventType type : EventType.values())
            {
                overflows += device.counter(RfmCounter.FIFO_OVERFLOWS, type);
            }
            final Map<String, Double> stages = new LinkedHashMap<>();
            for (final Stage stage : Stage.values())
            {
                stages.put(stage.label(),
                    Histograms.micros(path.latencies().cumulative(stage).getValueAtPercentile(50)));
            }
            final List<ThreadHygiene> hygiene = new ArrayList<>();
            for (int i = 0; i < threads.size(); i++)
            {
                final ThreadStats delta = end.get(i).minus(window.warm().get(i));
                hygiene.add(new ThreadHygiene(threads.get(i).placement().thread(), delta.minorFaults(),
                    delta.involuntarySwitches()));
            }
            return new Result(path.counter(RuntimeCounter.FRAMES_HANDLED), Math.round(e2e.getMean() / 100.0) / 10.0,
                Histograms.Percentiles.of(e2e), Histograms.encode(e2e), cpuPct, cpuUntimed, failure,
                path.counter(FrameCounter.GAPS), window.warmGaps(), window.warmDropped(),
                path.counter(FrameCounter.TORN), path.counter(FrameCounter.DMA_MISSING), overflows,
                device.counter(RfmCounter.DMA_DROPPED, null), path.counter(RuntimeCounter.HANDOFF_FULL),
                path.counter(RuntimeCounter.EVENTS), path.counter(RuntimeCounter.EMPTY_WAKES),
                path.counter(RuntimeCounter.DRAIN_BOUND), path.counter(RuntimeCounter.ERRORS), stages, hygiene,
                journal == null ? null : journal.stats().recordsWritten(), skips);
        }
    }
}
