package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.PercentilePlot;
import io.rfmrt.cli.common.StackedPng;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.journal.ControlSample;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.replay.JournalSet;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplayListener;
import io.rfmrt.runtime.replay.ReplaySummary;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo's two plots, drawn from the controller's journal: tracking (setpoint and position against time with the
 * cycles not RUNNING, the watchdog's SAFE among them, shaded; the error on a panel of its own below, zero in the
 * middle) and cycle latency (percentile distribution). A {@link ReplayListener}:
 * it collects the CONTROL samples of a replay's one pass ({@link ControlSample}), {@link #draw} then draws them.
 */
final class DemoPlots implements ReplayListener
{
    private final int rateHz;
    private final ControlSample sample = new ControlSample();
    /** Points kept per series: a 1,000-pixel chart of any run length, in bounded memory. */
    static final int TRACKING_POINTS = 1 << 14;
    /** Time, setpoint, position, error (mrad); a point keeps its largest error. */
    private final PlotPoints tracking = new PlotPoints(4, 3, TRACKING_POINTS);
    /** Bands shaded per kind at most; later ones merge into the last. */
    static final int BANDS = 256;
    /** Runs of cycles not RUNNING: the watchdog's SAFE and the recovery after it. */
    private final Bands notRunning = new Bands(BANDS);
    /** Gaps between cycles: no sensor frames, so no cycle. */
    private final Bands noFrames = new Bands(BANDS);
    private final Histogram latency = new Histogram(1, 10_000_000_000L, 3);
    private long lastCycle;
    private long lastSampleNanos;
    private double lastSampleSeconds;
    private static final Color SAFE_SHADE = new Color(255, 165, 0, 90);
    private static final Color NO_FRAMES_SHADE = new Color(128, 128, 128, 60);

    /**
     * @param rateHz loop rate (cycle → seconds).
     */
    DemoPlots(final int rateHz)
    {
        this.rateHz = rateHz;
    }

    /**
     * Replay the controller's journal into the plots and draw them.
     *
     * @param journal    the controller's journal folder.
     * @param plots      where the PNG files go.
     * @param rateHz     loop rate (cycle → seconds).
     * @param deadlineUs the deadline, drawn on the latency plot.
     * @return the files written.
     * @throws IllegalStateException when the journal cannot be read or holds no control sample.
     */
    static List<Path> write(final Path journal, final Path plots, final int rateHz, final double deadlineUs)
        throws IOException
    {
        Files.createDirectories(plots);
        final DemoPlots demo = new DemoPlots(rateHz);
        final ReplaySummary summary = Replay.run(journal, List.of(new JournalSet.Entry(".", journal)),
            ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(demo));
        final NodeAnalysis node = summary.nodes().get(0);
        if (!node.opened())
        {
            throw new IllegalStateException(node.problem());
        }
        return demo.draw(journal, plots, deadlineUs);
    }

    @Override
    public void state(final NodeAnalysis node, final JournalRecord record)
    {
        // the watchdog leaves RUNNING when frames stop coming, so no cycle marks that moment: place it from the
        // last cycle's journal stamp, and shade from there
        if (record.to() != ControlJournal.stateId(AxisState.RUNNING) && lastSampleNanos != 0)
        {
            final double seconds = lastSampleSeconds + (record.journalNanos() - lastSampleNanos) / 1e9;
            notRunning.add(seconds, seconds);
        }
    }

    @Override
    public void sample(final NodeAnalysis node, final JournalRecord record)
    {
        if (!sample.wrap(record))
        {
            return;
        }
        final long cycle = sample.cycle();
        final double seconds = cycle / (double)rateHz;
        lastSampleNanos = record.journalNanos();
        lastSampleSeconds = seconds;
        if (lastCycle > 0 && cycle > lastCycle + 1)
        {
            // no sensor frames in between (dropout): leave a gap rather than draw across it
            tracking.add(seconds, Double.NaN, Double.NaN, Double.NaN);
            noFrames.add((lastCycle + 1) / (double)rateHz, (cycle - 1) / (double)rateHz);
            noFrames.close();
        }
        lastCycle = cycle;
        if (sample.running())
        {
            notRunning.close();
            tracking.add(seconds, sample.setpoint(), sample.position(), sample.error() * 1e3);
        }
        else
        {
            // no trajectory is followed outside RUNNING: the axis' position only, in a shaded band
            notRunning.add(seconds, seconds);
            tracking.add(seconds, Double.NaN, sample.position(), Double.NaN);
        }
        latency.recordValue(Math.max(1, Math.min(10_000_000_000L, (long)(sample.latencyMicros() * 1e3))));
    }

    /**
     * @param journal    the journal the samples came from (for the message when there are none).
     * @param plots      where the PNG files go.
     * @param deadlineUs the deadline, drawn on the latency plot.
     * @return the files written.
     */
    List<Path> draw(final Path journal, final Path plots, final double deadlineUs) throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(plots);
        if (tracking.size() == 0)
        {
            throw new IllegalStateException("no control samples in " + journal + " to plot");
        }
        final Path trackingPlot = plots.resolve("tracking.png");
        final double[] t = tracking.series(0);
        final double tEnd = t[t.length - 1];
        final XYChart position = new XYChartBuilder().width(1000).height(400).title("rfmrt demo: tracking")
            .xAxisTitle("time (s)").yAxisTitle("position (rad)").build();
        style(position, tEnd);
        position.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE).setLegendSeriesLineLength(18);
        shade(position, tracking.series(1), tracking.series(2));
        position.addSeries("setpoint", t, tracking.series(1)).setMarker(SeriesMarkers.NONE).setLineColor(Color.BLUE)
            .setLineStyle(new BasicStroke(5f));
        position.addSeries("position", t, tracking.series(2)).setMarker(SeriesMarkers.NONE)
            .setLineColor(new Color(0, 150, 0)).setLineStyle(new BasicStroke(1.5f));

        // the error on a panel of its own: zero in the middle of its axis, drawn as a line
        final XYChart error = new XYChartBuilder().width(1000).height(250).title("tracking error")
            .xAxisTitle("time (s)").yAxisTitle("error (mrad)").build();
        style(error, tEnd);
        error.getStyler().setLegendVisible(false);
        final double largest = largestMagnitude(tracking.series(3));
        error.getStyler().setYAxisMin(-largest).setYAxisMax(largest);
        error.addAnnotation(new AnnotationLine(0, false, false));
        error.getStyler().setAnnotationLineColor(Color.GRAY).setAnnotationLineStroke(new BasicStroke(1f));
        error.addSeries("error (mrad)", t, tracking.series(3)).setMarker(SeriesMarkers.NONE).setLineColor(Color.RED)
            .setLineStyle(new BasicStroke(1.5f));
        StackedPng.write(List.of(position, error), trackingPlot);

        final Path latencyPlot = plots.resolve("latency.png");
        final PercentilePlot lat = new PercentilePlot("rfmrt demo: cycle latency, sensor send -> command written (" +
            latency.getTotalCount() + " cycles)", "latency (µs)");
        lat.add("cycle latency", latency).setLineColor(Color.BLUE);
        lat.addLevel("deadline", deadlineUs).setLineColor(Color.RED);
        lat.save(latencyPlot);
        return List.of(trackingPlot, latencyPlot);
    }
    /** The bands as shaded areas over the whole height of the position axis: frames' gaps grey, not RUNNING orange. */
    private void shade(final XYChart chart, final double[] setpoint, final double[] position)
    {
        double low = 0;
        double high = 0;
        for (int i = 0; i < setpoint.length; i++)
        {
            low = minIgnoringNaN(low, Math.min(setpoint[i], position[i]));
            high = maxIgnoringNaN(high, Math.max(setpoint[i], position[i]));
        }
        final double pad = Math.max(1e-3, (high - low) * 0.05);
        chart.getStyler().setYAxisMin(low - pad).setYAxisMax(high + pad);
        final double halfCycle = 0.5 / rateHz;
        noFrames.draw(chart, "no sensor frames", NO_FRAMES_SHADE, low - pad, high + pad, halfCycle);
        notRunning.draw(chart, "not RUNNING (watchdog SAFE, recovery)", SAFE_SHADE, low - pad, high + pad, halfCycle);
    }

    /**
     * Intervals of time, at most a fixed number: a time within or right after the last interval extends it, and
     * once full every later time extends the last one. Fixed memory however long the run.
     */
    static final class Bands
    {
        private final double[] start;
        private final double[] end;
        private int count;
        private boolean open;

        Bands(final int capacity)
        {
            start = new double[capacity];
            end = new double[capacity];
        }

        /** Extend the open interval to {@code to}, or open one at {@code from}. */
        void add(final double from, final double to)
        {
            if (open || count == start.length)
            {
                end[count - 1] = to;
                return;
            }
            start[count] = from;
            end[count] = to;
            count++;
            open = true;
        }

        /** The next {@link #add} opens a new interval. */
        void close()
        {
            open = false;
        }

        int size()
        {
            return count;
        }

        double start(final int i)
        {
            return start[i];
        }

        double end(final int i)
        {
            return end[i];
        }

        void draw(final XYChart chart, final String name, final Color shade, final double low, final double high,
            final double pad)
        {
            close();
            for (int i = 0; i < count; i++)
            {
                final double from = start[i] - pad;
                final double to = end[i] + pad;
                final XYSeries band = chart.addSeries(i == 0 ? name : name + " " + i, new double[]{from, from, to, to},
                    new double[]{low, high, high, low});
                band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area).setMarker(SeriesMarkers.NONE)
                    .setLineColor(shade).setLineStyle(new BasicStroke(1f)).setFillColor(shade)
                    .setShowInLegend(i == 0);
            }
        }
    }

    private static void style(final XYChart chart, final double tEnd)
    {
        // the same x range on both panels, and y labels of about the same width, so their time axes line up
        chart.getStyler().setXAxisDecimalPattern("0.0").setXAxisMin(0.0).setXAxisMax(Math.max(tEnd, 1e-3))
            .setYAxisDecimalPattern("0.00").setMarkerSize(0);
    }

    private static double largestMagnitude(final double[] values)
    {
        double largest = 1e-3;
        for (final double v : values)
        {
            largest = maxIgnoringNaN(largest, Math.abs(v));
        }
        return largest * 1.1;
    }

    private static double minIgnoringNaN(final double a, final double b)
    {
        return Double.isNaN(b) ? a : Math.min(a, b);
    }

    private static double maxIgnoringNaN(final double a, final double b)
    {
        return Double.isNaN(b) ? a : Math.max(a, b);
    }
}
