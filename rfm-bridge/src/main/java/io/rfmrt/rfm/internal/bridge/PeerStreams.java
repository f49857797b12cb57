package io.rfmrt.rfm.internal.bridge;

import io.aeron.Publication;
import io.rfmrt.rfm.bridge.BridgeCounter;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import static io.rfmrt.rfm.internal.bridge.BridgeMessages.EPOCH_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.FLAGS_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.INCARNATION_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MESSAGE_VERSION;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.MESSAGE_VERSION_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.SEQUENCE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.SOURCE_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.TARGET_OFFSET;
import static io.rfmrt.rfm.internal.bridge.BridgeMessages.TYPE_OFFSET;

/**
 * The streams out to the peers: open one, frame a message's header, offer a message on one. Every message on a stream
 * carries the stream's epoch and the next sequence number, so that the peer tells a new stream from a lingering old
 * one. Counts what is sent and what back-pressure refuses. The duty cycle's thread only.
 */
final class PeerStreams
{
    private final BridgeTransport transport;
    private final BridgeFile file;
    private final CachedNanoClock clock;
    private final int hostId;
    private final long incarnation;
    private final long retryNs;

    /**
     * @param transport   the messaging.
     * @param file        the bridge file (counters, stream epochs).
     * @param clock       the duty cycle's time.
     * @param hostId      this host's id.
     * @param incarnation this bridge process's incarnation, sent in every header.
     * @param retryNs     how long after a refused open it is tried again.
     */
    PeerStreams(final BridgeTransport transport, final BridgeFile file, final CachedNanoClock clock, final int hostId,
        final long incarnation, final long retryNs)
    {
        this.transport = transport;
        this.file = file;
        this.clock = clock;
        this.hostId = hostId;
        this.incarnation = incarnation;
        this.retryNs = retryNs;
    }

    /**
     * Start the stream to a peer; the driver refuses it while the peer's network is unreachable (an interface
     * down): counted, tried again a heartbeat later.
     */
    void open(final PeerLink peer)
    {
        peer.publication = transport.open(peer.channel);
        if (peer.publication != null)
        {
            peer.sequence = 0;
            peer.epoch = file.nextStreamEpoch();
        }
        else
        {
            peer.publicationRetryNs = clock.nanoTime() + retryNs;
            file.add(BridgeCounter.PUBLICATION_ERRORS, 1);
        }
    }

    /**
     * Frame the header of a message from this host.
     *
     * @param buffer where the message is built.
     * @param type   its type.
     * @param target the host it is for, or 0 for any.
     */
    void header(final UnsafeBuffer buffer, final int type, final int target)
    {
        buffer.putByte(MESSAGE_VERSION_OFFSET, (byte)MESSAGE_VERSION);
        buffer.putByte(TYPE_OFFSET, (byte)type);
        buffer.putShort(SOURCE_OFFSET, (short)hostId);
        buffer.putShort(TARGET_OFFSET, (short)target);
        buffer.putShort(FLAGS_OFFSET, (short)0);
        buffer.putLong(INCARNATION_OFFSET, incarnation);
    }

    /**
     * Offer a control or resynchronisation message to one peer: nothing is retried here.
     *
     * @return whether the peer's stream took it.
     */
    boolean offer(final PeerLink peer, final UnsafeBuffer buffer, final int length)
    {
        if (!peer.connected())
        {
            return false;
        }
        final long result = offerNext(peer, buffer, length);
        if (result > 0)
        {
            return true;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION)
        {
            file.add(BridgeCounter.BACK_PRESSURE, 1);
        }
        return false;
    }

    /**
     * Offer a message as the next of the peer's stream (its epoch and sequence number stamped); counted when taken.
     *
     * @return the transport's result: the new position (&gt; 0) or one of {@link Publication}'s codes.
     */
    long offerNext(final PeerLink peer, final UnsafeBuffer buffer, final int length)
    {
        buffer.putLong(SEQUENCE_OFFSET, peer.sequence + 1);
        buffer.putLong(EPOCH_OFFSET, peer.epoch);
        final long result = peer.publication.offer(buffer, 0, length);
        if (result > 0)
        {
            peer.sequence++;
            file.add(BridgeCounter.MESSAGES_SENT, 1);
            file.add(BridgeCounter.BYTES_SENT, length);
        }
        return result;
    }
}
