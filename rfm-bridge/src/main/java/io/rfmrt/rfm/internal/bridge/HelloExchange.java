package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.bridge.BridgeState;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.MAX_PEERS;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_PID_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_VIEW_OF_US_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_ENTRIES_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_ENTRY_SIZE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_LINK_UP_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_MEMORY_SIZE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_NAME_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_NAME_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_NODE_COUNT_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_PEER_COUNT_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_PID_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_SENT_MS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MAX_MESSAGE;

/**
 * The HELLO every bridge sends its peers each heartbeat and at every change: its process, its memory size, its name,
 * its state of each of its peers (so that a peer learns whether it is UP with us) and its live nodes (held by stand-in
 * cards on the other hosts). Sends this host's; takes a peer's into its {@link PeerLink}, the peer table of the bridge
 * file and the {@link NodeTable}. What follows from it (a resynchronisation to ask, the link) is the state machine's.
 * The duty cycle's thread only.
 */
final class HelloExchange
{
    /** The HELLO was malformed or from a network of another size: nothing follows from it. */
    static final int DROPPED = -1;
    /** The HELLO was taken. */
    static final int TAKEN = 0;
    /** The HELLO was taken and a stand-in card was claimed for one of the peer's nodes: the peers are to be told. */
    static final int TAKEN_NODE_CLAIMED = 1;

    private final PeerLink[] peers;
    private final PeerStreams streams;
    private final NodeTable nodes;
    private final BridgeRecorder recorder;
    private final BridgeFile file;
    private final PeerTable peerTable;
    private final CachedEpochClock epochClock;
    private final int hostId;
    private final long selfPid;
    private final long memorySize;
    private final byte[] hostNameBytes;
    private final UnsafeBuffer helloBuffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(MAX_MESSAGE, 64));

    /**
     * @param peers      the configured peers.
     * @param streams    the streams out to them.
     * @param nodes      this host's nodes and the stand-ins of the peers'.
     * @param recorder   records a peer refused.
     * @param file       the bridge file (counters, the peer table).
     * @param epochClock the wall clock of the last timer tick.
     * @param hostId     this host's id.
     * @param selfPid    this bridge's process.
     * @param memorySize bytes of the host's network memory.
     * @param hostName   the name peers show for this host.
     */
    HelloExchange(final PeerLink[] peers, final PeerStreams streams, final NodeTable nodes,
        final BridgeRecorder recorder, final BridgeFile file, final CachedEpochClock epochClock, final int hostId,
        final long selfPid, final long memorySize, final String hostName)
    {
        this.peers = peers;
        this.streams = streams;
        this.nodes = nodes;
        this.recorder = recorder;
        this.file = file;
        this.peerTable = file.peers();
        this.epochClock = epochClock;
        this.hostId = hostId;
        this.selfPid = selfPid;
        this.memorySize = memorySize;
        this.hostNameBytes = hostName.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Send this host's HELLO to every peer whose stream takes it.
     *
     * @param linkUp whether the host's link is up.
     */
    void send(final boolean linkUp)
    {
        streams.header(helloBuffer, HELLO, 0);
        helloBuffer.putLong(HELLO_PID_OFFSET, selfPid);
        helloBuffer.putLong(HELLO_MEMORY_SIZE_OFFSET, memorySize);
        helloBuffer.putLong(HELLO_SENT_MS_OFFSET, epochClock.time());
        helloBuffer.putInt(HELLO_LINK_UP_OFFSET, linkUp ? 1 : 0);
        helloBuffer.putInt(HELLO_PEER_COUNT_OFFSET, peers.length);
        helloBuffer.putInt(HELLO_PEER_COUNT_OFFSET + Integer.BYTES, 0);
        helloBuffer.setMemory(HELLO_NAME_OFFSET, HELLO_NAME_LENGTH, (byte)0);
        helloBuffer.putBytes(HELLO_NAME_OFFSET, hostNameBytes, 0, Math.min(hostNameBytes.length,
            HELLO_NAME_LENGTH - 1));
        int at = HELLO_ENTRIES_OFFSET;
        for (final PeerLink peer : peers)
        {
            helloBuffer.putInt(at, peer.hostId);
            helloBuffer.putInt(at + Integer.BYTES, peer.state.id());
            at += HELLO_ENTRY_SIZE;
        }
        at = nodes.putLocalNodes(helloBuffer, at);
        for (final PeerLink peer : peers)
        {
            streams.offer(peer, helloBuffer, at);
        }
    }

    /**
     * Take a peer's HELLO: its name and process, its view of us, its nodes (held here by stand-ins). A peer whose
     * network is of another size is refused for good: the two images cannot hold the same words.
     *
     * @return {@link #DROPPED}, {@link #TAKEN} or {@link #TAKEN_NODE_CLAIMED}.
     */
    int take(final PeerLink peer, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < HELLO_ENTRIES_OFFSET)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return DROPPED;
        }
        final long peerMemorySize = buffer.getLong(offset + HELLO_MEMORY_SIZE_OFFSET);
        final int peerCount = buffer.getInt(offset + HELLO_PEER_COUNT_OFFSET);
        final int nodeCount = buffer.getInt(offset + HELLO_NODE_COUNT_OFFSET);
        if (peerCount < 0 || peerCount > MAX_PEERS || nodeCount < 0 || nodeCount > RfmDevice.MAX_NODE_ID + 1 ||
            length < HELLO_ENTRIES_OFFSET + (peerCount + nodeCount) * HELLO_ENTRY_SIZE)
        {
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            return DROPPED;
        }
        if (peerMemorySize != memorySize)
        {
            // never bridged: the two images cannot hold the same words
            peer.refused = true;
            file.add(BridgeCounter.BAD_MESSAGES, 1);
            recorder.record(BridgeRecordKind.PEER_REFUSED, peer, peerMemorySize, memorySize);
            return DROPPED;
        }
        if (peer.name == null || !nameEquals(peer, buffer, offset + HELLO_NAME_OFFSET))
        {
            peer.name = readName(buffer, offset + HELLO_NAME_OFFSET);
            peer.nameBytes = peer.name.getBytes(StandardCharsets.UTF_8);
            peerTable.peerName(peer.index, peer.name);
        }
        final long pid = buffer.getLong(offset + HELLO_PID_OFFSET);
        if (pid != peer.pid)
        {
            peer.pid = pid;
            peerTable.peerLong(peer.index, PEER_PID_OFFSET, pid);
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
            peerTable.peerInt(peer.index, PEER_VIEW_OF_US_OFFSET, view.id());
        }
        int outcome = TAKEN;
        nodes.beginPeerNodes();
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
            if (nodes.holdRemote(peer, node, holder))
            {
                outcome = TAKEN_NODE_CLAIMED;
            }
        }
        nodes.endPeerNodes(peer);
        return outcome;
    }

    private static boolean nameEquals(final PeerLink peer, final DirectBuffer buffer, final int at)
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

    private static String readName(final DirectBuffer buffer, final int at)
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
}
