package io.rfmrt.cli.replay;

import io.rfmrt.cli.common.PercentilePlot;
import io.rfmrt.control.replay.ControlRerun;
import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.ReplayException;
import io.rfmrt.runtime.replay.ReplayListener;
import io.rfmrt.runtime.replay.ReplaySummary;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * PNG plots of a replay with xchart, headless: e2e latency over time, the percentile distribution of every stage,
 * and tracking (setpoint vs position, error) when the journals hold control samples. The files are named
 * {@code replay-latency.png}, {@code replay-percentiles.png} and {@code replay-tracking.png}, so that a replay into
 * the demo's plots folder leaves the demo's own {@code tracking.png} and {@code latency.png} alone.
 */
final class ReplayPlots
{
    private static final int MAX_POINTS = 20_000;

    private ReplayPlots()
    {
    }

    /**
     * Collects (time, e2e) of the frames kept, thinned to at most {@value #MAX_POINTS} points (every n-th frame).
     */
    static final class Latency implements ReplayListener
    {
        private double[] t = new double[1024];
        private double[] e2e = new double[1024];
        private int size;
        private int stride = 1;
        private long seen;

        @Override
        public void frame(final NodeAnalysis node, final JournalRecord record)
        {
            if (seen++ % stride != 0)
            {
                return;
            }
            if (size == MAX_POINTS)
            {
                for (int i = 0; i < size / 2; i++)
                {
                    t[i] = t[2 * i];
                    e2e[i] = e2e[2 * i];
                }
                size /= 2;
                stride *= 2;
            }
            if (size == t.length)
            {
                t = Arrays.copyOf(t, size * 2);
                e2e = Arrays.copyOf(e2e, size * 2);
            }
            t[size] = (record.sendNanos() - node.startNanos()) / 1e9;
            e2e[size] = (record.handlerEndNanos() - record.sendNanos()) / 1e3;
            size++;
        }
    }

    static List<Path> write(final Path dir, final ReplaySummary summary, final Latency latency,
        final ControlRerun control)
    {
        System.setProperty("java.awt.headless", "true");
        final List<Path> files = new ArrayList<>();
        try
        {
            Files.createDirectories(dir);
            if (latency.size > 0)
            {
                final XYChart chart = new XYChartBuilder().width(1000).height(500).title("e2e latency over time")
                    .xAxisTitle("s from journal start").yAxisTitle("µs").build();
                chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                chart.getStyler().setMarkerSize(2);
                chart.addSeries("e2e", Arrays.copyOf(latency.t, latency.size), Arrays.copyOf(latency.e2e,
                    latency.size));
                files.add(save(chart, dir.resolve("replay-latency.png")));

                final PercentilePlot p = new PercentilePlot("latency percentiles per stage", "µs");
                for (final Stage stage : ReplaySummary.STAGE_ORDER)
                {
                    p.add(stage.label(), summary.histogram(stage));
                }
                final Path percentiles = dir.resolve("replay-percentiles.png");
                if (p.save(percentiles))
                {
                    files.add(percentiles);
                }
            }
            if (control != null && control.controlCycles() > 0)
            {
                final double[][] columns = control.tracking();
                final double[] cycle = new double[columns[0].length];
                for (int i = 0; i < cycle.length; i++)
                {
                    cycle[i] = i;
                }
                final XYChart chart = new XYChartBuilder().width(1000).height(500).title("tracking")
                    .xAxisTitle("cycle").yAxisTitle("rad").build();
                chart.getStyler().setMarkerSize(0);
                chart.addSeries("setpoint", cycle, columns[0]);
                chart.addSeries("position", cycle, columns[1]);
                chart.addSeries("error", cycle, columns[2]);
                files.add(save(chart, dir.resolve("replay-tracking.png")));
            }
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot write plots in " + dir + ": " + ex.getMessage(), ex);
        }
        return files;
    }

    private static Path save(final XYChart chart, final Path file) throws IOException
    {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
