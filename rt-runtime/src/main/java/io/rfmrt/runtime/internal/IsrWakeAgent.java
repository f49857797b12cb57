package io.rfmrt.runtime.internal;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.NanoClock;

/**
 * The ISR-wake duty: sleep on the card's interrupt, then do the minimum — take the event (the ack), take the
 * DMA-completed descriptor (auto mode) or submit the on-demand transfer, validate the frame, hand it off. Never a
 * copy of its own, never a lock, never an allocation.
 * <p>
 * One thread; {@link #doWork(long)} is one interrupt, so tests can drive it without a thread.
 */
public final class IsrWakeAgent
{
    private final RfmDevice device;
    private final DmaEngine dma;
    private final boolean auto;
    private final EventType event;
    private final FrameReceiver[] receivers;
    private final int[] channelBySource;
    private final DmaCompletion[] completions;
    private final int completionMask;
    private final HandoffRing handoff;
    private final Counters counters;
    private final JournalWriter journal;
    private final NanoClock clock;
    private final EventInfo info = new EventInfo();
    private final FrameView view = new FrameView();
    private long taken;

    /**
     * @param device          the card.
     * @param event           event type that announces frames.
     * @param receivers       one per input channel.
     * @param channelBySource index into receivers by publisher node id, -1 for none (256 entries).
     * @param completions     one flyweight per DMA descriptor, shared with the consumer.
     * @param handoff         to the consumer.
     * @param counters        runtime counters (this thread writes EVENTS, UNKNOWN_SOURCE, WAIT_ERRORS).
     * @param journal         fault records, or null.
     * @param clock           time source.
     */
    public IsrWakeAgent(final RfmDevice device, final EventType event, final FrameReceiver[] receivers,
        final int[] channelBySource, final DmaCompletion[] completions, final HandoffRing handoff,
        final Counters counters, final JournalWriter journal, final NanoClock clock)
    {
        this.device = device;
        this.dma = device.dma();
        this.auto = dma.mode() == DmaMode.AUTO;
        this.event = event;
        this.receivers = receivers;
        this.channelBySource = channelBySource;
        this.completions = completions;
        this.completionMask = completions.length - 1;
        this.handoff = handoff;
        this.counters = counters;
        this.journal = journal;
        this.clock = clock;
        this.taken = dma.completedIndex();
    }

    /**
     * Wait for one interrupt and process it.
     *
     * @param timeoutNanos {@link RfmDevice#INFINITE_TIMEOUT}, {@link RfmDevice#NO_WAIT} or a time-out.
     * @return 1 when an event was processed, 0 otherwise (time-out, cancel).
     */
    public int doWork(final long timeoutNanos)
    {
        final RfmStatus status = device.awaitEvent(event, timeoutNanos, info);
        if (status != RfmStatus.SUCCESS)
        {
            if (status != RfmStatus.TIMED_OUT && status != RfmStatus.WAIT_EVENT_CANCELED)
            {
                counters.add(RuntimeCounter.WAIT_ERRORS, 1);
            }
            return 0;
        }
        final long woke = clock.nanoTime();
        counters.add(RuntimeCounter.EVENTS, 1);
        final int source = info.sourceNode();
        final int channel = source < channelBySource.length ? channelBySource[source] : -1;
        final int slot = (int)(taken & completionMask);
        final DmaCompletion completion = completions[slot];
        final FrameStatus frame;
        if (auto)
        {
            if (!dma.takeCompleted(completion))
            {
                if (channel >= 0)
                {
                    receivers[channel].countDmaMissing();
                }
                fault(FrameStatus.DMA_MISSING, info.data(), source, woke);
                return 1;
            }
            taken++;
            if (channel < 0)
            {
                counters.add(RuntimeCounter.UNKNOWN_SOURCE, 1);
                handoff.offer(slot, FrameStatus.BAD_HEADER.ordinal(), channel, source, -1, 0, woke, woke);
                return 1;
            }
            frame = receivers[channel].receiveCompleted(completion, view);
        }
        else
        {
            if (channel < 0)
            {
                counters.add(RuntimeCounter.UNKNOWN_SOURCE, 1);
                return 1;
            }
            frame = receivers[channel].receiveOnDemand(info.data(), completion, view);
            if (completion.descriptorIndex() != taken)
            {
                // refused before a descriptor was taken (bad header in memory, ring full): nothing to hand on
                fault(frame, info.data(), source, woke);
                return 1;
            }
            taken++;
        }
        final long validated = clock.nanoTime();
        final boolean ok = frame == FrameStatus.OK;
        if (!handoff.offer(slot, frame.ordinal(), channel, source, ok ? view.seq() : info.data(),
            ok ? view.sendNanos() : 0, woke, validated))
        {
            // cannot happen while the hand-off holds as many entries as the DMA ring; counted if it does
            counters.add(RuntimeCounter.HANDOFF_FULL, 1);
        }
        if (!ok)
        {
            fault(frame, info.data(), source, woke);
        }
        return 1;
    }

    private void fault(final FrameStatus status, final long seq, final int source, final long nanos)
    {
        if (journal != null && !journal.fault(status.ordinal(), seq, source, nanos))
        {
            counters.add(RuntimeCounter.JOURNAL_DROPS, 1);
        }
    }
}
