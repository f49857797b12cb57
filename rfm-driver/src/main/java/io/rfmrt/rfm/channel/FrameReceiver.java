package io.rfmrt.rfm.channel;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.RfmWindow;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.rfmrt.rfm.channel.FrameHeaderDescriptor.*;

/**
 * Receives the frames of one channel and says what each one is: valid, torn, corrupt, duplicate, stale or own.
 * Holes in a source's sequence are counted as gaps (lost frames). Three ways in, matching the DMA modes:
 * <ul>
 *   <li>{@link #receiveCompleted}: the frame is already in a DMA buffer (auto mode) — validate it in place;</li>
 *   <li>{@link #receiveOnDemand}: submit a DMA read of the announced slot, then validate;</li>
 *   <li>{@link #receiveFromMemory}: copy the slot from reflective memory by the CPU, then validate.</li>
 * </ul>
 * The first frame seen from a source sets its baseline: frames lost before it are not counted. The last two are
 * for readers that find frames by number in memory rather than by their events: {@link #nextToRead()} names the frame
 * to read, telling an older incarnation's frames left in the slots from the current one's and giving up on a frame
 * its publisher left torn.
 * <p>
 * Single-threaded (its counters may be read from any thread or process). Allocation-free after construction.
 */
public final class FrameReceiver
{
    /** {@link #nextToRead()}: no new frame in memory. */
    public static final long NOTHING_NEW = -1;
    /** {@link #nextToRead()}: gave up on a torn frame, counted; call again. */
    public static final long TORN_SKIPPED = -2;
    private static final long COMPLETED_MEANWHILE = -3;
    private static final int FIND_ATTEMPTS = 8;

    private final RfmDevice device;
    private final RfmWindow window;
    private final ChannelSpec channel;
    private final int selfNode;
    private final UnsafeBuffer copy;
    private final CRC32C crc = new CRC32C();
    private final byte[] crcScratch;
    private final long[] lastSeq = new long[RfmDevice.MAX_NODE_ID + 1];
    private final int[] incarnation = new int[RfmDevice.MAX_NODE_ID + 1];
    private boolean restarted;
    private long expected = 1;
    private long tornWait;
    private long tornCounted;
    private long tornSkipped;
    private long restartSeq;
    private int restartFrom;
    private long restartFallback;
    private final AtomicCounter[] counters;
    private boolean selfFilter = true;
    private Runnable findFault;
    private Runnable readFault;

    /**
     * @param device  the receiving node's device.
     * @param channel the channel to receive.
     */
    public FrameReceiver(final RfmDevice device, final ChannelSpec channel)
    {
        this(device, channel, privateCounters());
    }

    /**
     * @param device   the receiving node's device.
     * @param channel  the channel to receive.
     * @param counters where the outcomes are counted, indexed by {@link FrameCounter#id()} (e.g. counters of a
     *                 node's counters file that other processes read); this receiver is their one writer, and adds
     *                 to them with ordered (release) stores.
     */
    public FrameReceiver(final RfmDevice device, final ChannelSpec channel, final AtomicCounter[] counters)
    {
        if (counters.length != FrameCounter.COUNT)
        {
            throw new IllegalArgumentException("a frame receiver needs " + FrameCounter.COUNT + " counters, not " +
                counters.length);
        }
        this.counters = counters.clone();
        this.device = device;
        this.window = device.window();
        this.channel = channel;
        this.selfNode = device.nodeId();
        final ByteBuffer host = BufferUtil.allocateDirectAligned(channel.slotSize(), 64);
        this.copy = new UnsafeBuffer(host);
        this.crcScratch = new byte[channel.slotSize()];
    }

    private static AtomicCounter[] privateCounters()
    {
        final UnsafeBuffer values = new UnsafeBuffer(
            BufferUtil.allocateDirectAligned(FrameCounter.COUNT * CountersReader.COUNTER_LENGTH, 64));
        final AtomicCounter[] counters = new AtomicCounter[FrameCounter.COUNT];
        for (int i = 0; i < counters.length; i++)
        {
            counters[i] = new AtomicCounter(values, i);
        }
        return counters;
    }

    /**
     * @return the channel.
     */
    public ChannelSpec channel()
    {
        return channel;
    }

    /**
     * @param on drop frames published by this node (default on).
     * @return this.
     */
    public FrameReceiver selfFilter(final boolean on)
    {
        this.selfFilter = on;
        return this;
    }

    /**
     * Fault injection: run {@code fault} between copying a slot and re-checking its sequence number, e.g. to make a
     * publisher lap the reader. Null removes it.
     *
     * @param fault the action.
     * @return this.
     */
    public FrameReceiver readFault(final Runnable fault)
    {
        this.readFault = fault;
        return this;
    }

    /**
     * For tests: an action run by a find that has just seen the slot it expects left at {@code -seq}, before it looks
     * at the slots that follow (a publisher completing the frame then).
     *
     * @param fault the action, or null.
     * @return this.
     */
    public FrameReceiver findFault(final Runnable fault)
    {
        this.findFault = fault;
        return this;
    }

    /**
     * @param counter a counter.
     * @return its value.
     */
    public long counter(final FrameCounter counter)
    {
        return counters[counter.id()].get();
    }

    /**
     * @return whether the last frame accepted came from a new incarnation of its publisher (then the receive path
     *         journals the restart); reading clears it.
     */
    public boolean takeRestart()
    {
        final boolean was = restarted;
        restarted = false;
        return was;
    }

    /**
     * The find-by-number reader (polling, on-demand DMA): which frame of the channel's publisher to read next, found
     * in reflective memory by its number, with no event needed. The rules (docs/protocol.md, "Finding frames by
     * number"), with E the number expected next:
     * <ol>
     *   <li>Fresh (nothing read yet): E is 1. The reader waits until the slot of seq 1 holds a complete frame and
     *       takes it, whatever its number and incarnation, as its first (its baseline).</li>
     *   <li>A complete frame numbered E or more of the current incarnation in the slot of E is read next (more than
     *       E: the publisher lapped the reader, the difference shows as gaps).</li>
     *   <li>A slot left at {@code -E} is waited on, with no time limit, until one of the following slots, passing over
     *       any left at their own negative number, holds a complete frame of the current incarnation numbered above
     *       E: a publisher writes in order, so E will never be completed. Then E counts {@link FrameCounter#TORN}
     *       once, the reader goes on at E + 1, and E shows as a gap when the next frame is taken.</li>
     *   <li>Else nothing new of the current incarnation, and the slot of seq 1 says whether there is a newer one:
     *       every start of a publisher writes its first frame there, and only the newest start writes after that. A
     *       complete frame there of another incarnation is a restart; it is read next, as the new incarnation's
     *       first (its baseline; a restart forgets the numbers, so no gap and no stale). If the slot of E is still left
     *       at {@code -E}, E counts torn first (its incarnation ended without completing it), unless the slot of E - 1
     *       holds the new incarnation's frame (then {@code -E} may be the new one's frame being written). A
     *       restart frame the read refused (a checksum error) is not read again: the new incarnation is then found at
     *       its next frame in that slot (one written over under the read is looked at again).</li>
     *   <li>Any other frame in the slot of E (another incarnation's, an older number, an empty slot, one being
     *       written) is nothing new: an older incarnation's frames left in the slots are never read.</li>
     * </ol>
     * Whatever a read of the returned frame gives is final, except a frame written over under the read
     * ({@link FrameStatus#OVERWRITTEN}, looked at again): the next find expects the number after it (see also
     * {@link #lookAgainAt(long)}).
     * <p>
     * A handful of loads of shared memory per call (a slot per torn frame passed over), no allocation.
     *
     * @return the number of the frame to read now (pass it to {@link #readOnDemand} or {@link #readFromMemory});
     * {@link #NOTHING_NEW}; or {@link #TORN_SKIPPED} when it gave up on a torn frame
     * ({@link #tornSkipped()} says which, and it is counted): call again.
     */
    public long nextToRead()
    {
        // a torn verdict the slot disproved at once (completed between two loads) is found again, a few times at most:
        // a publisher writes in order, so it cannot keep completing the same frame
        for (int attempt = 0; attempt < FIND_ATTEMPTS; attempt++)
        {
            final long found = find();
            if (found != COMPLETED_MEANWHILE)
            {
                return found;
            }
        }
        return NOTHING_NEW;
    }

    private long find()
    {
        final int current = incarnation[channel.node()];
        if (restartFallback != 0)
        {
            if (current != restartFrom)
            {
                // the restart frame was refused: the current incarnation's numbers still hold
                expected = restartFallback;
            }
            restartFallback = 0;
        }
        final long first = channel.slotOffset(1);
        final long firstSeq = window.getLongAcquire(first + SEQ_OFFSET);
        final int firstFrom = window.getInt(first + INCARNATION_OFFSET);
        VarHandle.loadLoadFence();
        final boolean firstComplete = firstSeq > 0 && window.getLongVolatile(first + SEQ_OFFSET) == firstSeq;
        final long next = expected;
        if (current == 0 && next == 1)
        {
            return firstComplete ? take(firstSeq) : NOTHING_NEW;
        }
        final long slot = channel.slotOffset(next);
        final long seq = window.getLongAcquire(slot + SEQ_OFFSET);
        if (seq >= next)
        {
            final int from = window.getInt(slot + INCARNATION_OFFSET);
            VarHandle.loadLoadFence();
            if (window.getLongVolatile(slot + SEQ_OFFSET) == seq && sameIncarnation(from, current))
            {
                return take(seq);
            }
        }
        else if (seq == -next)
        {
            if (findFault != null)
            {
                findFault.run();
            }
            if (newerFollows(next, current) && !newerReached(next, current))
            {
                // the slot is read again after the ones that follow: -next may have been completed since it was
                // first read, and only a slot still at -next once a newer frame is seen was never completed
                return stillAt(slot, -next) ? skipTorn(next, next + 1) : COMPLETED_MEANWHILE;
            }
            tornWait = next;
        }
        if (current != 0 && firstComplete && firstFrom != 0 && firstFrom != current)
        {
            if (seq == -next && tornCounted != next && !holds(next - 1, firstFrom))
            {
                // the old incarnation ended without completing next; unless the new one has got as far as next - 1,
                // when -next may be its own frame being written
                if (!stillAt(slot, -next))
                {
                    return COMPLETED_MEANWHILE;
                }
                tornCounted = next;
                return skipTorn(next, next);
            }
            if (firstSeq != restartSeq || firstFrom != restartFrom)
            {
                // once per frame: a restart frame refused (a checksum error) is not read again
                restartSeq = firstSeq;
                restartFrom = firstFrom;
                restartFallback = next;
                return take(firstSeq);
            }
        }
        return NOTHING_NEW;
    }

    private long take(final long seq)
    {
        tornWait = 0;
        tornCounted = 0;
        expected = seq + 1;
        return seq;
    }

    /**
     * A read of the frame {@link #nextToRead()} returned could not take place (no DMA descriptor was free): expect
     * it again.
     *
     * @param seq the number returned.
     */
    public void lookAgainAt(final long seq)
    {
        expected = seq;
        restartSeq = 0;
    }

    /**
     * @return the number of the torn frame the last {@link #TORN_SKIPPED} gave up on.
     */
    public long tornSkipped()
    {
        return tornSkipped;
    }

    /**
     * @return the number a find-by-number reader looks for next (1 when fresh).
     */
    public long expected()
    {
        return expected;
    }

    /**
     * @return the number of a frame left at {@code -seq} that the find-by-number reader waits on, 0 when none.
     */
    public long tornWait()
    {
        return tornWait;
    }

    private long skipTorn(final long seq, final long nextExpected)
    {
        counters[FrameCounter.TORN.id()].incrementRelease();
        tornSkipped = seq;
        tornWait = 0;
        expected = nextExpected;
        return TORN_SKIPPED;
    }

    /**
     * Whether a newer incarnation than the current one started (its frame complete in the slot of seq 1) and has
     * written as far as {@code torn - 1}: then {@code -torn} may be its own frame being written, not the current
     * incarnation's torn one, and rule 5 decides instead of rule 4. The slot of seq 1 is read again here, after the
     * slot of {@code torn}: a new incarnation may have started, and written as far as {@code torn}, since the find
     * first looked at it.
     */
    private boolean newerReached(final long torn, final int current)
    {
        final long first = channel.slotOffset(1);
        final long firstSeq = window.getLongAcquire(first + SEQ_OFFSET);
        final int firstFrom = window.getInt(first + INCARNATION_OFFSET);
        VarHandle.loadLoadFence();
        return current != 0 && firstSeq > 0 && firstFrom != 0 && firstFrom != current &&
            window.getLongVolatile(first + SEQ_OFFSET) == firstSeq && holds(torn - 1, firstFrom);
    }

    private boolean stillAt(final long slot, final long value)
    {
        VarHandle.loadLoadFence();
        return window.getLongVolatile(slot + SEQ_OFFSET) == value;
    }

    private boolean holds(final long seq, final int from)
    {
        final long slot = channel.slotOffset(seq);
        final long value = window.getLongAcquire(slot + SEQ_OFFSET);
        final int writer = window.getInt(slot + INCARNATION_OFFSET);
        VarHandle.loadLoadFence();
        return value > 0 && writer == from && window.getLongVolatile(slot + SEQ_OFFSET) == value;
    }

    private boolean newerFollows(final long torn, final int current)
    {
        for (long n = torn + 1, end = torn + channel.slots(); n < end; n++)
        {
            final long slot = channel.slotOffset(n);
            final long seq = window.getLongAcquire(slot + SEQ_OFFSET);
            if (seq == -n)
            {
                continue;
            }
            final int from = window.getInt(slot + INCARNATION_OFFSET);
            VarHandle.loadLoadFence();
            return seq >= n && window.getLongVolatile(slot + SEQ_OFFSET) == seq && sameIncarnation(from, current);
        }
        return false;
    }

    private static boolean sameIncarnation(final int from, final int current)
    {
        return from == current || from == 0 || current == 0;
    }

    /**
     * @param source a publisher's node id.
     * @return the incarnation last seen from it, 0 before its first frame (or when it does not fill the field).
     */
    public int incarnation(final int source)
    {
        return incarnation[source];
    }

    /**
     * @param source a node id.
     * @return the newest frame number seen from it (of its current incarnation), 0 if none.
     */
    public long lastSeq(final int source)
    {
        return lastSeq[source];
    }

    /**
     * Count an event whose DMA transfer never completed (the ring was full when the frame arrived).
     */
    public void countDmaMissing()
    {
        counters[FrameCounter.DMA_MISSING.id()].incrementRelease();
    }

    /**
     * Validate a frame that DMA already moved into a host buffer.
     *
     * @param completion the completed descriptor (release it after the frame is used).
     * @param into       points at the frame on OK.
     * @return the outcome, counted.
     */
    public FrameStatus receiveCompleted(final DmaCompletion completion, final FrameView into)
    {
        return validate(completion.buffer(), completion.destOffset(), completion.length(), into);
    }

    /**
     * Read the slot an event announced through an on-demand DMA transfer, then validate it. On any outcome that
     * took a descriptor, {@code completion} holds it: release it once the frame is used.
     *
     * @param eventData  the event's data word, {@code (int) seq}.
     * @param completion filled with the descriptor.
     * @param into       points at the frame (in the DMA buffer) on OK.
     * @return the outcome, counted; DMA_MISSING if the ring was full.
     */
    public FrameStatus receiveOnDemand(final int eventData, final DmaCompletion completion, final FrameView into)
    {
        return onDemand(eventData, completion, into, false);
    }

    /**
     * The find-by-number reader's on-demand read: as {@link #receiveOnDemand}, for the frame {@link #nextToRead()}
     * returned, except that a frame written over while it was moved (the publisher lapped the reader, or a new
     * incarnation rewrote the slot) is {@link FrameStatus#OVERWRITTEN}: not counted, and the next find looks at the
     * slot again, where the frame that replaced it says what happened (a lap shows as gaps, a new incarnation as a
     * restart). A descriptor was taken: release it.
     *
     * @param seq        the number {@link #nextToRead()} returned.
     * @param completion filled with the descriptor.
     * @param into       points at the frame (in the DMA buffer) on OK.
     * @return the outcome; all but OVERWRITTEN counted.
     */
    public FrameStatus readOnDemand(final long seq, final DmaCompletion completion, final FrameView into)
    {
        final FrameStatus status = onDemand((int)seq, completion, into, true);
        if (status == FrameStatus.OVERWRITTEN)
        {
            lookAgainAt(seq);
        }
        return status;
    }

    private FrameStatus onDemand(final int eventData, final DmaCompletion completion, final FrameView into,
        final boolean byNumber)
    {
        final long slot = channel.slotOffset(eventData);
        final int length = frameLength(slot);
        if (length < 0)
        {
            return count(FrameStatus.BAD_HEADER);
        }
        final DmaEngine dma = device.dma();
        if (dma.submit(slot, transferLength(length), 0) != RfmStatus.SUCCESS || !dma.takeCompleted(completion))
        {
            return count(FrameStatus.DMA_MISSING);
        }
        if (readFault != null)
        {
            readFault.run();
        }
        VarHandle.loadLoadFence();
        final long copied = completion.buffer().getLong(SEQ_OFFSET, RfmWindow.BYTE_ORDER);
        if (copied <= 0 || window.getLongVolatile(slot + SEQ_OFFSET) != copied ||
            window.getInt(slot + INCARNATION_OFFSET) !=
            completion.buffer().getInt(INCARNATION_OFFSET, RfmWindow.BYTE_ORDER))
        {
            return copied == 0 ? count(FrameStatus.BAD_HEADER) : changedUnderTheRead(byNumber);
        }
        return receiveCompleted(completion, into);
    }

    /**
     * Copy the slot an event announced out of reflective memory with the CPU, then validate the copy.
     *
     * @param eventData the event's data word, {@code (int) seq}.
     * @param into      points at the receiver's copy on OK.
     * @return the outcome, counted.
     */
    public FrameStatus receiveFromMemory(final int eventData, final FrameView into)
    {
        return fromMemory(eventData, into, false);
    }

    /**
     * The find-by-number reader's CPU read: as {@link #receiveFromMemory}, for the frame {@link #nextToRead()}
     * returned, except that a frame written over while it was copied is {@link FrameStatus#OVERWRITTEN}: not
     * counted, and the next find looks at the slot again (see {@link #readOnDemand}).
     *
     * @param seq  the number {@link #nextToRead()} returned.
     * @param into points at the receiver's copy on OK.
     * @return the outcome; all but OVERWRITTEN counted.
     */
    public FrameStatus readFromMemory(final long seq, final FrameView into)
    {
        final FrameStatus status = fromMemory((int)seq, into, true);
        if (status == FrameStatus.OVERWRITTEN)
        {
            lookAgainAt(seq);
        }
        return status;
    }

    private FrameStatus fromMemory(final int eventData, final FrameView into, final boolean byNumber)
    {
        final long slot = channel.slotOffset(eventData);
        final long before = window.getLongAcquire(slot + SEQ_OFFSET);
        if (before < 0)
        {
            return changedUnderTheRead(byNumber);
        }
        final int length = frameLength(slot);
        if (before == 0 || length < 0)
        {
            return count(FrameStatus.BAD_HEADER);
        }
        window.getBytes(slot, copy, 0, HEADER_SIZE + length);
        if (readFault != null)
        {
            readFault.run();
        }
        VarHandle.loadLoadFence();
        if (window.getLongVolatile(slot + SEQ_OFFSET) != before ||
            window.getInt(slot + INCARNATION_OFFSET) != copy.getInt(INCARNATION_OFFSET, RfmWindow.BYTE_ORDER))
        {
            // the number alone cannot show a new incarnation's frame of the same number written in full meanwhile
            return changedUnderTheRead(byNumber);
        }
        return validate(copy, 0, channel.slotSize(), into);
    }

    /**
     * A slot that changed between the find and the end of the read: for a reader by events the announced frame is
     * gone, torn; for a reader by number, whose find saw the frame complete, it was written over, and the slot is
     * looked at again.
     */
    private FrameStatus changedUnderTheRead(final boolean byNumber)
    {
        return byNumber ? FrameStatus.OVERWRITTEN : count(FrameStatus.TORN);
    }

    private int frameLength(final long slot)
    {
        final int length = window.getInt(slot + LENGTH_OFFSET);
        return length < 0 || length > channel.maxPayload() ? -1 : length;
    }

    private FrameStatus validate(final DirectBuffer buffer, final int base, final int available,
        final FrameView into)
    {
        final long seq = buffer.getLong(base + SEQ_OFFSET, RfmWindow.BYTE_ORDER);
        if (seq < 0)
        {
            return count(FrameStatus.TORN);
        }
        final int length = buffer.getInt(base + LENGTH_OFFSET, RfmWindow.BYTE_ORDER);
        if (seq == 0 || length < 0 || length > channel.maxPayload() || HEADER_SIZE + length > available)
        {
            return count(FrameStatus.BAD_HEADER);
        }
        final int source = buffer.getShort(base + SOURCE_OFFSET, RfmWindow.BYTE_ORDER) & 0xFFFF;
        if (source > RfmDevice.MAX_NODE_ID)
        {
            return count(FrameStatus.BAD_HEADER);
        }
        if (selfFilter && source == selfNode)
        {
            return count(FrameStatus.SELF);
        }
        // the checksum runs over a heap copy, never over mapped memory: a mapped file cut short under the node turns
        // a plain copy's fault into an InternalError the node reports, where the checksum's own stub would crash
        // the JVM
        buffer.getBytes(base + HEADER_SIZE, crcScratch, 0, length);
        crc.reset();
        crc.update(crcScratch, 0, length);
        if ((int)crc.getValue() != buffer.getInt(base + CRC_OFFSET, RfmWindow.BYTE_ORDER))
        {
            return count(FrameStatus.CRC_ERROR);
        }
        final int from = buffer.getInt(base + INCARNATION_OFFSET, RfmWindow.BYTE_ORDER);
        if (from != 0 && from != incarnation[source])
        {
            if (incarnation[source] != 0)
            {
                // the publisher started again: its numbers start again too, this frame is its first
                lastSeq[source] = 0;
                counters[FrameCounter.PUBLISHER_RESTARTS.id()].incrementRelease();
                restarted = true;
            }
            incarnation[source] = from;
        }
        final long last = lastSeq[source];
        if (last != 0)
        {
            if (seq == last)
            {
                return count(FrameStatus.DUPLICATE);
            }
            if (seq < last)
            {
                return count(FrameStatus.STALE);
            }
            counters[FrameCounter.GAPS.id()].getAndAddRelease(seq - last - 1);
        }
        lastSeq[source] = seq;
        counters[FrameCounter.FRAMES.id()].incrementRelease();
        into.wrap(buffer, base);
        return FrameStatus.OK;
    }

    private FrameStatus count(final FrameStatus status)
    {
        final FrameCounter counter = switch (status)
        {
            case TORN -> FrameCounter.TORN;
            case CRC_ERROR -> FrameCounter.CRC_ERRORS;
            case DUPLICATE -> FrameCounter.DUPLICATES;
            case STALE -> FrameCounter.STALE;
            case SELF -> FrameCounter.SELF_FILTERED;
            case BAD_HEADER -> FrameCounter.BAD_HEADER;
            case DMA_MISSING -> FrameCounter.DMA_MISSING;
            case OK -> FrameCounter.FRAMES;
            case OVERWRITTEN -> null;
        };
        if (counter != null)
        {
            counters[counter.id()].incrementRelease();
        }
        return status;
    }
}
