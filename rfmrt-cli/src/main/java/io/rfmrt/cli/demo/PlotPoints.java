package io.rfmrt.cli.demo;

import java.util.Arrays;

/**
 * Points of a few series over time for a plot of a fixed width, in bounded memory however long the run: up to
 * {@code capacity} points, after which each pair of neighbours becomes one and every later point stands for twice as
 * many samples as before. Of the samples a point stands for it keeps the one with the largest magnitude in the key
 * series, so a spike or a gap ({@code NaN} in the key series) survives the thinning.
 * <p>
 * A 10-minute demo at 10 kHz is 6 million cycles; a chart 1,000 pixels wide shows a few thousand points of it.
 */
final class PlotPoints
{
    private final double[][] series;
    private final int key;
    private int points;
    private int stride = 1;
    private int inPoint;

    /**
     * @param count    series, the first of which is time.
     * @param key      the series whose largest magnitude a point keeps.
     * @param capacity points kept at most (even, ≥ 2).
     */
    PlotPoints(final int count, final int key, final int capacity)
    {
        if (capacity < 2 || (capacity & 1) != 0)
        {
            throw new IllegalArgumentException("capacity " + capacity + " is not an even number >= 2");
        }
        this.series = new double[count][capacity];
        this.key = key;
    }

    /**
     * @param values one value per series, time first.
     */
    void add(final double... values)
    {
        if (inPoint == 0)
        {
            if (points == series[0].length)
            {
                halve();
            }
            set(points++, values);
        }
        else if (wins(values[key], series[key][points - 1]))
        {
            set(points - 1, values);
        }
        inPoint = (inPoint + 1) % stride;
    }

    /**
     * @return the points kept.
     */
    int size()
    {
        return points;
    }

    /**
     * @param index a series.
     * @return its points, a copy.
     */
    double[] series(final int index)
    {
        return Arrays.copyOf(series[index], points);
    }

    private void halve()
    {
        for (int i = 0; i < points / 2; i++)
        {
            final int from = wins(series[key][2 * i + 1], series[key][2 * i]) ? 2 * i + 1 : 2 * i;
            for (final double[] s : series)
            {
                s[i] = s[from];
            }
        }
        points /= 2;
        stride *= 2;
        inPoint = 0;
    }

    private void set(final int index, final double[] values)
    {
        for (int s = 0; s < series.length; s++)
        {
            series[s][index] = values[s];
        }
    }

    private static boolean wins(final double candidate, final double kept)
    {
        return !Double.isNaN(kept) && (Double.isNaN(candidate) || Math.abs(candidate) > Math.abs(kept));
    }
}
