package io.rfmrt.cli.tune;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.Renamed;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.GainsFile;
import io.rfmrt.control.tune.ExcitedCycles;
import io.rfmrt.control.tune.FrequencyResponse;
import io.rfmrt.control.tune.GainSuggestion;
import io.rfmrt.control.tune.LoopFigures;
import io.rfmrt.control.tune.LoopReport;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayException;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplaySummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rfmrt tune suggest SOURCE}: velocity-loop PI gains, a position P and the acceleration feed-forward from a
 * measured plant ({@link GainSuggestion}), written as a gains file that {@code rfmrt demo --gains} and a node's
 * {@code app.gains} read, with the margins the measured plant gives with them. SOURCE is the JSON that
 * {@code rfmrt replay DIR --frequency-response --json} wrote, or a journal folder (analysed the same way). Exit 0 with
 * a suggestion, 1 when none can be made (one line), 2 for a bad command line.
 */
@Command(name = "suggest", mixinStandardHelpOptions = true,
    description = "Suggest cascade gains from a measured plant (the JSON of replay --frequency-response --json, or " +
        "a journal folder with a torque excitation).",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class TuneSuggest implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SOURCE", description = "A frequency-response JSON file, or a journal folder.")
    Path source;

    @Option(names = "--phase-margin", paramLabel = "DEG",
        description = "The phase margin to design for, 10 to 80 degrees (default 50).")
    double phaseMargin = GainSuggestion.PHASE_MARGIN_DEFAULT_DEG;

    @Option(names = "--position-ratio", paramLabel = "R", description = "Velocity-loop crossover over the position " +
        "gain Kp (default 4).")
    double positionRatio = GainSuggestion.POSITION_RATIO_DEFAULT;

    @Option(names = "--integral-ratio", paramLabel = "R", description = "Velocity-loop crossover over the integral " +
        "gain Ki (default 4).")
    double integralRatio = GainSuggestion.INTEGRAL_RATIO_DEFAULT;

    @Option(names = "--base", paramLabel = "FILE", description = "Gains (YAML) whose limits and velocity " +
        "feed-forward are kept (default the standard tune).")
    Path base;

    @Option(names = "--save", paramLabel = "FILE", description = "Write the gains file here (default: print it).")
    Path outFile;

    @Option(names = "--out", hidden = true, description = "The old name of --save (--out is a folder elsewhere).")
    Path oldOut;

    @Option(names = "--json", description = "The suggestion as one JSON object on stdout.")
    boolean json;

    /**
     * The suggestion as JSON.
     *
     * @param gains            the gains suggested.
     * @param crossoverHz      the crossover designed for.
     * @param expected         the margins the measured plant gives with them.
     * @param inertiaKgM2      the rigid inertia measured.
     * @param targetMarginDeg  the phase margin asked for.
     * @param limitedByGain    whether the crossover was lowered to keep the gain margin.
     * @param positionRatio    ωc/Kp.
     * @param integralRatio    ωc/Ki.
     * @param file             where the gains file was written, or null.
     */
    record Result(Map<String, Object> gains, double crossoverHz, LoopFigures.Margins expected, double inertiaKgM2,
        double targetMarginDeg, boolean limitedByGain, double positionRatio, double integralRatio, String file)
    {
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        outFile = Renamed.pick(spec, "--out", oldOut, outFile);
        if (!(positionRatio >= 1) || !(integralRatio >= 1))
        {
            throw new UsageException("--position-ratio " + positionRatio + " and --integral-ratio " + integralRatio +
                " must be at least 1");
        }
        if (!(phaseMargin >= 10 && phaseMargin <= 80))
        {
            throw new UsageException("--phase-margin " + phaseMargin + " must be 10 to 80 degrees");
        }
        try
        {
            final ControllerGains baseGains = base == null ? ControllerGains.standard() :
                GainsFile.load(base, ControllerGains.standard());
            final FrequencyResponse plant = plant();
            final GainSuggestion.Suggestion s = GainSuggestion.suggest(plant, baseGains, phaseMargin, positionRatio,
                integralRatio, GainSuggestion.MIN_GAIN_MARGIN_DEFAULT_DB);
            final String yaml = yaml(s);
            if (outFile != null)
            {
                write(outFile, yaml);
            }
            if (json)
            {
                final Map<String, Object> gains = new LinkedHashMap<>();
                gains.put("positionGainPerS", s.gains().positionGainPerS());
                gains.put("velocityGainNmSPerRad", s.gains().velocityGainNmSPerRad());
                gains.put("velocityIntegralGainPerS", s.gains().velocityIntegralGainPerS());
                gains.put("accelerationFeedForwardKgM2", s.gains().accelerationFeedForwardKgM2());
                out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(
                    new Result(gains, s.crossoverHz(), s.expected(), s.inertiaKgM2(), s.targetMarginDeg(),
                        s.limitedByGain(), positionRatio, integralRatio, outFile == null ? null : outFile.toString())));
            }
            else
            {
                print(out, s, plant);
                if (outFile == null)
                {
                    out.print(yaml);
                }
                else
                {
                    out.printf("gains written to %s (rfmrt demo --gains %s)%n", outFile, outFile);
                }
            }
            out.flush();
            return ExitCodes.OK;
        }
        catch (final ReplayException | IllegalArgumentException | IOException ex)
        {
            err.println("rfmrt: tune suggest " + source + ": " + Failures.firstLine(ex.getMessage()));
            return ExitCodes.ERROR;
        }
    }

    private void print(final PrintWriter out, final GainSuggestion.Suggestion s, final FrequencyResponse plant)
    {
        final ControllerGains g = s.gains();
        out.printf(Locale.ROOT, "measured plant: %d points, %.1f Hz loop rate, rigid inertia %.3e kg·m²%n",
            plant.size(), plant.rateHz(), s.inertiaKgM2());
        out.printf(Locale.ROOT, "design: phase margin %.0f° at the crossover, Kp = ωc/%.1f, Ki = ωc/%.1f, gain " +
            "margin at least %.0f dB%n", s.targetMarginDeg(), positionRatio, integralRatio,
            GainSuggestion.MIN_GAIN_MARGIN_DEFAULT_DB);
        out.printf(Locale.ROOT, "suggested: Kp %.1f /s, Kv %.4f N·m·s/rad, Ki %.1f /s, Kaff %.3e kg·m²%n",
            g.positionGainPerS(), g.velocityGainNmSPerRad(), g.velocityIntegralGainPerS(),
            g.accelerationFeedForwardKgM2());
        out.printf(Locale.ROOT, "expected on the measured plant: crossover %.1f Hz, phase margin %.1f°, gain margin " +
            "%s%s%n", s.expected().crossoverHz(), s.expected().phaseMarginDeg(),
            Double.isInfinite(s.expected().gainMarginDb()) ? "n/a (no -180° crossing measured above the crossover)" :
                String.format(Locale.ROOT, "%.2f dB at %.1f Hz", s.expected().gainMarginDb(),
                    s.expected().phaseCrossoverHz()),
            s.limitedByGain() ? " (crossover lowered to keep the gain margin: the phase margin is above target)" :
                "");
    }

    private static String yaml(final GainSuggestion.Suggestion s)
    {
        final ControllerGains g = s.gains();
        return String.format(Locale.ROOT, "# rfmrt tune suggest: phase margin %.1f deg at %.1f Hz, gain margin %.2f " +
            "dB expected on the measured plant%n" +
            "positionGainPerS: %.6g%nvelocityGainNmSPerRad: %.6g%nvelocityIntegralGainPerS: %.6g%n" +
            "accelerationFeedForwardKgM2: %.6g%n", s.expected().phaseMarginDeg(), s.expected().crossoverHz(),
            s.expected().gainMarginDb(), g.positionGainPerS(), g.velocityGainNmSPerRad(),
            g.velocityIntegralGainPerS(), g.accelerationFeedForwardKgM2());
    }

    private static void write(final Path file, final String text) throws IOException
    {
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        final Path temp = Files.createTempFile(parent, ".gains", ".tmp");
        try
        {
            Files.writeString(temp, text);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        }
        finally
        {
            Files.deleteIfExists(temp);
        }
    }

    /** The measured plant: from the JSON, or by analysing the journals under the folder. */
    private FrequencyResponse plant() throws IOException
    {
        if (Files.isDirectory(source))
        {
            final ExcitedCycles cycles = new ExcitedCycles();
            final ReplaySummary summary = Replay.run(source, ReplayFilter.ALL, ControlJournal.vocabulary(),
                List.of(cycles));
            if (!summary.anythingRead())
            {
                throw new ReplayException("no journal could be read");
            }
            final ExcitedCycles.Series s = cycles.series();
            if (s == null)
            {
                throw new ReplayException("no EXCITATION samples with CONTROL samples of the same cycles");
            }
            return measuredPlant(LoopReport.of(s, 0, LoopReport.OVERLAP_DEFAULT, LoopFigures.MIN_COHERENCE_DEFAULT));
        }
        if (!Files.isRegularFile(source))
        {
            throw new IllegalArgumentException("no such file or folder");
        }
        if (Files.size(source) > 64L << 20)
        {
            throw new IllegalArgumentException("larger than 64 MiB: not a frequency-response JSON");
        }
        final ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
            false);
        final JsonNode root;
        try
        {
            root = mapper.readTree(source.toFile());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("not JSON: " + Failures.firstLine(ex.getMessage()));
        }
        final JsonNode node = root != null && root.has("frequency_response") ? root.get("frequency_response") : root;
        if (node == null || !node.isObject() || !node.has("plant"))
        {
            throw new IllegalArgumentException("no frequency_response with a plant (write it with rfmrt replay DIR " +
                "--frequency-response --json after a torque excitation)");
        }
        final LoopReport report;
        try
        {
            report = mapper.treeToValue(node, LoopReport.class);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("frequency_response: " + Failures.firstLine(ex.getMessage()));
        }
        return measuredPlant(report);
    }

    private static FrequencyResponse measuredPlant(final LoopReport report)
    {
        if (report.plant() == null)
        {
            throw new IllegalArgumentException("the measurement is a " + report.point() + " injection; the plant " +
                "needs a torque injection");
        }
        return report.response(report.plant());
    }
}
