package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.bridge.BridgeState;
import org.agrona.concurrent.UnsafeBuffer;

import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.MAX_PEERS;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.NAME_LENGTH;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.NODE_HOST_ID_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.NODE_LAST_HEARD_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.NODE_PID_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.NODE_SINCE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEERS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_ENDPOINT_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_HOST_ID_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_NAME_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_SIZE;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.PEER_STATE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.nodeOffset;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.peerOffset;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.putText;
import static io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor.text;

/**
 * The tables of a bridge file that show the bridge's peers to other processes ({@code rfmrt rfm status}, a node
 * that names the holder of a remote node id; layout in {@link BridgeFileDescriptor}): one entry per configured peer
 * (its state, its view of us, what was heard from it) and one per node id held by a stand-in card for a node of
 * another host. Written by the bridge only, field by field with volatile stores; read by anyone, field by field. A
 * flyweight over the file's mapping; the accessors of numbers allocate nothing.
 */
public final class PeerTable
{
    private final UnsafeBuffer buffer;

    /**
     * @param buffer the bridge file's mapping.
     */
    PeerTable(final UnsafeBuffer buffer)
    {
        this.buffer = buffer;
    }

    /**
     * Bridge only: set up a peer entry (everything else zero).
     *
     * @param index    entry 0..15.
     * @param hostId   the peer's host id.
     * @param endpoint where the bridge sends to it.
     */
    public void initPeer(final int index, final int hostId, final String endpoint)
    {
        final int at = peerOffset(index);
        buffer.setMemory(at, PEER_SIZE, (byte)0);
        buffer.putInt(at + PEER_STATE_OFFSET, BridgeState.CONNECTING.id());
        putText(buffer, at + PEER_ENDPOINT_OFFSET, NAME_LENGTH, endpoint);
        buffer.putIntVolatile(at + PEER_HOST_ID_OFFSET, hostId);
    }

    /**
     * Bridge only: clear every peer entry.
     */
    public void clearPeers()
    {
        buffer.setMemory(PEERS_OFFSET, MAX_PEERS * PEER_SIZE, (byte)0);
    }

    /**
     * @param index entry.
     * @return the peer's host id, 0 for an empty entry.
     */
    public int peerHostId(final int index)
    {
        return buffer.getIntVolatile(peerOffset(index) + PEER_HOST_ID_OFFSET);
    }

    /**
     * @param index entry.
     * @param field one of the PEER_*_OFFSET int64 fields.
     * @return its value.
     */
    public long peerLong(final int index, final int field)
    {
        return buffer.getLongVolatile(peerOffset(index) + field);
    }

    /**
     * Bridge only.
     *
     * @param index entry.
     * @param field one of the PEER_*_OFFSET int64 fields.
     * @param value its value.
     */
    public void peerLong(final int index, final int field, final long value)
    {
        buffer.putLongVolatile(peerOffset(index) + field, value);
    }

    /**
     * @param index entry.
     * @param field one of the PEER_*_OFFSET int32 fields.
     * @return its value.
     */
    public int peerInt(final int index, final int field)
    {
        return buffer.getIntVolatile(peerOffset(index) + field);
    }

    /**
     * Bridge only.
     *
     * @param index entry.
     * @param field one of the PEER_*_OFFSET int32 fields.
     * @param value its value.
     */
    public void peerInt(final int index, final int field, final int value)
    {
        buffer.putIntVolatile(peerOffset(index) + field, value);
    }

    /**
     * @param index entry.
     * @return the peer's endpoint.
     */
    public String peerEndpoint(final int index)
    {
        return text(buffer, peerOffset(index) + PEER_ENDPOINT_OFFSET, NAME_LENGTH);
    }

    /**
     * @param index entry.
     * @return the peer's host name, as it said.
     */
    public String peerName(final int index)
    {
        return text(buffer, peerOffset(index) + PEER_NAME_OFFSET, NAME_LENGTH);
    }

    /**
     * Bridge only.
     *
     * @param index entry.
     * @param name  the peer's host name.
     */
    public void peerName(final int index, final String name)
    {
        putText(buffer, peerOffset(index) + PEER_NAME_OFFSET, NAME_LENGTH, name);
    }

    /**
     * @param hostId a host id.
     * @return the entry of that peer, or -1.
     */
    public int peerIndex(final int hostId)
    {
        for (int i = 0; i < MAX_PEERS; i++)
        {
            if (hostId != 0 && peerHostId(i) == hostId)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param node node id.
     * @return the host id holding it as the bridge last heard, 0 when not remote.
     */
    public int remoteHost(final int node)
    {
        return buffer.getIntVolatile(nodeOffset(node) + NODE_HOST_ID_OFFSET);
    }

    /**
     * @param node node id.
     * @return the holder's pid on its host.
     */
    public int remotePid(final int node)
    {
        return buffer.getIntVolatile(nodeOffset(node) + NODE_PID_OFFSET);
    }

    /**
     * @param node node id.
     * @return when its host last spoke of it, epoch ms.
     */
    public long remoteLastHeard(final int node)
    {
        return buffer.getLongVolatile(nodeOffset(node) + NODE_LAST_HEARD_OFFSET);
    }

    /**
     * @param node node id.
     * @return since when it is held remotely, epoch ms.
     */
    public long remoteSince(final int node)
    {
        return buffer.getLongVolatile(nodeOffset(node) + NODE_SINCE_OFFSET);
    }

    /**
     * Bridge only.
     *
     * @param node      node id.
     * @param hostId    holder's host, 0 to clear the entry.
     * @param pid       holder's pid there.
     * @param heardMs   when heard, epoch ms.
     */
    public void remoteNode(final int node, final int hostId, final int pid, final long heardMs)
    {
        final int at = nodeOffset(node);
        if (hostId == 0)
        {
            buffer.putIntVolatile(at + NODE_HOST_ID_OFFSET, 0);
            buffer.putIntVolatile(at + NODE_PID_OFFSET, 0);
            buffer.putLongVolatile(at + NODE_SINCE_OFFSET, 0);
            return;
        }
        if (buffer.getIntVolatile(at + NODE_HOST_ID_OFFSET) != hostId || buffer.getIntVolatile(at + NODE_PID_OFFSET) !=
            pid)
        {
            buffer.putLongVolatile(at + NODE_SINCE_OFFSET, heardMs);
        }
        buffer.putIntVolatile(at + NODE_PID_OFFSET, pid);
        buffer.putLongVolatile(at + NODE_LAST_HEARD_OFFSET, heardMs);
        buffer.putIntVolatile(at + NODE_HOST_ID_OFFSET, hostId);
    }
}
