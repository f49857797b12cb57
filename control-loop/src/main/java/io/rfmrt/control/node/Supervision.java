package io.rfmrt.control.node;

import io.rfmrt.control.DeadlineMonitor;
import io.rfmrt.control.FollowingError;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The checks on each answered cycle: its deadline (sensor send → command written, against a fraction of the period;
 * {@link DeadlineMonitor}), with the first misses kept with their times for matching against stalls, and the
 * following error ({@link FollowingError}), whose fault is latched here at once: from the next cycle on the handler
 * quick-stops, while the watchdog's timer moves the axis to FAULT (asked through {@code faultRequest}).
 * <p>
 * Threading: the handler thread records; {@link #misses()} and {@link #faultCycle()} may be read by any thread.
 */
final class Supervision
{
    private final DeadlineMonitor deadline;
    private final FollowingError followingError;
    private final LongConsumer faultRequest;
    private final long[] missFrom;
    private final long[] missTo;
    private final long[] missWake;
    private final long[] missOffCpu;
    private final AtomicLong misses = new AtomicLong();
    /** The cycle the axis faulted on its following error (0: not faulted). */
    private final AtomicLong faultCycle = new AtomicLong();

    /**
     * @param deadline       the deadline monitor.
     * @param followingError the following-error check.
     * @param missesKept     deadline misses kept with their times; more are counted as not kept.
     * @param faultRequest   asks the watchdog to fault the axis, given the cycle.
     */
    Supervision(final DeadlineMonitor deadline, final FollowingError followingError, final int missesKept,
        final LongConsumer faultRequest)
    {
        this.deadline = deadline;
        this.followingError = followingError;
        this.faultRequest = faultRequest;
        missFrom = new long[missesKept];
        missTo = new long[missesKept];
        missWake = new long[missesKept];
        missOffCpu = new long[missesKept];
    }

    /**
     * @param sendNanos  when the sensor frame was sent.
     * @param written    when the command was written.
     * @param wakeNanos  when the handler was woken for it (the node's own measure of the kernel's part in a miss).
     * @param offCpuNanos the time the thread was off the CPU in the cycle (0: not measured).
     * @return whether the cycle missed its deadline.
     */
    boolean deadline(final long sendNanos, final long written, final long wakeNanos, final long offCpuNanos)
    {
        if (!deadline.record(sendNanos, written))
        {
            return false;
        }
        final long missed = deadline.misses();
        misses.setRelease(missed);
        if (missed <= missFrom.length)
        {
            final int i = (int)missed - 1;
            missFrom[i] = sendNanos;
            missTo[i] = written;
            missWake[i] = wakeNanos;
            missOffCpu[i] = Math.max(0, offCpuNanos);
        }
        return true;
    }

    /**
     * @param cycle    the sensor cycle.
     * @param error    setpoint − measured position, rad.
     * @param velocity the setpoint velocity, rad/s.
     * @return whether the lag faulted the axis on this cycle (latched; the watchdog is asked to fault it).
     */
    boolean followingError(final long cycle, final double error, final double velocity)
    {
        if (!followingError.check(error, velocity))
        {
            return false;
        }
        faultCycle.setRelease(cycle);
        faultRequest.accept(cycle);
        return true;
    }

    /**
     * @return whether the axis faulted on its following error (this thread's view).
     */
    boolean faulted()
    {
        return faultCycle.getPlain() != 0;
    }

    /**
     * @return the cycle the axis faulted on, 0 when it did not.
     */
    long faultCycle()
    {
        return faultCycle.get();
    }

    /**
     * @return deadline misses so far.
     */
    long misses()
    {
        return misses.getAcquire();
    }

    /**
     * @return the deadline, ns.
     */
    long deadlineNanos()
    {
        return deadline.deadlineNanos();
    }

    /**
     * @return the following-error check.
     */
    FollowingError followingErrorCheck()
    {
        return followingError;
    }

    /**
     * @return misses kept with their times.
     */
    int missesKept()
    {
        return (int)Math.min(deadline.misses(), missFrom.length);
    }

    /**
     * @return misses beyond those kept.
     */
    long missesNotKept()
    {
        return deadline.misses() - missesKept();
    }

    /**
     * @return the kept misses' sensor send times.
     */
    long[] missFrom()
    {
        return Arrays.copyOf(missFrom, missesKept());
    }

    /**
     * @return the kept misses' command write times.
     */
    long[] missTo()
    {
        return Arrays.copyOf(missTo, missesKept());
    }

    /**
     * @return the kept misses' wake-up times.
     */
    long[] missWake()
    {
        return Arrays.copyOf(missWake, missesKept());
    }

    /**
     * @return the kept misses' off-CPU times.
     */
    long[] missOffCpu()
    {
        return Arrays.copyOf(missOffCpu, missesKept());
    }
}
