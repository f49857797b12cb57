package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.internal.ProcStat;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.CachedEpochClock;

import java.util.Arrays;

import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_ENTRY_SIZE;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.HELLO_NODE_COUNT_OFFSET;

/**
 * The nodes of a bridged network as its bridge keeps them: which of this host's nodes are held by a live process
 * (told to the peers in every HELLO), and the stand-in cards this host holds for the nodes of other hosts (so that
 * node ids stay unique across hosts), with the remote node table of the bridge file. A node id claimed on two hosts is
 * reported once per peer incarnation. The duty cycle's thread only.
 */
final class NodeTable
{
    private static final int NODE_COUNT = RfmDevice.MAX_NODE_ID + 1;

    private final NetworkImage image;
    private final BridgeFile file;
    private final PeerTable peerTable;
    private final BridgeRecorder recorder;
    private final CachedEpochClock clock;
    private final long selfPid;

    private final boolean[] heardNodes = new boolean[NODE_COUNT];
    private final long[] localPid = new long[NODE_COUNT];
    private final boolean[] localAlive = new boolean[NODE_COUNT];
    private final long[] localPresent = new long[NODE_COUNT / 64];
    private final long[] presentScan = new long[NODE_COUNT / 64];

    /**
     * @param image    the host's network.
     * @param file     its bridge file (the remote node table).
     * @param recorder says when a node id is claimed twice.
     * @param clock    the wall clock of the last timer tick ("last heard" of a remote node).
     * @param selfPid  this bridge's process, the holder of the stand-in cards.
     */
    NodeTable(final NetworkImage image, final BridgeFile file, final BridgeRecorder recorder,
        final CachedEpochClock clock, final long selfPid)
    {
        this.image = image;
        this.file = file;
        this.peerTable = file.peers();
        this.recorder = recorder;
        this.clock = clock;
        this.selfPid = selfPid;
    }

    /**
     * Give back every stand-in card (they are present: only those are looked at, each card is a page of its own) and
     * clear the remote node table. A card left flagged remote but not present is cleared by its next claim.
     */
    void releaseStandIns()
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
            if (peerTable.remoteHost(node) != 0)
            {
                peerTable.remoteNode(node, 0, 0, 0);
            }
        }
    }

    /**
     * Look again at who holds each local card: a new holder is checked exactly (its start time) once, a known one
     * cheaply (its process exists).
     */
    void checkLocalHolders()
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

    /**
     * @return whether a local node joined or left since the last call (the peers are told at once).
     */
    boolean localNodesChanged()
    {
        // every timer tick: walk the present bitmap (a few words), not every card
        Arrays.fill(presentScan, 0L);
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

    /**
     * Write the live local nodes into a HELLO, and their count.
     *
     * @param buffer the HELLO.
     * @param at     where the node entries start.
     * @return where they end.
     */
    int putLocalNodes(final MutableDirectBuffer buffer, final int at)
    {
        int end = at;
        int nodes = 0;
        for (int node = image.nextPresent(0); node >= 0; node = image.nextPresent(node + 1))
        {
            if (!image.isRemote(node) && localAlive[node])
            {
                buffer.putInt(end, node);
                buffer.putInt(end + Integer.BYTES, (int)localPid[node]);
                end += HELLO_ENTRY_SIZE;
                nodes++;
            }
        }
        buffer.putInt(HELLO_NODE_COUNT_OFFSET, nodes);
        return end;
    }

    /**
     * A HELLO of a peer begins: nothing of its node list heard yet.
     */
    void beginPeerNodes()
    {
        Arrays.fill(heardNodes, false);
    }

    /**
     * A node the peer's HELLO lists: hold its stand-in card here.
     *
     * @param peer   the peer.
     * @param node   the node id.
     * @param holder the process holding it on the peer's host.
     * @return whether a stand-in was claimed now (the peers are told at once).
     */
    boolean holdRemote(final PeerLink peer, final int node, final int holder)
    {
        heardNodes[node] = true;
        final int heldFor = peerTable.remoteHost(node);
        if (image.isRemote(node) && image.card(node).ownerPid() == selfPid)
        {
            if (heldFor == peer.hostId || heldFor == 0)
            {
                peerTable.remoteNode(node, peer.hostId, holder, clock.time());
                return false;
            }
            duplicate(peer, node);
            return false;
        }
        if (image.isPresent(node) && !image.isRemote(node) && image.ownerAlive(node))
        {
            duplicate(peer, node);
            return false;
        }
        if (image.claimRemote(node))
        {
            peerTable.remoteNode(node, peer.hostId, holder, clock.time());
            return true;
        }
        duplicate(peer, node);
        return false;
    }

    /**
     * The peer's HELLO ends: give back the stand-ins of its nodes that it no longer lists.
     *
     * @param peer the peer.
     */
    void endPeerNodes(final PeerLink peer)
    {
        for (int node = 0; node < NODE_COUNT; node++)
        {
            if (!heardNodes[node] && peerTable.remoteHost(node) == peer.hostId)
            {
                image.releaseRemote(node);
                peerTable.remoteNode(node, 0, 0, 0);
            }
        }
    }

    private void duplicate(final PeerLink peer, final int node)
    {
        if (!peer.duplicateReported[node])
        {
            peer.duplicateReported[node] = true;
            file.add(BridgeCounter.DUPLICATE_NODE_IDS, 1);
            recorder.record(BridgeRecordKind.DUPLICATE_NODE, peer, node, image.card(node).ownerPid());
        }
    }
}
