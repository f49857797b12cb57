package io.rfmrt.runtime.internal;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * An agent that does one task per period on a fixed schedule (the node's built-in publisher, its heartbeat). A
 * task that falls behind by more than a period restarts the schedule rather than bursting. Run it with a
 * {@link ScheduleIdleStrategy}; a test steps its clock instead.
 */
public final class PeriodicAgent implements Agent, ScheduleIdleStrategy.Schedule
{
    /** The task. */
    @FunctionalInterface
    public interface Task
    {
        /**
         * @param count how many times the task ran before, 0 the first time.
         * @param nanos the time it is run at.
         */
        void run(long count, long nanos);
    }

    private final String roleName;
    private final long periodNanos;
    private final NanoClock clock;
    private final Task task;
    private long next;
    private long count;

    /**
     * @param roleName    the thread's name.
     * @param periodNanos the period.
     * @param clock       time source.
     * @param task        what runs once per period.
     */
    public PeriodicAgent(final String roleName, final long periodNanos, final NanoClock clock, final Task task)
    {
        this.roleName = roleName;
        this.periodNanos = periodNanos;
        this.clock = clock;
        this.task = task;
        this.next = clock.nanoTime() + periodNanos;
    }

    @Override
    public int doWork()
    {
        final long now = clock.nanoTime();
        if (now - next < 0)
        {
            return 0;
        }
        next += periodNanos;
        if (now - next > periodNanos)
        {
            next = now + periodNanos;
        }
        task.run(count++, now);
        return 1;
    }

    @Override
    public long nextDueNanos()
    {
        return next;
    }

    /**
     * @return times the task ran.
     */
    public long count()
    {
        return count;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }
}
