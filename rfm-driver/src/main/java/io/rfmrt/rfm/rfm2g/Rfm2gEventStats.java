package io.rfmrt.rfm.rfm2g;

import io.rfmrt.rfm.EventType;

/**
 * The RFM2g Linux driver's statistics of one event type's queue ({@code RFM2gGetEventStats}, {@code RFM2GQINFO}).
 * The driver's software queue holds one entry per type and masks the interrupt while it is full, so a
 * {@code queuePeak} at {@code maxQueueSize} or {@code overflowed} means the receiver did not drain after a wake.
 *
 * @param type         the event type.
 * @param overflowed   whether the queue has overflowed since the statistics were cleared.
 * @param queuePeak    most entries queued at once.
 * @param eventCount   events received.
 * @param eventsQueued events queued now.
 * @param queueSize    current size of the queue.
 * @param maxQueueSize largest size of the queue.
 * @param timeoutMs    time-out of the last wait, milliseconds ({@code 0xFFFFFFFF} = infinite).
 */
public record Rfm2gEventStats(
    EventType type,
    boolean overflowed,
    int queuePeak,
    long eventCount,
    long eventsQueued,
    long queueSize,
    long maxQueueSize,
    long timeoutMs)
{
}
