package io.rfmrt.rfm.internal.bridge;

import io.aeron.ChannelUri;
import io.aeron.Publication;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.bridge.Bridge;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeListener;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.bridge.BridgeRecordKind.LossReason;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.internal.ProcStat;
import io.rfmrt.rfm.internal.sim.CardDelivery;
import io.rfmrt.rfm.internal.sim.DmaRing;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.*;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.*;

/**
 * The duty cycle of a host's bridge ({@link Bridge}): drain the outbound log into DATA messages for every peer, take
 * the peers' messages and apply them (writes to the image, events to the cards, after the writes before them), serve
 * and ask for resynchronisations, keep the peers' states, the host's link, the stand-in cards of remote nodes, the
 * lease and the bridge file's counters and records.
 * <p>
 * One thread; allocation-free in steady state (records, new peer sessions and holders that change allocate).
 */
public final class BridgeAgent
{
    private static final long TIMER_INTERVAL_NS = 1_000_000L;
    private static final long LIVENESS_INTERVAL_NS = 1_000_000_000L;
    private static final long LOG_UNBLOCK_NS = 2_000_000_000L;
    private static final int DATA_LIMIT = 16 * 1024;
    private static final int RESYNC_BUDGET_BYTES = 512 * 1024;
    private static final int LOG_READ_LIMIT = 1024;
    private static final int NODE_COUNT = 256;
    private static final long NODE_BEHIND_RECORD_INTERVAL_NS = 1_000_000_000L;

    private final Bridge.Context ctx;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private final BridgeListener listener;
    private final int hostId;
    private final long incarnation;
    private final long selfPid = ProcStat.selfPid();
    private final NetworkImage image;
    private final BridgeFile file;
    private final UnsafeBuffer memory;
    private final int words;
    private final ManyToOneRingBuffer log;
    private final CardDelivery delivery;
    private final PeerLink[] peers;
    private final PeerLink[] peerByHost = new PeerLink[MAX_HOST_ID + 1];
    private final byte[] hostNameBytes;

    private final BridgeTransport transport;

    private final UnsafeBuffer dataBuffer = new UnsafeBuffer(BufferAlloc.aligned(MAX_MESSAGE));
    private final UnsafeBuffer controlBuffer = new UnsafeBuffer(BufferAlloc.aligned(MAX_MESSAGE));
    private final UnsafeBuffer resyncBuffer = new UnsafeBuffer(BufferAlloc.aligned(MAX_MESSAGE));
    private int dataLength;
    private boolean dataPending;
    private long pendingWrites;
    private long pendingEvents;
    private final ControlledMessageHandler logHandler = this::onLogRecord;
    private final ControlledMessageHandler startupHandler = this::onStaleLogRecord;

    private final boolean[] heardNodes = new boolean[NODE_COUNT];
    private final long[] behindDrops = new long[NODE_COUNT];
    private final long[] behindRecordedNs = new long[NODE_COUNT];
    private final long[] localPid = new long[NODE_COUNT];
    private final boolean[] localAlive = new boolean[NODE_COUNT];
    private final long[] localPresent = new long[NODE_COUNT / 64];
    private final long[] presentScan = new long[NODE_COUNT / 64];

    private boolean linkUp;
    private boolean closed;
    private boolean helloDue = true;
    private long nowNs;
    private long nowMs;
    private long nextTimerNs;
    private long nextHeartbeatNs;
    private long nextLivenessNs;
    private long logBlockedSinceNs;

    private static final int OVERFLOW_IDLE = 0;
    private static final int OVERFLOW_DRAINING = 1;
    private static final int OVERFLOW_SETTLING = 2;
    private static final int OVERFLOW_SENDING = 3;
    private int overflowPhase = OVERFLOW_IDLE;
    private long overflowDrainTo;
    private int overflowLong;
    private long overflowWords;
    private final long[] swept;

    /**
     * Map the network and its bridge file, claim it, start Aeron. See {@link Bridge#launch}.
     *
     * @param ctx concluded settings.
     */
    public BridgeAgent(final Bridge.Context ctx)
    {
        this(ctx, AeronBridgeTransport::new);
    }

    /**
     * Map the network and its bridge file, claim it, open the transport.
     *
     * @param ctx       concluded settings.
     * @param transports makes the transport (Aeron's; a simulated one in the simulation of the protocol).
     */
    public BridgeAgent(final Bridge.Context ctx, final BridgeTransport.Factory transports)
    {
        this.ctx = ctx;
        this.nanoClock = ctx.nanoClock();
        this.epochClock = ctx.epochClock();
        this.listener = ctx.listener();
        this.hostId = ctx.hostId();
        this.incarnation = freshIncarnation();
        this.hostNameBytes = ctx.hostName().getBytes(StandardCharsets.UTF_8);

        image = NetworkImage.createOrAttach(ctx.networkDir(), ctx.network(), ctx.memorySize());
        BridgeFile bridgeFile = null;
        try
        {
            if (image.bridgeFile() == null)
            {
                image.useBridge(BridgeFile.createOrAttach(ctx.networkDir(), ctx.network(), image.memory(), hostId,
                    ctx.logCapacity()));
            }
            bridgeFile = image.bridgeFile();
            if (bridgeFile.hostId() != hostId)
            {
                throw new RfmException(RfmStatus.BAD_PARAMETER, "network '" + ctx.network() + "' is bridged as " +
                    "host id " + bridgeFile.hostId() + ", not " + hostId + " (its owner table names words by host " +
                    "id): give --host-id " + bridgeFile.hostId() + ", or destroy the network and create it again");
            }
            final long holder = bridgeFile.claimBridge(incarnation);
            if (holder != 0)
            {
                throw new RfmException(RfmStatus.NODE_IN_USE, "network '" + ctx.network() + "' is bridged " +
                    "already by live process " + holder + " on this host (one bridge per network and host)");
            }
            checkNoUnloggedNodes(bridgeFile);
        }
        catch (final RuntimeException ex)
        {
            if (bridgeFile != null && bridgeFile.bridgePid() == selfPid)
            {
                bridgeFile.releaseBridge();
            }
            image.close();
            throw ex;
        }
        file = bridgeFile;
        memory = image.memory();
        words = file.words();
        log = file.newLog();
        swept = new long[file.overflowLongs()];
        delivery = new CardDelivery(image, -1, null);

        nowNs = nanoClock.nanoTime();
        nowMs = epochClock.time();
        file.lease(nowNs + leaseNs());
        recoverAfterDeadBridge();
        image.link(false);
        file.state(BridgeState.CONNECTING);
        file.clearPeers();
        file.describe(ctx.hostName(), ctx.channel(), ctx.peers().size());

        final List<Bridge.Peer> configured = ctx.peers();
        peers = new PeerLink[configured.size()];
        for (int i = 0; i < peers.length; i++)
        {
            final Bridge.Peer p = configured.get(i);
            peers[i] = new PeerLink(i, p.hostId(), p.endpoint(), publicationChannel(ctx.channel(), p.endpoint()));
            peerByHost[p.hostId()] = peers[i];
            file.initPeer(i, p.hostId(), p.endpoint());
        }

        BridgeTransport opened = null;
        try
        {
            opened = transports.open(ctx, new BridgeTransport.Receiver()
            {
                @Override
                public void onMessage(final DirectBuffer buffer, final int offset, final int length,
                    final int sessionId)
                {
                    BridgeAgent.this.onMessage(buffer, offset, length, sessionId);
                }

                @Override
                public void onSessionGone(final int sessionId)
                {
                    BridgeAgent.this.onSessionGone(sessionId);
                }
            }, this::onAeronError);
            transport = opened;
            for (final PeerLink peer : peers)
            {
                openPublication(peer);
            }
        }
        catch (final RuntimeException ex)
        {
            if (opened != null)
            {
                opened.close();
            }
            delivery.close();
            file.releaseBridge();
            image.close();
            throw ex;
        }
        record(BridgeRecordKind.STARTED, null, selfPid, hostId);
    }

    private void onAeronError(final Throwable error)
    {
        if (file != null)
        {
            file.add(BridgeCounter.AERON_ERRORS, 1);
        }
        ctx.errorHandler().onError(error);
    }

    private static long freshIncarnation()
    {
        long value;
        do
        {
            value = new SecureRandom().nextLong();
        }
        while (value == 0);
        return value;
    }

    private long leaseNs()
    {
        return Math.max(ctx.peerTimeoutNs(), 1_000_000_000L);
    }

    /**
     * The publication to a peer: the listen channel's parameters (mtu, term length, socket buffers) with the peer's
     * endpoint.
     */
    static String publicationChannel(final String listenChannel, final String peerEndpoint)
    {
        final ChannelUri uri = ChannelUri.parse(listenChannel);
        uri.remove("interface");
        uri.remove("control");
        uri.remove("control-mode");
        uri.put("endpoint", peerEndpoint);
        return uri.toString();
    }

    private void checkNoUnloggedNodes(final BridgeFile bridgeFile)
    {
        for (int node = image.nextPresent(0); node >= 0; node = image.nextPresent(node + 1))
        {
            final int flags = image.card(node).flags();
            if ((flags & io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_REMOTE) == 0 &&
                (flags & io.rfmrt.rfm.internal.sim.ControlBlockDescriptor.FLAG_BRIDGED) == 0 && image.ownerAlive(node))
            {
                bridgeFile.releaseBridge();
                throw new RfmException(RfmStatus.NODE_IN_USE, "node " + node + " of network '" + ctx.network() +
                    "' (process " + image.card(node).ownerPid() + ") joined before the network was bridged: its " +
                    "writes would not reach the other hosts; stop it, start the bridge, then start it again");
            }
        }
    }

    /**
     * A bridge that died left its log, its overflow marks and its stand-in cards: the words written meanwhile are this
     * host's (peers get them by resynchronisation), the events are too late to deliver, the stand-ins go.
     */
    private void recoverAfterDeadBridge()
    {
        int read;
        do
        {
            read = log.controlledRead(startupHandler, Integer.MAX_VALUE);
        }
        while (read > 0);
        if (log.producerPosition() != log.consumerPosition() && log.unblock())
        {
            file.add(BridgeCounter.LOG_UNBLOCKS, 1);
        }
        for (int i = 0; i < file.overflowLongs(); i++)
        {
            long bits = file.takeOverflow(i);
            while (bits != 0)
            {
                final int bit = Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                file.own(i * 64 + bit, hostId);
            }
        }
        file.clearOverflowFlag();
        releaseStandIns();
    }

    /**
     * Give back every stand-in card (they are present: only those are looked at, each card is a page of its own) and
     * clear the remote node table. A card left flagged remote but not present is cleared by its next claim.
     */
    private void releaseStandIns()
    {
        for (int node = image.nextPresent(0); node >= 0; node = image.nextPresent(node + 1))
        {
            if (image.isRemote(node))
            {
                image.releaseRemote(node);
            }
        }
        for (int node = 0; node < NODE_COUNT; node++)
        {
            if (file.remoteHost(node) != 0)
            {
                file.remoteNode(node, 0, 0, 0);
            }
        }
    }

    private ControlledMessageHandler.Action onStaleLogRecord(final int type, final org.agrona.MutableDirectBuffer buffer,
        final int index, final int length)
    {
        if (type == LOG_WRITE && length >= WRITE_DATA_OFFSET)
        {
            final long offset = buffer.getLong(index + WRITE_OFFSET_OFFSET);
            final int n = buffer.getInt(index + WRITE_LENGTH_OFFSET);
            if (writeInBounds(offset, n) && n <= length - WRITE_DATA_OFFSET)
            {
                file.own(offset, n, hostId);
            }
        }
        else if (type == LOG_EVENT)
        {
            file.add(BridgeCounter.STALE_EVENTS_DROPPED, 1);
        }
        return ControlledMessageHandler.Action.CONTINUE;
    }

    private boolean writeInBounds(final long offset, final int length)
    {
        return length > 0 && offset >= 0 && offset <= memory.capacity() - (long)length;
    }

    // ------------------------------------------------------------------------------------------ duty cycle

    /**
     * Nothing to do at start: the constructor did it.
     */
    public void onStart()
    {
    }

    /**
     * @return work done.
     */
    public int doWork()
    {
        if (closed)
        {
            return 0;
        }
        int work = 0;
        work += transport.doWork();
        nowNs = nanoClock.nanoTime();
        work += handleGoneImages();
        work += transport.poll(64);
        work += drainLog();
        work += serveResyncs();
        if (nowNs - nextTimerNs >= 0)
        {
            nextTimerNs = nowNs + TIMER_INTERVAL_NS;
            work += onTimer();
        }
        return work;
    }

    /**
     * @param maxParkNs longest sleep.
     * @return an idle strategy that sleeps on this bridge's doorbell.
     */
    public DoorbellIdleStrategy doorbellIdleStrategy(final long maxParkNs)
    {
        return new DoorbellIdleStrategy(file, Math.min(DoorbellIdleStrategy.MIN_PARK_NS, maxParkNs), maxParkNs,
            this::outboundBlocked);
    }

    /**
     * @return whether a DATA message waits for a back-pressured peer (the log cannot drain until it takes it).
     */
    public boolean outboundBlocked()
    {
        return dataPending;
    }

    /**
     * @return whether the link is up (every peer in sync both ways).
     */
    public boolean linkUp()
    {
        return linkUp;
    }

    private int onTimer()
    {
        nowMs = epochClock.time();
        file.lease(nowNs + leaseNs());
        int work = 0;
        for (final PeerLink peer : peers)
        {
            work += checkPeer(peer);
        }
        if (nowNs - nextLivenessNs >= 0)
        {
            nextLivenessNs = nowNs + LIVENESS_INTERVAL_NS;
            checkLocalHolders();
        }
        if (localNodesChanged())
        {
            helloDue = true;
        }
        if (helloDue || nowNs - nextHeartbeatNs >= 0)
        {
            helloDue = false;
            nextHeartbeatNs = nowNs + ctx.heartbeatNs();
            sendHello();
            work++;
        }
        checkLogStuck();
        checkOverflow();
        updateLink();
        return work;
    }

    private int checkPeer(final PeerLink peer)
    {
        if (peer.publication == null && nowNs - peer.publicationRetryNs >= 0)
        {
            openPublication(peer);
        }
        if (peer.hasSession && !peer.silent && nowNs - peer.lastHeardNs > ctx.peerTimeoutNs())
        {
            // nothing heard: the link goes down; the same session may still bring everything once it speaks again
            peer.silent = true;
            file.add(BridgeCounter.PEER_LOSSES, 1);
            peerLost(peer, LossReason.SILENCE);
            updateLink();
        }
        if (connected(peer))
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
            else if (nowNs - peer.disconnectedSinceNs > ctx.peerTimeoutNs())
            {
                newPublication(peer, LossReason.PUBLICATION);
                return 1;
            }
        }
        if (peer.dataPending && peer.blockedSinceNs != 0 && nowNs - peer.blockedSinceNs > ctx.peerTimeoutNs())
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
            file.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
        }
        if (peer.state == BridgeState.CONNECTING && peer.hasSession && connected(peer))
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
        return ctx.peerTimeoutNs() / 2;
    }

    private static boolean connected(final PeerLink peer)
    {
        return peer.publication != null && peer.publication.isConnected();
    }

    /**
     * Start the stream to a peer; the driver refuses it while the peer's network is unreachable (an interface
     * down): counted, tried again a heartbeat later.
     */
    private void openPublication(final PeerLink peer)
    {
        peer.publication = transport.open(peer.channel);
        if (peer.publication != null)
        {
            peer.sequence = 0;
            peer.epoch = file.nextStreamEpoch();
        }
        else
        {
            peer.publicationRetryNs = nowNs + ctx.heartbeatNs();
            file.add(BridgeCounter.PUBLICATION_ERRORS, 1);
        }
    }

    private int requestResync(final PeerLink peer)
    {
        final long request = peer.requestId + 1;
        header(controlBuffer, RESYNC_REQUEST, peer.hostId, peer);
        controlBuffer.putLong(REQUEST_ID_OFFSET, request);
        if (offer(peer, controlBuffer, REQUEST_ID_OFFSET + Long.BYTES))
        {
            peer.requestId = request;
            peer.syncHeardNs = nowNs;
            peer.state = BridgeState.SYNCING;
            peer.syncConflicts = 0;
            peer.syncBytes = 0;
            file.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
            file.add(BridgeCounter.RESYNCS_REQUESTED, 1);
            record(BridgeRecordKind.PEER_CONNECTED, peer, request, 0);
            helloDue = true;
            return 1;
        }
        return 0;
    }

    private void peerLost(final PeerLink peer, final LossReason reason)
    {
        peer.losses++;
        file.peerLong(peer.index, PEER_LOSSES_OFFSET, peer.losses);
        record(BridgeRecordKind.PEER_LOST, peer, reason.id(), peer.state.id());
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
        file.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
        file.peerInt(peer.index, PEER_VIEW_OF_US_OFFSET, peer.viewOfUs.id());
        helloDue = true;
        updateLink();
    }

    /**
     * Our stream to the peer stayed blocked or disconnected: start a new one. The peer sees the new session and asks
     * for our words; until it says it is in sync with us again the link stays down.
     */
    private void newPublication(final PeerLink peer, final LossReason reason)
    {
        file.add(BridgeCounter.PEER_LOSSES, 1);
        peerLost(peer, reason);
        if (peer.publication != null)
        {
            peer.publication.close();
        }
        openPublication(peer);
        peer.serving = false;
        peer.dataPending = false;
        peer.blockedSinceNs = 0;
        peer.disconnectedSinceNs = 0;
        peer.publicationWasConnected = false;
        peer.viewOfUs = BridgeState.CONNECTING;
        file.peerInt(peer.index, PEER_VIEW_OF_US_OFFSET, peer.viewOfUs.id());
        helloDue = true;
        updateLink();
    }

    private void updateLink()
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
                record(BridgeRecordKind.CONVERGED, null, file.counter(BridgeCounter.CONVERGENCES), 0);
            }
            else
            {
                file.add(BridgeCounter.DIVERGENCES, 1);
                record(BridgeRecordKind.DIVERGED, first, file.counter(BridgeCounter.DIVERGENCES), 0);
            }
        }
        file.state(all ? BridgeState.UP : syncing ? BridgeState.SYNCING : BridgeState.CONNECTING);
    }

    // ------------------------------------------------------------------------------------------ outbound

    private int drainLog()
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
                swept[i] |= file.takeOverflow(i);
            }
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
                    logBlockedSinceNs = nowNs;
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

    private ControlledMessageHandler.Action onLogRecord(final int type, final org.agrona.MutableDirectBuffer buffer,
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
            if (writeInBounds(offset, n) && n <= length - WRITE_DATA_OFFSET)
            {
                file.own(offset, n, hostId);
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
        dataBuffer.putByte(MESSAGE_VERSION_OFFSET, (byte)MESSAGE_VERSION);
        dataBuffer.putByte(TYPE_OFFSET, (byte)DATA);
        dataBuffer.putShort(SOURCE_OFFSET, (short)hostId);
        dataBuffer.putShort(TARGET_OFFSET, (short)0);
        dataBuffer.putShort(FLAGS_OFFSET, (short)0);
        dataBuffer.putLong(INCARNATION_OFFSET, incarnation);
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
            if (!connected(peer))
            {
                // not connected: the message is lost to it. It asks for our words when it connects to a stream it
                // has not seen; the stream it had may still be open at its end (it was only stopped a while), with
                // no gap to see, so that one is replaced
                dropData(peer);
                continue;
            }
            dataBuffer.putLong(SEQUENCE_OFFSET, peer.sequence + 1);
            dataBuffer.putLong(EPOCH_OFFSET, peer.epoch);
            final long result = peer.publication.offer(dataBuffer, 0, dataLength);
            if (result > 0)
            {
                peer.sequence++;
                peer.dataPending = false;
                peer.blockedSinceNs = 0;
                peer.publicationWasConnected = true;
                file.add(BridgeCounter.MESSAGES_SENT, 1);
                file.add(BridgeCounter.BYTES_SENT, dataLength);
            }
            else if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION)
            {
                file.add(BridgeCounter.BACK_PRESSURE, 1);
                if (peer.blockedSinceNs == 0)
                {
                    peer.blockedSinceNs = nowNs;
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
                newPublication(peer, LossReason.PUBLICATION);
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

    private boolean offer(final PeerLink peer, final UnsafeBuffer buffer, final int length)
    {
        if (!connected(peer))
        {
            return false;
        }
        buffer.putLong(SEQUENCE_OFFSET, peer.sequence + 1);
        buffer.putLong(EPOCH_OFFSET, peer.epoch);
        final long result = peer.publication.offer(buffer, 0, length);
        if (result > 0)
        {
            peer.sequence++;
            file.add(BridgeCounter.MESSAGES_SENT, 1);
            file.add(BridgeCounter.BYTES_SENT, length);
            return true;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION)
        {
            file.add(BridgeCounter.BACK_PRESSURE, 1);
        }
        return false;
    }

    private void header(final UnsafeBuffer buffer, final int type, final int target, final PeerLink peer)
    {
        buffer.putByte(MESSAGE_VERSION_OFFSET, (byte)MESSAGE_VERSION);
        buffer.putByte(TYPE_OFFSET, (byte)type);
        buffer.putShort(SOURCE_OFFSET, (short)hostId);
        buffer.putShort(TARGET_OFFSET, (short)target);
        buffer.putShort(FLAGS_OFFSET, (short)0);
        buffer.putLong(INCARNATION_OFFSET, incarnation);
    }

    private void sendHello()
    {
        header(controlBuffer, HELLO, 0, null);
        controlBuffer.putLong(HELLO_PID_OFFSET, selfPid);
        controlBuffer.putLong(HELLO_MEMORY_SIZE_OFFSET, memory.capacity());
        controlBuffer.putLong(HELLO_SENT_MS_OFFSET, nowMs);
        controlBuffer.putInt(HELLO_LINK_UP_OFFSET, linkUp ? 1 : 0);
        controlBuffer.putInt(HELLO_PEER_COUNT_OFFSET, peers.length);
        controlBuffer.putInt(HELLO_PEER_COUNT_OFFSET + Integer.BYTES, 0);
        controlBuffer.setMemory(HELLO_NAME_OFFSET, HELLO_NAME_LENGTH, (byte)0);
        controlBuffer.putBytes(HELLO_NAME_OFFSET, hostNameBytes, 0, Math.min(hostNameBytes.length,
            HELLO_NAME_LENGTH - 1));
        int at = HELLO_ENTRIES_OFFSET;
        for (final PeerLink peer : peers)
        {
            controlBuffer.putInt(at, peer.hostId);
            controlBuffer.putInt(at + Integer.BYTES, peer.state.id());
            at += HELLO_ENTRY_SIZE;
        }
        int nodes = 0;
        for (int node = image.nextPresent(0); node >= 0; node = image.nextPresent(node + 1))
        {
            if (!image.isRemote(node) && localAlive[node])
            {
                controlBuffer.putInt(at, node);
                controlBuffer.putInt(at + Integer.BYTES, (int)localPid[node]);
                at += HELLO_ENTRY_SIZE;
                nodes++;
            }
        }
        controlBuffer.putInt(HELLO_NODE_COUNT_OFFSET, nodes);
        for (final PeerLink peer : peers)
        {
            offer(peer, controlBuffer, at);
        }
    }

    private void checkLocalHolders()
    {
        for (int node = 0; node < NODE_COUNT; node++)
        {
            final boolean present = image.isPresent(node) && !image.isRemote(node);
            final long pid = present ? image.card(node).ownerPid() : 0;
            if (pid == 0)
            {
                localPid[node] = 0;
                localAlive[node] = false;
            }
            else if (pid != localPid[node])
            {
                // a new holder: the exact check (start time) once, then the cheap one
                localPid[node] = pid;
                localAlive[node] = image.ownerAlive(node);
            }
            else if (localAlive[node])
            {
                localAlive[node] = ProcStat.exists(pid);
            }
        }
    }

    private boolean localNodesChanged()
    {
        // every timer tick: walk the present bitmap (a few words), not every card
        java.util.Arrays.fill(presentScan, 0L);
        for (int node = image.nextPresent(0); node >= 0; node = image.nextPresent(node + 1))
        {
            if (!image.isRemote(node))
            {
                presentScan[node >>> 6] |= 1L << (node & 63);
            }
        }
        boolean changed = false;
        for (int word = 0; word < localPresent.length; word++)
        {
            if (presentScan[word] != localPresent[word])
            {
                localPresent[word] = presentScan[word];
                changed = true;
            }
        }
        if (changed)
        {
            checkLocalHolders();
        }
        return changed;
    }

    private void checkLogStuck()
    {
        // a record claimed and never committed for this long: its writer died (or was stopped) in between; skip it
        // (a stopped writer that resumes finds its record gone and marks its words for a resend instead)
        if (logBlockedSinceNs != 0 && nowNs - logBlockedSinceNs > LOG_UNBLOCK_NS && log.unblock())
        {
            file.add(BridgeCounter.LOG_UNBLOCKS, 1);
            logBlockedSinceNs = 0;
        }
    }

    private void checkOverflow()
    {
        if (overflowPhase == OVERFLOW_IDLE && file.overflowFlag())
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
        record(BridgeRecordKind.LOG_OVERFLOW, null, overflowWords, 0);
        // words marked after they were taken raised no flag (it was up): another round takes them
        file.clearOverflowFlag();
        for (int i = 0; i < swept.length; i++)
        {
            if (file.peekOverflow(i) != 0)
            {
                file.raiseOverflowFlag();
                break;
            }
        }
        return 1;
    }

    private void appendWordRun(final int word, final int run)
    {
        final int length = run * WORD_SIZE;
        final long offset = (long)word * WORD_SIZE;
        file.own(offset, length, hostId);
        dataBuffer.putInt(dataLength + RECORD_TYPE_OFFSET, LOG_WRITE);
        dataBuffer.putInt(dataLength + RECORD_LENGTH_OFFSET, WRITE_DATA_OFFSET + length);
        final int body = dataLength + RECORD_HEADER_LENGTH;
        dataBuffer.putLong(body + WRITE_OFFSET_OFFSET, offset);
        dataBuffer.putInt(body + WRITE_SOURCE_OFFSET, -1);
        dataBuffer.putInt(body + WRITE_LENGTH_OFFSET, length);
        dataBuffer.putBytes(body + WRITE_DATA_OFFSET, memory, (int)offset, length);
        dataLength += BitUtil.align(RECORD_HEADER_LENGTH + WRITE_DATA_OFFSET + length, 8);
    }

    private int serveResyncs()
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
            header(resyncBuffer, RESYNC_DATA, peer.hostId, peer);
            resyncBuffer.putLong(REQUEST_ID_OFFSET, peer.serveRequestId);
            int length = RESYNC_RUNS_OFFSET;
            int word = peer.serveWord;
            long sent = 0;
            while (word < words && length + RUN_HEADER_LENGTH + WORD_SIZE <= MAX_MESSAGE)
            {
                if (file.owner(word) != hostId)
                {
                    word++;
                    continue;
                }
                int end = word + 1;
                final int room = (MAX_MESSAGE - length - RUN_HEADER_LENGTH) / WORD_SIZE;
                while (end < words && end - word < room && file.owner(end) == hostId)
                {
                    end++;
                }
                final int bytes = (end - word) * WORD_SIZE;
                resyncBuffer.putLong(length + RUN_OFFSET_OFFSET, (long)word * WORD_SIZE);
                resyncBuffer.putInt(length + RUN_LENGTH_OFFSET, bytes);
                resyncBuffer.putInt(length + RUN_LENGTH_OFFSET + Integer.BYTES, 0);
                resyncBuffer.putBytes(length + RUN_HEADER_LENGTH, memory, word * WORD_SIZE, bytes);
                length += RUN_HEADER_LENGTH + bytes;
                sent += bytes;
                word = end;
            }
            if (length > RESYNC_RUNS_OFFSET)
            {
                if (!offer(peer, resyncBuffer, length))
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
            header(resyncBuffer, RESYNC_END, peer.hostId, peer);
            resyncBuffer.putLong(REQUEST_ID_OFFSET, peer.serveRequestId);
            resyncBuffer.putLong(END_WORDS_OFFSET, peer.servedWords);
            if (offer(peer, resyncBuffer, END_LENGTH))
            {
                peer.serving = false;
                file.add(BridgeCounter.RESYNCS_SERVED, 1);
            }
        }
        return 1;
    }

    // ------------------------------------------------------------------------------------------ inbound

    private void onSessionGone(final int sessionId)
    {
        // a conductor callback: no client calls here, the duty cycle handles it
        for (final PeerLink peer : peers)
        {
            if (peer.hasSession && peer.session == sessionId)
            {
                peer.imageGone = true;
            }
        }
    }

    private int handleGoneImages()
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

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final int session)
    {
        if (length < HEADER_LENGTH || buffer.getByte(offset + MESSAGE_VERSION_OFFSET) != MESSAGE_VERSION)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return;
        }
        final int source = buffer.getShort(offset + SOURCE_OFFSET) & 0xFFFF;
        final PeerLink peer = source <= MAX_HOST_ID ? peerByHost[source] : null;
        if (peer == null)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return;
        }
        final int target = buffer.getShort(offset + TARGET_OFFSET) & 0xFFFF;
        if (peer.refused)
        {
            return;
        }
        if (!peer.hasSession || session != peer.session)
        {
            final long incarnation = buffer.getLong(offset + INCARNATION_OFFSET);
            final long epoch = buffer.getLong(offset + EPOCH_OFFSET);
            if (incarnation == peer.incarnation && (epoch < peer.sessionEpoch ||
                epoch == peer.sessionEpoch && (peer.hasSession || peer.streamClosed)))
            {
                // an older stream of the same bridge, closed but still lingering in its media driver
                return;
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
                java.util.Arrays.fill(peer.duplicateReported, false);
            }
            file.peerInt(peer.index, PEER_SESSION_OFFSET, session);
            file.peerLong(peer.index, PEER_INCARNATION_OFFSET, peer.incarnation);
        }
        peer.lastHeardNs = nowNs;
        if (peer.silent)
        {
            // the same stream speaks again: Aeron delivered what it held, nothing is missing
            peer.silent = false;
            helloDue = true;
        }
        peer.messages++;
        peer.bytes += length;
        file.peerLong(peer.index, PEER_LAST_HEARD_OFFSET, nowMs);
        file.peerLong(peer.index, PEER_MESSAGES_OFFSET, peer.messages);
        file.peerLong(peer.index, PEER_BYTES_OFFSET, peer.bytes);
        file.add(BridgeCounter.MESSAGES_RECEIVED, 1);
        file.add(BridgeCounter.BYTES_RECEIVED, length);
        if (target != 0 && target != hostId)
        {
            return;
        }
        switch (buffer.getByte(offset + TYPE_OFFSET))
        {
            case HELLO -> onHello(peer, buffer, offset, length);
            case DATA -> onData(peer, buffer, offset, length);
            case RESYNC_REQUEST -> onResyncRequest(peer, buffer, offset, length);
            case RESYNC_DATA -> onResyncData(peer, buffer, offset, length);
            case RESYNC_END -> onResyncEnd(peer, buffer, offset, length);
            case BYE ->
            {
                resetInbound(peer, LossReason.BYE);
                peer.streamClosed = true;
            }
            default -> file.add(BridgeCounter.BAD_MESSAGES, 1);
        }
    }

    private void onHello(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HELLO_ENTRIES_OFFSET)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return;
        }
        final long memorySize = buffer.getLong(offset + HELLO_MEMORY_SIZE_OFFSET);
        final int peerCount = buffer.getInt(offset + HELLO_PEER_COUNT_OFFSET);
        final int nodeCount = buffer.getInt(offset + HELLO_NODE_COUNT_OFFSET);
        if (peerCount < 0 || peerCount > MAX_PEERS || nodeCount < 0 || nodeCount > NODE_COUNT ||
            length < HELLO_ENTRIES_OFFSET + (peerCount + nodeCount) * HELLO_ENTRY_SIZE)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return;
        }
        if (memorySize != memory.capacity())
        {
            // never bridged: the two images cannot hold the same words
            peer.refused = true;
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            record(BridgeRecordKind.PEER_REFUSED, peer, memorySize, memory.capacity());
            return;
        }
        if (peer.name == null || !nameEquals(peer, buffer, offset + HELLO_NAME_OFFSET))
        {
            peer.name = readName(buffer, offset + HELLO_NAME_OFFSET);
            peer.nameBytes = peer.name.getBytes(StandardCharsets.UTF_8);
            file.peerName(peer.index, peer.name);
        }
        final long pid = buffer.getLong(offset + HELLO_PID_OFFSET);
        if (pid != peer.pid)
        {
            peer.pid = pid;
            file.peerLong(peer.index, PEER_PID_OFFSET, pid);
        }
        int at = offset + HELLO_ENTRIES_OFFSET;
        BridgeState view = BridgeState.CONNECTING;
        for (int i = 0; i < peerCount; i++)
        {
            if (buffer.getInt(at) == hostId)
            {
                final BridgeState s = BridgeState.fromId(buffer.getInt(at + Integer.BYTES));
                view = s == null ? BridgeState.CONNECTING : s;
            }
            at += HELLO_ENTRY_SIZE;
        }
        if (view != peer.viewOfUs)
        {
            peer.viewOfUs = view;
            file.peerInt(peer.index, PEER_VIEW_OF_US_OFFSET, view.id());
        }
        java.util.Arrays.fill(heardNodes, false);
        for (int i = 0; i < nodeCount; i++)
        {
            final int node = buffer.getInt(at);
            final int holder = buffer.getInt(at + Integer.BYTES);
            at += HELLO_ENTRY_SIZE;
            if (node < 0 || node > RfmDevice.MAX_NODE_ID)
            {
                file.add(BridgeCounter.BAD_MESSAGES, 1);
                continue;
            }
            heardNodes[node] = true;
            holdRemote(peer, node, holder);
        }
        for (int node = 0; node < NODE_COUNT; node++)
        {
            if (!heardNodes[node] && file.remoteHost(node) == peer.hostId)
            {
                image.releaseRemote(node);
                file.remoteNode(node, 0, 0, 0);
            }
        }
        if (peer.state == BridgeState.CONNECTING && connected(peer))
        {
            requestResync(peer);
        }
        updateLink();
    }

    private void holdRemote(final PeerLink peer, final int node, final int holder)
    {
        final int heldFor = file.remoteHost(node);
        if (image.isRemote(node) && image.card(node).ownerPid() == selfPid)
        {
            if (heldFor == peer.hostId || heldFor == 0)
            {
                file.remoteNode(node, peer.hostId, holder, nowMs);
                return;
            }
            duplicate(peer, node);
            return;
        }
        if (image.isPresent(node) && !image.isRemote(node) && image.ownerAlive(node))
        {
            duplicate(peer, node);
            return;
        }
        if (image.claimRemote(node))
        {
            file.remoteNode(node, peer.hostId, holder, nowMs);
            helloDue = true;
        }
        else
        {
            duplicate(peer, node);
        }
    }

    private void duplicate(final PeerLink peer, final int node)
    {
        if (!peer.duplicateReported[node])
        {
            peer.duplicateReported[node] = true;
            file.add(BridgeCounter.DUPLICATE_NODE_IDS, 1);
            record(BridgeRecordKind.DUPLICATE_NODE, peer, node, image.card(node).ownerPid());
        }
    }

    private boolean nameEquals(final PeerLink peer, final DirectBuffer buffer, final int at)
    {
        final byte[] known = peer.nameBytes;
        for (int i = 0; i < HELLO_NAME_LENGTH; i++)
        {
            final byte b = buffer.getByte(at + i);
            final byte k = i < known.length ? known[i] : 0;
            if (b != k)
            {
                return false;
            }
            if (b == 0)
            {
                return true;
            }
        }
        return true;
    }

    private String readName(final DirectBuffer buffer, final int at)
    {
        int n = 0;
        while (n < HELLO_NAME_LENGTH - 1 && buffer.getByte(at + n) != 0)
        {
            n++;
        }
        final byte[] bytes = new byte[n];
        buffer.getBytes(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private void onData(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        int at = offset + HEADER_LENGTH;
        final int end = offset + length;
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
                if (writeInBounds(to, n) && n <= bodyLength - WRITE_DATA_OFFSET)
                {
                    applyWrite(buffer, body + WRITE_DATA_OFFSET, (int)to, n);
                    file.own(to, n, peer.hostId);
                    writes++;
                }
                else
                {
                    file.add(BridgeCounter.BAD_MESSAGES, 1);
                }
            }
            else if (type == LOG_EVENT && bodyLength >= EVENT_LENGTH)
            {
                events += deliverEvent(buffer, body);
            }
            else
            {
                file.add(BridgeCounter.BAD_MESSAGES, 1);
            }
            at = body + BitUtil.align(bodyLength, 8);
        }
        file.add(BridgeCounter.WRITES_APPLIED, writes);
        file.add(BridgeCounter.EVENTS_DELIVERED, events);
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
        if (behindRecordedNs[node] == 0 || nowNs - behindRecordedNs[node] >= NODE_BEHIND_RECORD_INTERVAL_NS)
        {
            behindRecordedNs[node] = nowNs;
            record(BridgeRecordKind.NODE_BEHIND, null, node, behindDrops[node]);
        }
    }

    private void onResyncRequest(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < REQUEST_ID_OFFSET + Long.BYTES)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return;
        }
        peer.serveRequestId = buffer.getLong(offset + REQUEST_ID_OFFSET);
        peer.serveWord = 0;
        peer.servedWords = 0;
        peer.serving = true;
    }

    private void onResyncData(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
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
            if (!writeInBounds(to, n) || (to & 7) != 0 || (n & 7) != 0 || data + n > end)
            {
                file.add(BridgeCounter.BAD_MESSAGES, 1);
                break;
            }
            final int first = (int)(to / WORD_SIZE);
            final int count = n / WORD_SIZE;
            for (int i = 0; i < count; i++)
            {
                final int word = first + i;
                final int owner = file.owner(word);
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
                file.own(word, peer.hostId);
                applied += WORD_SIZE;
            }
            at = data + n;
        }
        peer.syncHeardNs = nowNs;
        peer.syncBytes += applied;
        peer.syncConflicts += conflicts;
        file.add(BridgeCounter.RESYNC_BYTES_APPLIED, applied);
        if (conflicts > 0)
        {
            file.add(BridgeCounter.RESYNC_CONFLICTS, conflicts);
        }
    }

    private void onResyncEnd(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < END_LENGTH || peer.state != BridgeState.SYNCING ||
            buffer.getLong(offset + REQUEST_ID_OFFSET) != peer.requestId)
        {
            return;
        }
        peer.state = BridgeState.UP;
        peer.resyncs++;
        file.peerInt(peer.index, PEER_STATE_OFFSET, peer.state.id());
        file.peerLong(peer.index, PEER_RESYNCS_OFFSET, peer.resyncs);
        if (peer.syncConflicts > 0)
        {
            record(BridgeRecordKind.RESYNC_CONFLICT, peer, peer.syncConflicts, 0);
        }
        record(BridgeRecordKind.PEER_SYNCED, peer, peer.syncBytes, peer.syncConflicts);
        helloDue = true;
        updateLink();
    }

    // ------------------------------------------------------------------------------------------ records, close

    private void record(final BridgeRecordKind kind, final PeerLink peer, final long value, final long value2)
    {
        file.record(kind, peer == null ? 0 : peer.hostId, value, value2, epochClock.time());
        listener.onRecord(kind, peer == null ? 0 : peer.hostId, peer == null || peer.name == null ? "" : peer.name,
            value, value2);
    }

    /**
     * Say goodbye to the peers, stop Aeron, give the stand-in cards and the claim back, take the link down.
     * Idempotent.
     */
    public void onClose()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            header(controlBuffer, BYE, 0, null);
            for (final PeerLink peer : peers)
            {
                offer(peer, controlBuffer, HEADER_LENGTH);
            }
            transport.doWork();
            for (final PeerLink peer : peers)
            {
                if (peer.publication != null)
                {
                    peer.publication.close();
                }
            }
            transport.close();
        }
        finally
        {
            releaseStandIns();
            image.link(false);
            record(BridgeRecordKind.STOPPED, null, selfPid, hostId);
            file.releaseBridge();
            delivery.close();
            image.close();
        }
    }

    /**
     * One configured peer.
     */
    private static final class PeerLink
    {
        final int index;
        final int hostId;
        final String endpoint;
        final String channel;
        BridgeTransport.Stream publication;
        long sequence;
        boolean hasSession;
        int session;
        long sessionEpoch;
        boolean streamClosed;
        long incarnation;
        long epoch;
        long pid;
        String name;
        byte[] nameBytes = new byte[0];
        boolean refused;
        BridgeState state = BridgeState.CONNECTING;
        BridgeState viewOfUs = BridgeState.CONNECTING;
        long lastHeardNs;
        long messages;
        long bytes;
        long resyncs;
        long losses;
        long requestId;
        long syncHeardNs;
        long syncBytes;
        long syncConflicts;
        boolean serving;
        long serveRequestId;
        int serveWord;
        long servedWords;
        boolean dataPending;
        boolean lossDue;
        boolean silent;
        boolean imageGone;
        boolean publicationWasConnected;
        long publicationRetryNs;
        long blockedSinceNs;
        long disconnectedSinceNs;
        final boolean[] duplicateReported = new boolean[NODE_COUNT];

        PeerLink(final int index, final int hostId, final String endpoint, final String channel)
        {
            this.index = index;
            this.hostId = hostId;
            this.endpoint = endpoint;
            this.channel = channel;
        }
    }

    /**
     * Aligned direct buffers for messages.
     */
    private static final class BufferAlloc
    {
        static java.nio.ByteBuffer aligned(final int length)
        {
            return org.agrona.BufferUtil.allocateDirectAligned(length, 64);
        }
    }
}
