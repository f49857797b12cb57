package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.runtime.threads.ThreadStats;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the controller's threads tell each other: the handler publishes the last sensor cycle it took, the frames it
 * skipped and its last error; the watchdog's transitions publish the axis state and the cycle it went RUNNING on; the
 * monitor publishes the last second's loop figures (for the heartbeat), the thread counters after warm-up and, when it
 * refuses the run, why.
 * <p>
 * Threading: each value has one writer; any thread reads.
 */
final class ControllerStatus
{
    final AtomicLong lastCycle = new AtomicLong();
    final AtomicLong skippedFrames = new AtomicLong();
    final AtomicInteger axisState = new AtomicInteger(AxisState.STARTING.id());
    /** The sensor cycle on which the watchdog went STARTING → RUNNING (written before it publishes the state). */
    final AtomicLong runningFromCycle = new AtomicLong();
    volatile double lastError;
    volatile CycleStatistics.Figures lastSecond = CycleStatistics.Figures.NONE;
    volatile List<ThreadStats> warm;
    volatile String refusal;

    /**
     * A frame was skipped as backlog (the handler).
     */
    void skipped()
    {
        skippedFrames.setRelease(skippedFrames.getPlain() + 1);
    }
}
