package io.rfmrt.rfm.bridge;

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
