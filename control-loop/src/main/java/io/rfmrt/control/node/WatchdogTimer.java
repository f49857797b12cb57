package io.rfmrt.control.node;

import io.rfmrt.control.Watchdog;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The controller's watchdog timer, without its wait: the handler's thread {@link #offer}s every sensor frame it takes
 * (cycle, the plant's stamp, when the handler took it) through a single-producer ring, and the timer's thread
 * {@link #tick}s once per period, judging the frames handed over since its last tick in frame time
 * ({@link Watchdog#onFrame(long, long, long)}) or, when none came, polling for a timeout. A following-error fault and
 * a drive that is not operating are passed to the watchdog on the next tick ({@link #requestFault},
 * {@link #requestDriveTrip}). The controller's timer agent parks to each period and then ticks this; a test ticks it
 * with its own times and no thread.
 * <p>
 * Threading: one producer ({@link #offer}, {@link #requestFault}, {@link #requestDriveTrip}), one consumer
 * ({@link #tick}); allocation free.
 */
final class WatchdogTimer
{
    /** Frames the ring holds: a timer held up longer than this many frames sees the ones it lost as a gap. */
    static final int SLOTS = 1 << 13;

    private final Watchdog watchdog;
    private final long[] cycles = new long[SLOTS];
    private final long[] stamps = new long[SLOTS];
    private final long[] seenAt = new long[SLOTS];
    private final AtomicLong offered = new AtomicLong();
    private final AtomicLong taken = new AtomicLong();
    private final AtomicLong faultRequested = new AtomicLong();
    private final AtomicLong driveTripRequested = new AtomicLong();
    private long seen;
    private long lastDriveTrip;

    /**
     * @param watchdog the watchdog, owned by the ticking thread from now on.
     */
    WatchdogTimer(final Watchdog watchdog)
    {
        this.watchdog = watchdog;
    }

    /**
     * Hand a frame to the timer (the handler's thread).
     *
     * @param cycle     the frame's sensor cycle.
     * @param stamp     the plant's stamp.
     * @param seenNanos when the handler took it.
     * @return false when the ring is full (the timer is held up): the frame is not handed over.
     */
    boolean offer(final long cycle, final long stamp, final long seenNanos)
    {
        final long n = offered.getPlain();
        if (n - taken.getAcquire() >= SLOTS)
        {
            return false;
        }
        final int slot = (int)(n & (SLOTS - 1));
        cycles[slot] = cycle;
        stamps[slot] = stamp;
        seenAt[slot] = seenNanos;
        offered.setRelease(n + 1);
        return true;
    }

    /**
     * Fault the axis on the next tick (the handler's thread; latched by the watchdog).
     *
     * @param cycle the cycle it faulted on (non-zero).
     */
    void requestFault(final long cycle)
    {
        faultRequested.setRelease(cycle);
    }

    /**
     * Trip the axis on the next tick: the drive reported it was not operating on this cycle (the handler's thread).
     *
     * @param cycle the cycle (a new one each time it is told again).
     */
    void requestDriveTrip(final long cycle)
    {
        driveTripRequested.setRelease(cycle);
    }

    /**
     * One period of the timer (its thread).
     *
     * @param nowNanos the time now.
     */
    void tick(final long nowNanos)
    {
        if (faultRequested.getAcquire() != 0)
        {
            watchdog.fault(nowNanos);
        }
        final long driveTrip = driveTripRequested.getAcquire();
        if (driveTrip != lastDriveTrip)
        {
            lastDriveTrip = driveTrip;
            watchdog.driveNotOperating(nowNanos);
        }
        final long frames = offered.getAcquire();
        if (frames == seen)
        {
            watchdog.poll(nowNanos);
        }
        while (seen < frames)
        {
            // judged in frame time: the frame's own cycle and stamp, and when the handler took it
            final int slot = (int)(seen & (SLOTS - 1));
            watchdog.onFrame(cycles[slot], stamps[slot], seenAt[slot]);
            seen++;
            taken.setRelease(seen);
        }
    }

    /**
     * @return frames the timer has judged (its thread).
     */
    long seen()
    {
        return seen;
    }

    /**
     * @return the watchdog (its thread).
     */
    Watchdog watchdog()
    {
        return watchdog;
    }
}
