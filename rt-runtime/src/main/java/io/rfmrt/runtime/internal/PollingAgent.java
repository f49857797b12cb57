package io.rfmrt.runtime.internal;

import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageLatencies;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.ReplayCodes;
import io.rfmrt.runtime.ReceiveThreads;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

/**
 * The article's baseline, kept to compare against: no interrupt, no DMA; every period, read each input channel's
 * status word (the sequence number of the slot the next frame lands in) and copy the frame out with the CPU when it
 * changed. The "woke" stamp is the poll that found the frame, so the transfer stage includes the sampling delay.
 */
public final class PollingAgent implements Agent, ScheduleIdleStrategy.Schedule
{
    private final ChannelSpec[] channels;
    private final FrameReceiver[] receivers;
    private final FrameHandler handler;
    private final StageLatencies latencies;
    private final Counters counters;
    private final JournalWriter journal;
    private final NanoClock clock;
    private final FrameView view = new FrameView();
    private final StageStamps stamps = new StageStamps();
    private final Period period;

    /**
     * @param channels  input channels.
     * @param receivers one per channel.
     * @param handler   the application.
     * @param latencies stage recorders.
     * @param counters  runtime counters.
     * @param journal   frame records, or null.
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
        this.handler = handler;
        this.latencies = latencies;
        this.counters = counters;
        this.journal = journal;
        this.clock = clock;
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
     * One poll of every channel, taking every frame that is there.
     *
     * @return frames handled.
     */
    public int poll()
    {
        counters.add(RuntimeCounter.POLLS, 1);
        int work = 0;
        for (int c = 0; c < channels.length; c++)
        {
            final ChannelSpec channel = channels[c];
            final FrameReceiver receiver = receivers[c];
            while (true)
            {
                final long status = receiver.nextToRead();
                if (status == FrameReceiver.TORN_SKIPPED)
                {
                    // a frame its publisher will never complete: counted torn, journaled, and the reader goes on
                    fault(FrameStatus.TORN, receiver.tornSkipped(), channel.node(), clock.nanoTime());
                    continue;
                }
                if (status < 0)
                {
                    break;
                }
                final long woke = clock.nanoTime();
                final FrameStatus frame = receiver.readFromMemory(status, view);
                if (frame == FrameStatus.OK && receiver.takeRestart() && journal != null &&
                    !journal.fault(ReplayCodes.FAULT_PUBLISHER_RESTART, view.seq(), channel.node(), woke))
                {
                    counters.add(RuntimeCounter.JOURNAL_DROPS, 1);
                }
                if (frame == FrameStatus.OVERWRITTEN)
                {
                    // written over under the copy: not counted, the slot is looked at again
                    continue;
                }
                if (frame != FrameStatus.OK)
                {
                    // refused; its number is taken all the same, the next one is looked for
                    fault(frame, status, channel.node(), woke);
                    continue;
                }
                final long validated = clock.nanoTime();
                handler.onFrame(view, stamps.set(view.seq(), view.source(), view.sendNanos(), woke, validated,
                    validated));
                final long end = clock.nanoTime();
                latencies.record(view.sendNanos(), woke, validated, validated, end);
                counters.add(RuntimeCounter.FRAMES_HANDLED, 1);
                if (journal != null && !journal.frame(view.seq(), view.source(), view.flags(), view.crc32c(),
                    view.sendNanos(), woke, validated, validated, end, view.buffer(), view.payloadOffset(),
                    view.length()))
                {
                    counters.add(RuntimeCounter.JOURNAL_DROPS, 1);
                }
                work++;
            }
        }
        return work;
    }

    private void fault(final FrameStatus status, final long seq, final int source, final long nanos)
    {
        if (journal != null && !journal.fault(status.id(), seq, source, nanos))
        {
            counters.add(RuntimeCounter.JOURNAL_DROPS, 1);
        }
    }
}
