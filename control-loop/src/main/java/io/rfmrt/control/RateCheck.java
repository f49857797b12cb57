package io.rfmrt.control;

import java.util.ArrayList;
import java.util.List;

/**
 * The loop rate checked against the axis and the standard tune before anything runs: the rate's range, the plant's
 * RK4 sub-steps at that period ({@link AxisParameters#problemsFor(double)}) and the discrete velocity loop's
 * stability and phase margin ({@link ControllerGains#loopProblems(double, double)}). The one rule for a rate: the demo,
 * the controller's settings and the plant all refuse a rate that fails it, with one line naming the constraint.
 */
public final class RateCheck
{
    /** The lowest rate any check accepts, Hz. */
    public static final int MIN_RATE_HZ = 1;
    /** The highest rate, Hz: the control layout's rings are sized for 10 kHz (deploy/conf/layout.yaml). */
    public static final int MAX_RATE_HZ = 10_000;

    private RateCheck()
    {
    }

    /**
     * The nominal axis ({@link AxisParameters#standard()}) with one period of transport delay.
     *
     * @param rateHz the loop rate.
     * @return every problem, one line each; empty when the rate is usable.
     */
    public static List<String> problems(final int rateHz)
    {
        final List<String> problems = new ArrayList<>();
        if (outOfRange(rateHz, problems))
        {
            return problems;
        }
        final double dt = 1.0 / rateHz;
        final AxisParameters axis = AxisParameters.standard();
        problems.addAll(axis.problemsFor(dt));
        problems.addAll(ControllerGains.standard().withPeriodSeconds(dt).loopProblems(axis.inertiaKgM2()));
        return problems;
    }

    /**
     * The realistic axis ({@link RealisticAxisParameters#standard()}): its sub-steps, and the velocity loop on its
     * total inertia with the delay it adds: the transport delay, half a period for the velocity differenced from the
     * encoder, and the current loop's lag.
     *
     * @param rateHz       the loop rate.
     * @param delayPeriods the drive's transport delay, periods.
     * @return every problem, one line each; empty when the rate is usable.
     */
    public static List<String> realisticProblems(final int rateHz, final int delayPeriods)
    {
        final List<String> problems = new ArrayList<>();
        if (outOfRange(rateHz, problems))
        {
            return problems;
        }
        final double dt = 1.0 / rateHz;
        final RealisticAxisParameters axis = RealisticAxisParameters.standard();
        problems.addAll(axis.problemsFor(dt));
        problems.addAll(ControllerGains.standard().withPeriodSeconds(dt).loopProblems(axis.totalInertiaKgM2(),
            delayPeriods + 0.5 + axis.currentLagSeconds() / dt));
        return problems;
    }

    /**
     * @param rateHz the loop rate.
     * @return {@link #problems(int)} as one line, or null when the rate is usable.
     */
    public static String refusal(final int rateHz)
    {
        return join(problems(rateHz));
    }

    /**
     * @param problems problems.
     * @return them as one line, or null when there are none.
     */
    public static String join(final List<String> problems)
    {
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    private static boolean outOfRange(final int rateHz, final List<String> problems)
    {
        if (rateHz < MIN_RATE_HZ || rateHz > MAX_RATE_HZ)
        {
            problems.add("rate " + rateHz + " Hz is not " + MIN_RATE_HZ + ".." + MAX_RATE_HZ + " (the control " +
                "layout's rings are sized for " + MAX_RATE_HZ + " Hz)");
            return true;
        }
        return false;
    }
}
