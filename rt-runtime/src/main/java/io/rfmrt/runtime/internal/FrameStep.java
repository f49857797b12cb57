package io.rfmrt.runtime.internal;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageLatencies;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.NanoClock;

/**
 * The one step every receive mode takes with a validated frame: hand it to the handler with its stage stamps, stamp
 * the end, record the stage latencies, count it handled, journal it, and give its DMA descriptor back (even when the
 * handler threw). A verdict other than OK goes to the {@link FrameFaults} of the thread that validated the frame.
 * <pre>
 *  INTERRUPT  ISR-wake: verdict ─▶ FrameFaults │ hand-off │ consumer: FrameStep.handle(descriptor)
 *  INLINE     ISR-wake: verdict ─▶ FrameFaults, FrameStep.handle(descriptor)
 *  POLLING    polling:  FrameStep.validated(read) ─▶ FrameFaults, FrameStep.handle(view)
 * </pre>
 * One thread (the one that runs the handler), which owns {@code journal} and writes {@code latencies}. No
 * allocation, no lock; driven directly by tests, without threads.
 */
public final class FrameStep
{
    private static final int OK = FrameStatus.OK.id();

    private final FrameHandler handler;
    private final StageLatencies latencies;
    private final Counters counters;
    private final JournalWriter journal;
    private final NanoClock clock;
    private final FrameFaults faults;
    private final FrameView view = new FrameView();
    private final StageStamps stamps = new StageStamps();

    /**
     * @param handler   the application.
     * @param latencies stage recorders (this thread writes).
     * @param counters  runtime counters (this thread adds to FRAMES_HANDLED and JOURNAL_DROPS).
     * @param journal   frame (and, where this thread validates, fault) records, or null.
     * @param clock     time source.
     */
    public FrameStep(final FrameHandler handler, final StageLatencies latencies, final Counters counters,
        final JournalWriter journal, final NanoClock clock)
    {
        this.handler = handler;
        this.latencies = latencies;
        this.counters = counters;
        this.journal = journal;
        this.clock = clock;
        this.faults = new FrameFaults(counters, journal, clock);
    }

    /**
     * @return the fault side over the same journal, for a thread that both validates and handles (inline, polling).
     */
    public FrameFaults faults()
    {
        return faults;
    }

    /**
     * Handle a frame that came by DMA: on OK, wrap its descriptor's buffer and {@link #handle handle} it with the
     * consumer's start stamped now; whatever the status, give the descriptor back last.
     *
     * @param dma        the card's DMA engine.
     * @param completion the frame's descriptor.
     * @param status     {@link FrameStatus} id; only OK reaches the handler.
     * @param seq        frame number.
     * @param source     publisher node.
     * @param send       send stamp.
     * @param woke       woke stamp.
     * @param validated  validated stamp.
     */
    public void handle(final DmaEngine dma, final DmaCompletion completion, final int status, final long seq,
        final int source, final long send, final long woke, final long validated)
    {
        try
        {
            if (status == OK)
            {
                final long start = clock.nanoTime();
                view.wrap(completion.buffer(), completion.destOffset());
                handle(view, seq, source, send, woke, validated, start);
            }
        }
        finally
        {
            // even when the handler threw: the card gets its buffer back in order
            dma.release(completion);
        }
    }

    /**
     * Take the verdict of a copy-out read (no DMA): journal a publisher's restart after an OK frame, journal a refused
     * one, and handle an OK one with the validated and start stamps both taken now (no hand-off between them).
     *
     * @param receiver the channel's reader.
     * @param frame    its verdict on the read into {@code read}.
     * @param seq      the number read.
     * @param source   the channel's publisher node.
     * @param woke     when the poll reached the frame.
     * @param read     the frame read.
     * @return whether the frame reached the handler; not for {@link FrameStatus#OVERWRITTEN}, whose slot is looked
     * at again (neither counted nor journaled).
     */
    public boolean validated(final FrameReceiver receiver, final FrameStatus frame, final long seq, final int source,
        final long woke, final FrameView read)
    {
        if (frame != FrameStatus.OK)
        {
            // refused: its number is taken all the same, the next one is looked for
            faults.refused(frame, seq, source, woke);
            return false;
        }
        faults.restartAfter(receiver, read.seq(), source, woke);
        final long validated = clock.nanoTime();
        handle(read, read.seq(), read.source(), read.sendNanos(), woke, validated, validated);
        return true;
    }

    /**
     * Hand a valid frame to the handler, then stamp its end, record its stages, count it handled and journal it.
     *
     * @param frame     the frame.
     * @param seq       frame number.
     * @param source    publisher node.
     * @param send      send stamp.
     * @param woke      woke stamp.
     * @param validated validated stamp.
     * @param start     consumer-start stamp.
     */
    public void handle(final FrameView frame, final long seq, final int source, final long send, final long woke,
        final long validated, final long start)
    {
        handler.onFrame(frame, stamps.set(seq, source, send, woke, validated, start));
        final long end = clock.nanoTime();
        latencies.record(send, woke, validated, start, end);
        counters.add(RuntimeCounter.FRAMES_HANDLED, 1);
        if (journal != null && !journal.frame(seq, source, frame.flags(), frame.crc32c(), send, woke, validated,
            start, end, frame.buffer(), frame.payloadOffset(), frame.length()))
        {
            counters.add(RuntimeCounter.JOURNAL_DROPS, 1);
        }
    }
}
