package io.rfmrt.runtime.internal;

import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.ReceiveThreads;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageLatencies;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * The article's baseline, kept to compare against: no interrupt, no DMA; every period, read each input channel's
 * status word (the sequence number of the slot the next frame lands in) and copy the frame out with the CPU when it
 * changed; each verdict goes through the {@link FrameStep} every mode shares. The "woke" stamp is the poll that
 * found the frame, so the transfer stage includes the sampling delay.
 */
public final class PollingAgent implements Agent, ScheduleIdleStrategy.Schedule
{
    private final ChannelSpec[] channels;
    private final FrameReceiver[] receivers;
    private final Counters counters;
    private final NanoClock clock;
    private final FrameStep step;
    private final FrameFaults faults;
    private final FrameView view = new FrameView();
    private final Period period;

    /**
     * @param channels  input channels.
     * @param receivers one per channel.
     * @param handler   the application.
     * @param latencies stage recorders.
     * @param counters  runtime counters.
     * @param journal   frame and fault records, or null.
     * @param clock     time source.
     * @param periodNanos polling period.
     */
    public PollingAgent(final ChannelSpec[] channels, final FrameReceiver[] receivers,
        final FrameHandler handler, final StageLatencies latencies, final Counters counters,
        final JournalWriter journal, final NanoClock clock, final long periodNanos)
    {
        this.period = new Period(clock.nanoTime(), periodNanos);
        this.channels = channels;
        this.receivers = receivers;
        this.counters = counters;
        this.clock = clock;
        this.step = new FrameStep(handler, latencies, counters, journal, clock);
        this.faults = step.faults();
    }

    /**
     * Poll when the period is due: one poll per period on a fixed schedule; a poll that falls behind by more than
     * a period restarts the schedule rather than bursting.
     *
     * @return frames handled, 0 when not due.
     */
    @Override
    public int doWork()
    {
        return period.due(clock.nanoTime()) ? poll() : 0;
    }

    @Override
    public long nextDueNanos()
    {
        return period.nextNanos();
    }

    @Override
    public String roleName()
    {
        return ReceiveThreads.CONSUMER;
    }

    /**
     * One poll of every channel, taking the frames that are there: at most a ring's worth per channel (its slot
     * count), so a poll ends even while a publisher writes as fast as it is read or keeps writing over the frame being
     * copied ({@link io.rfmrt.rfm.channel.FrameStatus#OVERWRITTEN}); what is left is read at the next poll.
     *
     * @return frames handled.
     */
    public int poll()
    {
        counters.add(RuntimeCounter.POLLS, 1);
        int work = 0;
        for (int c = 0; c < channels.length; c++)
        {
            final FrameReceiver receiver = receivers[c];
            final int source = channels[c].node();
            long seq;
            for (int reads = channels[c].slots(); reads > 0 && (seq = faults.nextToRead(receiver, source)) >= 0;
                reads--)
            {
                final long woke = clock.nanoTime();
                if (step.validated(receiver, receiver.readFromMemory(seq, view), seq, source, woke, view))
                {
                    work++;
                }
            }
        }
        return work;
    }
}
