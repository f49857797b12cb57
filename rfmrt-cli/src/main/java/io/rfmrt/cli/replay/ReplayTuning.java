package io.rfmrt.cli.replay;

import io.rfmrt.control.tune.ExcitedCycles;
import io.rfmrt.control.tune.FrequencyResponse;
import io.rfmrt.control.tune.LoopFigures;
import io.rfmrt.control.tune.LoopReport;
import io.rfmrt.control.tune.StepReport;
import io.rfmrt.runtime.replay.ReplayException;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code rfmrt replay DIR --frequency-response} and {@code --step-response}: the excitation in a controller's journal
 * analysed ({@link LoopReport}, {@link StepReport}), as text, and with {@code --plots DIR} as PNG: a Bode plot per
 * response ({@code bode-plant.png}, {@code bode-open-loop.png}, {@code bode-closed-loop.png}: magnitude in dB and phase
 * in degrees over a log frequency axis, the coherence below, the margins or the resonance marked) and
 * {@code step.png}. See docs/loop-tuning.md.
 */
final class ReplayTuning
{
    private static final Color MARK = new Color(200, 60, 60);

    private ReplayTuning()
    {
    }

    /**
     * @param cycles       what the replay collected.
     * @param segment      --segment, or null.
     * @param overlap      --overlap, or null.
     * @return the frequency-response report.
     * @throws ReplayException when the journals hold no excitation.
     */
    static LoopReport frequency(final ExcitedCycles cycles, final Integer segment, final Double overlap)
    {
        final ExcitedCycles.Series s = series(cycles);
        return LoopReport.of(s, segment == null ? 0 : segment, overlap == null ? LoopReport.OVERLAP_DEFAULT : overlap,
            LoopFigures.MIN_COHERENCE_DEFAULT);
    }

    /**
     * @param cycles what the replay collected.
     * @return the step report.
     */
    static StepReport step(final ExcitedCycles cycles)
    {
        return StepReport.of(series(cycles));
    }

    private static ExcitedCycles.Series series(final ExcitedCycles cycles)
    {
        final ExcitedCycles.Series s = cycles.series();
        if (s == null)
        {
            throw new ReplayException(cycles.excitations() == 0 ? "no EXCITATION samples in the journals (excite " +
                "the loop first: rfmrt demo --excite)" : "the " + cycles.excitations() + " EXCITATION samples " +
                "have no CONTROL samples of the same cycles");
        }
        return s;
    }

    static void print(final PrintWriter out, final LoopReport r)
    {
        final String unit = "torque".equals(r.point()) ? "N·m" : "velocity".equals(r.point()) ? "rad/s" : "rad";
        out.printf(Locale.ROOT, "frequency response: %s %s of %.4g %s%s, %,d cycles in %d run(s) from cycle %,d " +
            "(%,d left out), %.1f Hz from the stamps%n", r.point(), r.signal(), r.amplitude(), unit, r.toHz() > 0 ?
            String.format(Locale.ROOT, ", %.1f-%.1f Hz", r.fromHz(), r.toHz()) : "", r.cycles(), r.runs(),
            r.firstCycle(), r.gaps(), r.rateHz());
        out.printf(Locale.ROOT, "  H1 (Welch): %s window, %d-point segments (%.2f Hz apart), %.0f %% overlap, %d " +
            "segments; points read where coherence >= %.2f%n", r.window(), r.segment(), r.rateHz() / r.segment(),
            100 * r.overlap(), r.segments(), r.minCoherence());
        if (r.plant() != null)
        {
            final LoopFigures.Resonance res = r.resonance();
            out.printf(Locale.ROOT, "  plant (torque -> velocity): resonance %s, anti-resonance %s, peak %+.1f dB " +
                "over the low end, rigid inertia %.3e kg·m²%n", hz(res.resonanceHz()), hz(res.antiResonanceHz()),
                res.peakDb(), res.inertiaKgM2());
            final LoopFigures.Delay d = r.delay();
            out.printf(Locale.ROOT, "    delay %.1f µs from the phase slope over %.1f-%.1f Hz (%d points, %.1f° off " +
                "the line rms, phase %.1f° at 0 Hz); the hold and the differenced velocity add one period (%.1f " +
                "µs) of it; median cycle latency %.1f µs%n", d.seconds() * 1e6, d.fromHz(), d.toHz(), d.points(),
                d.rmsResidualDeg(), d.interceptDeg(), 1e6 / r.rateHz(), r.latencyP50Us());
            final LoopFigures.Margins m = r.margins();
            out.printf(Locale.ROOT, "  open loop (cascade opened at the torque command): %s%n", marginsText(m));
            out.printf(Locale.ROOT, "  closed loop (d -> -c, L/(1+L)): -3 dB bandwidth %s%n", hz(r.bandwidthHz()));
        }
        else
        {
            out.printf(Locale.ROOT, "  closed loop (d -> %s): -3 dB bandwidth %s; the plant and the open loop need a " +
                "torque injection%n", r.closedLoop().output(), hz(r.bandwidthHz()));
        }
    }

    static void print(final PrintWriter out, final StepReport r)
    {
        out.printf(Locale.ROOT, "step response: %s step of %.4g %s from cycle %,d, %,d cycles at %.1f Hz%n",
            r.point(), r.stepSize(), "velocity".equals(r.point()) ? "rad/s" : "rad", r.firstCycle(), r.cycles(),
            r.rateHz());
        out.printf(Locale.ROOT, "  rise (10-90 %%) %s, overshoot %.1f %%, settling (%.0f %% band) %s%n",
            ms(r.figures().riseSeconds()), r.figures().overshootPercent(), 100 * r.figures().band(),
            Double.isNaN(r.figures().settlingSeconds()) ? "not settled within the step" :
                ms(r.figures().settlingSeconds()));
    }

    private static String marginsText(final LoopFigures.Margins m)
    {
        return String.format(Locale.ROOT, "phase margin %s at %s, gain margin %s", Double.isNaN(m.phaseMarginDeg()) ?
            "n/a" : String.format(Locale.ROOT, "%.1f°", m.phaseMarginDeg()), hz(m.crossoverHz()),
            Double.isInfinite(m.gainMarginDb()) ? "n/a (no -180° crossing above the crossover)" :
                String.format(Locale.ROOT, "%.2f dB at %s", m.gainMarginDb(), hz(m.phaseCrossoverHz())));
    }

    private static String hz(final double hz)
    {
        return Double.isNaN(hz) ? "n/a" : String.format(Locale.ROOT, "%.1f Hz", hz);
    }

    private static String ms(final double seconds)
    {
        return Double.isNaN(seconds) ? "n/a" : String.format(Locale.ROOT, "%.2f ms", seconds * 1e3);
    }

    /**
     * @param dir the plots folder.
     * @param r   the report.
     * @return the files written.
     */
    static List<Path> plots(final Path dir, final LoopReport r)
    {
        final List<Path> files = new ArrayList<>();
        final double top = r.toHz() > 0 ? Math.min(r.rateHz() / 2, 1.2 * r.toHz()) : r.rateHz() / 2;
        final double bottom = r.fromHz() > 0 ? Math.max(r.rateHz() / r.segment(), 0.8 * r.fromHz()) :
            r.rateHz() / r.segment();
        if (r.plant() != null)
        {
            final LoopFigures.Resonance res = r.resonance();
            files.add(bode(dir.resolve("bode-plant.png"), "plant: torque command -> measured velocity", r,
                r.response(r.plant()), bottom, top, (chart, y) ->
                {
                    markFrequency(chart, res.resonanceHz(), "resonance %.1f Hz", y);
                    markFrequency(chart, res.antiResonanceHz(), "anti-resonance %.1f Hz", y - 6);
                }, null));
            final LoopFigures.Margins m = r.margins();
            files.add(bode(dir.resolve("bode-open-loop.png"), "open loop: " + marginsText(m), r, r.response(r.openLoop()), bottom, top, (chart, y) ->
                {
                    chart.addAnnotation(new AnnotationLine(0.0, false, false));
                    markFrequency(chart, m.crossoverHz(), "crossover %.1f Hz", y);
                    markFrequency(chart, m.phaseCrossoverHz(), "GM " + String.format(Locale.ROOT, "%.2f dB",
                        m.gainMarginDb()), y);
                }, (chart, y) ->
                {
                    chart.addAnnotation(new AnnotationLine(-180.0, false, false));
                    markFrequency(chart, m.crossoverHz(), "PM " + String.format(Locale.ROOT, "%.1f°",
                        m.phaseMarginDeg()), y);
                    markFrequency(chart, m.phaseCrossoverHz(), "-180° at %.1f Hz", y);
                }));
        }
        files.add(bode(dir.resolve("bode-closed-loop.png"), String.format(Locale.ROOT, "closed loop: d -> %s, " +
            "-3 dB at %s", r.closedLoop().output(), hz(r.bandwidthHz())), r, r.response(r.closedLoop()), bottom, top,
            (chart, y) ->
            {
                chart.addAnnotation(new AnnotationLine(-3.0, false, false));
                markFrequency(chart, r.bandwidthHz(), "-3 dB at %.1f Hz", y);
            }, null));
        return files;
    }

    private interface Marks
    {
        void add(XYChart chart, double top);
    }

    private static Path bode(final Path file, final String title, final LoopReport r, final FrequencyResponse h,
        final double fromHz, final double toHz, final Marks magnitudeMarks, final Marks phaseMarks)
    {
        final double[] phase = h.phaseDegrees(r.minCoherence());
        // the branch: the first point drawn in (−360°, 0], so that −180° is where the margins are read
        double shift = Double.NaN;
        final List<Double> f = new ArrayList<>();
        final List<Double> db = new ArrayList<>();
        final List<Double> deg = new ArrayList<>();
        final List<Double> fAll = new ArrayList<>();
        final List<Double> gamma = new ArrayList<>();
        for (int i = 0; i < h.size(); i++)
        {
            if (h.hz(i) < fromHz || h.hz(i) > toHz)
            {
                continue;
            }
            fAll.add(h.hz(i));
            gamma.add(h.coherence(i));
            if (h.coherence(i) >= r.minCoherence())
            {
                if (Double.isNaN(shift))
                {
                    shift = -360.0 * Math.ceil(phase[i] / 360.0);
                }
                f.add(h.hz(i));
                db.add(h.magnitudeDb(i));
                deg.add(phase[i] + shift);
            }
        }
        if (f.size() < 2)
        {
            throw new ReplayException("cannot draw " + file.getFileName() + ": fewer than 2 points reach coherence " +
                r.minCoherence());
        }
        final XYChart magnitude = chart(title, "dB", 360, fromHz, toHz);
        line(magnitude, "|H|", f, db);
        magnitudeMarks.add(magnitude, top(db));
        final XYChart angle = chart(null, "phase, °", 360, fromHz, toHz);
        line(angle, "phase", f, deg);
        if (phaseMarks != null)
        {
            phaseMarks.add(angle, top(deg));
        }
        final XYChart coherence = chart(null, "coherence γ²", 360, fromHz, toHz);
        coherence.setXAxisTitle("Hz (log)");
        coherence.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
        line(coherence, "γ²", fAll, gamma);
        coherence.addAnnotation(new AnnotationLine(r.minCoherence(), false, false));
        try
        {
            Files.createDirectories(dir(file));
            BitmapEncoder.saveBitmap(List.of(magnitude, angle, coherence), 3, 1, file.toString(),
                BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
        return file;
    }

    /** Where a mark's label goes: a little below the highest value drawn. */
    private static double top(final List<Double> values)
    {
        double max = -Double.MAX_VALUE;
        double min = Double.MAX_VALUE;
        for (final double v : values)
        {
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        return max - 0.05 * (max - min);
    }

    private static Path dir(final Path file)
    {
        final Path parent = file.toAbsolutePath().getParent();
        return parent == null ? file.toAbsolutePath() : parent;
    }

    private static XYChart chart(final String title, final String y, final int height, final double fromHz,
        final double toHz)
    {
        final XYChart chart = new XYChartBuilder().width(1000).height(height).title(title == null ? "" : title)
            .yAxisTitle(y).build();
        chart.getStyler().setXAxisLogarithmic(true).setXAxisMin(fromHz).setXAxisMax(toHz)
            .setLegendVisible(false).setMarkerSize(0).setAnnotationLineColor(MARK)
            .setAnnotationLineStroke(new BasicStroke(1f)).setAnnotationTextFontColor(MARK)
            .setChartTitleVisible(title != null);
        chart.getStyler().setAnnotationTextFont(chart.getStyler().getAxisTickLabelsFont());
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        return chart;
    }

    private static void line(final XYChart chart, final String name, final List<Double> x, final List<Double> y)
    {
        final XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
    }

    private static void markFrequency(final XYChart chart, final double hz, final String label, final double y)
    {
        if (Double.isNaN(hz) || Double.isInfinite(hz))
        {
            return;
        }
        chart.addAnnotation(new AnnotationLine(hz, true, false));
        final AnnotationText text = new AnnotationText(String.format(Locale.ROOT, label, hz), hz, y, false);
        chart.addAnnotation(text);
    }

    /**
     * @param dir the plots folder.
     * @param r   the step report.
     * @return the file written.
     */
    static Path plot(final Path dir, final StepReport r)
    {
        final XYChart chart = new XYChartBuilder().width(1000).height(500).title(String.format(Locale.ROOT,
            "step response (%s): rise %s, overshoot %.1f %%, settling %s", r.point(),
            ms(r.figures().riseSeconds()), r.figures().overshootPercent(), ms(r.figures().settlingSeconds())))
            .xAxisTitle("ms from the step").yAxisTitle("velocity".equals(r.point()) ? "rad/s" : "rad").build();
        chart.getStyler().setMarkerSize(0).setLegendPosition(Styler.LegendPosition.InsideSE);
        final double[] ms = new double[r.seconds().length];
        for (int i = 0; i < ms.length; i++)
        {
            ms[i] = r.seconds()[i] * 1e3;
        }
        chart.addSeries("response", ms, r.response()).setMarker(SeriesMarkers.NONE);
        final double band = r.figures().band() * Math.abs(r.stepSize());
        chart.addSeries("step", new double[] {0, ms[ms.length - 1]}, new double[] {r.stepSize(), r.stepSize()})
            .setMarker(SeriesMarkers.NONE);
        chart.addSeries("+2 %", new double[] {0, ms[ms.length - 1]},
            new double[] {r.stepSize() + band, r.stepSize() + band}).setMarker(SeriesMarkers.NONE);
        chart.addSeries("-2 %", new double[] {0, ms[ms.length - 1]},
            new double[] {r.stepSize() - band, r.stepSize() - band}).setMarker(SeriesMarkers.NONE);
        final Path file = dir.resolve("step.png");
        try
        {
            Files.createDirectories(dir);
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
        return file;
    }
}
