package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.bridge.BridgeState;

/**
 * One configured peer of a bridge, as its duty cycle sees it: the stream out to it, the session heard from it, its
 * state and its view of us, the resynchronisations asked of it and served to it, and the DATA message it has still to
 * take. Plain fields, read and written by the parts of the duty cycle only, on its one thread.
 */
final class PeerLink
{
    final int index;
    final int hostId;
    final String endpoint;
    final String channel;

    // the stream out to the peer
    BridgeTransport.Stream publication;
    long sequence;
    long epoch;
    boolean publicationWasConnected;
    long publicationRetryNs;
    long disconnectedSinceNs;

    // the peer's stream in, and what it says of itself
    boolean hasSession;
    int session;
    long sessionEpoch;
    boolean streamClosed;
    long incarnation;
    long pid;
    String name;
    byte[] nameBytes = new byte[0];
    boolean refused;
    long lastHeardNs;
    /** Of the time since it was last heard, how much was excused: this host's own cut polls (PeerStates). */
    long excusedNs;
    long messages;
    long bytes;
    boolean silent;
    boolean imageGone;

    // the peer's state in the protocol, and its view of us
    BridgeState state = BridgeState.CONNECTING;
    BridgeState viewOfUs = BridgeState.CONNECTING;
    long resyncs;
    long losses;

    // the resynchronisation this host asked of the peer
    long requestId;
    long syncHeardNs;
    long syncBytes;
    long syncConflicts;
    /** This host's image started empty and the peer has not yet answered a request for its former words. */
    boolean formerWanted;
    /** The request asked now asks for this host's former words too. */
    boolean requestAsksFormer;

    // the resynchronisation the peer asked of this host
    boolean serving;
    long serveRequestId;
    int serveWord;
    /** The peer asked for its former words too: the words this host holds that the peer owns. */
    boolean serveFormer;
    long servedWords;

    // the DATA message the peer has still to take
    boolean dataPending;
    boolean lossDue;
    long blockedSinceNs;

    final boolean[] duplicateReported = new boolean[RfmDevice.MAX_NODE_ID + 1];

    PeerLink(final int index, final int hostId, final String endpoint, final String channel)
    {
        this.index = index;
        this.hostId = hostId;
        this.endpoint = endpoint;
        this.channel = channel;
    }

    /**
     * @return whether the stream to the peer is open and the peer's receiver takes it now.
     */
    boolean connected()
    {
        return publication != null && publication.isConnected();
    }
}
