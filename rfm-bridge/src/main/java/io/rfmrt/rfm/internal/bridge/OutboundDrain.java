package io.rfmrt.rfm.internal.bridge;

import io.aeron.Publication;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.bridge.BridgeRecordKind.LossReason;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.LOG_EVENT;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.LOG_WRITE;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WORD_SIZE;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WRITE_DATA_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WRITE_LENGTH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WRITE_OFFSET_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WRITE_SOURCE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.DATA;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HEADER_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MAX_MESSAGE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RECORD_HEADER_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RECORD_LENGTH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RECORD_TYPE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.writeInBounds;

/**
 * The outbound side of a bridge: drains the host's outbound log (the writes and events its nodes append) into DATA
 * messages, one to every peer, in log order; makes the words a node's write took as this host's; and, after the log
 * overflowed, sends again the words the writers marked instead (once everything logged before is out, so that no older
 * value lands after the resend). The words a peer gave back to a host whose image started empty (its former words,
 * {@link ResyncWords}) are sent again the same way, marked here instead of in the file's bitmap.
 * <pre>
 *   overflow:  IDLE --(flag seen, or words taken back)--&gt; DRAINING --(log read up to then; marks taken)--&gt; SETTLING
 *              SETTLING --(log read up to then)--&gt; SENDING --(every marked word sent)--&gt; IDLE
 * </pre>
 * A DATA message waits for a back-pressured peer (the log drains no further until it takes it); a peer whose stream
 * is not connected loses it and asks for the words again when it connects. The duty cycle's thread only;
 * allocation-free.
 */
final class OutboundDrain
{
    private static final long LOG_UNBLOCK_NS = 2_000_000_000L;
    private static final int DATA_LIMIT = 16 * 1024;
    private static final int LOG_READ_LIMIT = 1024;

    private static final int OVERFLOW_IDLE = 0;
    private static final int OVERFLOW_DRAINING = 1;
    private static final int OVERFLOW_SETTLING = 2;
    private static final int OVERFLOW_SENDING = 3;

    private final PeerLink[] peers;
    private final PeerStreams streams;
    private final PeerStates states;
    private final BridgeFile file;
    private final OwnerTable owners;
    private final ManyToOneRingBuffer log;
    private final UnsafeBuffer memory;
    private final CachedNanoClock clock;
    private final BridgeRecorder recorder;
    private final int hostId;
    private final UnsafeBuffer dataBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_MESSAGE, 64));
    private final ControlledMessageHandler logHandler = this::onLogRecord;
    private final long[] swept;
    private final long[] takenBack;
    private boolean takenBackPending;
    private boolean overflowInRound;

    private int dataLength;
    private boolean dataPending;
    private long pendingWrites;
    private long pendingEvents;
    private long logBlockedSinceNs;

    private int overflowPhase = OVERFLOW_IDLE;
    private long overflowDrainTo;
    private int overflowLong;
    private long overflowWords;

    /**
     * @param peers    the configured peers.
     * @param streams  the streams out to them.
     * @param states   the protocol's state machine (a stream that loses a message is replaced).
     * @param file     the bridge file (log, owner table, overflow bitmap, counters).
     * @param log      the outbound log.
     * @param memory   the host's image.
     * @param clock    the duty cycle's time.
     * @param recorder records an overflow's resend.
     * @param hostId   this host's id.
     */
    OutboundDrain(final PeerLink[] peers, final PeerStreams streams, final PeerStates states, final BridgeFile file,
        final ManyToOneRingBuffer log, final UnsafeBuffer memory, final CachedNanoClock clock,
        final BridgeRecorder recorder, final int hostId)
    {
        this.peers = peers;
        this.streams = streams;
        this.states = states;
        this.file = file;
        this.owners = file.owners();
        this.log = log;
        this.memory = memory;
        this.clock = clock;
        this.recorder = recorder;
        this.hostId = hostId;
        this.swept = new long[owners.overflowLongs()];
        this.takenBack = new long[owners.overflowLongs()];
    }

    /**
     * A former word of this host, given back by a peer and stored in the image: send it again to every peer from the
     * image, after everything logged until now (a store of this host's node logged before must not land after it).
     *
     * @param word the word's index.
     */
    void resendTakenBack(final int word)
    {
        takenBack[word >>> 6] |= 1L << (word & 63);
        takenBackPending = true;
    }

    /**
     * @return whether a DATA message waits for a back-pressured peer (the log cannot drain until it takes it).
     */
    boolean blocked()
    {
        return dataPending;
    }

    /**
     * A bridge that died left its log and its overflow marks: the words written meanwhile are this host's (peers get
     * them by resynchronisation), the events are too late to deliver. Run once, before the first duty cycle.
     *
     * @param log    the outbound log.
     * @param file   the bridge file.
     * @param memory the host's image.
     * @param hostId this host's id.
     */
    static void recoverAfterDeadBridge(final ManyToOneRingBuffer log, final BridgeFile file, final UnsafeBuffer memory,
        final int hostId)
    {
        final OwnerTable owners = file.owners();
        final ControlledMessageHandler staleRecord = (type, buffer, index, length) ->
        {
            if (type == LOG_WRITE && length >= WRITE_DATA_OFFSET)
            {
                final long offset = buffer.getLong(index + WRITE_OFFSET_OFFSET);
                final int n = buffer.getInt(index + WRITE_LENGTH_OFFSET);
                if (writeInBounds(offset, n, memory.capacity()) && n <= length - WRITE_DATA_OFFSET)
                {
                    owners.own(offset, n, hostId);
                }
            }
            else if (type == LOG_EVENT)
            {
                file.add(BridgeCounter.STALE_EVENTS_DROPPED, 1);
            }
            return ControlledMessageHandler.Action.CONTINUE;
        };
        int read;
        do
        {
            read = log.controlledRead(staleRecord, Integer.MAX_VALUE);
        }
        while (read > 0);
        if (log.producerPosition() != log.consumerPosition() && log.unblock())
        {
            file.add(BridgeCounter.LOG_UNBLOCKS, 1);
        }
        for (int i = 0; i < owners.overflowLongs(); i++)
        {
            long bits = owners.takeOverflow(i);
            while (bits != 0)
            {
                final int bit = Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                owners.own(i * 64 + bit, hostId);
            }
        }
        owners.clearOverflowFlag();
    }

    /**
     * Send the pending DATA message, then the next one from the log (or the overflow's resend).
     *
     * @return work done.
     */
    int drainLog()
    {
        if (dataPending && !offerData())
        {
            return 0;
        }
        if (overflowPhase == OVERFLOW_DRAINING && log.consumerPosition() >= overflowDrainTo)
        {
            // everything logged before the overflow was seen is out: take the marked words, then let everything
            // logged until now go out too (an older value of a marked word among it must not land after the resend)
            for (int i = 0; i < swept.length; i++)
            {
                final long marked = owners.takeOverflow(i);
                overflowInRound |= marked != 0;
                swept[i] |= marked | takenBack[i];
                takenBack[i] = 0;
            }
            takenBackPending = false;
            overflowDrainTo = log.producerPosition();
            overflowPhase = OVERFLOW_SETTLING;
        }
        if (overflowPhase == OVERFLOW_SETTLING && log.consumerPosition() >= overflowDrainTo)
        {
            overflowPhase = OVERFLOW_SENDING;
            overflowLong = 0;
            overflowWords = 0;
        }
        if (overflowPhase == OVERFLOW_SENDING)
        {
            return sendOverflow();
        }
        dataLength = HEADER_LENGTH;
        pendingWrites = 0;
        pendingEvents = 0;
        final int read = log.controlledRead(logHandler, LOG_READ_LIMIT);
        if (read == 0)
        {
            // nothing to read although records were claimed: the oldest is not committed yet
            if (log.producerPosition() != log.consumerPosition())
            {
                if (logBlockedSinceNs == 0)
                {
                    logBlockedSinceNs = clock.nanoTime();
                }
            }
            else
            {
                logBlockedSinceNs = 0;
            }
            return 0;
        }
        logBlockedSinceNs = 0;
        file.add(BridgeCounter.WRITES_SENT, pendingWrites);
        file.add(BridgeCounter.EVENTS_SENT, pendingEvents);
        startData();
        return read;
    }

    private ControlledMessageHandler.Action onLogRecord(final int type, final MutableDirectBuffer buffer,
        final int index, final int length)
    {
        final int need = BitUtil.align(RECORD_HEADER_LENGTH + length, 8);
        if (dataLength + need > DATA_LIMIT && dataLength > HEADER_LENGTH)
        {
            return ControlledMessageHandler.Action.ABORT;
        }
        if (type == LOG_WRITE && length >= WRITE_DATA_OFFSET)
        {
            final long offset = buffer.getLong(index + WRITE_OFFSET_OFFSET);
            final int n = buffer.getInt(index + WRITE_LENGTH_OFFSET);
            if (writeInBounds(offset, n, memory.capacity()) && n <= length - WRITE_DATA_OFFSET)
            {
                owners.own(offset, n, hostId);
            }
            pendingWrites++;
        }
        else
        {
            pendingEvents++;
        }
        dataBuffer.putInt(dataLength + RECORD_TYPE_OFFSET, type);
        dataBuffer.putInt(dataLength + RECORD_LENGTH_OFFSET, length);
        dataBuffer.putBytes(dataLength + RECORD_HEADER_LENGTH, buffer, index, length);
        dataLength += need;
        return ControlledMessageHandler.Action.CONTINUE;
    }

    private void startData()
    {
        streams.header(dataBuffer, DATA, 0);
        for (final PeerLink peer : peers)
        {
            peer.dataPending = true;
            peer.blockedSinceNs = 0;
        }
        dataPending = true;
        offerData();
    }

    /**
     * @return true when every peer has the pending DATA message (or will get the words by resynchronisation).
     */
    private boolean offerData()
    {
        boolean pending = false;
        for (final PeerLink peer : peers)
        {
            if (!peer.dataPending)
            {
                continue;
            }
            if (!peer.connected())
            {
                // not connected: the message is lost to it. It asks for our words when it connects to a stream it
                // has not seen; the stream it had may still be open at its end (it was only stopped a while), with
                // no gap to see, so that one is replaced
                dropData(peer);
                continue;
            }
            final long result = streams.offerNext(peer, dataBuffer, dataLength);
            if (result > 0)
            {
                peer.dataPending = false;
                peer.blockedSinceNs = 0;
                peer.publicationWasConnected = true;
            }
            else if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION)
            {
                file.add(BridgeCounter.BACK_PRESSURE, 1);
                if (peer.blockedSinceNs == 0)
                {
                    peer.blockedSinceNs = clock.nanoTime();
                }
                pending = true;
            }
            else if (result == Publication.NOT_CONNECTED)
            {
                dropData(peer);
            }
            else
            {
                peer.dataPending = false;
                peer.lossDue = true;
            }
        }
        dataPending = pending;
        for (final PeerLink peer : peers)
        {
            if (peer.lossDue)
            {
                peer.lossDue = false;
                states.newPublication(peer, LossReason.PUBLICATION);
            }
        }
        return !pending;
    }

    private static void dropData(final PeerLink peer)
    {
        peer.dataPending = false;
        if (peer.publicationWasConnected)
        {
            peer.lossDue = true;
        }
    }

    /**
     * A record claimed and never committed for this long: its writer died (or was stopped) in between; skip it (a
     * stopped writer that resumes finds its record gone and marks its words for a resend instead).
     */
    void checkLogStuck()
    {
        if (logBlockedSinceNs != 0 && clock.nanoTime() - logBlockedSinceNs > LOG_UNBLOCK_NS && log.unblock())
        {
            file.add(BridgeCounter.LOG_UNBLOCKS, 1);
            logBlockedSinceNs = 0;
        }
    }

    /**
     * Start an overflow's resend when a writer raised the flag.
     */
    void checkOverflow()
    {
        if (overflowPhase == OVERFLOW_IDLE && (takenBackPending || owners.overflowFlag()))
        {
            // the flag stays up (events refused) until the marked words are sent again
            overflowDrainTo = log.producerPosition();
            overflowPhase = OVERFLOW_DRAINING;
        }
    }

    private int sendOverflow()
    {
        dataLength = HEADER_LENGTH;
        while (overflowLong < swept.length)
        {
            final long bits = swept[overflowLong];
            if (bits != 0)
            {
                // worst case: 64 runs of one word, each a record of its own
                if (dataLength + 64 * (RECORD_HEADER_LENGTH + WRITE_DATA_OFFSET + WORD_SIZE) > DATA_LIMIT)
                {
                    break;
                }
                swept[overflowLong] = 0;
                long rest = bits;
                while (rest != 0)
                {
                    final int bit = Long.numberOfTrailingZeros(rest);
                    final int run = Math.min(64 - bit, Long.numberOfTrailingZeros(~(rest >>> bit)));
                    appendWordRun(overflowLong * 64 + bit, run);
                    overflowWords += run;
                    rest = run == 64 ? 0 : rest & ~(((1L << run) - 1) << bit);
                }
            }
            overflowLong++;
        }
        if (dataLength > HEADER_LENGTH)
        {
            startData();
            return 1;
        }
        overflowPhase = OVERFLOW_IDLE;
        file.add(BridgeCounter.OVERFLOW_WORDS_RESENT, overflowWords);
        if (overflowInRound)
        {
            recorder.record(BridgeRecordKind.LOG_OVERFLOW, null, overflowWords, 0);
        }
        overflowInRound = false;
        // words marked after they were taken raised no flag (it was up): another round takes them
        owners.clearOverflowFlag();
        for (int i = 0; i < swept.length; i++)
        {
            if (owners.peekOverflow(i) != 0)
            {
                owners.raiseOverflowFlag();
                break;
            }
        }
        return 1;
    }

    private void appendWordRun(final int word, final int run)
    {
        final int length = run * WORD_SIZE;
        final long offset = (long)word * WORD_SIZE;
        owners.own(offset, length, hostId);
        dataBuffer.putInt(dataLength + RECORD_TYPE_OFFSET, LOG_WRITE);
        dataBuffer.putInt(dataLength + RECORD_LENGTH_OFFSET, WRITE_DATA_OFFSET + length);
        final int body = dataLength + RECORD_HEADER_LENGTH;
        dataBuffer.putLong(body + WRITE_OFFSET_OFFSET, offset);
        dataBuffer.putInt(body + WRITE_SOURCE_OFFSET, -1);
        dataBuffer.putInt(body + WRITE_LENGTH_OFFSET, length);
        dataBuffer.putBytes(body + WRITE_DATA_OFFSET, memory, (int)offset, length);
        dataLength += BitUtil.align(RECORD_HEADER_LENGTH + WRITE_DATA_OFFSET + length, 8);
    }
}
