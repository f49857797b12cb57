package io.rfmrt.rfm.bridge;

import io.rfmrt.rfm.internal.bridge.BridgeFile;
import io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor;
import io.rfmrt.rfm.internal.bridge.PeerTable;
import io.rfmrt.rfm.internal.sim.ControlBlockDescriptor;
import io.rfmrt.rfm.sim.SimNetwork;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A host's bridge as its bridge file shows it, read by any process ({@code rfmrt rfm status}); fields are read one
 * by one, not as one snapshot.
 *
 * @param hostId          this host's id.
 * @param hostName        this host's name as the bridge gave it.
 * @param channel         where the bridge listens.
 * @param pid             the running (or last) bridge's pid, 0 when none ever ran.
 * @param alive           whether that process runs.
 * @param leaseValid      whether it renews its lease (the host's link can be up only then).
 * @param state           the bridge's state: UP when every peer is in sync both ways.
 * @param startedMillis   when the running (or last) bridge started, epoch ms.
 * @param peers           the configured peers.
 * @param remoteNodes     the nodes of other hosts this host holds cards for.
 * @param counters        the counters by {@link BridgeCounter#id()}.
 * @param records         the last records, oldest first.
 * @param logCapacity     bytes of the outbound log.
 * @param logQueued       bytes in the outbound log not yet taken by the bridge.
 * @param overflowPending whether writers marked words the bridge has not sent yet.
 */
public record BridgeStatus(int hostId, String hostName, String channel, long pid, boolean alive, boolean leaseValid,
    BridgeState state, long startedMillis, List<PeerStatus> peers, List<RemoteNode> remoteNodes, long[] counters,
    List<Record> records, int logCapacity, long logQueued, boolean overflowPending)
{
    /**
     * @param network an emulated network, attached.
     * @return the host's bridge as its bridge file shows it, or null when the network is not bridged.
     */
    public static BridgeStatus of(final SimNetwork network)
    {
        final BridgeFile file = BridgeFile.of(network.bridge());
        if (file == null)
        {
            return null;
        }
        final PeerTable table = file.peers();
        final List<PeerStatus> peers = new ArrayList<>();
        for (int i = 0; i < BridgeFileDescriptor.MAX_PEERS; i++)
        {
            final int host = table.peerHostId(i);
            if (host == 0)
            {
                continue;
            }
            peers.add(new PeerStatus(host, table.peerName(i), table.peerEndpoint(i),
                stateOf(table.peerInt(i, BridgeFileDescriptor.PEER_STATE_OFFSET)),
                stateOf(table.peerInt(i, BridgeFileDescriptor.PEER_VIEW_OF_US_OFFSET)),
                table.peerLong(i, BridgeFileDescriptor.PEER_PID_OFFSET),
                table.peerLong(i, BridgeFileDescriptor.PEER_LAST_HEARD_OFFSET),
                table.peerLong(i, BridgeFileDescriptor.PEER_MESSAGES_OFFSET),
                table.peerLong(i, BridgeFileDescriptor.PEER_BYTES_OFFSET),
                table.peerLong(i, BridgeFileDescriptor.PEER_RESYNCS_OFFSET),
                table.peerLong(i, BridgeFileDescriptor.PEER_LOSSES_OFFSET)));
        }
        final List<RemoteNode> remote = new ArrayList<>();
        for (int node = 0; node < ControlBlockDescriptor.CARD_COUNT; node++)
        {
            final int host = table.remoteHost(node);
            if (host != 0)
            {
                final int peer = table.peerIndex(host);
                remote.add(new RemoteNode(node, host, peer < 0 ? "" : table.peerName(peer),
                    table.remotePid(node), table.remoteLastHeard(node), table.remoteSince(node)));
            }
        }
        final long[] counters = new long[BridgeCounter.SLOT_COUNT];
        for (final BridgeCounter counter : BridgeCounter.values())
        {
            counters[counter.id()] = file.counter(counter);
        }
        final List<Record> records = new ArrayList<>();
        final long count = file.recordCount();
        final long[] fields = new long[5];
        for (long index = Math.max(0, count - BridgeFileDescriptor.RECORD_COUNT); index < count; index++)
        {
            final BridgeRecordKind kind;
            if (file.readRecord(index, fields) && (kind = BridgeRecordKind.fromId((int)fields[1])) != null)
            {
                records.add(new Record(fields[0], kind, (int)fields[2], fields[3], fields[4]));
            }
        }
        final ManyToOneRingBuffer log = file.newLog();
        final boolean alive = file.bridgeAlive();
        return new BridgeStatus(file.hostId(), file.hostName(), file.channel(), file.bridgePid(), alive,
            file.leaseValid(System.nanoTime()), alive ? file.state() : BridgeState.STOPPED, file.bridgeStartedMillis(),
            peers, remote, counters,
            records, file.logCapacity(), log.producerPosition() - log.consumerPosition(), file.owners().overflowFlag());
    }

    private static BridgeState stateOf(final int id)
    {
        final BridgeState state = BridgeState.fromId(id);
        return state == null ? BridgeState.STOPPED : state;
    }

    /**
     * @param counter a counter.
     * @return its value.
     */
    public long counter(final BridgeCounter counter)
    {
        return counters[counter.id()];
    }

    /**
     * One peer.
     *
     * @param hostId     its host id.
     * @param name       its host name as it said, empty before it spoke.
     * @param endpoint   where the bridge sends to it.
     * @param state      this host's state for it: UP when everything it wrote is here.
     * @param viewOfUs   its state for this host, as it last said.
     * @param pid        its bridge's pid, 0 before it spoke.
     * @param lastHeard  when it last spoke, epoch ms, 0 never.
     * @param messages   messages received from it.
     * @param bytes      bytes received from it.
     * @param resyncs    resynchronisations it completed for this host.
     * @param losses     times it was lost.
     */
    public record PeerStatus(int hostId, String name, String endpoint, BridgeState state, BridgeState viewOfUs,
        long pid, long lastHeard, long messages, long bytes, long resyncs, long losses)
    {
    }

    /**
     * A node of another host, held here by a stand-in card.
     *
     * @param node      node id.
     * @param hostId    the host it runs on.
     * @param hostName  that host's name, empty when not known.
     * @param pid       its process there.
     * @param lastHeard when its host last named it, epoch ms.
     * @param since     since when it is held, epoch ms.
     */
    public record RemoteNode(int node, int hostId, String hostName, int pid, long lastHeard, long since)
    {
    }

    /**
     * One record of the ring.
     *
     * @param millis     when, epoch ms.
     * @param kind       what.
     * @param peerHostId the peer concerned, 0 for none.
     * @param value      see the kind.
     * @param value2     see the kind.
     */
    public record Record(long millis, BridgeRecordKind kind, int peerHostId, long value, long value2)
    {
    }
}
