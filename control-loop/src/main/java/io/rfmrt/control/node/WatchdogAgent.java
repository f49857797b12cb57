package io.rfmrt.control.node;

import io.rfmrt.control.WakeLateness;
import io.rfmrt.runtime.threads.AbsoluteTimer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The controller's watchdog timer thread ({@value ControllerApp#WATCHDOG_THREAD}): one {@link WatchdogTimer#tick} per
 * period on the absolute schedule, asleep on the kernel's absolute timer in between (a missing frame cannot wake anything, so the watchdog needs its
 * own clock). Its wake-ups' lateness is measured. It stops watching once the plant says it is done: the plant's end of
 * stream is not a sensor failure.
 * <p>
 * Threading: its own thread; a test calls {@link #doWork} with its own clock.
 */
final class WatchdogAgent implements Agent
{
    private final WatchdogTimer timer;
    private final WakeLateness lateness;
    private final long periodNanos;
    private final LongSupplier plantDone;
    private final NanoClock clock;
    private final AbsoluteTimer sleeper = new AbsoluteTimer();
    private long next;
    private boolean done;

    /**
     * @param timer       the timer it ticks.
     * @param lateness    its wake-ups' lateness.
     * @param periodNanos the period.
     * @param plantDone   the cycle the plant says it ended at, 0 while it runs.
     * @param clock       the clock.
     */
    WatchdogAgent(final WatchdogTimer timer, final WakeLateness lateness, final long periodNanos,
        final LongSupplier plantDone, final NanoClock clock)
    {
        this.timer = timer;
        this.lateness = lateness;
        this.periodNanos = periodNanos;
        this.plantDone = plantDone;
        this.clock = clock;
    }

    @Override
    public void onStart()
    {
        next = clock.nanoTime() + periodNanos;
    }

    @Override
    public int doWork()
    {
        if (done)
        {
            LockSupport.parkNanos(periodNanos);
            return 0;
        }
        if (plantDone.getAsLong() != 0)
        {
            done = true;
            return 0;
        }
        // next is in the injected clock's time; the kernel's timer runs on System.nanoTime() (the same clock in a
        // node, a test's own clock otherwise)
        sleeper.sleepUntil(System.nanoTime() + next - clock.nanoTime());
        final long now = clock.nanoTime();
        lateness.wake(timer.seen(), next, now);
        next += periodNanos;
        timer.tick(now);
        return 1;
    }

    @Override
    public String roleName()
    {
        return ControllerApp.WATCHDOG_THREAD;
    }
}
