package io.rfmrt.control.tune;

/**
 * A step response read from a journal ({@link #of}): a step injected at the velocity reference (y = the measured
 * velocity) or the position setpoint (y = the measured position), from its first cycle to the last that still held
 * the step's full size. At the position setpoint, the trajectory's own change (the EXCITATION sample's value before
 * the injection) is taken out of y, so that only the step's answer is left while the axis moves. At the velocity
 * reference the position loop still acts and pulls the velocity back: that is the cascade's answer, reported as is.
 *
 * @param point         velocity or position.
 * @param stepSize      the step, rad/s or rad.
 * @param rateHz        the loop rate from the stamps, Hz.
 * @param firstCycle    the step's first cycle.
 * @param cycles        cycles analysed.
 * @param figures       rise, overshoot, settling.
 * @param seconds       time of each point, s from the step.
 * @param response      y − y(step) − (the trajectory's change), per cycle.
 */
public record StepReport(String point, double stepSize, double rateHz, long firstCycle, int cycles,
    StepFigures figures, double[] seconds, double[] response)
{
    /**
     * @param excited the excited cycles of a step (its longest run is read).
     * @return the report.
     * @throws IllegalArgumentException when the excitation is not a step at the velocity reference or the position
     *                                  setpoint.
     */
    public static StepReport of(final ExcitedCycles.Series excited)
    {
        final ExcitedCycles.Series s = excited.longestRun();
        if (s.kind() != 1)
        {
            throw new IllegalArgumentException("the excitation is a " + LoopReport.name(LoopReport.SIGNALS, s.kind()) +
                ", not a step");
        }
        if (s.point() != 2 && s.point() != 3)
        {
            throw new IllegalArgumentException("a step on the " + LoopReport.name(LoopReport.POINTS, s.point()) +
                " gives no step response; step the velocity reference or the position setpoint");
        }
        final double[] d = s.injected();
        int start = -1;
        int end = -1;
        for (int i = 0; i < d.length; i++)
        {
            if (start < 0 && d[i] != 0)
            {
                start = i;
            }
            if (start >= 0 && d[i] == s.amplitude())
            {
                end = i;
            }
        }
        if (start < 0 || end - start < 2)
        {
            throw new IllegalArgumentException("the step holds its size for fewer than 3 cycles");
        }
        final double[] y = s.point() == 2 ? s.velocity() : s.position();
        final int n = end - start + 1;
        final double[] seconds = new double[n];
        final double[] response = new double[n];
        for (int i = 0; i < n; i++)
        {
            final int k = start + i;
            seconds[i] = i * s.periodSeconds();
            // the trajectory's own change at a position setpoint; a velocity reference's value before the injection is the
            // position loop's answer to the step itself, which stays in y
            final double trajectory = s.point() == 3 ? s.before()[k] - s.before()[start] : 0.0;
            response[i] = y[k] - y[start] - trajectory;
        }
        final StepFigures figures = StepFigures.of(response, s.periodSeconds(), s.amplitude(),
            StepFigures.BAND_DEFAULT);
        return new StepReport(LoopReport.name(LoopReport.POINTS, s.point()), s.amplitude(), 1.0 / s.periodSeconds(),
            s.firstCycle() + start, n, figures, seconds, response);
    }
}
