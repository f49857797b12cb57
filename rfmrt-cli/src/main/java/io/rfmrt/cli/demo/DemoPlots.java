package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.PercentilePlot;
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
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo's two plots, drawn from the controller's journal: tracking (setpoint and position against time, the
 * error on its own axis, SAFE periods marked) and cycle latency (percentile distribution). A {@link ReplayListener}:
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
    /** Time and position of the cycles not RUNNING. */
    private final PlotPoints safe = new PlotPoints(2, 1, TRACKING_POINTS);
    private final Histogram latency = new Histogram(1, 10_000_000_000L, 3);
    private long lastCycle;

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
    public void sample(final NodeAnalysis node, final JournalRecord record)
    {
        if (!sample.wrap(record))
        {
            return;
        }
        final long cycle = sample.cycle();
        final double seconds = cycle / (double)rateHz;
        if (lastCycle > 0 && cycle > lastCycle + 1)
        {
            // no sensor frames in between (dropout): leave a gap rather than draw across it
            tracking.add(seconds, Double.NaN, Double.NaN, Double.NaN);
        }
        lastCycle = cycle;
        tracking.add(seconds, sample.setpoint(), sample.position(), sample.error() * 1e3);
        if (!sample.running())
        {
            safe.add(seconds, sample.position());
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
        final XYChart chart = new XYChartBuilder().width(1000).height(500).title("rfmrt demo: tracking")
            .xAxisTitle("time (s)").yAxisTitle("position (rad)").build();
        chart.getStyler().setXAxisDecimalPattern("0.0");
        chart.getStyler().setMarkerSize(4).setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        chart.setYAxisGroupTitle(1, "error (mrad)");
        chart.addSeries("setpoint", t, tracking.series(1)).setMarker(SeriesMarkers.NONE).setLineColor(Color.BLUE)
            .setLineStyle(new java.awt.BasicStroke(5f));
        chart.addSeries("position", t, tracking.series(2)).setMarker(SeriesMarkers.NONE).setLineColor(new Color(0, 150, 0));
        final XYSeries err = chart.addSeries("error (mrad)", t, tracking.series(3));
        err.setMarker(SeriesMarkers.NONE).setLineColor(Color.RED).setYAxisGroup(1);
        if (safe.size() > 0)
        {
            final XYSeries notRunning = chart.addSeries("not RUNNING (watchdog)", safe.series(0), safe.series(1));
            notRunning.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter).setMarker(SeriesMarkers.SQUARE)
                .setMarkerColor(Color.ORANGE);
        }
        BitmapEncoder.saveBitmap(chart, trackingPlot.toString(), BitmapEncoder.BitmapFormat.PNG);

        final Path latencyPlot = plots.resolve("latency.png");
        final PercentilePlot lat = new PercentilePlot("rfmrt demo: cycle latency, sensor send -> command written (" +
            latency.getTotalCount() + " cycles)", "microseconds");
        lat.add("cycle latency", latency).setLineColor(Color.BLUE);
        lat.addLevel("deadline", deadlineUs).setLineColor(Color.RED);
        lat.save(latencyPlot);
        return List.of(trackingPlot, latencyPlot);
    }
}
