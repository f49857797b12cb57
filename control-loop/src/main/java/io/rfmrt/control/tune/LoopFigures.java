package io.rfmrt.control.tune;

/**
 * The figures a loop is judged by, read off a frequency response ({@link FrequencyResponse}) over the points whose
 * coherence reaches a threshold (the others are skipped; crossings are interpolated between the two good points
 * around them, linearly in log f):
 * <ul>
 *   <li>{@link #margins} of an open loop L: the crossover fc, the lowest frequency where |L| falls through 1 (0 dB);
 *   the phase margin 180° + ∠L(fc), ∠L wrapped to (−180°, 180°]; the phase crossovers above fc, where ∠L passes
 *   −180° (mod 360°), and the gain margin −20·log10 |L| at the one where it is least. A cascade with an integrator in
 *   each loop (position P on a velocity PI) starts near −270° and passes −180° once below fc, where |L| ≫ 1: that
 *   crossing bounds how far the gain may fall, not rise, and is not counted;</li>
 *   <li>{@link #bandwidthHz} of a closed loop T: the lowest frequency where |T| falls through −3 dB (|T| = 1/√2)
 *   after having been above it (a loop that tracks has |T| → 1 at low frequencies);</li>
 *   <li>{@link #delay}: the equivalent delay τ = −dφ/dω, the least-squares slope of the unwrapped phase against
 *   ω = 2πf over a band, and the phase the line leaves at ω = 0 (−90° for a pure integrator). A delay τ turns the
 *   phase by −360°·f·τ and leaves the magnitude alone, which is how it eats a phase margin;</li>
 *   <li>{@link #resonance}: on a torque → velocity plant (|P| ≈ 1/(J·ω) when rigid), the anti-resonance fa is the
 *   deepest dip of |P|·ω and the resonance the largest peak of |P|·ω / |1 − (f/fa)²| above it: a two-mass axis seen
 *   from the motor is (Jl·s² + c·s + k) / (s·(Jm·Jl·s² + c·J·s + k·J)), whose numerator would pull the peak of |P|·ω
 *   above the pole; dividing the anti-resonance out leaves the pole's peak (looked for from 1.05·fa up). Both are
 *   refined by a parabola through three points (in log f).</li>
 * </ul>
 * Threading: static, stateless.
 */
public final class LoopFigures
{
    /** The coherence a point needs by default to be read. */
    public static final double MIN_COHERENCE_DEFAULT = 0.8;

    private LoopFigures()
    {
    }

    /**
     * Stability margins of an open loop.
     *
     * @param crossoverHz      fc, Hz; NaN when |L| never falls through 1 over the good points.
     * @param phaseMarginDeg   180° + ∠L(fc), degrees; NaN without a crossover.
     * @param phaseCrossoverHz where ∠L passes −180° above fc with the least gain margin, Hz; NaN when it does not
     *                         within the good points.
     * @param gainMarginDb     −20·log10 |L| there, dB; +∞ when there is no phase crossover.
     */
    public record Margins(double crossoverHz, double phaseMarginDeg, double phaseCrossoverHz, double gainMarginDb)
    {
    }

    /**
     * An equivalent delay from the phase slope.
     *
     * @param seconds        τ, s.
     * @param interceptDeg   the fitted phase at ω = 0, degrees.
     * @param fromHz         the band's lower edge, Hz.
     * @param toHz           its upper edge, Hz.
     * @param points         points fitted.
     * @param rmsResidualDeg RMS distance of the points from the line, degrees.
     */
    public record Delay(double seconds, double interceptDeg, double fromHz, double toHz, int points,
        double rmsResidualDeg)
    {
    }

    /**
     * A mechanical resonance of a torque → velocity plant.
     *
     * @param resonanceHz     the peak of |P|·ω / |1 − (f/fa)²| above fa, Hz; NaN when none.
     * @param antiResonanceHz fa, the dip of |P|·ω, Hz; NaN when none.
     * @param peakDb          |P|·ω at the peak over its value at the lowest good point, dB.
     * @param inertiaKgM2     1/(|P|·ω) averaged over the good points below half the anti-resonance (the rigid
     *                        inertia the loop sees), kg·m²; NaN when none.
     */
    public record Resonance(double resonanceHz, double antiResonanceHz, double peakDb, double inertiaKgM2)
    {
    }

    /**
     * @param open         an open loop L.
     * @param minCoherence the coherence a point needs to be read.
     * @return its margins.
     */
    public static Margins margins(final FrequencyResponse open, final double minCoherence)
    {
        final double[] phase = open.phaseDegrees(minCoherence);
        double crossover = Double.NaN;
        double phaseMargin = Double.NaN;
        int prev = -1;
        int crossoverAt = -1;
        for (int i = 0; i < open.size(); i++)
        {
            if (open.coherence(i) < minCoherence)
            {
                continue;
            }
            if (prev >= 0 && open.magnitude(prev) >= 1.0 && open.magnitude(i) < 1.0)
            {
                final double a = open.magnitudeDb(prev);
                final double b = open.magnitudeDb(i);
                final double s = a / (a - b);
                crossover = logInterpolate(open.hz(prev), open.hz(i), s);
                phaseMargin = wrap(180.0 + phase[prev] + s * (phase[i] - phase[prev]));
                crossoverAt = prev;
                break;
            }
            prev = i;
        }
        double phaseCrossover = Double.NaN;
        double gainMargin = Double.POSITIVE_INFINITY;
        if (crossoverAt >= 0)
        {
            prev = crossoverAt;
            for (int i = crossoverAt + 1; i < open.size(); i++)
            {
                if (open.coherence(i) < minCoherence)
                {
                    continue;
                }
                final double a = wrap(180.0 + phase[prev]);
                final double b = wrap(180.0 + phase[i]);
                // a sign change near 0 is a crossing of −180°; one near ±180 is the wrap itself
                if (a >= 0 && b < 0 && a - b < 180.0)
                {
                    final double s = a / (a - b);
                    final double db = open.magnitudeDb(prev) + s * (open.magnitudeDb(i) - open.magnitudeDb(prev));
                    if (-db < gainMargin)
                    {
                        gainMargin = -db;
                        phaseCrossover = logInterpolate(open.hz(prev), open.hz(i), s);
                    }
                }
                prev = i;
            }
        }
        return new Margins(crossover, phaseMargin, phaseCrossover, gainMargin);
    }

    /**
     * @param closed       a closed loop T.
     * @param minCoherence the coherence a point needs to be read.
     * @return the −3 dB bandwidth, Hz; NaN when |T| does not fall through −3 dB within the good points.
     */
    public static double bandwidthHz(final FrequencyResponse closed, final double minCoherence)
    {
        boolean above = false;
        int prev = -1;
        for (int i = 0; i < closed.size(); i++)
        {
            if (closed.coherence(i) < minCoherence)
            {
                continue;
            }
            final double db = closed.magnitudeDb(i);
            if (db >= -3.0)
            {
                above = true;
            }
            else if (above)
            {
                final double a = closed.magnitudeDb(prev) + 3.0;
                final double b = db + 3.0;
                return logInterpolate(closed.hz(prev), closed.hz(i), a / (a - b));
            }
            prev = i;
        }
        return Double.NaN;
    }

    /**
     * @param response     a response.
     * @param fromHz       the band's lower edge, Hz.
     * @param toHz         its upper edge, Hz.
     * @param minCoherence the coherence a point needs to be fitted.
     * @return the equivalent delay; NaN seconds when fewer than 3 points qualify.
     */
    public static Delay delay(final FrequencyResponse response, final double fromHz, final double toHz,
        final double minCoherence)
    {
        final double[] phase = response.phaseDegrees(minCoherence);
        double n = 0;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < response.size(); i++)
        {
            final double f = response.hz(i);
            if (f < fromHz || f > toHz || response.coherence(i) < minCoherence)
            {
                continue;
            }
            final double w = 2.0 * Math.PI * f;
            n++;
            sx += w;
            sy += phase[i];
            sxx += w * w;
            sxy += w * phase[i];
        }
        if (n < 3)
        {
            return new Delay(Double.NaN, Double.NaN, fromHz, toHz, (int)n, Double.NaN);
        }
        final double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        final double intercept = (sy - slope * sx) / n;
        double residual = 0;
        for (int i = 0; i < response.size(); i++)
        {
            final double f = response.hz(i);
            if (f < fromHz || f > toHz || response.coherence(i) < minCoherence)
            {
                continue;
            }
            final double r = phase[i] - (intercept + slope * 2.0 * Math.PI * f);
            residual += r * r;
        }
        return new Delay(-Math.toRadians(slope), intercept, fromHz, toHz, (int)n, Math.sqrt(residual / n));
    }

    /**
     * @param plant        a torque → velocity plant.
     * @param fromHz       where to start looking, Hz (above the loop's own low-frequency effects).
     * @param minCoherence the coherence a point needs to be read.
     * @return its resonance.
     */
    public static Resonance resonance(final FrequencyResponse plant, final double fromHz, final double minCoherence)
    {
        final double[] rigid = new double[plant.size()];
        int dip = -1;
        for (int i = 0; i < plant.size(); i++)
        {
            rigid[i] = plant.magnitude(i) * plant.hz(i);
            if (plant.hz(i) >= fromHz && plant.coherence(i) >= minCoherence && (dip < 0 || rigid[i] < rigid[dip]))
            {
                dip = i;
            }
        }
        if (dip < 0)
        {
            return new Resonance(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        final double antiResonance = refine(plant, rigid, dip);
        final double[] pole = new double[plant.size()];
        int peak = -1;
        double low = Double.NaN;
        for (int i = 0; i < plant.size(); i++)
        {
            final double r = plant.hz(i) / antiResonance;
            pole[i] = rigid[i] / Math.abs(1.0 - r * r);
            if (plant.hz(i) < fromHz || plant.coherence(i) < minCoherence)
            {
                continue;
            }
            if (Double.isNaN(low))
            {
                low = rigid[i];
            }
            // clear of the anti-resonance, where the division would only amplify noise (5 % above it: a load a
            // tenth of the motor's inertia puts the resonance that far up)
            if (plant.hz(i) > 1.05 * antiResonance && (peak < 0 || pole[i] > pole[peak]))
            {
                peak = i;
            }
        }
        double inertia = 0;
        int inertiaPoints = 0;
        for (int i = 0; i < plant.size(); i++)
        {
            if (plant.hz(i) >= fromHz && plant.coherence(i) >= minCoherence && plant.hz(i) <= 0.5 * antiResonance)
            {
                inertia += 1.0 / (rigid[i] * 2.0 * Math.PI);
                inertiaPoints++;
            }
        }
        if (peak < 0)
        {
            return new Resonance(Double.NaN, antiResonance, Double.NaN, inertia / inertiaPoints);
        }
        return new Resonance(refine(plant, pole, peak), antiResonance, 20.0 * Math.log10(rigid[peak] / low),
            inertiaPoints == 0 ? Double.NaN : inertia / inertiaPoints);
    }

    /** The vertex of the parabola through log v at i − 1, i, i + 1 (in log f), or f_i at an edge. */
    private static double refine(final FrequencyResponse plant, final double[] v, final int i)
    {
        if (i == 0 || i == plant.size() - 1)
        {
            return plant.hz(i);
        }
        final double a = Math.log(v[i - 1]);
        final double b = Math.log(v[i]);
        final double c = Math.log(v[i + 1]);
        final double d = a - 2 * b + c;
        final double offset = d == 0 ? 0 : 0.5 * (a - c) / d;
        if (!(Math.abs(offset) <= 1))
        {
            return plant.hz(i);
        }
        return offset < 0 ? logInterpolate(plant.hz(i), plant.hz(i - 1), -offset) :
            logInterpolate(plant.hz(i), plant.hz(i + 1), offset);
    }

    /**
     * @param degrees an angle.
     * @return it wrapped to (−180, 180].
     */
    public static double wrap(final double degrees)
    {
        double d = degrees % 360.0;
        if (d > 180.0)
        {
            d -= 360.0;
        }
        else if (d <= -180.0)
        {
            d += 360.0;
        }
        return d;
    }

    private static double logInterpolate(final double f0, final double f1, final double s)
    {
        return Math.exp(Math.log(f0) + s * (Math.log(f1) - Math.log(f0)));
    }
}
