package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Converters;
import io.rfmrt.cli.common.OutputFiles;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.Renamed;
import io.rfmrt.cli.common.UsageException;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.awt.BasicStroke;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rfmrt bench ramp}: for each mode, raise the frame rate step by step until a step loses a frame, its p99
 * passes the bound or its receiver fails; report per mode the highest rate with no loss within the bound, and per
 * step the latency percentiles, CPU and losses by cause. Table, {@code --json}, and a PNG (rate on x, p99 and CPU on
 * y, one line per mode). The floors are measured once, in the same run.
 */
@Command(name = "ramp", mixinStandardHelpOptions = true,
    description = "Raise the rate per mode until a frame is lost or p99 passes a bound; table, JSON and a plot.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
final class BenchRamp implements Callable<Integer>
{
    static final List<Integer> DEFAULT_STEPS = List.of(1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
        200_000, 500_000);

    @Spec
    CommandSpec spec;

    @Mixin
    BenchRun.ModeRows modeRows;

    @Option(names = "--rates", split = ",", paramLabel = "HZ",
        description = "The steps' frame rates (default 1000,2000,5000,10000,20000,50000,100000,200000,500000).")
    List<Integer> rates;

    @Option(names = "--steps", split = ",", hidden = true, description = "The old name of --rates.")
    List<Integer> steps;

    @Option(names = "--step-seconds", defaultValue = "10", paramLabel = "S",
        description = "Measured seconds per step, after one second of warm-up (default ${DEFAULT-VALUE}).")
    int stepSeconds;

    @Option(names = "--p99-bound", defaultValue = "1ms", converter = Converters.Duration.class, paramLabel = "DURATION",
        description = "A step whose p99 exceeds this ends the mode's ramp (default ${DEFAULT-VALUE}).")
    long p99BoundNanos;

    @Option(names = "--size", defaultValue = "64", paramLabel = "BYTES",
        description = "Payload bytes (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--sender", defaultValue = BenchRun.UNIFORM_JITTER, paramLabel = "KIND",
        description = "uniform-jitter (default) or fixed-period, as for bench compare.")
    String sender;

    @Option(names = "--plot", defaultValue = "bench-ramp.png", paramLabel = "FILE",
        description = "Where the PNG goes (default ./${DEFAULT-VALUE}).")
    Path plot;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        final List<String> modes = modeRows.selected(spec);
        final List<Integer> given = Renamed.pick(spec, "--steps", steps, this.rates);
        final List<Integer> rates = given == null ? DEFAULT_STEPS : given;
        if (stepSeconds < 1 || stepSeconds > 600 || size < 8 || size > BenchRun.CHANNEL.maxPayload() ||
            p99BoundNanos <= 0 || rates.isEmpty() || rates.stream().anyMatch(r -> r < 1 || r > 1_000_000))
        {
            throw new UsageException("--step-seconds 1..600, --size 8.." + BenchRun.CHANNEL.maxPayload() +
                ", --p99-bound > 0, --rates 1..1000000 Hz each");
        }
        BenchCompare.checkSender(sender);
        OutputFiles.checkWritable("--plot", plot);
        final PrintWriter out = spec.commandLine().getOut();
        final double boundUs = p99BoundNanos / 1e3;
        final List<Ramp> ramps = new ArrayList<>();
        final List<BenchRun.ModeRun> all = new ArrayList<>();
        final Progress progress = Progress.steps(spec.commandLine().getErr(), modes.size() * rates.size() + 1,
            stepSeconds + BenchRun.STEP_OVERHEAD_SECONDS);
        for (final String name : modes)
        {
            ramps.add(ramp(progress, name, rates, boundUs));
            ramps.get(ramps.size() - 1).steps().forEach(step -> all.add(step.run()));
        }
        progress.step("measuring the floors ...");
        final BenchRun.Floors floors = BenchRun.floors(Math.min(stepSeconds, 10));
        progress.finish();
        writePlot(ramps, plot);
        final Result result = new Result("ramp", MachineInfo.describe(), ZonedDateTime.now().toString(), stepSeconds,
            size, sender, boundUs, BenchCompare.WARMUP_NOTE + "; " + BenchCompare.CPU_NOTE, ramps, floors,
            plot.toString());
        final int exit = BenchCompare.failures(all, spec.commandLine().getErr());
        if (json)
        {
            out.println(ChildResult.json(result));
            return exit;
        }
        print(out, result);
        return exit;
    }

    /**
     * One mode's ramp.
     *
     * @param mode          the receive mode.
     * @param highestRateHz the highest rate with no frame lost and the p99 within the bound (0: none).
     * @param stopped       why the ramp stopped.
     * @param steps         each step's run.
     */
    record Ramp(String mode, int highestRateHz, String stopped, List<RampStep> steps)
    {
    }

    /**
     * One step of a ramp: the mode's run at one rate ({@code rate_hz} after its figures).
     *
     * @param run    the run.
     * @param rateHz the rate.
     */
    record RampStep(@JsonUnwrapped BenchRun.ModeRun run, int rateHz)
    {
    }

    /**
     * What {@code bench ramp --json} prints.
     *
     * @param benchmark   "ramp".
     * @param machine     the machine it ran on.
     * @param date        when.
     * @param stepSeconds each step's length.
     * @param sizeBytes   the frames' payload.
     * @param sender      the sender's pacing.
     * @param p99BoundUs  the p99 a rate must keep, µs.
     * @param note        how the figures are taken.
     * @param ramps       each mode's ramp.
     * @param floors      the timer and one-hop wake floors.
     * @param plot        the PNG.
     */
    record Result(String benchmark, MachineInfo machine, String date, int stepSeconds, int sizeBytes,
        String sender, double p99BoundUs, String note, List<Ramp> ramps, BenchRun.Floors floors, String plot)
    {
    }

    /**
     * Run one mode at each rate until a step fails, loses a frame or breaks the bound.
     */
    private Ramp ramp(final Progress progress, final String name, final List<Integer> rates, final double boundUs)
        throws Exception
    {
        final List<RampStep> done = new ArrayList<>();
        int highest = 0;
        String stop = "every step passed";
        for (final int rate : rates)
        {
            progress.step(String.format("ramp %s: %d Hz for %d s ...", name, rate, stepSeconds));
            final BenchRun.ModeRun r = BenchRun.run(BenchRun.mode(name),
                BenchRun.Traffic.steady(sender, rate, stepSeconds, size));
            done.add(new RampStep(r, rate));
            if (r.failure() != null)
            {
                stop = "failed at " + rate + " Hz: " + r.failure();
                break;
            }
            if (r.figures().lost() != 0)
            {
                stop = "lost " + r.figures().lost() + " frames at " + rate + " Hz";
                break;
            }
            if (r.figures().p99Us() > boundUs)
            {
                stop = "p99 " + r.figures().p99Us() + " us > " + boundUs + " us at " + rate + " Hz";
                break;
            }
            highest = rate;
        }
        progress.skip(rates.size() - done.size());
        return new Ramp(name, highest, stop, done);
    }

    private static void print(final PrintWriter out, final Result result)
    {
        out.printf("%n%d-byte frames, %s sender, %d s per step, p99 bound %.0f us; latency publish -> handler end " +
            "(us)%n", result.sizeBytes(), result.sender(), result.stepSeconds(), result.p99BoundUs());
        out.printf("%-18s %8s %8s %8s %8s %8s %9s %6s %7s %6s %6s %6s%n", "mode", "rate", "sent/s", "lost", "p50",
            "p99", "p99.9", "max", "cpu%", "gaps", "torn", "dmadrop");
        for (final Ramp ramp : result.ramps())
        {
            for (final RampStep step : ramp.steps())
            {
                final BenchRun.ModeRun r = step.run();
                if (r.failure() != null)
                {
                    out.printf("%-18s %8s FAILED: %s%n", ramp.mode(), step.rateHz(), r.failure());
                    continue;
                }
                final BenchRun.ReceiverFigures f = r.figures();
                out.printf("%-18s %8s %8s %8s %8s %8s %9s %6s %7s %6s %6s %6s%n", ramp.mode(),
                    step.rateHz(), r.sendRateHz(), f.lost(), f.p50Us(), f.p99Us(), f.p999Us(), f.maxUs(), f.cpuPct(),
                    r.counts().gaps(), r.counts().torn(), r.counts().dmaDropped());
            }
        }
        out.println();
        for (final Ramp ramp : result.ramps())
        {
            for (final RampStep step : ramp.steps())
            {
                // the sender's hold-ups beside a step's loss: most steps lose nothing, and say nothing here
                if (step.run().failure() == null && step.run().figures().lost() > 0)
                {
                    final String row = ramp.mode() + " at " + step.rateHz() + " Hz";
                    BenchCompare.lostLine(out, row, step.run());
                    BenchCompare.senderLine(out, row, step.run());
                }
            }
        }
        for (final Ramp ramp : result.ramps())
        {
            out.printf("%-18s highest rate with 0 lost and p99 within the bound: %s Hz (%s)%n", ramp.mode(),
                ramp.highestRateHz(), ramp.stopped());
        }
        final Histograms.Percentiles timer = result.floors().timer().percentiles();
        final Histograms.Percentiles wake = result.floors().wake().percentiles();
        out.printf("floors: timer (cyclictest) p50 %s p99 %s max %s us; one-hop futex wake p50 %s p99 %s max %s us%n",
            timer.p50Us(), timer.p99Us(), timer.maxUs(), wake.p50Us(), wake.p99Us(), wake.maxUs());
        out.println("plot: " + result.plot());
    }

    private static void writePlot(final List<Ramp> ramps, final Path plot) throws Exception
    {
        final XYChart chart = new XYChartBuilder().width(1000).height(550)
            .title("rfmrt bench ramp: p99 latency and receiver CPU per rate")
            .xAxisTitle("frames per second").yAxisTitle("p99 publish -> handler end (µs)").build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true)
            .setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.setYAxisGroupTitle(1, "receiver CPU (% of one core), dashed");
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        for (final Ramp ramp : ramps)
        {
            final List<Double> x = new ArrayList<>();
            final List<Double> p99 = new ArrayList<>();
            final List<Double> cpu = new ArrayList<>();
            for (final RampStep step : ramp.steps())
            {
                final BenchRun.ModeRun r = step.run();
                if (r.failure() == null && r.figures().cpuPct() != null)
                {
                    x.add((double)step.rateHz());
                    p99.add(Math.max(0.1, r.figures().p99Us()));
                    cpu.add(Math.max(0.1, r.figures().cpuPct()));
                }
            }
            if (!x.isEmpty())
            {
                chart.addSeries(ramp.mode() + " p99", x, p99);
                final XYSeries load = chart.addSeries(ramp.mode() + " cpu%", x, cpu);
                load.setYAxisGroup(1);
                load.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[]{6f, 4f}, 0f));
            }
        }
        if (chart.getSeriesMap().isEmpty())
        {
            return;
        }
        final Path parent = plot.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        BitmapEncoder.saveBitmap(chart, plot.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
