package io.rfmrt.control;

import java.util.ArrayList;
import java.util.List;

/**
 * The loop rate checked against the standard axis and tune before anything runs: the plant's RK4 sub-steps at that
 * period ({@link AxisParameters#problemsFor(double)}) and the discrete velocity loop's stability and phase margin
 * ({@link ControllerGains#loopProblems(double)}). The demo, the controller and the plant all refuse a rate that fails.
 */
public final class RateCheck
{
    private RateCheck()
    {
    }

    /**
     * @param rateHz the loop rate.
     * @return every problem, one line each; empty when the rate is usable.
     */
    public static List<String> problems(final int rateHz)
    {
        final double dt = 1.0 / rateHz;
        final AxisParameters axis = AxisParameters.standard();
        final List<String> problems = new ArrayList<>(axis.problemsFor(dt));
        problems.addAll(ControllerGains.standard().withPeriodSeconds(dt).loopProblems(axis.inertiaKgM2()));
        return problems;
    }

    /**
     * @param rateHz the loop rate.
     * @return the problems as one line, or null when the rate is usable.
     */
    public static String refusal(final int rateHz)
    {
        final List<String> problems = problems(rateHz);
        return problems.isEmpty() ? null : String.join("; ", problems);
    }
}
