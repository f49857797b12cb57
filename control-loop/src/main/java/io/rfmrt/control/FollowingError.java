package io.rfmrt.control;

/**
 * Following-error supervision of one axis: the position lag (set-point − measured position) may not stay above its
 * limit for longer than the filter time. The limit grows with the commanded speed, from {@code atRestRad} at standstill
 * to {@code atSpeedRad} at {@code speedRadPerS} and above (a lag proportional to speed is normal for a loop that
 * follows a moving set-point); the filter keeps one noisy sample from faulting the axis. The filter is a leaky count:
 * +1 for each cycle above the limit, −1 (down to 0) for each within it; the axis faults when the count reaches the
 * filter's cycles. A lag that stays above faults after exactly the filter time; one that rings through zero (a loop
 * oscillating around its set-point) faults too, once it has spent the filter time more above the limit than within.
 * Exceeding it latches: the monitor reports the fault once and stays faulted until {@link #reset()}.
 * <p>
 * Counted in control cycles (frame time), not wall time. Allocation free; one thread owns an instance.
 */
public final class FollowingError
{
    /**
     * The limits.
     *
     * @param atRestRad    the lag limit at standstill, rad.
     * @param atSpeedRad   the lag limit at {@code speedRadPerS} and above, rad.
     * @param speedRadPerS the commanded speed at which the limit reaches {@code atSpeedRad}.
     * @param filterCycles the leaky count of cycles above the limit that faults the axis.
     */
    public record Limits(double atRestRad, double atSpeedRad, double speedRadPerS, int filterCycles)
    {
        /** Ranges. */
        public Limits
        {
            if (!(atRestRad > 0) || !(atSpeedRad >= atRestRad) || !(speedRadPerS > 0) || filterCycles < 1)
            {
                throw new IllegalArgumentException("following error limits must be at rest > 0, at speed >= at " +
                    "rest, speed > 0 and filter >= 1 cycle (got " + atRestRad + " rad, " + atSpeedRad + " rad, " +
                    speedRadPerS + " rad/s, " + filterCycles + " cycles)");
            }
        }

        /**
         * The defaults for the demo axis: 5 mrad at rest, 10 mrad at the profile's top speed, 10 ms filter.
         *
         * @param periodSeconds the loop period.
         * @return the limits at that period.
         */
        public static Limits defaults(final double periodSeconds)
        {
            return new Limits(5e-3, 10e-3, DemoProfile.V_MAX_RAD_PER_S,
                Math.max(1, (int)Math.round(0.010 / periodSeconds)));
        }
    }

    private final Limits limits;
    private int over;
    private boolean faulted;
    private double peakLag;
    private double lagAtFault;
    private double limitAtFault;

    /**
     * @param limits the limits.
     */
    public FollowingError(final Limits limits)
    {
        this.limits = limits;
    }

    /**
     * @param speedRadPerS the commanded speed (sign ignored).
     * @return the lag limit at that speed, rad.
     */
    public double limitAt(final double speedRadPerS)
    {
        final double share = Math.min(1.0, Math.abs(speedRadPerS) / limits.speedRadPerS());
        return limits.atRestRad() + (limits.atSpeedRad() - limits.atRestRad()) * share;
    }

    /**
     * One control cycle.
     *
     * @param lagRad       set-point − measured position, rad.
     * @param speedRadPerS the commanded speed.
     * @return {@code true} on the cycle the axis faults (once; {@link #faulted()} stays true after).
     */
    public boolean check(final double lagRad, final double speedRadPerS)
    {
        final double lag = Math.abs(lagRad);
        if (lag > peakLag)
        {
            peakLag = lag;
        }
        if (faulted)
        {
            return false;
        }
        final double limit = limitAt(speedRadPerS);
        // NaN counts as over the limit: a lag that cannot be measured is not one that is within it
        if (!(lag <= limit))
        {
            over++;
        }
        else if (over > 0)
        {
            // a leaky count, not a run: a lag that oscillates through zero (an unstable loop ringing around the
            // set-point) still faults once it spends the filter time more above the limit than within it
            over--;
        }
        if (over >= limits.filterCycles())
        {
            faulted = true;
            lagAtFault = lag;
            limitAtFault = limit;
            return true;
        }
        return false;
    }

    /**
     * Clear a latched fault (an explicit fault reset); the peak is kept.
     */
    public void reset()
    {
        faulted = false;
        over = 0;
    }

    /**
     * @return whether the axis faulted (latched).
     */
    public boolean faulted()
    {
        return faulted;
    }

    /**
     * @return the largest lag checked, rad.
     */
    public double peakLag()
    {
        return peakLag;
    }

    /**
     * @return the lag on the cycle it faulted, rad (0 before).
     */
    public double lagAtFault()
    {
        return lagAtFault;
    }

    /**
     * @return the limit on the cycle it faulted, rad (0 before).
     */
    public double limitAtFault()
    {
        return limitAtFault;
    }

    /**
     * @return the limits.
     */
    public Limits limits()
    {
        return limits;
    }
}
