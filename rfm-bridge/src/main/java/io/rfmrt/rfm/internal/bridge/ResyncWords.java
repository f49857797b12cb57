package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeState;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.WORD_SIZE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.END_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.END_WORDS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.FLAGS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.FLAG_FORMER_WORDS;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MAX_MESSAGE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.REQUEST_ID_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RESYNC_DATA;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RESYNC_END;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RESYNC_RUNS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RUN_HEADER_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RUN_LENGTH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RUN_OFFSET_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RUN_OWNER_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RUN_OWNER_SOURCE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.writeInBounds;

/**
 * The words of a resynchronisation: served to a peer that asks for them (every word this host owns, in runs, a
 * budget of bytes per duty cycle, then RESYNC_END), and applied from a peer that answers this host's request (a word
 * both hosts claim goes to the lower host id, everywhere). When a peer asks and when it is UP is the state machine's
 * (PeerStates); this moves the words. The duty cycle's thread only.
 * <p>
 * Former words. A host whose image started empty (its bridge file made new) asks each peer for its own former words
 * too, until that peer has answered such a request to its end: the words the peer holds as written by the asker,
 * served after a RESYNC_REQUEST with the FORMER_WORDS flag in runs whose owner is the asker. The asker takes a word
 * only while it knows nothing newer of it, that is while its owner table names no host for it and its image holds
 * 0 (a compare-and-set from 0): a word one of its nodes wrote since the start is in its image at once and in the owner
 * table once the bridge has read it from the log, so the old value never lands over it; the first peer's value of a
 * word is kept and the later ones' are not taken. Every word taken back is sent again to every peer from the image,
 * in log order ({@link OutboundDrain#resendTakenBack(int)}), so that all hosts hold the value this host kept.
 */
final class ResyncWords
{
    private static final int RESYNC_BUDGET_BYTES = 512 * 1024;

    private final PeerLink[] peers;
    private final PeerStreams streams;
    private final BridgeFile file;
    private final OwnerTable owners;
    private final OutboundDrain outbound;
    private final UnsafeBuffer memory;
    private final CachedNanoClock clock;
    private final int hostId;
    private final int words;
    private final UnsafeBuffer resyncBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_MESSAGE, 64));

    /**
     * @param peers    the configured peers.
     * @param streams  the streams out to them.
     * @param file     the bridge file (owner table, counters).
     * @param outbound sends the words taken back again to every peer.
     * @param memory   the host's image.
     * @param clock    the duty cycle's time.
     * @param hostId   this host's id.
     */
    ResyncWords(final PeerLink[] peers, final PeerStreams streams, final BridgeFile file,
        final OutboundDrain outbound, final UnsafeBuffer memory, final CachedNanoClock clock, final int hostId)
    {
        this.peers = peers;
        this.streams = streams;
        this.file = file;
        this.owners = file.owners();
        this.outbound = outbound;
        this.memory = memory;
        this.clock = clock;
        this.hostId = hostId;
        this.words = owners.words();
    }

    /**
     * RESYNC_REQUEST: serve the peer this host's words from the first, under the request's id (and the peer's former
     * words, when it asks for them).
     */
    void onRequest(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < REQUEST_ID_OFFSET + Long.BYTES)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return;
        }
        peer.serveRequestId = buffer.getLong(offset + REQUEST_ID_OFFSET);
        peer.serveWord = 0;
        peer.servedWords = 0;
        peer.serveFormer = (buffer.getShort(offset + FLAGS_OFFSET) & FLAG_FORMER_WORDS) != 0;
        peer.serving = true;
    }

    /**
     * Serve every peer being served whose DATA is out (the words follow the writes sent before them).
     *
     * @return work done.
     */
    int serveResyncs()
    {
        int work = 0;
        for (final PeerLink peer : peers)
        {
            if (peer.serving && !peer.dataPending)
            {
                work += serve(peer);
            }
        }
        return work;
    }

    private int serve(final PeerLink peer)
    {
        int budget = RESYNC_BUDGET_BYTES;
        while (budget > 0 && peer.serveWord < words)
        {
            streams.header(resyncBuffer, RESYNC_DATA, peer.hostId);
            resyncBuffer.putLong(REQUEST_ID_OFFSET, peer.serveRequestId);
            int length = RESYNC_RUNS_OFFSET;
            int word = peer.serveWord;
            long sent = 0;
            while (word < words && length + RUN_HEADER_LENGTH + WORD_SIZE <= MAX_MESSAGE)
            {
                final int owner = owners.owner(word);
                if (owner != hostId && (!peer.serveFormer || owner != peer.hostId))
                {
                    word++;
                    continue;
                }
                int end = word + 1;
                final int room = (MAX_MESSAGE - length - RUN_HEADER_LENGTH) / WORD_SIZE;
                while (end < words && end - word < room && owners.owner(end) == owner)
                {
                    end++;
                }
                final int bytes = (end - word) * WORD_SIZE;
                resyncBuffer.putLong(length + RUN_OFFSET_OFFSET, (long)word * WORD_SIZE);
                resyncBuffer.putInt(length + RUN_LENGTH_OFFSET, bytes);
                resyncBuffer.putInt(length + RUN_OWNER_OFFSET, owner == hostId ? RUN_OWNER_SOURCE : owner);
                resyncBuffer.putBytes(length + RUN_HEADER_LENGTH, memory, word * WORD_SIZE, bytes);
                length += RUN_HEADER_LENGTH + bytes;
                sent += bytes;
                word = end;
            }
            if (length > RESYNC_RUNS_OFFSET)
            {
                if (!streams.offer(peer, resyncBuffer, length))
                {
                    return 0;
                }
                file.add(BridgeCounter.RESYNC_BYTES_SENT, sent);
                peer.servedWords += sent / WORD_SIZE;
                budget -= length;
            }
            peer.serveWord = word;
        }
        if (peer.serveWord >= words)
        {
            streams.header(resyncBuffer, RESYNC_END, peer.hostId);
            resyncBuffer.putLong(REQUEST_ID_OFFSET, peer.serveRequestId);
            resyncBuffer.putLong(END_WORDS_OFFSET, peer.servedWords);
            if (streams.offer(peer, resyncBuffer, END_LENGTH))
            {
                peer.serving = false;
                file.add(BridgeCounter.RESYNCS_SERVED, 1);
            }
        }
        return 1;
    }

    /**
     * RESYNC_DATA of the request this host asked of the peer: store the peer's words, and note the answer progressing.
     */
    void onData(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < RESYNC_RUNS_OFFSET || peer.state != BridgeState.SYNCING ||
            buffer.getLong(offset + REQUEST_ID_OFFSET) != peer.requestId)
        {
            return;
        }
        int at = offset + RESYNC_RUNS_OFFSET;
        final int end = offset + length;
        long applied = 0;
        long conflicts = 0;
        while (at + RUN_HEADER_LENGTH <= end)
        {
            final long to = buffer.getLong(at + RUN_OFFSET_OFFSET);
            final int n = buffer.getInt(at + RUN_LENGTH_OFFSET);
            final int data = at + RUN_HEADER_LENGTH;
            if (!writeInBounds(to, n, memory.capacity()) || (to & 7) != 0 || (n & 7) != 0 || data + n > end)
            {
                file.add(BridgeCounter.BAD_MESSAGES, 1);
                break;
            }
            final int first = (int)(to / WORD_SIZE);
            final int count = n / WORD_SIZE;
            if (buffer.getInt(at + RUN_OWNER_OFFSET) == hostId)
            {
                if (peer.requestAsksFormer)
                {
                    applied += takeBack(buffer, data, first, count);
                }
                at = data + n;
                continue;
            }
            for (int i = 0; i < count; i++)
            {
                final int word = first + i;
                final int owner = owners.owner(word);
                if (owner != 0 && owner != peer.hostId)
                {
                    // both claim it: written on two hosts while apart; the lower host id wins everywhere
                    conflicts++;
                    if (owner < peer.hostId)
                    {
                        continue;
                    }
                }
                memory.putLongRelease(word * WORD_SIZE, buffer.getLong(data + i * WORD_SIZE));
                owners.own(word, peer.hostId);
                applied += WORD_SIZE;
            }
            at = data + n;
        }
        peer.syncHeardNs = clock.nanoTime();
        peer.syncBytes += applied;
        peer.syncConflicts += conflicts;
        file.add(BridgeCounter.RESYNC_BYTES_APPLIED, applied);
        if (conflicts > 0)
        {
            file.add(BridgeCounter.RESYNC_CONFLICTS, conflicts);
        }
    }

    /**
     * A run of this host's former words, as the peer holds them: take each that this host knows nothing newer of.
     *
     * @return bytes taken.
     */
    private long takeBack(final DirectBuffer buffer, final int data, final int first, final int count)
    {
        long taken = 0;
        for (int i = 0; i < count; i++)
        {
            final int word = first + i;
            // a node's store is in the image before its log record, and in the owner table once the record is read:
            // either says this host wrote the word since it started, and its value is the newer one
            if (owners.owner(word) == 0 &&
                memory.compareAndSetLong(word * WORD_SIZE, 0, buffer.getLong(data + i * WORD_SIZE)))
            {
                owners.own(word, hostId);
                outbound.resendTakenBack(word);
                taken++;
            }
        }
        if (taken > 0)
        {
            file.add(BridgeCounter.FORMER_WORDS_TAKEN_BACK, taken);
        }
        return taken * WORD_SIZE;
    }
}
