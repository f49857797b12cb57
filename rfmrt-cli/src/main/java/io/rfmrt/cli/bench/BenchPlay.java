package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.cli.demo.DemoConfigs;
import io.rfmrt.cli.demo.DemoProcesses;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.CpuPlacement;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.replay.Playback;
import io.rfmrt.runtime.replay.PlaybackRecording;
import io.rfmrt.runtime.replay.Player;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code rfmrt bench play}: how precisely a recording is played back, and how fast. For each rate: a receiving node
 * (a second process, {@code rfmrt node}, the demo's sensor channel and DMA ring) records frames this process publishes
 * on a fixed period; then a fresh receiving node takes the recording played back from its journal at rate 1.0 (the
 * timing error of every frame: publish stamp minus its place in the schedule) and at the maximum rate (frames/s with
 * at most {@link Playback#WINDOW_MAX} frames unhandled); every frame must be handled with none lost.
 */
@Command(name = "play", mixinStandardHelpOptions = true,
    description = "Playback timing error at rate 1.0 and the maximum playback rate, into a receiving node.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
final class BenchPlay implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--rates", split = ",", defaultValue = "1000,10000", paramLabel = "HZ",
        description = "Rates of the recordings, Hz (default ${DEFAULT-VALUE}).")
    List<Integer> rates;

    @Option(names = "--seconds", defaultValue = "5", paramLabel = "S",
        description = "Seconds recorded per rate (default " +
        "${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        if (seconds < 1 || seconds > 600 || rates.stream().anyMatch(r -> r < 1 || r > 100_000))
        {
            throw new UsageException("--seconds 1..600, --rates 1..100000 each");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final Progress progress = Progress.steps(spec.commandLine().getErr(), 2 * rates.size(),
            seconds + BenchRun.STEP_OVERHEAD_SECONDS);
        final double loadBefore = load();
        final List<PlayRun> runs = new ArrayList<>();
        int exit = ExitCodes.OK;
        for (final int rate : rates)
        {
            final PlayRun run = run(rate, progress);
            runs.add(run);
            if (run.lost() != 0)
            {
                exit = ExitCodes.ERROR;
            }
        }
        progress.finish();
        final double loadAfter = load();
        if (json)
        {
            out.println(ChildResult.json(new Result("play", MachineInfo.describe(),
                ZonedDateTime.now().toString(), loadBefore, loadAfter, seconds, runs)));
            return exit;
        }
        out.printf(Locale.ROOT, "%nplayback into a receiving node (load %.1f -> %.1f); timing error = publish stamp " +
            "- schedule, us%n", loadBefore, loadAfter);
        out.printf(Locale.ROOT, "%-10s %-9s %9s %10s %12s %9s %9s %9s %9s %6s%n", "recorded", "played", "frames",
            "duration", "frames/s", "p50", "p99", "max", "handled", "lost");
        for (final PlayRun run : runs)
        {
            row(out, run, "1.0", run.rate1());
            row(out, run, "max", run.rateMax());
        }
        return exit;
    }

    private static void row(final PrintWriter out, final PlayRun run, final String played, final Play m)
    {
        final boolean timed = m.timingErrorP50Us() != null;
        out.printf(Locale.ROOT, "%-10s %-9s %,9d %8.3f s %,12.1f %9s %9s %9s %,9d %6d%n", run.rateHz() + " Hz", played,
            m.frames(), m.durationS(), m.framesPerS(),
            timed ? String.format(Locale.ROOT, "%.1f", m.timingErrorP50Us()) : "-",
            timed ? String.format(Locale.ROOT, "%.1f", m.timingErrorP99Us()) : "-",
            timed ? String.format(Locale.ROOT, "%.1f", m.timingErrorMaxUs()) : "-", m.handled(), m.lost());
    }

    /**
     * What {@code bench play --json} prints.
     *
     * @param benchmark  "play".
     * @param machine    the machine it ran on.
     * @param date       when.
     * @param loadBefore the load average before.
     * @param loadAfter  the load average after.
     * @param seconds    seconds recorded per rate.
     * @param runs       each rate's recording and its two playbacks.
     */
    record Result(String benchmark, MachineInfo machine, String date, double loadBefore, double loadAfter,
        int seconds, List<PlayRun> runs)
    {
    }

    /**
     * One rate: its recording, played back at rate 1.0 and at the maximum rate.
     *
     * @param rateHz         the rate recorded.
     * @param framesRecorded frames in the recording.
     * @param recordedSpanS  its span, s.
     * @param rate1          played at rate 1.0.
     * @param rateMax        played at the maximum rate.
     * @param lost           frames lost in both.
     */
    record PlayRun(int rateHz, long framesRecorded, double recordedSpanS, @JsonProperty("rate_1") Play rate1,
        Play rateMax, long lost)
    {
    }

    /**
     * One playback and what the receiving node saw of it. At rate 1.0 the timing error is there, at the maximum
     * rate how often the player waited for the receiver and whether it stalled.
     *
     * @param frames            frames published.
     * @param durationS         first to last publish, s.
     * @param framesPerS        the rate achieved.
     * @param timingErrorP50Us  publish stamp - schedule, median, µs.
     * @param timingErrorP99Us  its 99th percentile, µs.
     * @param timingErrorP999Us its 99.9th percentile, µs.
     * @param timingErrorMaxUs  its largest, µs.
     * @param receiverWaits     times the player waited for the receiver.
     * @param stalled           whether the receiver stopped taking frames.
     * @param handled           frames the receiver handled.
     * @param gaps              frames it saw missing.
     * @param lost              frames published and not handled, and gaps.
     * @param placement         the player's thread placement.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Play(long frames, double durationS, double framesPerS, Double timingErrorP50Us, Double timingErrorP99Us,
        Double timingErrorP999Us, Double timingErrorMaxUs, Long receiverWaits, Boolean stalled, long handled,
        long gaps, long lost, String placement)
    {
    }

    private PlayRun run(final int rate, final Progress progress) throws Exception
    {
        final String network = "bench-play-" + ProcessHandle.current().pid();
        final Path dir = Files.createTempDirectory("rfmrt-bench-play");
        final long frames = (long)rate * seconds;
        try
        {
            SimNetwork.create(network, ControlFrames.LAYOUT.memorySize()).close();
            Files.writeString(dir.resolve(DemoConfigs.LAYOUT_CONFIG), ControlFrames.layoutText());
            progress.step(String.format(Locale.ROOT, "recording %,d frames at %d Hz ...", frames, rate));
            final Process recorder = receiver(network, dir, "recorder", true);
            try
            {
                publish(network, rate, frames);
                awaitHandled(network, frames, 0);
            }
            finally
            {
                stop(recorder);
            }
            final PlaybackRecording recording = PlaybackRecording.load(dir.resolve("recorder"), null, null,
                Set.of(ControlFrames.PLANT_NODE));
            progress.step("playing them back at rate 1.0 and at the maximum rate ...");
            final Process player = receiver(network, dir, "player", false);
            try
            {
                System.gc();
                final Play one = play(network, recording, 1.0, 0);
                final Play max = play(network, recording, Player.RATE_MAX, recording.frames());
                return new PlayRun(rate, recording.frames(), recording.spanNanos() / 1e9, one, max,
                    one.lost() + max.lost());
            }
            finally
            {
                stop(player);
            }
        }
        finally
        {
            if (SimNetwork.exists(network))
            {
                SimNetwork.destroy(network, true);
            }
            Folders.deleteTree(dir);
        }
    }

    /** Play the recording into the running receiver; what the player and the receiver saw. */
    private static Play play(final String network, final PlaybackRecording recording, final double rate,
        final long handledBefore) throws Exception
    {
        try (Playback playback = Playback.start(recording, Playback.Options.of(network).withRate(rate), line -> { }))
        {
            final Histogram timing = new Histogram(1, Player.HIGHEST_ERROR_NS, 3);
            Histogram interval = null;
            while (!playback.awaitDone(100, TimeUnit.MILLISECONDS))
            {
                interval = playback.timing(interval);
                timing.add(interval);
            }
            timing.add(playback.timing(interval));
            if (playback.failure() != null)
            {
                throw new IllegalStateException("the player failed: " + playback.failure());
            }
            final Player player = playback.player();
            final long duration = player.endNanos() - player.startNanos();
            final long handled = awaitHandled(network, recording.frames(), handledBefore) - handledBefore;
            final boolean timed = rate != Player.RATE_MAX;
            final long gaps = CountersSnapshot.read(counters(network)).value(CounterIds.frame(0, FrameCounter.GAPS));
            return new Play(player.framesSent(), duration / 1e9,
                duration > 0 ? (player.framesSent() - 1) / (duration / 1e9) : 0.0,
                timed ? timing.getValueAtPercentile(50) / 1e3 : null,
                timed ? timing.getValueAtPercentile(99) / 1e3 : null,
                timed ? timing.getValueAtPercentile(99.9) / 1e3 : null, timed ? timing.getMaxValue() / 1e3 : null,
                timed ? null : player.creditWaits(), timed ? null : player.stalled(), handled, gaps,
                player.framesSent() - handled + gaps, playback.placementTable().lines().skip(1).findFirst().orElse(""));
        }
    }

    /** A receiving node in a second process: the demo's sensor channel, its DMA ring, journal on or off. */
    private static Process receiver(final String network, final Path dir, final String name, final boolean journal)
        throws Exception
    {
        final Path config = dir.resolve(name + ".yaml");
        DemoConfigs.write(config, "rfmrt bench play: a receiving node on the demo's sensor channel",
            new DemoConfigs.NodeFile(ControlFrames.deviceUri(network, ControlFrames.CONTROLLER_NODE),
                DemoConfigs.LAYOUT_CONFIG, new DemoConfigs.Receive(List.of(ControlFrames.SENSOR.name()), "blocking"),
                DemoConfigs.THREADS, false, 0, new DemoConfigs.Journal(journal, name), null));
        final Process process = ChildJvm.builder("node", "--config", config.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        DemoProcesses.awaitReady(network, process);
        // the counters file is made before the receive path starts
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(counters(network)) && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        return process;
    }

    private static Path counters(final String network)
    {
        return NodeCounters.fileFor("sim:" + network, ControlFrames.CONTROLLER_NODE);
    }

    private static long awaitHandled(final String network, final long frames, final long before)
        throws InterruptedException
    {
        final int handled = CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long value = CountersSnapshot.read(counters(network)).value(handled);
        while (value < before + frames && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            value = CountersSnapshot.read(counters(network)).value(handled);
        }
        return value;
    }

    private static void stop(final Process process) throws InterruptedException
    {
        process.toHandle().destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
        }
    }

    /**
     * The source of the recording: this process publishes the sensor channel as node 1 on a fixed period (parked,
     * then spun for the last 50 us), on an RT thread placed as the node's publisher.
     */
    private static void publish(final String network, final int rate, final long frames) throws Exception
    {
        try (RfmDevice device = RfmDevices.open(ControlFrames.deviceUri(network, ControlFrames.PLANT_NODE));
            RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, false, Path.of("/")),
                warning -> { }))
        {
            final FramePublisher publisher = new FramePublisher(device, ControlFrames.SENSOR);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[ControlFrames.SENSOR_LENGTH]);
            final long period = TimeUnit.SECONDS.toNanos(1) / rate;
            final int cpu = env.rtCpus().isEmpty() ? CpuPlacement.CPU_NONE : env.rtCpus().get(0);
            final RtThread thread = env.start("rfmrt-bench-src", cpu, NodeContext.publisherPriorityDefault(), () ->
            {
                final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                for (long i = 0; i < frames; i++)
                {
                    final long due = start + i * period;
                    long left = due - System.nanoTime();
                    if (left > Player.SPIN_NS)
                    {
                        LockSupport.parkNanos(left - Player.SPIN_NS);
                    }
                    while (System.nanoTime() - due < 0)
                    {
                        Thread.onSpinWait();
                    }
                    payload.putLong(ControlFrames.SENSOR_CYCLE_OFFSET, i + 1);
                    payload.putInt(ControlFrames.SENSOR_VERSION_OFFSET, ControlFrames.PAYLOAD_VERSION);
                    publisher.publish(payload, 0, payload.capacity(), 0);
                }
            });
            thread.thread().join();
        }
    }

    private static double load()
    {
        try
        {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        }
        catch (final IOException | RuntimeException ex)
        {
            return -1;
        }
    }
}
