package io.rfmrt.runtime.internal;

import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.NanoClock;

/**
 * What the thread that validates frames does with a verdict that does not reach the handler: journal a refused
 * frame, a frame its publisher never completed and a publisher's restart, and count a record the journal could not
 * take. A frame written over under the read ({@link FrameStatus#OVERWRITTEN}) is neither journaled nor counted: the
 * reader looks at its slot again.
 * <p>
 * One thread (the ISR-wake thread, or the polling thread), which owns {@code journal}. No allocation, no lock.
 */
public final class FrameFaults
{
    private final Counters counters;
    private final JournalWriter journal;
    private final NanoClock clock;

    /**
     * @param counters runtime counters (this thread adds to JOURNAL_DROPS).
     * @param journal  fault records, or null.
     * @param clock    time source (the stamp of a skipped torn frame).
     */
    public FrameFaults(final Counters counters, final JournalWriter journal, final NanoClock clock)
    {
        this.counters = counters;
        this.journal = journal;
        this.clock = clock;
    }

    /**
     * The number of the next frame to read on a channel found by number: a frame its publisher will never complete
     * is counted torn by the reader, journaled here, and the reader goes on.
     *
     * @param receiver the channel's reader.
     * @param source   its publisher node.
     * @return the number to read, or negative when no new frame is there.
     */
    public long nextToRead(final FrameReceiver receiver, final int source)
    {
        while (true)
        {
            final long seq = receiver.nextToRead();
            if (seq != FrameReceiver.TORN_SKIPPED)
            {
                return seq;
            }
            refused(FrameStatus.TORN, receiver.tornSkipped(), source, clock.nanoTime());
        }
    }

    /**
     * After an OK frame: journal the restart of its publisher when the reader saw one (its flag is taken either way).
     *
     * @param receiver the channel's reader.
     * @param seq      number of the frame after the restart.
     * @param source   its publisher node.
     * @param nanos    when the frame was reached.
     */
    public void restartAfter(final FrameReceiver receiver, final long seq, final int source, final long nanos)
    {
        if (receiver.takeRestart())
        {
            journal(JournalCodes.FAULT_PUBLISHER_RESTART, seq, source, nanos);
        }
    }

    /**
     * Journal a refused frame; an overwritten one is not journaled (the reader looks at the slot again).
     *
     * @param status the verdict (not OK).
     * @param seq    the frame's number, as the event or the read gave it.
     * @param source its publisher node.
     * @param nanos  when the frame was reached.
     */
    public void refused(final FrameStatus status, final long seq, final int source, final long nanos)
    {
        if (status != FrameStatus.OVERWRITTEN)
        {
            journal(status.id(), seq, source, nanos);
        }
    }

    private void journal(final int code, final long seq, final int source, final long nanos)
    {
        if (journal != null && !journal.fault(code, seq, source, nanos))
        {
            counters.add(RuntimeCounter.JOURNAL_DROPS, 1);
        }
    }
}
