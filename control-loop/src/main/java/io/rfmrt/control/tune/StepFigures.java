package io.rfmrt.control.tune;

/**
 * Rise time, overshoot and settling time of a step response y(t) sampled every Δt from the step's instant, going
 * from y0 (its value at the step) towards the target y0 + A (A = the step's size):
 * <pre>
 *   rise time      t(y reaches y0 + 0.9·A) − t(y reaches y0 + 0.1·A)     first crossings, interpolated
 *   overshoot      (max over the run of (y − y0)/A) − 1, in %           0 when y never passes the target
 *   settling time  the last instant |y − (y0 + A)| > band·|A|, plus Δt   (band 2 %); the whole run when it never
 *                                                                        settles, reported as not settled
 * </pre>
 * Threading: static, stateless.
 *
 * @param riseSeconds     10–90 % rise time, s; NaN when y never reaches 90 %.
 * @param overshootPercent overshoot, %.
 * @param settlingSeconds 2 % settling time, s; NaN when y is outside the band at the end.
 * @param stepSize        A.
 * @param band            the settling band, a fraction of |A|.
 */
public record StepFigures(double riseSeconds, double overshootPercent, double settlingSeconds, double stepSize,
    double band)
{
    /** The settling band by default: 2 % of the step. */
    public static final double BAND_DEFAULT = 0.02;

    /**
     * @param y        the response, y[0] at the step's instant.
     * @param dt       Δt, s.
     * @param stepSize A, non-zero.
     * @param band     the settling band, a fraction of |A| (0.02).
     * @return the figures.
     */
    public static StepFigures of(final double[] y, final double dt, final double stepSize, final double band)
    {
        if (y.length < 2 || stepSize == 0 || !(dt > 0))
        {
            throw new IllegalArgumentException("a step response needs at least 2 samples, a non-zero step and " +
                "dt > 0; was " + y.length + " samples, step " + stepSize + ", dt " + dt);
        }
        final double y0 = y[0];
        double t10 = Double.NaN;
        double t90 = Double.NaN;
        double peak = 0;
        double settled = 0;
        for (int i = 0; i < y.length; i++)
        {
            final double r = (y[i] - y0) / stepSize;
            if (i > 0)
            {
                final double q = (y[i - 1] - y0) / stepSize;
                if (Double.isNaN(t10) && q < 0.1 && r >= 0.1)
                {
                    t10 = (i - 1 + (0.1 - q) / (r - q)) * dt;
                }
                if (Double.isNaN(t90) && q < 0.9 && r >= 0.9)
                {
                    t90 = (i - 1 + (0.9 - q) / (r - q)) * dt;
                }
            }
            peak = Math.max(peak, r);
            if (Math.abs(r - 1.0) > band)
            {
                settled = (i + 1) * dt;
            }
        }
        final boolean settles = Math.abs((y[y.length - 1] - y0) / stepSize - 1.0) <= band;
        return new StepFigures(t90 - t10, Math.max(0.0, peak - 1.0) * 100.0, settles ? settled : Double.NaN,
            stepSize, band);
    }
}
