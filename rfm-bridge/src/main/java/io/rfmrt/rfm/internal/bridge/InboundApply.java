package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.internal.sim.CardDelivery;
import io.rfmrt.rfm.internal.sim.DmaRing;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.VarHandle;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.EVENT_DATA_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.EVENT_DMA_LENGTH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.EVENT_DMA_OFFSET_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.EVENT_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.EVENT_SOURCE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.EVENT_TARGET_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.EVENT_TYPE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.LOG_EVENT;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.LOG_WRITE;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WRITE_DATA_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WRITE_LENGTH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WRITE_OFFSET_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HEADER_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MAX_MESSAGE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RECORD_HEADER_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RECORD_LENGTH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RECORD_TYPE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.writeInBounds;

/**
 * Applies the DATA messages of the peers to this host: each write to the image (readers here see it after everything
 * stored before it), each event to the cards of this host's nodes after the writes before it. A node that does not
 * keep up loses the event or the frame at its card, counted and recorded; only a node whose DMA ring asked to be
 * waited for ({@code dmaPolicy=backpressure}) makes a delivery wait, up to its {@code dmaWait}.
 * <p>
 * Such waits add up: one poll can hand over many messages of many events each, and while it runs the duty cycle's
 * timers (HELLOs, the peers' silence) do not. So a poll is cut short once it has run for {@link #pollBudgetNs()} (a
 * quarter of the peer time-out) after the event it delivered last: the rest of that message is kept here and applied,
 * in order, before anything else is polled, after the duty cycle has run its timers once. The duty cycle's thread
 * only; allocation-free.
 */
final class InboundApply
{
    private static final long NODE_BEHIND_RECORD_INTERVAL_NS = 1_000_000_000L;
    private static final int NODE_COUNT = RfmDevice.MAX_NODE_ID + 1;

    private final NetworkImage image;
    private final UnsafeBuffer memory;
    private final BridgeFile file;
    private final OwnerTable owners;
    private final CardDelivery delivery;
    private final BridgeRecorder recorder;
    private final CachedNanoClock clock;
    private final long[] behindDrops = new long[NODE_COUNT];
    private final long[] behindRecordedNs = new long[NODE_COUNT];
    private final NanoClock nanoClock;
    private final long pollBudgetNs;
    private final UnsafeBuffer rest = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_MESSAGE, 64));
    private PeerLink restPeer;
    private int restSession;
    private int restAt;
    private int restEnd;
    private long pollStartNs;
    private boolean pollCut;

    /**
     * @param image         the host's network.
     * @param file          its bridge file (owner table, counters).
     * @param delivery      delivers events on this host's cards.
     * @param recorder      says when a node falls behind.
     * @param clock         the duty cycle's time.
     * @param nanoClock     the time now (a delivery may have waited since the duty cycle read it).
     * @param peerTimeoutNs how long a peer may stay silent: a poll runs for a quarter of it at most (see above).
     */
    InboundApply(final NetworkImage image, final BridgeFile file, final CardDelivery delivery,
        final BridgeRecorder recorder, final CachedNanoClock clock, final NanoClock nanoClock,
        final long peerTimeoutNs)
    {
        this.image = image;
        this.memory = image.memory();
        this.file = file;
        this.owners = file.owners();
        this.delivery = delivery;
        this.recorder = recorder;
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.pollBudgetNs = peerTimeoutNs / 4;
    }

    /**
     * @return how long a poll may run, its last delivery included, before it is cut short: a quarter of the peer
     *         time-out.
     */
    long pollBudgetNs()
    {
        return pollBudgetNs;
    }

    /**
     * A duty cycle starts applying: first what a poll cut short left ({@link #applyRest()}), then a poll.
     *
     * @param nowNs the duty cycle's time.
     */
    void startPoll(final long nowNs)
    {
        pollStartNs = nowNs;
        pollCut = false;
    }

    /**
     * @return whether this duty cycle's applying was cut short (the rest waits for the next one).
     */
    boolean pollCut()
    {
        return pollCut;
    }

    /**
     * Apply what the last cut poll left of its message, before anything else of any peer is polled.
     *
     * @return 1 when something was applied, else 0.
     */
    int applyRest()
    {
        if (restPeer == null)
        {
            return 0;
        }
        final PeerLink peer = restPeer;
        if (!peer.hasSession || peer.session != restSession)
        {
            // the stream it came on ended since (its image went, or the peer opened a new one): what that stream
            // had not delivered is lost, as for any message still in it; the resynchronisation brings the words back
            restPeer = null;
            return 0;
        }
        restAt = applyRecords(peer, rest, restAt, restEnd);
        if (restAt >= restEnd)
        {
            restPeer = null;
        }
        return 1;
    }

    /**
     * DATA: the peer's log records, in order; a write's words become the peer's.
     *
     * @return true to go on polling; false when the poll is cut short (the rest of the message is kept).
     */
    boolean onData(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        final int end = offset + length;
        final int at = applyRecords(peer, buffer, offset + HEADER_LENGTH, end);
        if (at < end)
        {
            // a message holds at most MAX_MESSAGE bytes: the rest fits
            rest.putBytes(0, buffer, at, end - at);
            restPeer = peer;
            restSession = peer.session;
            restAt = 0;
            restEnd = end - at;
        }
        return !pollCut;
    }

    /**
     * Apply the records in [at, end) until the poll's time is up.
     *
     * @return where it stopped: end when every record was applied.
     */
    private int applyRecords(final PeerLink peer, final DirectBuffer buffer, final int from, final int end)
    {
        int at = from;
        long writes = 0;
        long events = 0;
        while (at + RECORD_HEADER_LENGTH <= end)
        {
            final int type = buffer.getInt(at + RECORD_TYPE_OFFSET);
            final int bodyLength = buffer.getInt(at + RECORD_LENGTH_OFFSET);
            final int body = at + RECORD_HEADER_LENGTH;
            if (bodyLength < 0 || body + bodyLength > end)
            {
                file.add(BridgeCounter.BAD_MESSAGES, 1);
                break;
            }
            if (type == LOG_WRITE && bodyLength >= WRITE_DATA_OFFSET)
            {
                final long to = buffer.getLong(body + WRITE_OFFSET_OFFSET);
                final int n = buffer.getInt(body + WRITE_LENGTH_OFFSET);
                if (writeInBounds(to, n, memory.capacity()) && n <= bodyLength - WRITE_DATA_OFFSET)
                {
                    applyWrite(buffer, body + WRITE_DATA_OFFSET, (int)to, n);
                    owners.own(to, n, peer.hostId);
                    writes++;
                }
                else
                {
                    file.add(BridgeCounter.BAD_MESSAGES, 1);
                }
            }
            else if (type == LOG_EVENT && bodyLength >= EVENT_LENGTH)
            {
                final int delivered = deliverEvent(buffer, body);
                events += delivered;
                // only a delivery can have waited (for a node's ring): the clock is read after those alone
                if (delivered != 0 && nanoClock.nanoTime() - pollStartNs > pollBudgetNs)
                {
                    pollCut = true;
                    at = body + BitUtil.align(bodyLength, 8);
                    break;
                }
            }
            else
            {
                file.add(BridgeCounter.BAD_MESSAGES, 1);
            }
            at = body + BitUtil.align(bodyLength, 8);
        }
        file.add(BridgeCounter.WRITES_APPLIED, writes);
        file.add(BridgeCounter.EVENTS_DELIVERED, events);
        if (pollCut)
        {
            file.add(BridgeCounter.INBOUND_POLLS_CUT, 1);
            return Math.min(at, end);
        }
        return end;
    }

    /**
     * Store a remote write so that readers here see it after everything stored before it: aligned words with a
     * release store of their own (a sequence number lands whole), anything else after a release fence.
     */
    private void applyWrite(final DirectBuffer src, final int srcIndex, final int to, final int length)
    {
        if (length == Long.BYTES && (to & 7) == 0)
        {
            memory.putLongRelease(to, src.getLong(srcIndex));
        }
        else if (length == Integer.BYTES && (to & 3) == 0)
        {
            memory.putIntRelease(to, src.getInt(srcIndex));
        }
        else
        {
            VarHandle.releaseFence();
            memory.putBytes(to, src, srcIndex, length);
        }
    }

    private int deliverEvent(final DirectBuffer buffer, final int body)
    {
        final int source = buffer.getInt(body + EVENT_SOURCE_OFFSET);
        final int target = buffer.getInt(body + EVENT_TARGET_OFFSET);
        final EventType type = EventType.fromIdOrNull(buffer.getInt(body + EVENT_TYPE_OFFSET));
        final int data = buffer.getInt(body + EVENT_DATA_OFFSET);
        long dmaOffset = buffer.getLong(body + EVENT_DMA_OFFSET_OFFSET);
        final int dmaLength = buffer.getInt(body + EVENT_DMA_LENGTH_OFFSET);
        if (type == null || !type.sendable() || source < 0 || source > RfmDevice.MAX_NODE_ID ||
            target != RfmDevice.ALL_NODES && (target < 0 || target > RfmDevice.MAX_NODE_ID))
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return 0;
        }
        if (dmaOffset >= 0 && DmaRing.sourceProblem(dmaOffset, dmaLength, memory.capacity()) != null)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            dmaOffset = -1;
        }
        VarHandle.acquireFence();
        if (target == RfmDevice.ALL_NODES)
        {
            int delivered = 0;
            for (int node = image.nextPresent(0); node >= 0; node = image.nextPresent(node + 1))
            {
                if (!image.isRemote(node) && node != source)
                {
                    deliverTo(source, node, type, data, dmaOffset, dmaLength);
                    delivered = 1;
                }
            }
            return delivered;
        }
        if (image.isPresent(target) && !image.isRemote(target))
        {
            deliverTo(source, target, type, data, dmaOffset, dmaLength);
            return 1;
        }
        if (!image.isPresent(target))
        {
            file.add(BridgeCounter.EVENTS_UNDELIVERED, 1);
        }
        return 0;
    }

    /**
     * Deliver on one card of this host. A node that does not keep up loses the event or the frame at its card, as a
     * card's full FIFO or ring drops it on a ring that never waits for a slow node; the write before it is applied
     * all the same. Never silent: counted here and on the card, and said in a record at most once a second per node.
     */
    private void deliverTo(final int source, final int node, final EventType type, final int data,
        final long dmaOffset, final int dmaLength)
    {
        final int outcome = delivery.deliverWithOutcome(source, node, type, data, dmaOffset, dmaLength);
        if ((outcome & (CardDelivery.FIFO_FULL | CardDelivery.DMA_DROPPED)) == 0)
        {
            return;
        }
        if ((outcome & CardDelivery.FIFO_FULL) != 0)
        {
            file.add(BridgeCounter.EVENTS_DROPPED_NODE_BEHIND, 1);
        }
        if ((outcome & CardDelivery.DMA_DROPPED) != 0)
        {
            file.add(BridgeCounter.DMA_DROPPED_NODE_BEHIND, 1);
        }
        behindDrops[node]++;
        final long nowNs = clock.nanoTime();
        if (behindRecordedNs[node] == 0 || nowNs - behindRecordedNs[node] >= NODE_BEHIND_RECORD_INTERVAL_NS)
        {
            behindRecordedNs[node] = nowNs;
            recorder.record(BridgeRecordKind.NODE_BEHIND, null, node, behindDrops[node]);
        }
    }
}
