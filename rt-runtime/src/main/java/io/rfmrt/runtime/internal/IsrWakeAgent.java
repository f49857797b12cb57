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
import io.rfmrt.runtime.ReceiveThreads;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * The ISR-wake duty: sleep on the card's interrupt, then do the minimum — take the events (the ack), take every
 * DMA-completed descriptor (auto mode) or submit an on-demand transfer for every new frame of every channel, validate
 * each frame, hand it off. The interrupt is a doorbell and the ring is the truth: a lost (FIFO overflow) or coalesced
 * event loses no frame whose bytes arrived, because each wake drains everything ready, up to a bound. Never a copy
 * of its own, never a lock, never an allocation.
 * <p>
 * One thread; {@link #doWork(long)} is one wake, so tests can drive it without a thread.
 */
public final class IsrWakeAgent implements Agent
{
    /** Depth of a card's event FIFO per type: a wake takes at most this many doorbells beyond its drain. */
    private static final int EVENT_FIFO_DEPTH = 127;

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
    private final FrameFaults faults;
    private final NanoClock clock;
    private final EventInfo info = new EventInfo();
    private final EventInfo spare = new EventInfo();
    private final FrameView view = new FrameView();
    private final int drainLimit;
    private final int eventLimit;
    private long taken;
    private boolean backlog;
    private ConsumerAgent inline;

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
        this.faults = new FrameFaults(counters, journal, clock);
        this.clock = clock;
        this.taken = dma.completedIndex();
        this.drainLimit = completions.length;
        this.eventLimit = drainLimit + EVENT_FIFO_DEPTH;
    }

    /**
     * Run the handler on this thread: every frame goes straight to {@code consumer} instead of through the hand-off
     * (one wake per frame, no second thread). Call before the first {@link #doWork}.
     *
     * @param consumer the duty that handles frames, or null for the hand-off.
     * @return this.
     */
    public IsrWakeAgent inline(final ConsumerAgent consumer)
    {
        this.inline = consumer;
        return this;
    }

    /**
     * One wake: block until an interrupt (or go on at once after a bounded drain), then drain.
     *
     * @return frames taken.
     */
    @Override
    public int doWork()
    {
        return doWork(RfmDevice.INFINITE_TIMEOUT);
    }

    @Override
    public String roleName()
    {
        return ReceiveThreads.ISR;
    }

    /**
     * Wait for an interrupt (unless the last drain stopped at its bound), take every queued event of the type (they
     * are doorbells, not frames), then drain what is ready: every completed descriptor in auto mode, every channel
     * whose sequence moved in on-demand mode, at most {@link #drainLimit()} frames.
     *
     * @param timeoutNanos {@link RfmDevice#INFINITE_TIMEOUT}, {@link RfmDevice#NO_WAIT} or a time-out.
     * @return frames taken (handed on or refused), 0 when nothing was ready (time-out, cancel, empty wake).
     */
    public int doWork(final long timeoutNanos)
    {
        final RfmStatus status = backlog || timeoutNanos == RfmDevice.NO_WAIT ?
            device.pollEvent(event, info) : device.awaitEvent(event, timeoutNanos, info);
        if (status == RfmStatus.SUCCESS)
        {
            // the card may have queued more doorbells for frames this drain takes anyway: one wake for all of them
            int events = 1;
            // pollEvent: a card's driver may sleep a jiffy on a zero time-out; a poll never sleeps
            while (events < eventLimit && device.pollEvent(event, spare) == RfmStatus.SUCCESS)
            {
                events++;
            }
            counters.add(RuntimeCounter.EVENTS, events);
            final int source = info.sourceNode();
            if (!auto && (source >= channelBySource.length || channelBySource[source] < 0))
            {
                counters.add(RuntimeCounter.UNKNOWN_SOURCE, 1);
            }
        }
        else
        {
            if (status != RfmStatus.TIMED_OUT && status != RfmStatus.WAIT_EVENT_CANCELED)
            {
                counters.add(RuntimeCounter.WAIT_ERRORS, 1);
            }
            if (!backlog)
            {
                return 0;
            }
        }
        final int work = auto ? drainCompleted() : drainChannels();
        backlog = work >= drainLimit;
        if (backlog)
        {
            counters.add(RuntimeCounter.DRAIN_BOUND, 1);
        }
        else if (work == 0 && status == RfmStatus.SUCCESS)
        {
            counters.add(RuntimeCounter.EMPTY_WAKES, 1);
        }
        return work;
    }

    /**
     * @return the most frames one wake takes before it looks at the interrupt again (the DMA ring's size).
     */
    public int drainLimit()
    {
        return drainLimit;
    }

    private int drainCompleted()
    {
        int work = 0;
        while (work < drainLimit)
        {
            final int slot = (int)(taken & completionMask);
            final DmaCompletion completion = completions[slot];
            if (!dma.takeCompleted(completion))
            {
                break;
            }
            // when this thread reached the frame: its wake for the first, its drain for the rest (a completed
            // descriptor was sent before this instant, so the stages stay in order)
            final long woke = clock.nanoTime();
            taken++;
            work++;
            final int source = completion.sourceNode();
            final int channel = source < channelBySource.length ? channelBySource[source] : -1;
            if (channel < 0)
            {
                counters.add(RuntimeCounter.UNKNOWN_SOURCE, 1);
                handOn(slot, FrameStatus.BAD_HEADER, channel, source, -1, woke, woke);
                continue;
            }
            final FrameStatus frame = receivers[channel].receiveCompleted(completion, view);
            handOn(slot, frame, channel, source, completion.eventData(), woke, clock.nanoTime());
        }
        return work;
    }

    private int drainChannels()
    {
        int work = 0;
        for (int c = 0; c < receivers.length && work < drainLimit; c++)
        {
            final FrameReceiver receiver = receivers[c];
            final int source = receiver.channel().node();
            while (work < drainLimit)
            {
                final long seq = faults.nextToRead(receiver, source);
                if (seq < 0)
                {
                    break;
                }
                final long woke = clock.nanoTime();
                work++;
                final int slot = (int)(taken & completionMask);
                final DmaCompletion completion = completions[slot];
                final FrameStatus frame = receiver.readOnDemand(seq, completion, view);
                if (completion.descriptorIndex() != taken)
                {
                    // refused before a descriptor was taken (bad header in memory, ring full): nothing to hand on
                    faults.refused(frame, seq, source, woke);
                    if (frame == FrameStatus.DMA_MISSING)
                    {
                        // the ring is full: look again once the consumer has given descriptors back
                        receiver.lookAgainAt(seq);
                        return drainLimit;
                    }
                    continue;
                }
                taken++;
                // a frame written over under the read gives its descriptor back unjournaled; the reader looks again
                handOn(slot, frame, c, source, seq, woke, clock.nanoTime());
            }
        }
        return work;
    }

    private void handOn(final int slot, final FrameStatus frame, final int channel, final int source,
        final long eventSeq, final long woke, final long validated)
    {
        final boolean ok = frame == FrameStatus.OK;
        if (ok && channel >= 0)
        {
            faults.restartAfter(receivers[channel], view.seq(), source, woke);
        }
        if (inline != null)
        {
            if (!ok)
            {
                faults.refused(frame, eventSeq, source, woke);
            }
            inline.handle(slot, frame.id(), ok ? view.seq() : eventSeq, source, ok ? view.sendNanos() : 0, woke,
                validated);
            return;
        }
        if (!handoff.offer(slot, frame.id(), channel, source, ok ? view.seq() : eventSeq,
            ok ? view.sendNanos() : 0, woke, validated))
        {
            // cannot happen while the hand-off holds as many entries as the DMA ring; counted if it does
            counters.add(RuntimeCounter.HANDOFF_FULL, 1);
        }
        if (!ok)
        {
            faults.refused(frame, eventSeq, source, woke);
        }
    }
}
