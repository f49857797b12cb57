package io.rfmrt.cli.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.cli.Main;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.replay.TimeBound;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A recorded demo played back: its plant's sensor frames into a fresh controller (the controller handles every frame,
 * its commands equal the recorded ones bit for bit with the same gains and differ with others), into a plain node
 * (as recorded, twice as fast, three times renumbered, cut by --from/--to), and the refusals. Timing is asserted
 * loosely only; docs/benchmarks.md has the measured figures.
 */
class ReplayPlayTest
{
    /** A cycle after the demo trajectory's first move began (0.5 s lead-in at 1 kHz after ~50 cycles STARTING). */
    private static final long FIRST_MOVE_CYCLE = 600;

    private static Path temp;
    private static Path simRoot;
    private static Path recording;
    private static long sensorFrames;

    @BeforeAll
    static void recordADemo() throws Exception
    {
        temp = Files.createTempDirectory("rfmrt-play-test");
        simRoot = Path.of("/dev/shm", "rfmrt-play-test-" + UUID.randomUUID());
        recording = temp.resolve("rec");
        final Child demo = Child.start("demo", "--seconds", "3", "--json", "--out", recording.toString());
        assertThat(demo.await(180)).as(demo.toString()).isZero();
        sensorFrames = new ObjectMapper().readTree(demo.out()).get("plant").get("sensor_frames").asLong();
        assertThat(sensorFrames).isPositive();
    }

    @AfterAll
    static void cleanUp() throws IOException
    {
        CliProcesses.removeTree(simRoot);
        CliProcesses.removeTree(temp);
    }

    @Test
    void shouldDriveAFreshControllerWithTheRecordedFramesToTheRecordedCommandsBitForBit() throws Exception
    {
        // a trip or a skipped frame in either run (a stall of this loaded machine) ends the comparable window;
        // the run is repeated (at most 3 times) until the window reaches the moves, where gains make a difference
        JsonNode window = null;
        for (int attempt = 0; attempt < 3; attempt++)
        {
            final Path run = temp.resolve("same-" + attempt);
            final JsonNode controller = playIntoController("i17-same-" + attempt, run);
            assertThat(controller.get("cycles").asLong()).as("every frame handled").isEqualTo(sensorFrames);
            assertThat(controller.get("lost_frames").asLong()).isZero();
            final JsonNode compare = compare(run);
            assertThat(compare.get("cycles_in_both").asLong()).isPositive();
            assertThat(compare.get("positions_equal").asLong()).isEqualTo(compare.get("cycles_in_both").asLong());
            window = compare.get("window");
            assertThat(window.get("commands_differ").asLong()).as(compare.toString()).isZero();
            if (window.get("last_cycle").asLong() > FIRST_MOVE_CYCLE + 50)
            {
                break;
            }
        }
        if (window.get("last_cycle").asLong() > FIRST_MOVE_CYCLE + 50)
        {
            assertThat(window.get("both_running").asLong()).isGreaterThan(500);
        }
        else
        {
            // every attempt was cut short before the moves: only a state one run left (a trip or a skipped frame
            // of this loaded machine) may end the window, never a command or a setpoint that differs
            assertThat(window.get("until").asText()).as(window.toString()).doesNotStartWith("another setpoint")
                .isNotEqualTo("the end of the cycles in both");
        }
    }

    @Test
    void shouldGiveOtherCommandsWithOtherGainsOverTheRecordingItself() throws Exception
    {
        // the recording, re-run offline with other gains: no clock and no second process, so this always judges
        final Path gains = Files.writeString(temp.resolve("soft-rerun.yaml"), "positionGainPerS: 60\n" +
            "velocityGainNmSPerRad: 0.05\n");
        final java.io.StringWriter json = new java.io.StringWriter();
        final java.io.StringWriter err = new java.io.StringWriter();
        assertThat(Main.run(new String[]{"replay", recording.resolve("journal/controller").toString(), "--rerun",
            "--gains", gains.toString(), "--json"}, new java.io.PrintWriter(json, true),
            new java.io.PrintWriter(err, true))).as(err.toString()).isZero();
        final JsonNode rerun = new ObjectMapper().readTree(json.toString()).get("rerun");
        assertThat(rerun.get("compared").asLong()).as(rerun.toString()).isPositive();
        assertThat(rerun.get("divergences").asLong()).as("other gains command the moves differently: " + rerun)
            .isPositive();
        assertThat(rerun.get("new_gains_tracking_rms").asDouble())
            .isNotEqualTo(rerun.get("recorded_gains_tracking_rms").asDouble());
    }

    @Test
    void shouldGiveOtherCommandsWithOtherGains() throws Exception
    {
        final Path gains = Files.writeString(temp.resolve("soft.yaml"), "positionGainPerS: 60\n" +
            "velocityGainNmSPerRad: 0.05\n");
        JsonNode window = null;
        for (int attempt = 0; attempt < 3; attempt++)
        {
            final Path run = temp.resolve("soft-" + attempt);
            final JsonNode controller = playIntoController("i17-soft-" + attempt, run, "--gains", gains.toString());
            assertThat(controller.get("cycles").asLong()).isEqualTo(sensorFrames);
            window = compare(run).get("window");
            if (window.get("last_cycle").asLong() > FIRST_MOVE_CYCLE + 50)
            {
                break;
            }
        }
        if (window.get("last_cycle").asLong() > FIRST_MOVE_CYCLE + 50)
        {
            assertThat(window.get("commands_differ").asLong()).as("the moves are commanded differently").isPositive();
        }
        else
        {
            // cut short before the moves by a state one run left (a trip or a skipped frame): what the gains do
            // there is judged over the recording itself, above
            assertThat(window.get("until").asText()).as(window.toString()).doesNotStartWith("another setpoint")
                .isNotEqualTo("the end of the cycles in both");
        }
    }

    @Test
    void shouldHostALawGivenByClassInTheControllerAloneAndReRunItBitForBit() throws Exception
    {
        final String law = "io.rfmrt.control.law.PdFeedForwardLaw";
        final Path run = temp.resolve("law");
        final JsonNode controller = playIntoController("i17-law", run, "--law", law);
        assertThat(controller.get("cycles").asLong()).isEqualTo(sensorFrames);
        assertThat(Files.readString(run.resolve("controller.yaml"))).contains("law: " + law);
        final CliRun rerun = CliRun.of("replay", run.toString(), "--rerun", "--law", law, "--json");
        assertThat(rerun.exit()).as(rerun.err()).isZero();
        final JsonNode result = new ObjectMapper().readTree(rerun.out()).get("rerun");
        assertThat(result.get("compared").asLong()).as(rerun.out()).isPositive();
        assertThat(result.get("divergences").asLong()).as(rerun.out()).isZero();
    }

    @Test
    void shouldPlayAsRecordedAndTwiceAsFastIntoAPlainNodeWithTheRecordedNumbers() throws Exception
    {
        final List<Long> recorded = sensorSeqs(recording.resolve("journal/controller"));
        assertThat(recorded).hasSize((int)sensorFrames);
        final JsonNode once = playIntoNode("i17-rate1", temp.resolve("rate1"), recorded.size(), "--speed", "1.0");
        final JsonNode twice = playIntoNode("i17-rate2", temp.resolve("rate2"), recorded.size(), "--speed", "2.0");
        assertThat(sensorSeqs(temp.resolve("rate1/journal"))).isEqualTo(recorded);
        assertThat(sensorSeqs(temp.resolve("rate2/journal"))).isEqualTo(recorded);
        final double span = once.get("recorded_span_s").asDouble();
        // loose bounds: the benchmark reports the real timing
        assertThat(once.get("duration_s").asDouble()).isBetween(span * 0.99, span * 1.2 + 0.2);
        assertThat(twice.get("duration_s").asDouble()).isBetween(span / 2 * 0.99, span / 2 * 1.2 + 0.2);
        for (final JsonNode s : List.of(once, twice))
        {
            assertThat(s.get("timing_error_p50_us").asDouble()).isLessThanOrEqualTo(
                s.get("timing_error_p99_us").asDouble());
            assertThat(s.get("timing_error_p99_us").asDouble()).isLessThanOrEqualTo(
                s.get("timing_error_max_us").asDouble());
            assertThat(s.get("send_failures").asLong()).isZero();
        }
    }

    @Test
    void shouldStartPausedAndPauseAndResumeOnSigusr1WithoutLosingOrRepeatingAFrame() throws Exception
    {
        final List<Long> recorded = sensorSeqs(recording.resolve("journal/controller"));
        final JsonNode summary = playIntoNode("i17-pause", temp.resolve("pause"), recorded.size(),
            (play, counters) ->
            {
                play.awaitErr(line -> line.startsWith("paused (send SIGUSR1 to start"), 60);
                // started paused: the player has published nothing, so the node has handled nothing
                assertThat(handled(counters)).isZero();
                signal(play, "USR1");
                play.awaitErr(line -> line.startsWith("resumed at "), 30);
                awaitHandled(counters, 200);
                signal(play, "USR1");
                play.awaitErr(line -> line.startsWith("paused at "), 30);
                // paused: once the frame in flight is handled, the count stands still until the next SIGUSR1
                final long atPause = awaitSteady(counters);
                assertThat(atPause).isLessThan(recorded.size());
                signal(play, "USR1");
                // the second resume is past the 200 frames (0.2 s of the recording) handled before the pause
                play.awaitErr(line -> line.startsWith("resumed at ") && resumedAt(line) >= 0.19, 30);
            }, "--start-paused", "--speed", "1.0");
        assertThat(sensorSeqs(temp.resolve("pause/journal"))).as("every frame once, in order").isEqualTo(recorded);
        assertThat(summary.get("paused_s").asDouble()).isPositive();
    }

    private static double resumedAt(final String line)
    {
        return Double.parseDouble(line.substring("resumed at ".length(), line.indexOf(" s of the recording")));
    }

    private static void awaitHandled(final Path counters, final long atLeast) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (handled(counters) < atLeast)
        {
            assertThat(System.nanoTime() - deadline).as("handled " + atLeast + " frames within 60 s").isNegative();
            Thread.sleep(20);
        }
    }

    /** The handled count once it has stood still for 200 ms (a paused player publishes nothing more). */
    private static long awaitSteady(final Path counters) throws InterruptedException
    {
        long last = handled(counters);
        long since = System.nanoTime();
        final long deadline = since + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() - since < TimeUnit.MILLISECONDS.toNanos(200))
        {
            assertThat(System.nanoTime() - deadline).as("the count stood still within 30 s").isNegative();
            Thread.sleep(20);
            final long now = handled(counters);
            if (now != last)
            {
                last = now;
                since = System.nanoTime();
            }
        }
        return last;
    }

    @Test
    void shouldRenumberThreeLoopsContinuouslyAndCutAsTheSummaryDoes() throws Exception
    {
        // at the maximum rate the player keeps at most 32 frames ahead of the node (its credit): no stall of a loaded
        // machine can overrun the node's ring, so the numbering is all that is judged
        final JsonNode loops = playIntoNode("i17-loop", temp.resolve("loop"), 3 * sensorFrames, "--loop", "3",
            "--renumber", "--speed", "max");
        assertThat(loops.get("loops").asLong()).isEqualTo(3);
        final List<Long> seqs = sensorSeqs(temp.resolve("loop/journal"));
        assertThat(seqs).hasSize((int)(3 * sensorFrames));
        for (int i = 0; i < seqs.size(); i++)
        {
            assertThat(seqs.get(i)).isEqualTo(i + 1L);
        }

        // a second inside the recorded frames, from the journal's start; the summary's cut of it says how many
        // frames --from/--to keep
        final double firstFrame = firstFrameSeconds(recording.resolve("journal/controller"));
        final String from = String.format(java.util.Locale.ROOT, "+%.3fs", firstFrame + 0.5);
        final String to = String.format(java.util.Locale.ROOT, "+%.3fs", firstFrame + 1.5);
        final CliRun summary = CliRun.of("replay", recording.resolve("journal/controller").toString(), "--from",
            from, "--to", to, "--source", "1", "--json");
        assertThat(summary.exit()).as(summary.err()).isZero();
        final long inWindow = new ObjectMapper().readTree(summary.out()).get("journals").get(0).get("sources")
            .get(0).get("frames").asLong();
        // the recording's own send times say how many of its frames lie in the second, bounds included (a stall
        // of this machine while the demo recorded leaves fewer than the 1,000 of a 1 kHz plant)
        assertThat(inWindow).isPositive().isLessThanOrEqualTo(1001L)
            .isEqualTo(framesSentBetween(recording.resolve("journal/controller"), from, to));
        final JsonNode cut = playIntoNode("i17-cut", temp.resolve("cut"), inWindow, "--from", from, "--to", to,
            "--speed", "max");
        assertThat(cut.get("frames").asLong()).isEqualTo(inWindow);
        assertThat(cut.get("receivers").get(0).asInt()).isEqualTo(2);
    }

    @Test
    void shouldRefuseARecordingOfAnotherLayoutVersionInOneLine() throws Exception
    {
        final Path old = temp.resolve("old");
        // a version 2 journal (before the layout): its header and one FRAME record
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(old).build();
            ExcerptAppender appender = queue.createAppender())
        {
            try (DocumentContext doc = appender.writingDocument())
            {
                doc.wire().bytes().writeByte((byte)2).writeByte((byte)127).writeShort((short)0xFFFF).writeInt(2)
                    .writeLong(1).writeLong(0x4C4E4A54524D4652L).writeLong(System.currentTimeMillis())
                    .writeLong(System.nanoTime()).writeInt(1).writeInt(0)
                    // the one writer it names: id 0, "isr"
                    .writeShort((short)0).writeShort((short)3).write("isr".getBytes(StandardCharsets.US_ASCII));
            }
            try (DocumentContext doc = appender.writingDocument())
            {
                doc.wire().bytes().writeByte((byte)2).writeByte((byte)1).writeShort((short)0).writeInt(2)
                    .writeLong(2).writeLong(1).writeLong(System.nanoTime()).writeLong(0).writeLong(0).writeLong(0)
                    .writeLong(0).writeInt(1).writeInt(0).writeInt(0).writeInt(0);
            }
        }
        final CliRun run = CliRun.of("replay", old.toString(), "--play", "--network", "i17-nowhere");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err().lines()).singleElement().asString()
            .startsWith("rfmrt: playback: journal file " + old + "/")
            .endsWith(" has record version 2, which does not record the node's channel layout; playback needs " +
                "version 3 (record it again with this rfmrt)");
        // and the command line's own refusals
        assertThat(CliRun.of("replay", recording.toString(), "--play").exit()).isEqualTo(2);
        assertThat(CliRun.of("replay", recording.toString(), "--speed", "2").exit()).isEqualTo(2);
        assertThat(CliRun.of("replay", recording.toString(), "--play", "--network", "x", "--speed", "fast").err())
            .contains("--speed 'fast' is not a speed");
        final CliRun missing = CliRun.of("replay", recording.toString(), "--play", "--network", "i17-absent-net",
            "--source", "1");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("network 'i17-absent-net' does not exist");
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** A fresh controller alone on a network, the recording's sensor frames played into it; its summary. */
    private static JsonNode playIntoController(final String network, final Path out, final String... extra)
        throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("demo", "--controller-only", "--network", network, "--json",
            "--out", out.toString()));
        args.addAll(List.of(extra));
        final Child controller = Child.start(args.toArray(new String[0]));
        try
        {
            controller.awaitErr(line -> line.contains("--controller-only: ready"), 60);
            final Child play = Child.start("replay", recording.toString(), "--play", "--network", network,
                "--source", Integer.toString(ControlFrames.PLANT_NODE), "--json");
            assertThat(play.await(120)).as(play.toString()).isZero();
            final JsonNode played = new ObjectMapper().readTree(play.out());
            assertThat(played.get("frames").asLong()).isEqualTo(sensorFrames);
            // the playback told the controller it ended (plant.done): it stops on its own; exit 1 only for a
            // following-error fault, which the played (open-loop) positions cause once a stall made it trip
            final int exit = controller.await(60);
            final JsonNode summary = new ObjectMapper().readTree(controller.out());
            assertThat(exit).as(controller.toString()).isEqualTo(
                summary.get("following_error_faults").asLong() > 0 ? 1 : 0);
            return summary;
        }
        finally
        {
            controller.destroy();
        }
    }

    private static JsonNode compare(final Path run) throws IOException
    {
        final CliRun compare = CliRun.of("replay", recording.toString(), run.toString(), "--compare", "--json");
        assertThat(compare.exit()).as(compare.err()).isZero();
        return new ObjectMapper().readTree(compare.out());
    }

    /** What a test does with the playing process and the node's counters file while it plays. */
    @FunctionalInterface
    private interface WhilePlaying
    {
        void with(Child play, Path counters) throws Exception;
    }

    /** A node without an app receiving axis.sensor, journaling into DIR/journal; the playback's summary. */
    private static JsonNode playIntoNode(final String network, final Path dir, final long frames,
        final String... extra) throws Exception
    {
        return playIntoNode(network, dir, frames, (play, counters) -> { }, extra);
    }

    private static long handled(final Path counters)
    {
        return io.rfmrt.runtime.counters.CountersSnapshot.read(counters).value(
            io.rfmrt.runtime.counters.CounterIds.runtime(io.rfmrt.runtime.RuntimeCounter.FRAMES_HANDLED));
    }

    private static void signal(final Child child, final String signal) throws Exception
    {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(child.process.pid()))
            .inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    private static JsonNode playIntoNode(final String network, final Path dir, final long frames,
        final WhilePlaying whilePlaying, final String... extra) throws Exception
    {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("layout.yaml"), ControlFrames.layoutText());
        Files.writeString(dir.resolve("node.yaml"), """
            device: %s
            layout: layout.yaml
            receive:
              channels: [axis.sensor]
              wait: blocking
            threads:
              cpus: []
              isr:       {priority: 0}
              consumer:  {priority: 0}
              lockMemory: false
            journal:
              enabled: true
              dir: journal
            heartbeat: 0
            """.formatted(ControlFrames.deviceUri(network, ControlFrames.CONTROLLER_NODE)));
        final Child node = Child.start("node", "--config", dir.resolve("node.yaml").toString());
        try
        {
            node.awaitOut(line -> line.startsWith("node 2 on"), 60);
            final List<String> args = new ArrayList<>(List.of("replay", recording.toString(), "--play", "--network",
                network, "--source", "1", "--json"));
            args.addAll(List.of(extra));
            final Child play = Child.start(args.toArray(new String[0]));
            whilePlaying.with(play, simRoot.resolve(network).resolve("node-2.counters"));
            assertThat(play.await(120)).as(play.toString()).isZero();
            final JsonNode summary = new ObjectMapper().readTree(play.out());
            assertThat(summary.get("frames").asLong()).isEqualTo(frames);
            // the node stops once it has handled every frame (its counters file says so), then its journal is read
            final Path counters = simRoot.resolve(network).resolve("node-2.counters");
            final int handled = io.rfmrt.runtime.counters.CounterIds.runtime(
                io.rfmrt.runtime.RuntimeCounter.FRAMES_HANDLED);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline &&
                io.rfmrt.runtime.counters.CountersSnapshot.read(counters).value(handled) < frames)
            {
                Thread.sleep(20);
            }
            assertThat(io.rfmrt.runtime.counters.CountersSnapshot.read(counters).value(handled)).isEqualTo(frames);
            node.process.toHandle().destroy();
            assertThat(node.await(30)).as(node.toString()).isZero();
            return summary;
        }
        finally
        {
            node.destroy();
        }
    }

    private static double firstFrameSeconds(final Path journal)
    {
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FRAME)
                {
                    return (record.sendNanos() - reader.header().nanos()) / 1e9;
                }
            }
        }
        throw new AssertionError("no frame in " + journal);
    }

    /** The plant's frames whose send time lies between two bounds from the journal's start, both included. */
    private static long framesSentBetween(final Path journal, final String from, final String to)
    {
        final long earliest = TimeBound.parse(from).nanos();
        final long latest = TimeBound.parse(to).nanos();
        long frames = 0;
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FRAME && record.source() == ControlFrames.PLANT_NODE)
                {
                    final long sinceStart = record.sendNanos() - reader.header().nanos();
                    if (sinceStart >= earliest && sinceStart <= latest)
                    {
                        frames++;
                    }
                }
            }
        }
        return frames;
    }

    private static List<Long> sensorSeqs(final Path journal)
    {
        final List<Long> seqs = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord record = new JournalRecord();
            while (reader.next(record))
            {
                if (record.kind() == RecordKind.FRAME && record.source() == ControlFrames.PLANT_NODE)
                {
                    seqs.add(record.seq());
                }
            }
        }
        return seqs;
    }

    /** An rfmrt child on the test's emulator root, its output collected line by line. */
    private static final class Child
    {
        final Process process;
        private final List<String> out = new ArrayList<>();
        private final List<String> err = new ArrayList<>();
        private final Thread outReader;
        private final Thread errReader;

        private Child(final Process process)
        {
            this.process = process;
            this.outReader = collect(process.getInputStream(), out);
            this.errReader = collect(process.getErrorStream(), err);
        }

        static Child start(final String... args) throws IOException
        {
            return new Child(CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, args));
        }

        private static Thread collect(final java.io.InputStream stream, final List<String> lines)
        {
            final Thread t = new Thread(() ->
            {
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream,
                    StandardCharsets.UTF_8)))
                {
                    String line;
                    while ((line = reader.readLine()) != null)
                    {
                        synchronized (lines)
                        {
                            lines.add(line);
                            lines.notifyAll();
                        }
                    }
                }
                catch (final IOException ignore)
                {
                    // the process ended
                }
            });
            t.setDaemon(true);
            t.start();
            return t;
        }

        int await(final int seconds) throws InterruptedException
        {
            if (!process.waitFor(seconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new AssertionError("rfmrt did not end in " + seconds + " s: " + this);
            }
            outReader.join(5_000);
            errReader.join(5_000);
            return process.exitValue();
        }

        void awaitOut(final Predicate<String> line, final int seconds) throws InterruptedException
        {
            await(out, line, seconds);
        }

        void awaitErr(final Predicate<String> line, final int seconds) throws InterruptedException
        {
            await(err, line, seconds);
        }

        private void await(final List<String> lines, final Predicate<String> wanted, final int seconds)
            throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            synchronized (lines)
            {
                while (lines.stream().noneMatch(wanted))
                {
                    final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0 || !process.isAlive() && lines.stream().noneMatch(wanted))
                    {
                        if (left > 0)
                        {
                            lines.wait(200);
                            if (lines.stream().anyMatch(wanted))
                            {
                                return;
                            }
                        }
                        throw new AssertionError("no such line: " + this);
                    }
                    lines.wait(Math.min(left, 200));
                }
            }
        }

        List<String> outLines()
        {
            synchronized (out)
            {
                return List.copyOf(out);
            }
        }

        String out()
        {
            return String.join("\n", outLines());
        }

        void destroy() throws InterruptedException
        {
            if (process.isAlive())
            {
                process.toHandle().destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                }
            }
        }

        @Override
        public String toString()
        {
            synchronized (out)
            {
                synchronized (err)
                {
                    return "stdout:\n" + String.join("\n", out) + "\nstderr:\n" + String.join("\n", err);
                }
            }
        }
    }
}
