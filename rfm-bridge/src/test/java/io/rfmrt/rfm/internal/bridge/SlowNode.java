package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The receiving thread of a slow node in the bridge tests: each frame costs it some of the hosts' simulated time; it
 * never sleeps. It stops when told, so that a test's tear-down never closes a ring it still reads.
 */
final class SlowNode
{
    private SlowNode()
    {
    }

    /**
     * Take frames from {@code device}'s DMA ring until {@code total} were taken, {@code stop} says so, or 30 s passed.
     *
     * @param device  the slow node's card.
     * @param frames  each frame's first long, in the order taken.
     * @param failure where a throwable goes.
     * @param total   frames to take.
     * @param workNs  simulated time each frame costs, added to {@code nodeNs}.
     * @param nodeNs  the hosts' clocks' share of the node's work.
     * @param stop    true once the test ends.
     */
    static void consume(final RfmDevice device, final List<Long> frames, final AtomicReference<Throwable> failure,
        final int total, final long workNs, final AtomicLong nodeNs, final BooleanSupplier stop)
    {
        try
        {
            final EventInfo info = new EventInfo();
            final DmaCompletion done = new DmaCompletion();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (frames.size() < total && System.nanoTime() < deadline && !stop.getAsBoolean())
            {
                if (device.dma().takeCompleted(done))
                {
                    frames.add(done.buffer().getLong(done.destOffset()));
                    nodeNs.addAndGet(workNs);
                    device.dma().release(done);
                }
                while (device.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info) == RfmStatus.SUCCESS)
                {
                    Thread.onSpinWait();
                }
            }
        }
        catch (final Throwable t)
        {
            failure.set(t);
        }
    }
}
