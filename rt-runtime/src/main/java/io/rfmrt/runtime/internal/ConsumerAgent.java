package io.rfmrt.runtime.internal;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.ReceiveThreads;
import io.rfmrt.runtime.StageLatencies;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import static io.rfmrt.runtime.internal.HandoffRing.SEND_OFFSET;
import static io.rfmrt.runtime.internal.HandoffRing.SEQ_OFFSET;
import static io.rfmrt.runtime.internal.HandoffRing.SLOT_OFFSET;
import static io.rfmrt.runtime.internal.HandoffRing.SOURCE_OFFSET;
import static io.rfmrt.runtime.internal.HandoffRing.STATUS_OFFSET;
import static io.rfmrt.runtime.internal.HandoffRing.VALIDATED_OFFSET;
import static io.rfmrt.runtime.internal.HandoffRing.WOKE_OFFSET;

/**
 * The consumer duty: take a handed-off frame and take the {@link FrameStep} with it (handler, stages, journal, DMA
 * descriptor back). One thread (the consumer's, or the ISR-wake thread's in the inline mode); {@link #doWork()}
 * handles at most one frame.
 */
public final class ConsumerAgent implements Agent
{
    private final HandoffRing handoff;
    private final UnsafeBuffer entries;
    private final DmaEngine dma;
    private final DmaCompletion[] completions;
    private final FrameStep step;

    /**
     * @param handoff     from the ISR-wake thread.
     * @param dma         the card's DMA engine (this thread releases descriptors).
     * @param completions flyweights shared with the ISR-wake thread.
     * @param handler     the application.
     * @param latencies   stage recorders (this thread writes).
     * @param counters    runtime counters (this thread writes FRAMES_HANDLED, JOURNAL_DROPS for frames).
     * @param journal     frame records, or null.
     * @param clock       time source.
     */
    public ConsumerAgent(final HandoffRing handoff, final DmaEngine dma, final DmaCompletion[] completions,
        final FrameHandler handler, final StageLatencies latencies, final Counters counters,
        final JournalWriter journal, final NanoClock clock)
    {
        this(handoff, dma, completions, new FrameStep(handler, latencies, counters, journal, clock));
    }

    /**
     * @param handoff     from the ISR-wake thread.
     * @param dma         the card's DMA engine (this thread releases descriptors).
     * @param completions flyweights shared with the ISR-wake thread.
     * @param step        what is done with each frame, on this thread.
     */
    public ConsumerAgent(final HandoffRing handoff, final DmaEngine dma, final DmaCompletion[] completions,
        final FrameStep step)
    {
        this.handoff = handoff;
        this.entries = handoff.entries();
        this.dma = dma;
        this.completions = completions;
        this.step = step;
    }

    /**
     * @return the step this duty takes with each frame.
     */
    public FrameStep step()
    {
        return step;
    }

    /**
     * Take the oldest handed-off frame, if any, and handle it.
     *
     * @return 1 when a frame (or a refused frame's descriptor) was handled, 0 when there was nothing.
     */
    @Override
    public int doWork()
    {
        final int e = handoff.peek();
        if (e < 0)
        {
            return 0;
        }
        final int slot = entries.getInt(e + SLOT_OFFSET);
        final int status = entries.getInt(e + STATUS_OFFSET);
        final long seq = entries.getLong(e + SEQ_OFFSET);
        final int source = entries.getInt(e + SOURCE_OFFSET);
        final long send = entries.getLong(e + SEND_OFFSET);
        final long woke = entries.getLong(e + WOKE_OFFSET);
        final long validated = entries.getLong(e + VALIDATED_OFFSET);
        // hand-off entry first, descriptor last: the hand-off then never holds more entries than there are
        // descriptors out, so the ISR side can always hand on a descriptor it could take
        handoff.advance();
        handle(slot, status, seq, source, send, woke, validated);
        return 1;
    }

    /**
     * Handle one frame ({@link FrameStep#handle(DmaEngine, DmaCompletion, int, long, int, long, long, long)}). The
     * hand-off calls it through {@link #doWork()}; the inline mode calls it on the ISR-wake thread directly.
     *
     * @param slot      index of the descriptor's completion flyweight.
     * @param status    {@link FrameStatus} id; only OK reaches the handler.
     * @param seq       frame number.
     * @param source    publisher node.
     * @param send      send stamp.
     * @param woke      woke stamp.
     * @param validated validated stamp.
     */
    public void handle(final int slot, final int status, final long seq, final int source, final long send,
        final long woke, final long validated)
    {
        step.handle(dma, completions[slot], status, seq, source, send, woke, validated);
    }

    @Override
    public String roleName()
    {
        return ReceiveThreads.CONSUMER;
    }
}
