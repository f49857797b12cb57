package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.bridge.BridgeRecordKind.LossReason;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_BYTES_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_INCARNATION_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_LAST_HEARD_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_LOSSES_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_MESSAGES_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_RESYNCS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_SESSION_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_STATE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_VIEW_OF_US_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.BYE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.END_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.EPOCH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.FLAGS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.FLAG_FORMER_WORDS;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HEADER_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.INCARNATION_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MAX_MESSAGE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.REQUEST_ID_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RESYNC_REQUEST;

/**
 * The bridge protocol's state machine: the state of each peer, and from them the host's link. Liveness (a peer heard
 * lately, its session, its stream out), the resynchronisation asked of a peer until its answer ends, when a HELLO is
 * sent (what it holds is {@link HelloExchange}'s), and the records and counters of every change.
 * <pre>
 *   CONNECTING --(a session heard and our stream connected: RESYNC_REQUEST sent)--&gt; SYNCING
 *   SYNCING    --(RESYNC_END of the request)---------------------------------------&gt; UP
 *   SYNCING    --(no answer progressing for half the peer time-out: asked again)----&gt; CONNECTING
 *   any        --(its session ends, it opens a new one, BYE)--------------------------&gt; CONNECTING
 * </pre>
 * The link is up while every peer is UP, heard within the time-out, has an open stream from us and is UP with us in
 * its own HELLO. The duty cycle's thread only.
 */
final class PeerStates
{
    private final PeerLink[] peers;
    private final PeerStreams streams;
    private final HelloExchange hello;
    private final BridgeRecorder recorder;
    private final BridgeFile file;
    private final PeerTable peerTable;
    private final NetworkImage image;
    private final CachedNanoClock clock;
    private final CachedEpochClock epochClock;
    private final long peerTimeoutNs;
    private final long heartbeatNs;
    private final UnsafeBuffer controlBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_MESSAGE, 64));

    private boolean linkUp;
    private boolean helloDue = true;
    private long nextHeartbeatNs;

    /**
     * @param peers         the configured peers.
     * @param streams       the streams out to them.
     * @param hello         the HELLO sent and taken.
     * @param recorder      records what happens.
     * @param file          the bridge file (counters, the peer table, the host's state).
     * @param image         the host's network (its link).
     * @param clock         the duty cycle's time.
     * @param epochClock    the wall clock of the last timer tick.
     * @param peerTimeoutNs time without a word from a peer before it counts as lost.
     * @param heartbeatNs   interval of HELLO messages.
     */
    PeerStates(final PeerLink[] peers, final PeerStreams streams, final HelloExchange hello,
        final BridgeRecorder recorder, final BridgeFile file, final NetworkImage image, final CachedNanoClock clock,
        final CachedEpochClock epochClock, final long peerTimeoutNs, final long heartbeatNs)
    {
        this.peers = peers;
        this.streams = streams;
        this.hello = hello;
        this.recorder = recorder;
        this.file = file;
        this.peerTable = file.peers();
        this.image = image;
        this.clock = clock;
        this.epochClock = epochClock;
        this.peerTimeoutNs = peerTimeoutNs;
        this.heartbeatNs = heartbeatNs;
    }

    /**
     * @return whether the link is up (every peer in sync both ways).
     */
    boolean linkUp()
    {
        return linkUp;
    }

    /**
     * Tell the peers at the next timer tick, not a heartbeat later.
     */
    void helloDue()
    {
        helloDue = true;
    }

    // ------------------------------------------------------------------------------------------ timers

    /**
     * The timer's look at every peer: streams to open again or replace, peers gone silent, requests unanswered.
     *
     * @return work done.
     */
    int checkPeers()
    {
        int work = 0;
        for (final PeerLink peer : peers)
        {
            work += checkPeer(peer);
        }
        return work;
    }

    /**
     * The duty cycle did not listen for {@code ns}: deliveries waited for nodes' rings that ask to be waited for, and
     * the poll was cut short. That time is this host's delay, not the peers' silence (their messages wait in the
     * transport): it is added to when each was last heard, up to one peer time-out in all between two messages
     * heard from a peer, so that a peer that died meanwhile is found silent at most one time-out late.
     *
     * @param ns how long the cut poll ran.
     */
    void excuseSilence(final long ns)
    {
        for (final PeerLink peer : peers)
        {
            final long excuse = Math.min(ns, peerTimeoutNs - peer.excusedNs);
            if (excuse > 0)
            {
                peer.lastHeardNs += excuse;
                peer.syncHeardNs += excuse;
                peer.excusedNs += excuse;
            }
        }
    }

    private int checkPeer(final PeerLink peer)
    {
        final long nowNs = clock.nanoTime();
        if (peer.publication == null && nowNs - peer.publicationRetryNs >= 0)
        {
            streams.open(peer);
        }
        if (peer.hasSession && !peer.silent && nowNs - peer.lastHeardNs > peerTimeoutNs)
        {
            // nothing heard: the link goes down; the same session may still bring everything once it speaks again
            peer.silent = true;
            file.add(BridgeCounter.PEER_LOSSES, 1);
            peerLost(peer, LossReason.SILENCE);
            updateLink();
        }
        if (peer.connected())
        {
            peer.disconnectedSinceNs = 0;
            peer.publicationWasConnected = true;
        }
        else if (peer.publicationWasConnected)
        {
            if (peer.disconnectedSinceNs == 0)
            {
                peer.disconnectedSinceNs = nowNs;
            }
            else if (nowNs - peer.disconnectedSinceNs > peerTimeoutNs)
            {
                newPublication(peer, LossReason.PUBLICATION);
                return 1;
            }
        }
        if (peer.dataPending && peer.blockedSinceNs != 0 && nowNs - peer.blockedSinceNs > peerTimeoutNs)
        {
            newPublication(peer, LossReason.PUBLICATION);
            return 1;
        }
        if (peer.state == BridgeState.SYNCING && nowNs - peer.syncHeardNs > resyncTimeoutNs())
        {
            // the request or its answer was lost: offered on a stream that still looked connected while the other
            // end had no image of it (the peer restarted, or its image timed out), so the image that formed again
            // started after it. Nothing else would ever ask again: ask now.
            file.add(BridgeCounter.RESYNCS_ASKED_AGAIN, 1);
            file.add(BridgeCounter.PEER_LOSSES, 1);
            peerLost(peer, LossReason.RESYNC_UNANSWERED);
            peer.state = BridgeState.CONNECTING;
            peerTable.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
        }
        if (peer.state == BridgeState.CONNECTING && peer.hasSession && peer.connected())
        {
            return requestResync(peer);
        }
        return 0;
    }

    /**
     * @return how long a resync request may go without its answer progressing before it is asked again.
     */
    private long resyncTimeoutNs()
    {
        return peerTimeoutNs / 2;
    }

    /**
     * Send a HELLO to every peer when one is due (something changed) or the heartbeat comes round.
     *
     * @return work done.
     */
    int sendHelloWhenDue()
    {
        final long nowNs = clock.nanoTime();
        if (helloDue || nowNs - nextHeartbeatNs >= 0)
        {
            helloDue = false;
            nextHeartbeatNs = nowNs + heartbeatNs;
            hello.send(linkUp);
            return 1;
        }
        return 0;
    }

    /**
     * Say goodbye to every peer whose stream takes it (the bridge stops).
     */
    void sendBye()
    {
        streams.header(controlBuffer, BYE, 0);
        for (final PeerLink peer : peers)
        {
            streams.offer(peer, controlBuffer, HEADER_LENGTH);
        }
    }

    // ------------------------------------------------------------------------------------------ transitions

    private int requestResync(final PeerLink peer)
    {
        final long request = peer.requestId + 1;
        streams.header(controlBuffer, RESYNC_REQUEST, peer.hostId);
        controlBuffer.putShort(FLAGS_OFFSET, peer.formerWanted ? FLAG_FORMER_WORDS : (short)0);
        controlBuffer.putLong(REQUEST_ID_OFFSET, request);
        if (streams.offer(peer, controlBuffer, REQUEST_ID_OFFSET + Long.BYTES))
        {
            peer.requestId = request;
            peer.requestAsksFormer = peer.formerWanted;
            peer.syncHeardNs = clock.nanoTime();
            peer.state = BridgeState.SYNCING;
            peer.syncConflicts = 0;
            peer.syncBytes = 0;
            peerTable.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
            file.add(BridgeCounter.RESYNCS_REQUESTED, 1);
            recorder.record(BridgeRecordKind.PEER_CONNECTED, peer, request, 0);
            helloDue = true;
            return 1;
        }
        return 0;
    }

    private void peerLost(final PeerLink peer, final LossReason reason)
    {
        peer.losses++;
        peerTable.peerLong(peer.index, PEER_LOSSES_OFFSET, peer.losses);
        recorder.record(BridgeRecordKind.PEER_LOST, peer, reason.id(), peer.state.id());
    }

    /**
     * What the peer sent may not all have come (its stream ended or it opened a new one): ask again once it speaks.
     */
    private void resetInbound(final PeerLink peer, final LossReason reason)
    {
        file.add(BridgeCounter.PEER_LOSSES, 1);
        if (!peer.silent)
        {
            peerLost(peer, reason);
        }
        peer.hasSession = false;
        peer.silent = false;
        peer.state = BridgeState.CONNECTING;
        peer.viewOfUs = BridgeState.CONNECTING;
        peerTable.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
        peerTable.peerInt(peer.index, PEER_VIEW_OF_US_OFFSET, peer.viewOfUs.id());
        helloDue = true;
        updateLink();
    }

    /**
     * Our stream to the peer stayed blocked or disconnected: start a new one. The peer sees the new session and asks
     * for our words; until it says it is in sync with us again the link stays down.
     *
     * @param peer   the peer.
     * @param reason why, for the record.
     */
    void newPublication(final PeerLink peer, final LossReason reason)
    {
        file.add(BridgeCounter.PEER_LOSSES, 1);
        peerLost(peer, reason);
        if (peer.publication != null)
        {
            peer.publication.close();
        }
        streams.open(peer);
        peer.serving = false;
        peer.dataPending = false;
        peer.blockedSinceNs = 0;
        peer.disconnectedSinceNs = 0;
        peer.publicationWasConnected = false;
        peer.viewOfUs = BridgeState.CONNECTING;
        peerTable.peerInt(peer.index, PEER_VIEW_OF_US_OFFSET, peer.viewOfUs.id());
        helloDue = true;
        updateLink();
    }

    /**
     * Bring the host's link and state up to date with the peers' states; a change is counted and recorded.
     */
    void updateLink()
    {
        boolean all = true;
        boolean syncing = false;
        PeerLink first = null;
        for (final PeerLink peer : peers)
        {
            // a stream that stays disconnected is replaced (checkPeer), which takes its view of us down: a moment
            // without a status message from a busy peer is no reason to take the link down
            final boolean ready = peer.state == BridgeState.UP && !peer.silent && peer.viewOfUs == BridgeState.UP &&
                peer.publication != null;
            if (!ready && first == null)
            {
                first = peer;
            }
            all &= ready;
            syncing |= peer.state == BridgeState.SYNCING;
        }
        if (all != linkUp)
        {
            linkUp = all;
            image.link(all);
            if (all)
            {
                file.add(BridgeCounter.CONVERGENCES, 1);
                recorder.record(BridgeRecordKind.CONVERGED, null, file.counter(BridgeCounter.CONVERGENCES), 0);
            }
            else
            {
                file.add(BridgeCounter.DIVERGENCES, 1);
                recorder.record(BridgeRecordKind.DIVERGED, first, file.counter(BridgeCounter.DIVERGENCES), 0);
            }
        }
        file.state(all ? BridgeState.UP : syncing ? BridgeState.SYNCING : BridgeState.CONNECTING);
    }

    // ------------------------------------------------------------------------------------------ heard from a peer

    /**
     * The transport says a session's image ended (a conductor callback: no client calls here, the duty cycle handles
     * it in {@link #handleGoneImages()}).
     *
     * @param sessionId the session.
     */
    void onSessionGone(final int sessionId)
    {
        for (final PeerLink peer : peers)
        {
            if (peer.hasSession && peer.session == sessionId)
            {
                peer.imageGone = true;
            }
        }
    }

    /**
     * @return work done: the peers whose session's image ended, asked again.
     */
    int handleGoneImages()
    {
        int work = 0;
        for (final PeerLink peer : peers)
        {
            if (peer.imageGone)
            {
                peer.imageGone = false;
                if (peer.hasSession)
                {
                    // a new image of the same session id starts where the stream is now: ask again
                    resetInbound(peer, LossReason.IMAGE_GONE);
                    work++;
                }
            }
        }
        return work;
    }

    /**
     * A message of the peer arrived on a session: take a new session of it, note it heard, count it.
     *
     * @return false when the message is of an older stream of the same bridge, to be dropped.
     */
    boolean onHeard(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length,
        final int session)
    {
        if (!peer.hasSession || session != peer.session)
        {
            final long incarnation = buffer.getLong(offset + INCARNATION_OFFSET);
            final long epoch = buffer.getLong(offset + EPOCH_OFFSET);
            if (incarnation == peer.incarnation && (epoch < peer.sessionEpoch ||
                epoch == peer.sessionEpoch && (peer.hasSession || peer.streamClosed)))
            {
                // an older stream of the same bridge, closed but still lingering in its media driver
                return false;
            }
            if (peer.hasSession)
            {
                // it opened a new stream while we had one (it restarted, or its old one stayed blocked)
                resetInbound(peer, LossReason.NEW_SESSION);
            }
            peer.hasSession = true;
            peer.streamClosed = false;
            peer.session = session;
            peer.sessionEpoch = epoch;
            if (incarnation != peer.incarnation)
            {
                peer.incarnation = incarnation;
                Arrays.fill(peer.duplicateReported, false);
            }
            peerTable.peerInt(peer.index, PEER_SESSION_OFFSET, session);
            peerTable.peerLong(peer.index, PEER_INCARNATION_OFFSET, peer.incarnation);
        }
        peer.lastHeardNs = clock.nanoTime();
        peer.excusedNs = 0;
        if (peer.silent)
        {
            // the same stream speaks again: Aeron delivered what it held, nothing is missing
            peer.silent = false;
            helloDue = true;
        }
        peer.messages++;
        peer.bytes += length;
        peerTable.peerLong(peer.index, PEER_LAST_HEARD_OFFSET, epochClock.time());
        peerTable.peerLong(peer.index, PEER_MESSAGES_OFFSET, peer.messages);
        peerTable.peerLong(peer.index, PEER_BYTES_OFFSET, peer.bytes);
        file.add(BridgeCounter.MESSAGES_RECEIVED, 1);
        file.add(BridgeCounter.BYTES_RECEIVED, length);
        return true;
    }

    /**
     * BYE: the peer closed its stream; what it sent may not all have come.
     */
    void onBye(final PeerLink peer)
    {
        resetInbound(peer, LossReason.BYE);
        peer.streamClosed = true;
    }

    /**
     * HELLO: take what the peer says of itself, its view of us and its nodes; ask for its words when it is new to us.
     */
    void onHello(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        final int outcome = hello.take(peer, buffer, offset, length);
        if (outcome == HelloExchange.DROPPED)
        {
            return;
        }
        if (outcome == HelloExchange.TAKEN_NODE_CLAIMED)
        {
            helloDue = true;
        }
        if (peer.state == BridgeState.CONNECTING && peer.connected())
        {
            requestResync(peer);
        }
        updateLink();
    }

    /**
     * RESYNC_END of the request asked: the peer is UP.
     */
    void onResyncEnd(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < END_LENGTH || peer.state != BridgeState.SYNCING ||
            buffer.getLong(offset + REQUEST_ID_OFFSET) != peer.requestId)
        {
            return;
        }
        peer.state = BridgeState.UP;
        peer.resyncs++;
        if (peer.requestAsksFormer)
        {
            // every former word it held is here now (or a newer value written here since): never asked again
            peer.requestAsksFormer = false;
            peer.formerWanted = false;
            file.formerWordsAnswered(peer.hostId);
        }
        peerTable.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
        peerTable.peerLong(peer.index, PEER_RESYNCS_OFFSET, peer.resyncs);
        if (peer.syncConflicts > 0)
        {
            recorder.record(BridgeRecordKind.RESYNC_CONFLICT, peer, peer.syncConflicts, 0);
        }
        recorder.record(BridgeRecordKind.PEER_SYNCED, peer, peer.syncBytes, peer.syncConflicts);
        helloDue = true;
        updateLink();
    }
}
