package io.rfmrt.cli;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
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
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's two plots, drawn from the controller's journal: tracking (setpoint and position against time, the
 * error on its own axis, SAFE periods marked) and cycle latency (percentile distribution).
 */
final class DemoPlots
{
    private DemoPlots()
    {
    }

    /**
     * @param journal    the controller's journal folder.
     * @param plots      where the PNG files go.
     * @param rateHz     loop rate (cycle → seconds).
     * @param deadlineUs the deadline, drawn on the latency plot.
     * @return the files written.
     */
    static List<Path> write(final Path journal, final Path plots, final int rateHz, final double deadlineUs)
        throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(plots);
        final List<Double> t = new ArrayList<>();
        final List<Double> setpoint = new ArrayList<>();
        final List<Double> position = new ArrayList<>();
        final List<Double> error = new ArrayList<>();
        final List<Double> safeT = new ArrayList<>();
        final List<Double> safeY = new ArrayList<>();
        final Histogram latency = new Histogram(1, 10_000_000_000L, 3);
        long lastCycle = 0;
        try (JournalReader reader = JournalReader.open(journal))
        {
            final JournalRecord r = new JournalRecord();
            while (reader.next(r))
            {
                if (r.kind() == RecordKind.SAMPLE && r.sampleKind() == ControlFrames.SAMPLE_CONTROL)
                {
                    final double seconds = r.cycle() / (double)rateHz;
                    if (lastCycle > 0 && r.cycle() > lastCycle + 1)
                    {
                        // no sensor frames in between (dropout): leave a gap rather than draw across it
                        t.add(seconds);
                        setpoint.add(Double.NaN);
                        position.add(Double.NaN);
                        error.add(Double.NaN);
                    }
                    lastCycle = r.cycle();
                    t.add(seconds);
                    setpoint.add(r.value(0));
                    position.add(r.value(1));
                    error.add(r.value(4) * 1e3);
                    if (r.state() != AxisState.RUNNING.id())
                    {
                        safeT.add(seconds);
                        safeY.add(r.value(1));
                    }
                    latency.recordValue(Math.max(1, Math.min(10_000_000_000L, (long)(r.value(5) * 1e3))));
                }
            }
        }
        if (t.isEmpty())
        {
            throw new IllegalStateException("no control samples in " + journal + " to plot");
        }
        final Path tracking = plots.resolve("tracking.png");
        final XYChart chart = new XYChartBuilder().width(1000).height(500).title("rfmrt demo: tracking")
            .xAxisTitle("time (s)").yAxisTitle("position (rad)").build();
        chart.getStyler().setXAxisDecimalPattern("0.0");
        chart.getStyler().setMarkerSize(4).setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
        chart.setYAxisGroupTitle(1, "error (mrad)");
        chart.addSeries("setpoint", t, setpoint).setMarker(SeriesMarkers.NONE).setLineColor(Color.BLUE)
            .setLineStyle(new java.awt.BasicStroke(5f));
        chart.addSeries("position", t, position).setMarker(SeriesMarkers.NONE).setLineColor(new Color(0, 150, 0));
        final XYSeries err = chart.addSeries("error (mrad)", t, error);
        err.setMarker(SeriesMarkers.NONE).setLineColor(Color.RED).setYAxisGroup(1);
        if (!safeT.isEmpty())
        {
            final XYSeries safe = chart.addSeries("not RUNNING (watchdog)", safeT, safeY);
            safe.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter).setMarker(SeriesMarkers.SQUARE)
                .setMarkerColor(Color.ORANGE);
        }
        BitmapEncoder.saveBitmap(chart, tracking.toString(), BitmapEncoder.BitmapFormat.PNG);

        final Path latencyPlot = plots.resolve("latency.png");
        final PercentilePlot lat = new PercentilePlot("rfmrt demo: cycle latency, sensor send -> command written (" +
            latency.getTotalCount() + " cycles)", "microseconds");
        lat.add("cycle latency", latency).setLineColor(Color.BLUE);
        lat.addLevel("deadline", deadlineUs).setLineColor(Color.RED);
        lat.save(latencyPlot);
        return List.of(tracking, latencyPlot);
    }
}
