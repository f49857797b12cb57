package io.rfmrt.control.tune;

import java.util.Arrays;

/**
 * A frequency response H(f) on a grid of frequencies, with the coherence of each point: measured by Welch's H1
 * estimate ({@link #welch}), built from a model ({@link #of}), or combined from two measurements ({@link #divide}).
 * <pre>
 *   segments:  x_m[n] = x[m·hop + n]·w[n],  n = 0..L−1,  hop = L·(1 − overlap),  w = Hann: ½·(1 − cos(2πn/L))
 *   spectra:   X_m = FFT(x_m − mean),  Y_m = FFT(y_m − mean)
 *   averages:  Sxx = Σ|X_m|²,  Syy = Σ|Y_m|²,  Sxy = Σ conj(X_m)·Y_m      over the M segments
 *   H1(f_k)   = Sxy / Sxx                      f_k = k·fs/L,  k = 1..L/2
 *   γ²(f_k)   = |Sxy|² / (Sxx·Syy)             coherence, 0..1
 * </pre>
 * H1 is unbiased by noise on y that is uncorrelated with x; noise on x biases |H1| low. γ² is the fraction of y's
 * power at f that is linearly explained by x: 1 for a noiseless linear system, less with noise, non-linearity
 * (friction), leakage from other frequencies, or too little excitation at f. With a single segment (M = 1) γ² is
 * always 1 and says nothing: use several.
 * <p>
 * The phase is reported unwrapped from the lowest frequency up over the points whose coherence reaches a threshold
 * ({@link #phaseDegrees}); points below it take the phase of the nearest point below them that passed.
 * <p>
 * Immutable. Threading: any.
 */
public final class FrequencyResponse
{
    /** The window {@link #welch} uses. */
    public static final String WINDOW = "hann";

    private final double[] hz;
    private final double[] re;
    private final double[] im;
    private final double[] coherence;
    private final double rateHz;
    private final int segment;
    private final double overlap;
    private final int segments;

    private FrequencyResponse(final double[] hz, final double[] re, final double[] im, final double[] coherence,
        final double rateHz, final int segment, final double overlap, final int segments)
    {
        this.hz = hz;
        this.re = re;
        this.im = im;
        this.coherence = coherence;
        this.rateHz = rateHz;
        this.segment = segment;
        this.overlap = overlap;
        this.segments = segments;
    }

    /**
     * A response given point by point (a model's, or one read back from a file).
     *
     * @param hz        the frequencies, Hz, increasing.
     * @param re        the real parts.
     * @param im        the imaginary parts.
     * @param coherence the coherence of each point (1 for a model).
     * @return the response.
     * @throws IllegalArgumentException when the lengths differ or the frequencies do not increase.
     */
    public static FrequencyResponse of(final double[] hz, final double[] re, final double[] im,
        final double[] coherence)
    {
        if (hz.length != re.length || hz.length != im.length || hz.length != coherence.length)
        {
            throw new IllegalArgumentException("a frequency response needs as many values as frequencies: " +
                hz.length + " frequencies, " + re.length + " re, " + im.length + " im, " + coherence.length +
                " coherence");
        }
        for (int i = 0; i < hz.length; i++)
        {
            if (!(hz[i] > 0) || (i > 0 && !(hz[i] > hz[i - 1])) || !Double.isFinite(re[i]) ||
                !Double.isFinite(im[i]) || !(coherence[i] >= 0 && coherence[i] <= 1))
            {
                throw new IllegalArgumentException("frequency response point " + i + " (" + hz[i] + " Hz, " + re[i] +
                    " + " + im[i] + "j, coherence " + coherence[i] + "): frequencies must be positive and " +
                    "increasing, values finite, coherence 0..1");
            }
        }
        return new FrequencyResponse(hz.clone(), re.clone(), im.clone(), coherence.clone(), 0.0, 0, 0.0, 0);
    }

    /**
     * A measured response read back (from the JSON {@code rfmrt replay --frequency-response} writes): the points and
     * the settings of the estimate that made them.
     *
     * @param hz        the frequencies, Hz, increasing.
     * @param re        the real parts.
     * @param im        the imaginary parts.
     * @param coherence the coherence of each point.
     * @param rateHz    fs of the measurement, Hz.
     * @param segment   L.
     * @param overlap   the overlap.
     * @param segments  M.
     * @return the response.
     */
    public static FrequencyResponse measured(final double[] hz, final double[] re, final double[] im,
        final double[] coherence, final double rateHz, final int segment, final double overlap, final int segments)
    {
        if (!(rateHz > 0) || !Double.isFinite(rateHz))
        {
            throw new IllegalArgumentException("a measured response needs its sample rate, was " + rateHz + " Hz");
        }
        final FrequencyResponse points = of(hz, re, im, coherence);
        if (hz.length > 0 && hz[hz.length - 1] > rateHz / 2 + 1e-9)
        {
            throw new IllegalArgumentException("frequency " + hz[hz.length - 1] + " Hz lies above half the sample " +
                "rate " + rateHz + " Hz");
        }
        return new FrequencyResponse(points.hz, points.re, points.im, points.coherence, rateHz, segment, overlap,
            segments);
    }

    /**
     * Welch's H1 estimate of y/x.
     *
     * @param x        the input, sampled at {@code rateHz}.
     * @param y        the output, same length and instants.
     * @param rateHz   fs, Hz.
     * @param segment  L, points per segment, a power of two, at most the length of x.
     * @param overlap  the fraction of a segment the next one overlaps, 0 ≤ overlap &lt; 1 (0.5 is usual with Hann).
     * @return H1 and γ² at f_k = k·fs/L, k = 1..L/2.
     * @throws IllegalArgumentException naming the bad value.
     */
    public static FrequencyResponse welch(final double[] x, final double[] y, final double rateHz, final int segment,
        final double overlap)
    {
        return welch(x, y, new int[]{0}, rateHz, segment, overlap);
    }

    /**
     * Welch's H1 estimate of y/x over samples in runs: each run is a stretch without a break, and a segment lies
     * inside one run (the samples of a loop that was held up now and then: the break is not a sample).
     *
     * @param x         the input, sampled at {@code rateHz}.
     * @param y         the output, same length and instants.
     * @param runStarts where each run begins: 0 first, ascending.
     * @param rateHz    fs, Hz.
     * @param segment   L, points per segment, a power of two.
     * @param overlap   the fraction of a segment the next one overlaps, 0 ≤ overlap &lt; 1.
     * @return H1 and γ² at f_k = k·fs/L, k = 1..L/2.
     * @throws IllegalArgumentException naming the bad value, or when no run holds a segment.
     */
    public static FrequencyResponse welch(final double[] x, final double[] y, final int[] runStarts,
        final double rateHz, final int segment, final double overlap)
    {
        if (x.length != y.length)
        {
            throw new IllegalArgumentException("input and output differ in length: " + x.length + " and " +
                y.length);
        }
        if (!(rateHz > 0) || !Double.isFinite(rateHz))
        {
            throw new IllegalArgumentException("sample rate " + rateHz + " Hz must be positive");
        }
        if (!(overlap >= 0 && overlap < 1))
        {
            throw new IllegalArgumentException("overlap " + overlap + " must be 0 <= overlap < 1");
        }
        if (segment > x.length)
        {
            throw new IllegalArgumentException("segment of " + segment + " points is longer than the " + x.length +
                " samples");
        }
        if (segments(runStarts, x.length, segment, overlap) == 0)
        {
            throw new IllegalArgumentException("no run of the " + runStarts.length + " holds a segment of " + segment +
                " points");
        }
        final Fft fft = new Fft(segment);
        final int hop = hop(segment, overlap);
        final double[] window = new double[segment];
        for (int n = 0; n < segment; n++)
        {
            window[n] = 0.5 * (1.0 - Math.cos(2.0 * Math.PI * n / segment));
        }
        final int bins = segment / 2;
        final double[] sxx = new double[bins + 1];
        final double[] syy = new double[bins + 1];
        final double[] sxyRe = new double[bins + 1];
        final double[] sxyIm = new double[bins + 1];
        final double[] xr = new double[segment];
        final double[] xi = new double[segment];
        final double[] yr = new double[segment];
        final double[] yi = new double[segment];
        int count = 0;
        for (int r = 0; r < runStarts.length; r++)
        {
            final int runEnd = r + 1 < runStarts.length ? runStarts[r + 1] : x.length;
            for (int start = runStarts[r]; start + segment <= runEnd; start += hop)
            {
                final double xMean = mean(x, start, segment);
                final double yMean = mean(y, start, segment);
                for (int n = 0; n < segment; n++)
                {
                    xr[n] = (x[start + n] - xMean) * window[n];
                    yr[n] = (y[start + n] - yMean) * window[n];
                }
                Arrays.fill(xi, 0.0);
                Arrays.fill(yi, 0.0);
                fft.forward(xr, xi);
                fft.forward(yr, yi);
                for (int k = 1; k <= bins; k++)
                {
                    sxx[k] += xr[k] * xr[k] + xi[k] * xi[k];
                    syy[k] += yr[k] * yr[k] + yi[k] * yi[k];
                    // conj(X)·Y
                    sxyRe[k] += xr[k] * yr[k] + xi[k] * yi[k];
                    sxyIm[k] += xr[k] * yi[k] - xi[k] * yr[k];
                }
                count++;
            }
        }
        final double[] hz = new double[bins];
        final double[] hRe = new double[bins];
        final double[] hIm = new double[bins];
        final double[] gamma = new double[bins];
        for (int k = 1; k <= bins; k++)
        {
            final int i = k - 1;
            hz[i] = k * rateHz / segment;
            if (sxx[k] > 0)
            {
                hRe[i] = sxyRe[k] / sxx[k];
                hIm[i] = sxyIm[k] / sxx[k];
            }
            final double cross = sxyRe[k] * sxyRe[k] + sxyIm[k] * sxyIm[k];
            gamma[i] = sxx[k] > 0 && syy[k] > 0 ? Math.min(1.0, cross / (sxx[k] * syy[k])) : 0.0;
        }
        return new FrequencyResponse(hz, hRe, hIm, gamma, rateHz, segment, overlap, count);
    }

    /**
     * @param runStarts where each run begins: 0 first, ascending, each below {@code length}.
     * @param length    the samples in all runs.
     * @param segment   L, points per segment.
     * @param overlap   the fraction of a segment the next one overlaps.
     * @return how many segments {@link #welch(double[], double[], int[], double, int, double)} takes from the runs.
     * @throws IllegalArgumentException when the run starts are not 0 first and ascending within the samples.
     */
    public static int segments(final int[] runStarts, final int length, final int segment, final double overlap)
    {
        if (runStarts.length == 0 || runStarts[0] != 0)
        {
            throw new IllegalArgumentException("the first run must begin at sample 0");
        }
        final int hop = hop(segment, overlap);
        int count = 0;
        for (int r = 0; r < runStarts.length; r++)
        {
            final int end = r + 1 < runStarts.length ? runStarts[r + 1] : length;
            if (end <= runStarts[r] || end > length)
            {
                throw new IllegalArgumentException("run " + r + " begins at sample " + runStarts[r] + " and ends at " +
                    end + " of " + length + ": the run starts must ascend within the samples");
            }
            count += end - runStarts[r] >= segment ? (end - runStarts[r] - segment) / hop + 1 : 0;
        }
        return count;
    }

    private static int hop(final int segment, final double overlap)
    {
        return Math.max(1, (int)Math.round(segment * (1.0 - overlap)));
    }

    private static double mean(final double[] v, final int from, final int n)
    {
        double sum = 0.0;
        for (int i = from; i < from + n; i++)
        {
            sum += v[i];
        }
        return sum / n;
    }

    /**
     * This response over another on the same grid, point by point: the indirect estimate of a response inside a
     * closed loop, e.g. the plant P = H(d→y) / H(d→u) from an injection d. The coherence of a point is the lesser
     * of the two.
     *
     * @param denominator the response to divide by.
     * @param sign        +1, or −1 to negate (the open loop L = −H(d→c) / H(d→u)).
     * @return the quotient, with this response's settings.
     */
    public FrequencyResponse divide(final FrequencyResponse denominator, final double sign)
    {
        if (denominator.hz.length != hz.length)
        {
            throw new IllegalArgumentException("responses on different grids: " + hz.length + " and " +
                denominator.hz.length + " points");
        }
        final int n = hz.length;
        final double[] qr = new double[n];
        final double[] qi = new double[n];
        final double[] g = new double[n];
        for (int i = 0; i < n; i++)
        {
            final double dr = denominator.re[i];
            final double di = denominator.im[i];
            final double d = dr * dr + di * di;
            if (d > 0)
            {
                qr[i] = sign * (re[i] * dr + im[i] * di) / d;
                qi[i] = sign * (im[i] * dr - re[i] * di) / d;
            }
            g[i] = d > 0 ? Math.min(coherence[i], denominator.coherence[i]) : 0.0;
        }
        return new FrequencyResponse(hz, qr, qi, g, rateHz, segment, overlap, segments);
    }

    /**
     * @return the number of points.
     */
    public int size()
    {
        return hz.length;
    }

    /**
     * @param i a point.
     * @return its frequency, Hz.
     */
    public double hz(final int i)
    {
        return hz[i];
    }

    /**
     * @param i a point.
     * @return Re H.
     */
    public double re(final int i)
    {
        return re[i];
    }

    /**
     * @param i a point.
     * @return Im H.
     */
    public double im(final int i)
    {
        return im[i];
    }

    /**
     * @param i a point.
     * @return |H|.
     */
    public double magnitude(final int i)
    {
        return Math.hypot(re[i], im[i]);
    }

    /**
     * @param i a point.
     * @return 20·log10 |H|, dB.
     */
    public double magnitudeDb(final int i)
    {
        return 20.0 * Math.log10(magnitude(i));
    }

    /**
     * @param i a point.
     * @return γ², 0..1.
     */
    public double coherence(final int i)
    {
        return coherence[i];
    }

    /**
     * The phase, unwrapped from the lowest frequency up over the points whose coherence reaches
     * {@code minCoherence} (a point below it takes the last good point's phase: a noisy point must not add a turn).
     *
     * @param minCoherence the least coherence a point needs to count, 0..1.
     * @return the phase of every point, degrees.
     */
    public double[] phaseDegrees(final double minCoherence)
    {
        final double[] phase = new double[hz.length];
        double last = Double.NaN;
        for (int i = 0; i < hz.length; i++)
        {
            final double raw = Math.toDegrees(Math.atan2(im[i], re[i]));
            if (coherence[i] < minCoherence && !Double.isNaN(last))
            {
                phase[i] = last;
                continue;
            }
            double p = raw;
            if (!Double.isNaN(last))
            {
                p += 360.0 * Math.rint((last - raw) / 360.0);
            }
            phase[i] = p;
            if (coherence[i] >= minCoherence)
            {
                last = p;
            }
        }
        return phase;
    }

    /**
     * @return fs of the measurement, Hz (0 for a response given point by point).
     */
    public double rateHz()
    {
        return rateHz;
    }

    /**
     * @return L, points per segment (0 for a response given point by point).
     */
    public int segment()
    {
        return segment;
    }

    /**
     * @return the overlap of consecutive segments, a fraction of L.
     */
    public double overlap()
    {
        return overlap;
    }

    /**
     * @return M, the segments averaged (0 for a response given point by point).
     */
    public int segments()
    {
        return segments;
    }
}
