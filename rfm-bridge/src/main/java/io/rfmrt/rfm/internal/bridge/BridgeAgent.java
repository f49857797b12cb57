package io.rfmrt.rfm.internal.bridge;

import io.aeron.ChannelUri;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.bridge.BridgeContext;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.internal.ProcStat;
import io.rfmrt.rfm.internal.sim.CardDelivery;
import io.rfmrt.rfm.internal.sim.ControlBlockDescriptor;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.security.SecureRandom;
import java.util.List;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.MAX_HOST_ID;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.BYE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.DATA;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HEADER_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MESSAGE_VERSION;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MESSAGE_VERSION_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RESYNC_DATA;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RESYNC_END;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.RESYNC_REQUEST;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.SOURCE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.TARGET_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MAX_MESSAGE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.TYPE_OFFSET;

/**
 * The duty cycle of a host's bridge, composed of its parts:
 * <pre>
 *   doWork: transport ----&gt; peer states (sessions gone) ----&gt; the rest of a DATA message a poll cut short
 *           ----&gt; transport poll (cut short after deliveries that waited long), each message by its type:
 *             HELLO, BYE, RESYNC_END      -&gt; {@link PeerStates} (a HELLO's content: {@link HelloExchange})
 *             DATA                        -&gt; {@link InboundApply}
 *             RESYNC_REQUEST, RESYNC_DATA -&gt; {@link ResyncWords}
 *           ----&gt; {@link OutboundDrain} (log to DATA) ----&gt; {@link ResyncWords} (serve)
 *           ----&gt; every millisecond: lease, {@link PeerStates} timers, {@link NodeTable}, HELLO, log checks, link
 * </pre>
 * The agent maps the network and its bridge file, claims the bridge, recovers what a dead bridge left, opens the
 * transport (Aeron's, or a simulated one) and at the end says goodbye and gives everything back. Its parts share the
 * peer table ({@link PeerLink}) and the duty cycle's time (cached clocks, read once a cycle).
 * <p>
 * One thread; allocation-free in steady state (records, new peer sessions and holders that change allocate).
 */
public final class BridgeAgent
{
    private static final long TIMER_INTERVAL_NS = 1_000_000L;
    private static final long LIVENESS_INTERVAL_NS = 1_000_000_000L;

    private final BridgeContext ctx;
    private final NanoClock nanoClock;
    private final EpochClock epochClock;
    private final CachedNanoClock cachedNanoClock = new CachedNanoClock();
    private final CachedEpochClock cachedEpochClock = new CachedEpochClock();
    private final int hostId;
    private final long incarnation;
    private final long selfPid = ProcStat.selfPid();
    private final NetworkImage image;
    private final BridgeFile file;
    private final CardDelivery delivery;
    private final PeerLink[] peers;
    private final PeerLink[] peerByHost = new PeerLink[MAX_HOST_ID + 1];
    private final BridgeRecorder recorder;
    private final NodeTable nodes;
    private final BridgeTransport transport;
    private final PeerStates states;
    private final OutboundDrain outbound;
    private final InboundApply inbound;
    private final ResyncWords resync;

    private boolean closed;
    private long nextTimerNs;
    private long nextLivenessNs;

    /**
     * Map the network and its bridge file, claim it, start Aeron.
     *
     * @param ctx concluded settings.
     */
    public BridgeAgent(final BridgeContext ctx)
    {
        this(ctx, AeronBridgeTransport::new);
    }

    /**
     * Map the network and its bridge file, claim it, open the transport.
     *
     * @param ctx        concluded settings.
     * @param transports makes the transport (Aeron's; a simulated one in the simulation of the protocol).
     */
    public BridgeAgent(final BridgeContext ctx, final BridgeTransport.Factory transports)
    {
        this.ctx = ctx;
        this.nanoClock = ctx.nanoClock();
        this.epochClock = ctx.epochClock();
        this.hostId = ctx.hostId();
        this.incarnation = freshIncarnation();

        image = NetworkImage.createOrAttach(ctx.networkDir(), ctx.network(), ctx.memorySize());
        file = claim(ctx);
        delivery = new CardDelivery(image, -1, null);
        recorder = new BridgeRecorder(file, ctx.listener(), epochClock);
        nodes = new NodeTable(image, file, recorder, cachedEpochClock, selfPid);

        cachedNanoClock.update(nanoClock.nanoTime());
        cachedEpochClock.update(epochClock.time());
        file.lease(cachedNanoClock.nanoTime() + leaseNs());
        // a bridge that died left its log, its overflow marks and its stand-in cards: the words written meanwhile
        // are this host's, the events are too late to deliver, the stand-ins go
        final ManyToOneRingBuffer log = file.newLog();
        OutboundDrain.recoverAfterDeadBridge(log, file, image.memory(), hostId);
        nodes.releaseStandIns();
        image.link(false);
        file.state(BridgeState.CONNECTING);
        file.peers().clearPeers();
        file.describe(ctx.hostName(), ctx.channel(), ctx.peers().size());

        final List<BridgeContext.Peer> configured = ctx.peers();
        peers = new PeerLink[configured.size()];
        for (int i = 0; i < peers.length; i++)
        {
            final BridgeContext.Peer p = configured.get(i);
            peers[i] = new PeerLink(i, p.hostId(), p.endpoint(), publicationChannel(ctx.channel(), p.endpoint()));
            peerByHost[p.hostId()] = peers[i];
            // a file made new: this host's words from before are asked of every peer until each has answered
            peers[i].formerWanted = file.formerWordsWanted(p.hostId());
            file.peers().initPeer(i, p.hostId(), p.endpoint());
        }

        BridgeTransport opened = null;
        try
        {
            opened = transports.open(ctx, new BridgeTransport.Receiver()
            {
                @Override
                public boolean onMessage(final DirectBuffer buffer, final int offset, final int length,
                    final int sessionId)
                {
                    return BridgeAgent.this.onMessage(buffer, offset, length, sessionId);
                }

                @Override
                public boolean pollEnded()
                {
                    return inbound.pollCut();
                }

                @Override
                public void onSessionGone(final int sessionId)
                {
                    BridgeAgent.this.onSessionGone(sessionId);
                }
            }, this::onAeronError);
            transport = opened;
            final PeerStreams streams = new PeerStreams(transport, file, cachedNanoClock, hostId, incarnation,
                ctx.heartbeatNs());
            final HelloExchange hello = new HelloExchange(peers, streams, nodes, recorder, file, cachedEpochClock,
                hostId, selfPid, image.memory().capacity(), ctx.hostName());
            states = new PeerStates(peers, streams, hello, recorder, file, image, cachedNanoClock, cachedEpochClock,
                ctx.peerTimeoutNs(), ctx.heartbeatNs());
            outbound = new OutboundDrain(peers, streams, states, file, log, image.memory(), cachedNanoClock,
                recorder, hostId);
            inbound = new InboundApply(image, file, delivery, recorder, cachedNanoClock, nanoClock,
                ctx.peerTimeoutNs());
            resync = new ResyncWords(peers, streams, file, outbound, image.memory(), cachedNanoClock, hostId);
            for (final PeerLink peer : peers)
            {
                streams.open(peer);
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
        recorder.record(BridgeRecordKind.STARTED, null, selfPid, hostId);
    }

    /**
     * Attach or make the network's bridge file and claim the bridge of this host; the image is closed again when the
     * network cannot be bridged.
     */
    private BridgeFile claim(final BridgeContext ctx)
    {
        BridgeFile bridgeFile = null;
        try
        {
            if (image.bridge() == null)
            {
                image.useBridge(new OutboundLog(BridgeFile.createOrAttach(ctx.networkDir(), ctx.network(),
                    image.memory(), hostId, ctx.logCapacity()), image.memory()));
            }
            bridgeFile = BridgeFile.of(image.bridge());
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
            checkNoUnloggedNodes(bridgeFile, ctx.network());
            return bridgeFile;
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
    }

    private void checkNoUnloggedNodes(final BridgeFile bridgeFile, final String network)
    {
        for (int node = image.nextPresent(0); node >= 0; node = image.nextPresent(node + 1))
        {
            final int flags = image.card(node).flags();
            if ((flags & ControlBlockDescriptor.FLAG_REMOTE) == 0 &&
                (flags & ControlBlockDescriptor.FLAG_BRIDGED) == 0 && image.ownerAlive(node))
            {
                bridgeFile.releaseBridge();
                throw new RfmException(RfmStatus.NODE_IN_USE, "node " + node + " of network '" + network +
                    "' (process " + image.card(node).ownerPid() + ") joined before the network was bridged: its " +
                    "writes would not reach the other hosts; stop it, start the bridge, then start it again");
            }
        }
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
        long nowNs = nanoClock.nanoTime();
        cachedNanoClock.update(nowNs);
        work += states.handleGoneImages();
        inbound.startPoll(nowNs);
        // what a poll cut short left is applied before anything newer: the peer's records stay in order
        work += inbound.applyRest();
        if (!inbound.pollCut())
        {
            work += transport.poll(64);
        }
        if (inbound.pollCut())
        {
            // deliveries waited for nodes' rings: the timers below see the time now, not the cycle's start, and
            // that wait is not the peers' silence
            final long afterNs = nanoClock.nanoTime();
            states.excuseSilence(afterNs - nowNs);
            nowNs = afterNs;
            cachedNanoClock.update(nowNs);
        }
        work += outbound.drainLog();
        work += resync.serveResyncs();
        if (nowNs - nextTimerNs >= 0)
        {
            nextTimerNs = nowNs + TIMER_INTERVAL_NS;
            work += onTimer(nowNs);
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
        return outbound.blocked();
    }

    /**
     * @return whether the link is up (every peer in sync both ways).
     */
    public boolean linkUp()
    {
        return states.linkUp();
    }

    private int onTimer(final long nowNs)
    {
        cachedEpochClock.update(epochClock.time());
        file.lease(nowNs + leaseNs());
        int work = states.checkPeers();
        if (nowNs - nextLivenessNs >= 0)
        {
            nextLivenessNs = nowNs + LIVENESS_INTERVAL_NS;
            nodes.checkLocalHolders();
        }
        if (nodes.localNodesChanged())
        {
            states.helloDue();
        }
        work += states.sendHelloWhenDue();
        outbound.checkLogStuck();
        outbound.checkOverflow();
        states.updateLink();
        return work;
    }

    private void onSessionGone(final int sessionId)
    {
        // before the transport is open no peer has a session yet: nothing can be gone
        if (states != null)
        {
            states.onSessionGone(sessionId);
        }
    }

    /**
     * @return false when applying a DATA message waited so long that the poll must end (see {@link InboundApply}).
     */
    private boolean onMessage(final DirectBuffer buffer, final int offset, final int length, final int session)
    {
        if (length < HEADER_LENGTH || buffer.getByte(offset + MESSAGE_VERSION_OFFSET) != MESSAGE_VERSION)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return true;
        }
        final int source = buffer.getShort(offset + SOURCE_OFFSET) & 0xFFFF;
        final PeerLink peer = source <= MAX_HOST_ID ? peerByHost[source] : null;
        if (peer == null)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return true;
        }
        final int target = buffer.getShort(offset + TARGET_OFFSET) & 0xFFFF;
        if (peer.refused || !states.onHeard(peer, buffer, offset, length, session))
        {
            return true;
        }
        if (target != 0 && target != hostId)
        {
            return true;
        }
        switch (buffer.getByte(offset + TYPE_OFFSET))
        {
            case HELLO -> states.onHello(peer, buffer, offset, length);
            case DATA ->
            {
                if (length > MAX_MESSAGE)
                {
                    // no bridge sends one; a cut one would not fit what is kept of it
                    file.add(BridgeCounter.BAD_MESSAGES, 1);
                    return true;
                }
                return inbound.onData(peer, buffer, offset, length);
            }
            case RESYNC_REQUEST -> resync.onRequest(peer, buffer, offset, length);
            case RESYNC_DATA -> resync.onData(peer, buffer, offset, length);
            case RESYNC_END -> states.onResyncEnd(peer, buffer, offset, length);
            case BYE -> states.onBye(peer);
            default -> file.add(BridgeCounter.BAD_MESSAGES, 1);
        }
        return true;
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
            states.sendBye();
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
            nodes.releaseStandIns();
            image.link(false);
            recorder.record(BridgeRecordKind.STOPPED, null, selfPid, hostId);
            file.releaseBridge();
            delivery.close();
            image.close();
        }
    }
}
