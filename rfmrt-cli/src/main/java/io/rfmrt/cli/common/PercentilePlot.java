package io.rfmrt.cli.common;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Latency plots in HdrHistogram's percentile-distribution convention: x is the percentile p on a logarithmic
 * {@code 1/(1-p)} axis (each step of "nines" the same width), labelled 50 %, 90 %, 99 %, 99.9 %, 99.99 %; y is the
 * latency in microseconds on a log axis; one line per distribution, from p50 to the highest percentile its count
 * resolves. Used by {@code bench peers}, the demo and replay. Not thread-safe; one chart per caller.
 */
public final class PercentilePlot
{
    /** x of p50: log10(1 / (1 - 0.5)). */
    private static final double X_P50 = Math.log10(2);
    private static final String[] NINES = {"90 %", "99 %", "99.9 %", "99.99 %", "99.999 %", "99.9999 %"};

    private final XYChart chart;
    private double lowestUs = Double.MAX_VALUE;
    private double highestX = 4;

    /**
     * @param title  the chart's title.
     * @param yTitle the y axis title (microseconds).
     */
    public PercentilePlot(final String title, final String yTitle)
    {
        this(title, yTitle, 1200, 600);
    }

    /**
     * @param title  the chart's title.
     * @param yTitle the y axis title (microseconds).
     * @param width  pixels.
     * @param height pixels.
     */
    public PercentilePlot(final String title, final String yTitle, final int width, final int height)
    {
        System.setProperty("java.awt.headless", "true");
        chart = new XYChartBuilder().width(width).height(height).title(title)
            .xAxisTitle("percentile (log 1/(1-p) axis)").yAxisTitle(yTitle).build();
        chart.getStyler().setYAxisLogarithmic(true).setYAxisDecimalPattern("#,##0.#");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW).setMarkerSize(0);
        chart.getStyler().setAnnotationTextFont(chart.getStyler().getAxisTickLabelsFont());
        // the axis' own ticks fall at even steps of x; the percentile labels and their grid lines are drawn instead
        chart.getStyler().setXAxisTicksVisible(false).setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setAnnotationLineColor(new Color(190, 190, 190))
            .setAnnotationLineStroke(new BasicStroke(1f));
    }

    /**
     * @param x a tick position, log10(1/(1-p)).
     * @return its label at whole nines (90 %, 99 %, ...), empty between them.
     */
    public static String label(final double x)
    {
        final long nines = Math.round(x);
        if (Math.abs(x - nines) > 1e-6 || nines < 1 || nines > NINES.length)
        {
            return " ";
        }
        return NINES[(int)nines - 1];
    }

    /**
     * @param p a percentile, 0..100 exclusive of 100.
     * @return its x position.
     */
    public static double x(final double p)
    {
        return Math.log10(1.0 / (1.0 - p / 100.0));
    }

    /**
     * Add one distribution as a line.
     *
     * @param name      the legend entry.
     * @param histogram values in nanoseconds.
     * @return the series (for styling), or null when the histogram is empty.
     */
    public XYSeries add(final String name, final Histogram histogram)
    {
        if (histogram.getTotalCount() == 0)
        {
            return null;
        }
        final List<Double> xs = new ArrayList<>();
        final List<Double> ys = new ArrayList<>();
        // the highest percentile the count resolves: one sample beyond it is the max
        final double top = 100.0 * (1.0 - 1.0 / histogram.getTotalCount());
        for (final HistogramIterationValue v : histogram.percentiles(5))
        {
            final double p = v.getPercentileLevelIteratedTo();
            if (p < 50)
            {
                continue;
            }
            if (p > top || p >= 100)
            {
                break;
            }
            xs.add(x(p));
            ys.add(Math.max(0.1, v.getValueIteratedTo() / 1e3));
        }
        // the max, drawn at the percentile the count resolves
        xs.add(x(Math.max(50, top)));
        ys.add(Math.max(0.1, histogram.getMaxValue() / 1e3));
        for (final double y : ys)
        {
            lowestUs = Math.min(lowestUs, y);
        }
        highestX = Math.max(highestX, xs.get(xs.size() - 1));
        final XYSeries series = chart.addSeries(name, xs, ys);
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }

    /**
     * Add a constant (a deadline, a bound) across the whole axis.
     *
     * @param name the legend entry.
     * @param us   the value in microseconds.
     * @return the series.
     */
    public XYSeries addLevel(final String name, final double us)
    {
        lowestUs = Math.min(lowestUs, us);
        final XYSeries series = chart.addSeries(name, new double[]{X_P50, Math.max(4, highestX)},
            new double[]{us, us});
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }

    private void mark(final double x, final String text, final double yMin)
    {
        chart.addAnnotation(new AnnotationLine(x, true, false));
        chart.addAnnotation(new AnnotationText(text, x, yMin * 1.12, false));
    }

    /**
     * @return the chart, for anything this class does not set.
     */
    public XYChart chart()
    {
        return chart;
    }

    /**
     * Write the PNG (its folder is created).
     *
     * @param file where.
     * @return true when written, false when there was nothing to draw.
     */
    public boolean save(final Path file) throws IOException
    {
        if (chart.getSeriesMap().isEmpty())
        {
            return false;
        }
        finish(lowestUs, highestX);
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return true;
    }

    /**
     * Write several plots one under the other into one PNG ({@link StackedPng}), on the same axes: the lowest value
     * and the highest percentile of them all. Plots with nothing drawn are left out.
     *
     * @param plots the panels, top first.
     * @param file  where.
     * @return true when written, false when no plot had anything to draw.
     */
    public static boolean saveStacked(final List<PercentilePlot> plots, final Path file) throws IOException
    {
        final List<XYChart> charts = new ArrayList<>();
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (final PercentilePlot plot : plots)
        {
            if (!plot.chart.getSeriesMap().isEmpty())
            {
                lowest = Math.min(lowest, plot.lowestUs);
                highest = Math.max(highest, plot.highestX);
            }
        }
        for (final PercentilePlot plot : plots)
        {
            if (!plot.chart.getSeriesMap().isEmpty())
            {
                plot.finish(lowest, highest);
                charts.add(plot.chart);
            }
        }
        if (charts.isEmpty())
        {
            return false;
        }
        StackedPng.write(charts, file);
        return true;
    }

    private void finish(final double lowest, final double highest)
    {
        final double yMin = Math.pow(10, Math.floor(Math.log10(lowest)));
        final double xMax = Math.ceil(highest - 1e-6);
        chart.getStyler().setXAxisMin(X_P50 - 0.05).setXAxisMax(xMax + 0.05).setYAxisMin(yMin);
        mark(X_P50, "50 %", yMin);
        for (int nines = 1; nines <= xMax && nines <= NINES.length; nines++)
        {
            mark(nines, label(nines), yMin);
        }
    }
}
