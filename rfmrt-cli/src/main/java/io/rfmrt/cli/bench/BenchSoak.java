package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.cli.demo.DemoConfigs;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.control.node.ControllerApp;
import io.rfmrt.control.node.PlantApp;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.ReceiveThreads;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rfmrt bench soak}: minutes of steady traffic, and every interval a look from outside at each process —
 * frames and lost frames by cause (the node's counters file), collections, compilations, safepoints and heap (the
 * JVM's own performance counters, {@link JvmPerfData}), resident set, the minor faults and involuntary switches of
 * every named RT thread ({@code /proc/PID/task/TID}), and the journal's bytes. Either a sender here and a receiving
 * node in a child process (the {@code bench compare} receiver of one mode, its counters in a counters file), or, with
 * {@code --demo}, the whole demo (a child {@code rfmrt demo}, its plant and controller nodes watched). The first
 * interval is the warm-up; after it the targets are 0 lost, 0 collections, 0 compilations, 0 minor faults on the
 * ISR-wake and consumer threads, and a resident set within ±1 % (exit {@link ExitCodes#TARGETS_MISSED} when one is
 * missed).
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
    description = "Minutes of steady traffic, looked at every interval: lost frames, GC, JIT, page faults, RSS.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE, ExitCodes.LIST_TARGETS_MISSED})
public final class BenchSoak implements Callable<Integer>
{
    /** The named threads looked at in every process: each RT thread the runtime, the demo and the sender start. */
    static final Set<String> RT_THREADS = Set.of(ReceiveThreads.ISR, ReceiveThreads.CONSUMER, RfmNode.PUBLISHER_THREAD,
        PlantApp.LOOP_THREAD, ControllerApp.WATCHDOG_THREAD, BenchRun.SENDER_THREAD);
    /** The controller's live line, as the demo relays it: its deadline misses so far. */
    static final Pattern LIVE_MISSES = Pattern.compile("^\\s*\\d+ s\\s+cycles .* misses (\\d+)\\s+state ");
    /** Longest wait for the demo's nodes to start, ms. */
    static final long DEMO_START_MS = 120_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--minutes", defaultValue = "10", paramLabel = "MIN",
        description = "How long to run (default ${DEFAULT-VALUE}).")
    int minutes;

    @Option(names = "--seconds", paramLabel = "S", description = "How long to run, in seconds instead (10..36000).")
    Integer seconds;

    @Option(names = "--interval", defaultValue = "10", paramLabel = "S",
        description = "Seconds between two looks (default ${DEFAULT-VALUE}); the first interval is the warm-up.")
    int interval;

    @Option(names = "--rate", defaultValue = "10000", paramLabel = "HZ",
        description = "Frames per second (or the demo's loop rate), " +
        "1..1000000 (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--mode", defaultValue = "interrupt-inline", paramLabel = "MODE",
        description = "Receive mode, as bench compare names them: interrupt, interrupt-inline (default), " +
            "interrupt-journal, spin-then-block, busy-spin, poll-1khz, poll-10khz.")
    String mode;

    @Option(names = "--size", defaultValue = "64", paramLabel = "BYTES",
        description = "Payload bytes (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--demo", description = "Soak the whole demo (plant and controller nodes at --rate) instead.")
    boolean demo;

    @Option(names = "--out", defaultValue = "rfmrt-soak", paramLabel = "DIR",
        description = "Where soak.png, soak.json (and the demo's or the journal's files) go (default ./${DEFAULT-VALUE}).")
    Path outDir;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    /**
     * The whole soak, as {@code --json} prints it and {@code soak.json} holds it.
     *
     * @param machine    the machine.
     * @param date       when it ran.
     * @param what       {@code bench} (a sender and a receiving node) or {@code demo}.
     * @param mode       the receive mode (the demo's: inline).
     * @param rateHz     frames (or loop cycles) per second.
     * @param seconds    how long it ran.
     * @param intervalS  seconds per interval.
     * @param totals     the run's totals: sent, received, lost (sent - received), and the receiver's or the demo's
     *                   own end-of-run figures.
     * @param intervals  each interval.
     * @param targets    each target after the warm-up.
     * @param met        whether every target was met.
     * @param plot       the PNG.
     */
    record Soak(MachineInfo machine, String date, String what, String mode, int rateHz, int seconds, int intervalS,
        Map<String, Object> totals, List<SoakReport.Interval> intervals, List<SoakReport.Target> targets,
        boolean met, String plot)
    {
    }

    @Override
    public Integer call() throws Exception
    {
        final int duration = seconds != null ? seconds : minutes * 60;
        if (seconds == null && (minutes < 1 || minutes > 600))
        {
            throw new UsageException("--minutes " + minutes + " is not 1..600");
        }
        if (duration < 10 || duration > 36_000)
        {
            throw new UsageException("--seconds " + duration + " is not 10..36000");
        }
        if (interval < 1 || interval * 2 > duration)
        {
            throw new UsageException("--interval " + interval + " must be at least 1 and at most half the run (" +
                duration + " s)");
        }
        if (rate < 1 || rate > 1_000_000 || size < 8 || size > BenchRun.CHANNEL.maxPayload())
        {
            throw new UsageException("--rate 1..1000000, --size 8.." + BenchRun.CHANNEL.maxPayload());
        }
        final String[] row = BenchRun.mode(mode);
        if (row == null)
        {
            throw new UsageException("--mode: unknown mode '" + mode + "'");
        }
        if (demo && duration + 2 > 3600)
        {
            throw new UsageException("--demo runs at most 3598 s (the demo's own limit is 3600)");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final PrintWriter console = json ? err : out;
        Files.createDirectories(outDir);
        console.printf("soaking %s for %d s, a look every %d s (the first interval is the warm-up) ...%n",
            demo ? "the demo at " + rate + " Hz" : mode + " at " + rate + " Hz", duration, interval);
        console.flush();
        final Run run;
        try (Progress progress = Progress.seconds(err, duration, demo ? "soaking the demo at " + rate + " Hz" :
            "soaking " + mode + " at " + rate + " Hz", System::nanoTime).startTicker("rfmrt-soak-progress"))
        {
            run = demo ? runDemo(duration, console) : runBench(row, duration);
        }
        if (run.samples().size() < 2)
        {
            err.println("rfmrt bench soak: " + (run.failure() != null ? run.failure() : "no interval was measured"));
            return ExitCodes.ERROR;
        }
        final SoakReport report = SoakReport.of(run.samples());
        final Path png = outDir.resolve("soak.png");
        final String title = demo ? "demo " + rate + " Hz" : mode + " " + rate + " Hz";
        SoakPlot.write(report, title, png);
        final Soak soak = new Soak(MachineInfo.describe(), ZonedDateTime.now().toString(), demo ? "demo" : "bench",
            demo ? "inline" : mode, rate, duration, interval, run.totals(), report.intervals(), report.targets(),
            report.met(), png.toString());
        Files.writeString(outDir.resolve("soak.json"),
            ChildResult.pretty(soak) + "\n");
        if (json)
        {
            out.println(ChildResult.json(soak));
        }
        else
        {
            out.printf("%n%s, %d s in %d-s intervals; totals %s%n", title, duration, interval, run.totals());
            report.print(out);
            out.println("plot: " + png);
        }
        out.flush();
        if (run.failure() != null)
        {
            err.println("rfmrt bench soak: " + run.failure());
            err.flush();
            return ExitCodes.ERROR;
        }
        return report.met() ? ExitCodes.OK : ExitCodes.TARGETS_MISSED;
    }

    /**
     * What a run gave.
     *
     * @param samples the looks, the start first.
     * @param totals  the run's totals.
     * @param failure why the run is not sound (a process failed), or null.
     */
    record Run(List<SoakSample> samples, Map<String, Object> totals, String failure)
    {
    }

    /**
     * A sender thread here and the {@code bench compare} receiver of one mode in a child, on a fresh network.
     */
    private Run runBench(final String[] row, final int duration) throws Exception
    {
        final String network = "soak-" + ProcessHandle.current().pid();
        final String uri = "sim:" + network;
        SimNetwork.create(network, BenchRun.NETWORK_BYTES).close();
        final Path journal = "on".equals(row[2]) ? outDir.toAbsolutePath().resolve("journal") : null;
        if (journal != null)
        {
            Folders.deleteTree(journal);
            Files.createDirectories(journal);
        }
        try
        {
            final List<String> args = new ArrayList<>(List.of(network, row[0], row[1], row[2], row[3],
                Integer.toString(rate), BenchCompare.Receiver.COUNTERS_FILE));
            if (journal != null)
            {
                args.add(journal.toString());
            }
            final Process receiver = ChildJvm.startInternal("bench-receiver", args.toArray(String[]::new));
            final BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                StandardCharsets.UTF_8));
            final String ready = lines.readLine();
            if (!"ready".equals(ready))
            {
                receiver.destroyForcibly();
                return new Run(List.of(), Map.of(), "the receiver process said '" + ready + "'");
            }
            final List<SoakSample.Subject> subjects = List.of(
                new SoakSample.Subject("receiver", receiver.pid(),
                    RfmDevices.folder(uri, false).resolve(NodeCounters.fileName(BenchCompare.Receiver.NODE)), true),
                new SoakSample.Subject("sender", ProcessHandle.current().pid(), null, false));
            final long total = (long)duration * rate;
            final AtomicLong sent = new AtomicLong();
            final List<SoakSample> samples = new ArrayList<>();
            try (RfmDevice device = RfmDevices.open(uri + "?node=1");
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")),
                    warning -> { }))
            {
                final long begin = System.nanoTime();
                // the sender stands for another machine: its own thread, SCHED_FIFO 60, on the housekeeping core
                final RtThread sender = env.start(BenchRun.SENDER_THREAD, env.housekeepingCpu(), 60,
                    () -> send(device, total, begin, sent));
                samples.add(SoakSample.take(0, 0, -1, journal, subjects, RT_THREADS));
                for (int k = 1; (long)k * interval < duration; k++)
                {
                    if (!sleepUntil(begin + TimeUnit.SECONDS.toNanos((long)k * interval), sender, receiver))
                    {
                        break;
                    }
                    samples.add(SoakSample.take(seconds(begin), sent.getAcquire(), -1, journal, subjects, RT_THREADS));
                }
                sender.join(TimeUnit.SECONDS.toMillis(duration + 600L));
                // the last look once the frames sent are in (or 2 s), before the receiver is told the sending is over
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                SoakSample last = SoakSample.take(seconds(begin), sent.getAcquire(), -1, journal, subjects, RT_THREADS);
                while (receivedOrLost(last) < sent.getAcquire() && System.nanoTime() < deadline && receiver.isAlive())
                {
                    Thread.sleep(10);
                    last = SoakSample.take(seconds(begin), sent.getAcquire(), -1, journal, subjects, RT_THREADS);
                }
                samples.add(last);
                device.window().putLongRelease(BenchRun.TOTAL_OFFSET, sent.getAcquire());
            }
            final String line = lines.readLine();
            final boolean ended = receiver.waitFor(60, TimeUnit.SECONDS);
            if (!ended)
            {
                receiver.destroyForcibly();
            }
            final Map<String, Object> totals = new LinkedHashMap<>();
            totals.put("sent", sent.get());
            String failure = null;
            if (!ChildResult.is(line))
            {
                failure = "the receiver process ended without a result (exit " +
                    (ended ? Integer.toString(receiver.exitValue()) : "none: killed") + ")";
            }
            else
            {
                final JsonNode r = ChildResult.tree(line);
                final long frames = r.get("frames").asLong();
                totals.put("received", frames);
                totals.put("lost", sent.get() - frames);
                for (final String key : List.of("gaps", "gaps_in_warmup", "torn", "dma_dropped", "fifo_overflows",
                    "handoff_full"))
                {
                    totals.put(key, r.get(key).asLong());
                }
                totals.put("threads_after_warmup", ChildResult.MAPPER.convertValue(r.get("threads"), List.class));
                if (!r.get("failure").isNull())
                {
                    failure = "the receiver failed: " + r.get("failure").asText();
                }
            }
            return new Run(samples, totals, failure);
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
    }

    private static long receivedOrLost(final SoakSample sample)
    {
        final SoakSample.Frames f = sample.looks().get(0).frames();
        return f == null ? Long.MAX_VALUE : f.received() + f.gaps();
    }

    /**
     * The sender: {@code total} frames at the soak's rate from {@code begin}, each send time moved within half a
     * period (the bench's uniform-jitter sender), {@code sent} set after each.
     */
    private void send(final RfmDevice device, final long total, final long begin, final AtomicLong sent)
    {
        final FramePublisher publisher = new FramePublisher(device, BenchRun.CHANNEL);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        device.window().putLongRelease(BenchRun.START_OFFSET, begin);
        // Traffic.total() is (seconds + 1) * rate: one second less gives the soak's frames
        BenchRun.pace(BenchRun.Traffic.steady(BenchRun.UNIFORM_JITTER, rate, (int)(total / rate) - 1, size), begin,
            i ->
            {
                payload.putLong(0, i);
                publisher.publish(payload, 0, size, 0);
                sent.setRelease(i);
            });
    }

    /**
     * The whole demo in a child {@code rfmrt demo}, its two nodes watched from their first frames on; the demo runs
     * two seconds longer than the soak, so that the last look falls while both still run.
     */
    private Run runDemo(final int duration, final PrintWriter console) throws Exception
    {
        final Path demoDir = outDir.toAbsolutePath().resolve("demo");
        final Process demoProcess = ChildJvm.builder("demo", "--rate", Integer.toString(rate), "--seconds",
            Integer.toString(duration + 2), "--out", demoDir.toString(), "--json").start();
        final AtomicLong misses = new AtomicLong();
        final AtomicReference<String> lastErr = new AtomicReference<>();
        final Thread relay = new Thread(() -> relay(demoProcess, console, misses, lastErr), "rfmrt-soak-relay");
        relay.setDaemon(true);
        relay.start();
        final AtomicReference<String> summary = new AtomicReference<>();
        final Thread summaryReader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(demoProcess.getInputStream(),
                StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = in.readLine()) != null)
                {
                    if (line.startsWith("{"))
                    {
                        summary.set(line);
                    }
                }
            }
            catch (final IOException ignored)
            {
                // the demo ended
            }
        }, "rfmrt-soak-summary");
        summaryReader.setDaemon(true);
        summaryReader.start();
        try
        {
            final String uri = "sim:demo-" + demoProcess.pid();
            final ProcessHandle plant = awaitNode(demoProcess, DemoConfigs.PLANT_CONFIG);
            final ProcessHandle controller = plant == null ? null :
                awaitNode(demoProcess, DemoConfigs.CONTROLLER_CONFIG);
            if (plant == null || controller == null)
            {
                demoProcess.destroy();
                demoProcess.waitFor(60, TimeUnit.SECONDS);
                return new Run(List.of(), Map.of(), "the demo's nodes did not start" +
                    (lastErr.get() == null ? "" : ": " + lastErr.get()));
            }
            final Path folder = RfmDevices.folder(uri, false);
            final List<SoakSample.Subject> subjects = List.of(
                new SoakSample.Subject("controller", controller.pid(),
                    folder.resolve(NodeCounters.fileName(ControlFrames.CONTROLLER_NODE)), true),
                new SoakSample.Subject("plant", plant.pid(),
                    folder.resolve(NodeCounters.fileName(ControlFrames.PLANT_NODE)), true));
            final Path journal = demoDir.resolve("journal");
            // the nodes warm up before their loops run: the soak's warm-up interval starts with the loop's frames
            if (!awaitFrames(subjects, demoProcess))
            {
                demoProcess.destroy();
                demoProcess.waitFor(60, TimeUnit.SECONDS);
                return new Run(List.of(), Map.of(), "the demo's nodes exchanged no frames" +
                    (lastErr.get() == null ? "" : ": " + lastErr.get()));
            }
            final long begin = System.nanoTime();
            final List<SoakSample> samples = new ArrayList<>();
            samples.add(SoakSample.take(0, -1, misses.get(), journal, subjects, RT_THREADS));
            for (int k = 1; (long)k * interval <= duration; k++)
            {
                if (!sleepUntil(begin + TimeUnit.SECONDS.toNanos((long)k * interval), null, demoProcess) ||
                    !plant.isAlive() || !controller.isAlive())
                {
                    break;
                }
                samples.add(SoakSample.take(seconds(begin), -1, misses.get(), journal, subjects, RT_THREADS));
            }
            final boolean ended = demoProcess.waitFor(duration + 180L, TimeUnit.SECONDS);
            if (!ended)
            {
                demoProcess.destroy();
                demoProcess.waitFor(60, TimeUnit.SECONDS);
            }
            summaryReader.join(5_000);
            relay.join(5_000);
            final Map<String, Object> totals = new LinkedHashMap<>();
            String failure = null;
            if (summary.get() == null)
            {
                failure = "the demo ended without a summary (exit " + (ended ? demoProcess.exitValue() : "none") +
                    ")" + (lastErr.get() == null ? "" : ": " + lastErr.get());
            }
            else
            {
                final JsonNode s = ChildResult.MAPPER.readTree(summary.get());
                for (final String key : List.of("cycles", "lost_frames", "deadline_misses", "misses_matched",
                    "misses_late_wake", "misses_preempted", "misses_unexplained", "misses_unchecked",
                    "watchdog_trips", "plant_missed_ticks", "journal_records", "journal_drops"))
                {
                    totals.put(key, s.path(key).asLong());
                }
                totals.put("lost_frame_causes", ChildResult.MAPPER.convertValue(s.get("lost_frame_causes"),
                    Map.class));
                totals.put("threads_after_warmup", ChildResult.MAPPER.convertValue(s.get("threads_after_warmup"),
                    List.class));
                totals.put("summary", demoDir.resolve("summary.json").toString());
                if (ended && demoProcess.exitValue() != ExitCodes.OK)
                {
                    failure = "the demo exited " + demoProcess.exitValue();
                }
            }
            return new Run(samples, totals, failure);
        }
        finally
        {
            if (demoProcess.isAlive())
            {
                demoProcess.destroy();
            }
        }
    }

    /**
     * Pass the demo's console on (its stderr with --json) but its live lines, whose deadline misses are kept.
     */
    private static void relay(final Process demo, final PrintWriter console, final AtomicLong misses,
        final AtomicReference<String> lastErr)
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(demo.getErrorStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                final Matcher m = LIVE_MISSES.matcher(line);
                if (m.find())
                {
                    misses.set(Long.parseLong(m.group(1)));
                    continue;
                }
                if (Progress.LINE.matcher(line).find())
                {
                    // the soak's own progress lines say it
                    continue;
                }
                lastErr.set(line);
                console.println("demo: " + line);
                console.flush();
            }
        }
        catch (final IOException | NumberFormatException ignored)
        {
            // the demo ended, or a count too large to be one: the last one kept stands
        }
    }

    /**
     * @return the demo's node process started from {@code config}, or null when none came within
     * {@link #DEMO_START_MS}.
     */
    private static ProcessHandle awaitNode(final Process demo, final String config) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEMO_START_MS);
        while (System.nanoTime() < deadline && demo.isAlive())
        {
            final Optional<ProcessHandle> node = demo.descendants().filter(p -> p.info().arguments()
                .map(a -> a.length > 0 && a[a.length - 1].endsWith("/" + config)).orElse(false)).findFirst();
            if (node.isPresent())
            {
                return node.get();
            }
            Thread.sleep(50);
        }
        return null;
    }

    /**
     * @return true once every subject's counters show a frame handled, false when none came within
     * {@link #DEMO_START_MS} or the demo ended.
     */
    private static boolean awaitFrames(final List<SoakSample.Subject> subjects, final Process demo)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEMO_START_MS);
        while (System.nanoTime() < deadline && demo.isAlive())
        {
            final SoakSample look = SoakSample.take(0, -1, -1, null, subjects, Set.of());
            if (look.looks().stream().allMatch(l -> l.frames() != null && l.frames().received() > 0))
            {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /**
     * Sleep until {@code due} (System.nanoTime()).
     *
     * @return false when the sender or the watched process ended first.
     */
    private static boolean sleepUntil(final long due, final RtThread sender, final Process process)
        throws InterruptedException
    {
        long left;
        while ((left = due - System.nanoTime()) > 0)
        {
            if (sender != null && !sender.isAlive() || !process.isAlive())
            {
                return false;
            }
            Thread.sleep(Math.max(1, Math.min(100, TimeUnit.NANOSECONDS.toMillis(left))));
        }
        return true;
    }

    private static double seconds(final long begin)
    {
        return (System.nanoTime() - begin) / 1e9;
    }
}
