package io.rfmrt.cli.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The soak's series, four charts against the time at each interval's end: frames lost (and deadline misses);
 * collections and compilations per process; minor faults and involuntary switches of each RT thread; resident set,
 * heap and journal in MiB.
 */
final class SoakPlot
{
    private SoakPlot()
    {
    }

    /**
     * @param report the soak.
     * @param title  what ran.
     * @param file   the PNG to write (its folder is created).
     */
    static void write(final SoakReport report, final String title, final Path file) throws IOException
    {
        final List<Double> t = new ArrayList<>();
        for (final SoakReport.Interval i : report.intervals())
        {
            t.add(i.endS() / 60.0);
        }
        final XYChart lost = chart(title + ": frames lost per interval", "frames");
        final XYChart jvm = chart("collections and compilations per interval", "count");
        final XYChart faults = chart("RT threads: minor faults (mf) and involuntary switches (ivcs) per interval",
            "count");
        final XYChart memory = chart("resident set, heap in use, journal", "MiB");
        final List<SoakReport.Interval> intervals = report.intervals();
        final int processes = intervals.isEmpty() ? 0 : intervals.get(0).processes().size();
        for (int p = 0; p < processes; p++)
        {
            final int at = p;
            final String name = intervals.get(0).processes().get(p).process();
            final Function<Function<SoakReport.ProcessInterval, Number>, List<Double>> series = f ->
            {
                final List<Double> ys = new ArrayList<>();
                for (final SoakReport.Interval i : intervals)
                {
                    final Number n = at < i.processes().size() ? f.apply(i.processes().get(at)) : null;
                    ys.add(n == null ? 0.0 : n.doubleValue());
                }
                return ys;
            };
            if (intervals.get(0).processes().get(p).lost() != null)
            {
                add(lost, name + " lost", t, series.apply(SoakReport.ProcessInterval::lost));
            }
            add(jvm, name + " GC", t, series.apply(SoakReport.ProcessInterval::gc));
            add(jvm, name + " JIT", t, series.apply(SoakReport.ProcessInterval::compilations));
            add(memory, name + " RSS", t, series.apply(pi -> pi.rssBytes() / 1048576.0));
            add(memory, name + " RSS anon", t, series.apply(pi -> pi.rssAnonBytes() / 1048576.0));
            add(memory, name + " heap", t, series.apply(pi -> pi.heapUsedBytes() == null ? null :
                pi.heapUsedBytes() / 1048576.0));
            final Map<String, List<Double>> mf = new LinkedHashMap<>();
            final Map<String, List<Double>> ivcs = new LinkedHashMap<>();
            for (int k = 0; k < intervals.size(); k++)
            {
                final SoakReport.Interval i = intervals.get(k);
                if (at >= i.processes().size())
                {
                    continue;
                }
                for (final SoakReport.ThreadInterval th : i.processes().get(at).threads())
                {
                    final int index = k;
                    mf.computeIfAbsent(th.thread(), x -> zeros(intervals.size())).set(index,
                        (double)Math.max(0, th.minorFaults()));
                    ivcs.computeIfAbsent(th.thread(), x -> zeros(intervals.size())).set(index,
                        (double)Math.max(0, th.involuntarySwitches()));
                }
            }
            mf.forEach((thread, ys) -> add(faults, name + " " + thread + " mf", t, ys));
            ivcs.forEach((thread, ys) -> add(faults, name + " " + thread + " ivcs", t, ys));
        }
        final List<Double> misses = new ArrayList<>();
        final List<Double> journal = new ArrayList<>();
        boolean anyMisses = false;
        for (final SoakReport.Interval i : intervals)
        {
            misses.add(i.deadlineMisses() == null ? 0.0 : i.deadlineMisses());
            anyMisses |= i.deadlineMisses() != null;
            journal.add(i.journalBytes() / 1048576.0);
        }
        if (anyMisses)
        {
            add(lost, "deadline misses", t, misses);
        }
        add(memory, "journal", t, journal);
        final Path parent = file.toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
        for (final XYChart chart : List.of(lost, jvm, faults, memory))
        {
            if (chart.getSeriesMap().isEmpty())
            {
                add(chart, "nothing measured", t, zeros(t.size()));
            }
        }
        BitmapEncoder.saveBitmap(List.of(lost, jvm, faults, memory), 2, 2, file.toString(),
            BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(final String title, final String yTitle)
    {
        System.setProperty("java.awt.headless", "true");
        final XYChart chart = new XYChartBuilder().width(900).height(450).title(title)
            .xAxisTitle("minutes").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW).setMarkerSize(4);
        chart.getStyler().setYAxisDecimalPattern("#,##0.#").setXAxisDecimalPattern("#,##0.##");
        return chart;
    }

    private static void add(final XYChart chart, final String name, final List<Double> t, final List<Double> ys)
    {
        if (t.isEmpty())
        {
            return;
        }
        final XYSeries series = chart.addSeries(name, t, ys);
        series.setMarker(SeriesMarkers.CIRCLE);
    }

    private static List<Double> zeros(final int n)
    {
        final List<Double> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++)
        {
            list.add(0.0);
        }
        return list;
    }
}
