package io.rfmrt.cli.replay;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rfmrt.cli.common.AppJars;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.Renamed;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.GainsFile;
import io.rfmrt.control.replay.ControlAnalysis;
import io.rfmrt.control.replay.ControlRerun;
import io.rfmrt.control.tune.ExcitedCycles;
import io.rfmrt.control.tune.LoopReport;
import io.rfmrt.control.tune.StepReport;
import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.Playback;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayException;
import io.rfmrt.runtime.replay.ReplayExports;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplayFollow;
import io.rfmrt.runtime.replay.ReplayListener;
import io.rfmrt.runtime.replay.ReplaySummary;
import io.rfmrt.runtime.replay.ReplayVocabulary;
import io.rfmrt.runtime.replay.TimeBound;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * {@code rfmrt replay DIR}: reads every journal under DIR and reports; exports CSV, {@code .hgrm} and {@code .hlog},
 * draws PNG plots, re-runs the controller over the recorded control cycles, or tails live journals. With
 * {@code --play} it publishes the recorded frames again onto a network in time ({@link ReplayPlay}); with two folders
 * and {@code --compare} it compares two controller runs cycle by cycle ({@link ReplayCompare}). Exit 0 when at least
 * one journal was read, 1 when none could be (one line on stderr), 2 for a bad command line. See docs/replay.md.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Summarise, export, plot and re-run journals (one node's, or every node journal under DIR); play " +
        "a recording back onto a network; compare two controller runs.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE, ExitCodes.LIST_SIGINT, ExitCodes.LIST_SIGTERM})
public final class ReplayCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    AppJars appJars;

    @Parameters(arity = "1..2", paramLabel = "DIR", description = "A journal folder, or a folder with journals " +
        "below; with --compare, two (the recording, then the run to compare with it).")
    List<Path> dirs;

    Path dir;

    @Option(names = "--play", description = "Publish the recorded frames again onto --network, in time.")
    boolean play;

    @Option(names = "--network", paramLabel = "NAME",
        description = "With --play: the emulated network to play onto.")
    String network;

    @Option(names = "--node", paramLabel = "N",
        description = "With --play: publish as node N (default: the recorded source's node id).")
    Integer node;

    @Option(names = "--speed", paramLabel = "FACTOR",
        description = "With --play: 1.0 = as recorded (default), 2.0 = twice as fast, or max (as fast as the " +
            "receiving nodes keep up, none lost).")
    String speed;

    @Option(names = "--rate", hidden = true, description = "The old name of --speed (a rate is in Hz elsewhere).")
    String rate;

    @Option(names = "--loop", paramLabel = "N",
        description = "With --play: play the recording N times (default 1), or forever.")
    String loop;

    @Option(names = "--start-paused", description = "With --play: wait for SIGUSR1 before the first frame.")
    boolean startPaused;

    @Option(names = "--renumber",
        description = "With --play: number the frames 1, 2, ... per source, on across loops (default: as recorded).")
    boolean renumber;

    @Option(names = "--compare", description = "Compare the controller journals of the two DIRs cycle by cycle.")
    boolean compare;

    @Option(names = "--from", paramLabel = "WHEN",
        description = "Earliest record: seconds from the journal start (+2.5s, 500ms) or an ISO-8601 instant.")
    String from;

    @Option(names = "--to", paramLabel = "WHEN", description = "Latest record, as --from.")
    String to;

    @Option(names = "--source", paramLabel = "N",
        description = "Only frames (and frame faults) from this node; with --play, the sources to play (1,3).")
    String source;

    @Option(names = "--json", description = "The summary as one JSON object on stdout.")
    boolean json;

    @Option(names = "--csv", paramLabel = "FILE",
        description = "One row per frame, every stamp; with --compare, one row per cycle in both runs.")
    Path csv;

    @Option(names = "--hgrm", paramLabel = "DIR",
        description = "One HdrHistogram percentile distribution per stage: DIR/e2e.hgrm, transfer.hgrm, ... (µs).")
    Path hgrm;

    @Option(names = "--hlog", paramLabel = "FILE",
        description = "Every stage's histogram in one HdrHistogram interval log, tagged by stage (ns).")
    Path hlog;

    @Option(names = "--plots", paramLabel = "DIR", description = "PNG plots: latency, percentiles, tracking.")
    Path plots;

    @Option(names = "--rerun", description = "Re-run the controller over the recorded cycles, compare bit for bit.")
    boolean rerun;

    @Option(names = "--gains", paramLabel = "FILE", description = "With --rerun: what-if gains (YAML).")
    Path gains;

    @Option(names = "--recorded-gains", paramLabel = "FILE",
        description = "With --rerun: the gains the node ran with (YAML; default: the standard tune).")
    Path recordedGains;

    @Option(names = "--law", paramLabel = "CLASS",
        description = "With --rerun: the law the node ran (its app.law, a ControlLaw class on the class path; " +
            "--recorded-gains then holds its settings).")
    String law;

    @Option(names = "--frequency-response", description = "Analyse the excitation in a controller's journal: " +
        "the plant, the open and the closed loop (Welch H1 and coherence), margins, bandwidth, delay; Bode plots " +
        "with --plots, the points with --json.")
    boolean frequencyResponse;

    @Option(names = "--step-response", description = "Analyse a step excitation in a controller's journal: rise " +
        "time, overshoot, settling time; the step plot with --plots.")
    boolean stepResponse;

    @Option(names = "--segment", paramLabel = "N", description = "With --frequency-response: points per Welch " +
        "segment, a power of two (default 4096, halved until the excitation holds 4 segments).")
    Integer segment;

    @Option(names = "--overlap", paramLabel = "F", description = "With --frequency-response: how much consecutive " +
        "segments overlap, 0 to 0.9 (default 0.5).")
    Double overlap;

    @Option(names = "--follow", description = "Tail journals still being written; a line per second.")
    boolean follow;

    @Option(names = "--seconds", paramLabel = "S", description = "With --follow: stop after S seconds.")
    Double seconds;

    /** The tuning reports' JSON: their components' names as they are, on indented lines. */
    private static final ObjectMapper TUNING_JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        System.setProperty("java.awt.headless", "true");
        try
        {
            return run(out, err);
        }
        catch (final ReplayException | IllegalArgumentException | UncheckedIOException ex)
        {
            err.println("rfmrt: " + ex.getMessage());
            return ExitCodes.ERROR;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err.println("rfmrt: replay " + dir + ": interrupted");
            return ExitCodes.ERROR;
        }
        catch (final UsageException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            // never a stack trace: Chronicle can throw undeclared checked exceptions
            err.println("rfmrt: replay " + dir + ": " + Failures.describe(ex));
            return ExitCodes.ERROR;
        }
    }

    private int run(final PrintWriter out, final PrintWriter err) throws InterruptedException
    {
        dir = dirs.get(0);
        speed = Renamed.pick(spec, "--rate", rate, speed);
        if (dirs.size() > 1 && !compare)
        {
            throw new UsageException("two folders are for --compare; replay reads one DIR");
        }
        if (!play && (network != null || node != null || speed != null || loop != null || startPaused || renumber))
        {
            throw new UsageException("--network, --node, --speed, --loop, --start-paused and --renumber need " +
                "--play");
        }
        if (play)
        {
            return play(out, err);
        }
        if (compare)
        {
            return compare(out);
        }
        if (seconds != null && (seconds.isNaN() || seconds < 0))
        {
            throw new UsageException("--seconds " + seconds + " is not a positive number of seconds");
        }
        if (gains != null && !rerun)
        {
            throw new UsageException("--gains needs --rerun");
        }
        if (!appJars.jarsGiven() || law != null)
        {
            appJars.use();
        }
        else
        {
            throw new UsageException("--app-jar needs --rerun --law (the law's jar)");
        }
        if (law != null && (!rerun || gains != null))
        {
            throw new UsageException("--law needs --rerun (and takes no what-if --gains)");
        }
        if ((segment != null || overlap != null) && !frequencyResponse)
        {
            throw new UsageException("--segment and --overlap need --frequency-response");
        }
        if ((frequencyResponse || stepResponse) && (follow || rerun || csv != null || hgrm != null ||
            hlog != null))
        {
            throw new UsageException("--frequency-response and --step-response take --plots, --json, --from, --to, " +
                "--source, --segment and --overlap only");
        }
        if (overlap != null && !(overlap >= 0 && overlap <= 0.9))
        {
            throw new UsageException("--overlap " + overlap + " must be 0 to 0.9");
        }
        if (segment != null && (segment < 16 || Integer.bitCount(segment) != 1))
        {
            throw new UsageException("--segment " + segment + " must be a power of two, at least 16");
        }
        final Set<Integer> sources = ReplayPlay.sources(source);
        if (sources.size() > 1)
        {
            throw new UsageException("--source " + source + ": the summary takes one source node (several " +
                "are for --play)");
        }
        final TimeBound[] bounds = bounds();
        final ReplayFilter filter = new ReplayFilter(bounds[0], bounds[1],
            sources.isEmpty() ? ReplayFilter.ALL_SOURCES : sources.iterator().next());
        final ControllerGains recorded = recordedGains == null ? ControllerGains.standard() :
            GainsFile.load(recordedGains, ControllerGains.standard());
        final ControllerGains whatIf = gains == null ? null : GainsFile.load(gains, recorded);
        final ReplayVocabulary vocabulary = ControlJournal.vocabulary();
        final ControlAnalysis analysis = new ControlAnalysis();
        final List<ReplayListener> listeners = new ArrayList<>();
        listeners.add(analysis);
        final ReplayExports.Csv csvOut = csv == null ? null : new ReplayExports.Csv(csv);
        if (csvOut != null)
        {
            listeners.add(csvOut);
        }
        final ControlRerun control = rerun || (plots != null && !frequencyResponse && !stepResponse) ?
            new ControlRerun() : null;
        if (control != null)
        {
            listeners.add(control);
        }
        final boolean tuning = frequencyResponse || stepResponse;
        final ExcitedCycles excited = tuning ? new ExcitedCycles() : null;
        if (excited != null)
        {
            listeners.add(excited);
        }
        final ReplayPlots.Latency latency = plots == null || tuning ? null : new ReplayPlots.Latency();
        if (latency != null)
        {
            listeners.add(latency);
        }
        final ReplaySummary summary;
        try
        {
            if (follow)
            {
                final AtomicBoolean stop = new AtomicBoolean();
                // --seconds counts from the first poll, once the journals are open (opening them can take longer
                // than a short --seconds on a loaded machine)
                final long[] end = {0};
                final Thread main = Thread.currentThread();
                final Thread hook = new Thread(() ->
                {
                    stop.set(true);
                    try
                    {
                        main.join(2000);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                    }
                });
                Runtime.getRuntime().addShutdownHook(hook);
                try
                {
                    final ReplayFollow.Progress progress = new ReplayFollow.Progress()
                    {
                        @Override
                        public void unreadable(final String message)
                        {
                            out.println(message);
                        }

                        @Override
                        public void second(final double s, final long frames, final Histogram e2e,
                            final List<NodeAnalysis> nodes)
                        {
                            out.println(ReplayFormatter.followLine(s, frames, e2e, nodes, analysis));
                            out.flush();
                        }
                    };
                    summary = ReplayFollow.follow(dir, filter, vocabulary, listeners, progress, () ->
                    {
                        if (end[0] == 0)
                        {
                            end[0] = seconds == null ? Long.MAX_VALUE : System.nanoTime() + (long)(seconds * 1e9);
                        }
                        return stop.get() || System.nanoTime() > end[0];
                    });
                }
                finally
                {
                    try
                    {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    }
                    catch (final IllegalStateException ex)
                    {
                        // shutting down already
                    }
                }
            }
            else
            {
                summary = Replay.run(dir, filter, vocabulary, listeners);
            }
        }
        finally
        {
            if (csvOut != null)
            {
                csvOut.close();
            }
        }
        if (!summary.anythingRead())
        {
            summary.nodes().forEach(node -> err.println("rfmrt: " + node.problem()));
            return ExitCodes.ERROR;
        }
        if (tuning)
        {
            return tuning(out, excited);
        }
        if (!json)
        {
            out.print(ReplayFormatter.text(summary, analysis));
        }
        if (csvOut != null && !json)
        {
            out.printf("csv: %,d frames written to %s%n", csvOut.rows(), csv);
        }
        if (hgrm != null)
        {
            final List<Path> files = ReplayExports.writeHgrm(summary, hgrm);
            if (!json)
            {
                out.printf("hgrm: %s%n", files);
            }
        }
        if (hlog != null)
        {
            ReplayExports.writeHlog(summary, hlog);
            if (!json)
            {
                out.printf("hlog: %d stages, tagged %s, written to %s%n", ReplaySummary.STAGE_ORDER.size(),
                    ReplaySummary.STAGE_ORDER.stream().map(Stage::label).collect(Collectors.joining(",")), hlog);
            }
        }
        if (plots != null)
        {
            final List<Path> files = ReplayPlots.write(plots, summary, latency, control);
            if (!json)
            {
                out.printf("plots: %s%n", files);
            }
        }
        Rerun rerunResult = null;
        if (rerun)
        {
            rerunResult = law == null ? rerun(control, recorded, whatIf) :
                ReplayLaw.rerun(control, law, recordedGains, recorded.periodSeconds());
            if (!json)
            {
                printRerun(out, rerunResult, filter);
            }
        }
        if (json)
        {
            out.println(ChildResult.pretty(ReplayFormatter.report(summary, analysis, rerunResult)));
        }
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * What {@code --frequency-response}/{@code --step-response --json} prints: the reports asked for. The reports
     * keep their components' names ({@code tune suggest} reads them so).
     *
     * @param frequencyResponse the frequency response, or null.
     * @param stepResponse      the step response, or null.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Tuning(@JsonProperty("frequency_response") LoopReport frequencyResponse,
        @JsonProperty("step_response") StepReport stepResponse)
    {
    }

    /** The report of --frequency-response and --step-response, in place of the summary. */
    private int tuning(final PrintWriter out, final ExcitedCycles excited)
    {
        LoopReport frequency = null;
        StepReport step = null;
        final List<Path> files = new ArrayList<>();
        if (frequencyResponse)
        {
            frequency = ReplayTuning.frequency(excited, segment, overlap);
            if (!json)
            {
                ReplayTuning.print(out, frequency);
            }
            if (plots != null)
            {
                files.addAll(ReplayTuning.plots(plots, frequency));
            }
        }
        if (stepResponse)
        {
            step = ReplayTuning.step(excited);
            if (!json)
            {
                ReplayTuning.print(out, step);
            }
            if (plots != null)
            {
                files.add(ReplayTuning.plot(plots, step));
            }
        }
        if (json)
        {
            try
            {
                out.println(TUNING_JSON.writeValueAsString(new Tuning(frequency, step)));
            }
            catch (final JsonProcessingException ex)
            {
                throw new IllegalStateException("cannot write JSON: " + ex.getMessage(), ex);
            }
        }
        else if (!files.isEmpty())
        {
            out.printf("plots: %s%n", files);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private int play(final PrintWriter out, final PrintWriter err) throws InterruptedException
    {
        if (network == null)
        {
            throw new UsageException("--play needs --network NAME (the emulated network to play onto)");
        }
        if (rerun || follow || compare || gains != null || recordedGains != null || csv != null || hgrm != null ||
            hlog != null || plots != null || seconds != null || frequencyResponse || stepResponse ||
            segment != null || overlap != null)
        {
            throw new UsageException("--play takes --network, --node, --source, --speed, --loop, --from, --to, " +
                "--start-paused, --renumber and --json only");
        }
        if (node != null && (node < 0 || node > 255))
        {
            throw new UsageException("--node " + node + " is not a node id 0-255");
        }
        final Playback.Options options = Playback.Options.of(network)
            .withNode(node == null ? -1 : node)
            .withRate(speed == null ? 1.0 : ReplayPlay.rate(speed))
            .withLoops(loop == null ? 1 : ReplayPlay.loops(loop))
            .withRenumber(renumber)
            .withStartPaused(startPaused);
        final TimeBound[] bounds = bounds();
        return new ReplayPlay(dir, bounds[0], bounds[1], ReplayPlay.sources(source), options, json).run(out, err);
    }

    private int compare(final PrintWriter out)
    {
        if (dirs.size() != 2)
        {
            throw new UsageException("--compare needs two folders: the recording and the run to compare with it");
        }
        if (rerun || follow || gains != null || recordedGains != null || hgrm != null || hlog != null ||
            plots != null || seconds != null || from != null || to != null || source != null || frequencyResponse ||
            stepResponse || segment != null || overlap != null)
        {
            throw new UsageException("--compare takes --csv and --json only");
        }
        return ReplayCompare.run(dirs.get(0), dirs.get(1), csv, json, out);
    }

    /** A bad time bound is a bad command line (exit 2), not a failed replay. */
    /**
     * @return {@code --from} and {@code --to}, either null when not given.
     * @throws UsageException when one is not a time, or {@code --from} is later than {@code --to} (of the same
     *                             kind: two times from the start, or two instants).
     */
    private TimeBound[] bounds()
    {
        final TimeBound first = bound("--from", from);
        final TimeBound last = bound("--to", to);
        if (first != null && last != null && first.relative() == last.relative() && first.nanos() > last.nanos())
        {
            throw new UsageException("--from " + from + " is later than --to " + to + "; nothing lies between " +
                "them");
        }
        return new TimeBound[] {first, last};
    }

    private static TimeBound bound(final String option, final String text)
    {
        if (text == null)
        {
            return null;
        }
        try
        {
            return TimeBound.parse(text);
        }
        catch (final ReplayException ex)
        {
            throw new UsageException(option + ": " + ex.getMessage());
        }
    }

    static Rerun rerun(final ControlRerun control, final ControllerGains recorded, final ControllerGains whatIf)
    {
        final ControllerGains used = whatIf == null ? recorded : whatIf;
        final Rerun rerun = Rerun.of(whatIf == null ? "recorded" : "what-if", null, control.compare(used));
        if (whatIf == null)
        {
            return rerun;
        }
        final ControlRerun.Tracking a = control.closedLoop(recorded, AxisParameters.standard());
        final ControlRerun.Tracking b = control.closedLoop(whatIf, AxisParameters.standard());
        return rerun.withWhatIf(a, b);
    }

    /**
     * What {@code --rerun} found, as it prints it and as {@code --json} holds it under {@code rerun}. The first
     * divergence is there when there was one, the closed-loop tracking with both gains for {@code --gains}.
     *
     * @param gains                    "recorded" or "what-if".
     * @param law                      the law re-run ({@code --law}), or null.
     * @param cycles                   control cycles recorded.
     * @param compared                 of them, compared.
     * @param running                  of them, RUNNING.
     * @param divergences              cycles whose command differs.
     * @param firstDivergenceCycle     the first one.
     * @param firstDivergenceRecorded  its recorded torque, N·m.
     * @param firstDivergenceRerun     its re-run torque, N·m.
     * @param recordedGainsTrackingRms closed loop with the recorded gains: tracking rms, rad.
     * @param recordedGainsTrackingMax its largest, rad.
     * @param newGainsTrackingRms      closed loop with the new gains: tracking rms, rad.
     * @param newGainsTrackingMax      its largest, rad.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Rerun(String gains, String law, long cycles, long compared, long running, long divergences,
        Long firstDivergenceCycle, Double firstDivergenceRecorded, Double firstDivergenceRerun,
        Double recordedGainsTrackingRms, Double recordedGainsTrackingMax, Double newGainsTrackingRms,
        Double newGainsTrackingMax)
    {
        /**
         * @param gains which gains.
         * @param law   the law, or null.
         * @param c     the comparison.
         * @return its figures.
         */
        static Rerun of(final String gains, final String law, final ControlRerun.Comparison c)
        {
            final boolean diverged = c.divergences() > 0;
            return new Rerun(gains, law, c.cycles(), c.compared(), c.running(), c.divergences(),
                diverged ? c.firstCycle() : null, diverged ? c.firstRecorded() : null,
                diverged ? c.firstRerun() : null, null, null, null, null);
        }

        Rerun withWhatIf(final ControlRerun.Tracking recorded, final ControlRerun.Tracking next)
        {
            return new Rerun(gains, law, cycles, compared, running, divergences, firstDivergenceCycle,
                firstDivergenceRecorded, firstDivergenceRerun, recorded.rmsRad(), recorded.maxRad(), next.rmsRad(),
                next.maxRad());
        }
    }

    private static void printRerun(final PrintWriter out, final Rerun r, final ReplayFilter filter)
    {
        if (r.cycles() == 0)
        {
            out.println(filter.from() != null || filter.to() != null ?
                "rerun: no control cycles between" + (filter.from() == null ? " the start" : " " +
                    filter.from().text()) + " and" + (filter.to() == null ? " the end" : " " + filter.to().text()) +
                    " (the filter removed every CONTROL_INPUT sample; the spans above show where each journal lies)" :
                "rerun: no CONTROL_INPUT samples in the journals (not a controller node's journal)");
            return;
        }
        out.printf(Locale.ROOT, "rerun (%s): %,d cycles, %,d compared (%,d RUNNING), %,d divergences%n",
            r.law() != null ? "law " + r.law() : r.gains() + " gains", r.cycles(), r.compared(), r.running(),
            r.divergences());
        if (r.firstDivergenceCycle() != null)
        {
            out.printf(Locale.ROOT, "  first divergence: cycle %d, recorded %s N·m, re-run %s N·m%n",
                r.firstDivergenceCycle(), r.firstDivergenceRecorded(), r.firstDivergenceRerun());
        }
        if (r.newGainsTrackingRms() != null)
        {
            out.printf(Locale.ROOT, "  what-if, closed loop on the simulated axis with the recorded setpoints:%n");
            out.printf(Locale.ROOT, "    recorded gains: tracking rms %.4e rad, max %.4e rad%n",
                r.recordedGainsTrackingRms(), r.recordedGainsTrackingMax());
            out.printf(Locale.ROOT, "    new gains:      tracking rms %.4e rad, max %.4e rad%n",
                r.newGainsTrackingRms(), r.newGainsTrackingMax());
        }
    }
}
