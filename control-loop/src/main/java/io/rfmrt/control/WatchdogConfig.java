package io.rfmrt.control;

import java.util.ArrayList;
import java.util.List;

/**
 * Settings of a {@link Watchdog}, named {@code watchdog.<component>} in messages, as in a node's YAML file.
 *
 * @param periodNanos         the loop period (one sensor frame is expected per period), ns.
 * @param missedPeriodsToTrip K: no sensor frame for more than K periods trips the axis to SAFE.
 * @param goodFramesToRecover M: frames in a row (none more than K periods after the one before) that start the axis
 *                            from STARTING and bring it from RECOVERING back to RUNNING.
 * @param recovery            whether SAFE turns into RECOVERING by itself when frames return.
 * <p>
 * What the axis does while it is not RUNNING is not a setting: the controller disables the drive and engages its
 * holding brake (docs/protocol.md, the control word), and quick-stops it when it FAULTs.
 */
public record WatchdogConfig(
    long periodNanos,
    int missedPeriodsToTrip,
    int goodFramesToRecover,
    Recovery recovery)
{
    /** Default K: 10 periods (10 ms at 1 kHz: fast, yet above the hiccups of a non-RT kernel). */
    public static final int MISSED_PERIODS_TO_TRIP_DEFAULT = 10;
    /** Default M: 50 frames (50 ms at 1 kHz). */
    public static final int GOOD_FRAMES_TO_RECOVER_DEFAULT = 50;
    /** Default recovery. */
    public static final Recovery RECOVERY_DEFAULT = Recovery.AUTOMATIC;

    /**
     * How the axis leaves SAFE.
     */
    public enum Recovery
    {
        /** The first frame after a trip starts RECOVERING; M good frames later the axis runs again. */
        AUTOMATIC,
        /** The axis stays SAFE until {@link Watchdog#commandRecovery(long)}; then M good frames to RUNNING. */
        COMMANDED
    }

    /**
     * @param periodNanos the loop period, ns.
     * @return the defaults for that period.
     */
    public static WatchdogConfig defaults(final long periodNanos)
    {
        return new WatchdogConfig(periodNanos, MISSED_PERIODS_TO_TRIP_DEFAULT, GOOD_FRAMES_TO_RECOVER_DEFAULT,
            RECOVERY_DEFAULT);
    }

    /**
     * @return the longest gap between frames that is not a trip, ns (K periods).
     */
    public long timeoutNanos()
    {
        return periodNanos * missedPeriodsToTrip;
    }

    /**
     * @return every problem, one line each naming the setting and the bad value; empty when usable.
     */
    public List<String> problems()
    {
        final List<String> problems = new ArrayList<>();
        if (periodNanos <= 0)
        {
            problems.add("watchdog.periodNanos must be > 0, was " + periodNanos);
        }
        if (missedPeriodsToTrip < 1)
        {
            problems.add("watchdog.missedPeriodsToTrip must be >= 1, was " + missedPeriodsToTrip);
        }
        else if (periodNanos > 0 && periodNanos > Long.MAX_VALUE / missedPeriodsToTrip)
        {
            problems.add("watchdog.missedPeriodsToTrip " + missedPeriodsToTrip + " periods overflow the timeout");
        }
        if (goodFramesToRecover < 1)
        {
            problems.add("watchdog.goodFramesToRecover must be >= 1, was " + goodFramesToRecover);
        }
        if (recovery == null)
        {
            problems.add("watchdog.recovery must be AUTOMATIC or COMMANDED, was null");
        }
        return problems;
    }

    /**
     * @return this.
     * @throws IllegalArgumentException naming every bad setting and value.
     */
    public WatchdogConfig validate()
    {
        final List<String> problems = problems();
        if (!problems.isEmpty())
        {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return this;
    }
}
