package io.rfmrt.control;

import java.util.Arrays;

/**
 * Matches events (deadline misses, watchdog trips) against the stalls the nodes measured themselves
 * ({@link WakeLateness}). Each event and each stall is an interval of {@link System#nanoTime()} values on one host.
 * The rule: an event {@code [from, to]} <b>coincides</b> with a stall {@code [start, end]} when the two overlap once
 * the event is widened by the slack (one loop period) on each side, i.e. {@code start <= to + slack} and
 * {@code end >= from - slack}. An event that coincides with no stall is <b>unexplained</b>.
 * <p>
 * Not on the hot path: built once from the stalls of a run, then asked about each event in O(log stalls).
 */
public final class StallMatcher
{
    private final long slackNanos;
    private final long[] starts;
    /** maxEnd[i]: the latest end among the stalls 0..i in start order. */
    private final long[] maxEnd;

    /**
     * @param stallStarts stall starts (any order; may be longer than {@code count}).
     * @param stallEnds   stall ends, same order.
     * @param count       stalls.
     * @param slackNanos  how far apart an event and a stall may be and still coincide (one period).
     */
    public StallMatcher(final long[] stallStarts, final long[] stallEnds, final int count, final long slackNanos)
    {
        if (slackNanos < 0)
        {
            throw new IllegalArgumentException("slack " + slackNanos + " ns is negative");
        }
        this.slackNanos = slackNanos;
        final Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++)
        {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(stallStarts[a], stallStarts[b]));
        starts = new long[count];
        maxEnd = new long[count];
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < count; i++)
        {
            starts[i] = stallStarts[order[i]];
            latest = Math.max(latest, stallEnds[order[i]]);
            maxEnd[i] = latest;
        }
    }

    /**
     * @param fromNanos event start.
     * @param toNanos   event end (≥ start).
     * @return whether the event coincides with a stall.
     */
    public boolean coincides(final long fromNanos, final long toNanos)
    {
        // the stalls that start no later than to + slack are a prefix in start order; one of them reaches from − slack
        // exactly when the latest end of that prefix does
        final long limit = toNanos + slackNanos;
        int lo = 0;
        int hi = starts.length;
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (starts[mid] <= limit)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return lo > 0 && maxEnd[lo - 1] >= fromNanos - slackNanos;
    }

    /**
     * @param from  event starts.
     * @param to    event ends.
     * @param count events.
     * @return how many of them coincide with a stall (the rest are unexplained).
     */
    public long matched(final long[] from, final long[] to, final int count)
    {
        long n = 0;
        for (int i = 0; i < count; i++)
        {
            if (coincides(from[i], to[i]))
            {
                n++;
            }
        }
        return n;
    }

    /**
     * Sort deadline misses by cause, each once, the kernel's causes first: in a stall ({@link #coincides}), else a
     * <b>late wake</b> (the handler's own wake-up for that cycle, {@code wake - from}, already exceeded the deadline),
     * else <b>pre-empted</b> (the handler's thread was off the cpu during its cycle for long enough that, without that
     * time, the command would have met the deadline: {@code to - from - offCpu <= deadline}), else unexplained (woken
     * in time, on the cpu, and still late: the wake-up's spread plus the cycle's own work).
     *
     * @param from          misses' starts (the sensor frame's publish stamp).
     * @param to            their ends (the command written).
     * @param wake          when each cycle's handler started.
     * @param offCpu        how long each cycle's thread was off the cpu between its start and the command, ns.
     * @param count         misses.
     * @param deadlineNanos the deadline.
     * @return the misses by cause.
     */
    public Misses classify(final long[] from, final long[] to, final long[] wake, final long[] offCpu,
        final int count, final long deadlineNanos)
    {
        long matched = 0;
        long lateWake = 0;
        long preempted = 0;
        for (int i = 0; i < count; i++)
        {
            if (coincides(from[i], to[i]))
            {
                matched++;
            }
            else if (wake[i] - from[i] > deadlineNanos)
            {
                lateWake++;
            }
            else if (to[i] - from[i] - offCpu[i] <= deadlineNanos)
            {
                preempted++;
            }
        }
        return new Misses(matched, lateWake, preempted, count - matched - lateWake - preempted);
    }

    /**
     * Deadline misses by cause ({@link #classify}); they add up to the misses classified.
     *
     * @param matched     in a stall of either node.
     * @param lateWake    not in a stall, but woken past the deadline.
     * @param preempted   woken in time, but off the cpu in the cycle for longer than it missed by.
     * @param unexplained woken in time, on the cpu, and still late.
     */
    public record Misses(long matched, long lateWake, long preempted, long unexplained)
    {
    }

    /**
     * @return stalls known to the matcher.
     */
    public int stalls()
    {
        return starts.length;
    }
}
