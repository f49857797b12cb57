package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.bridge.BridgeListener;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import org.agrona.concurrent.EpochClock;

/**
 * Says what happened to a bridge: a record in the bridge file (read by {@code rfmrt rfm status} from another
 * process) and the same record to the listener of the bridge's settings. Records are rare (a peer lost or synced, the
 * link up or down): the listener may allocate.
 */
final class BridgeRecorder
{
    private final BridgeFile file;
    private final BridgeListener listener;
    private final EpochClock epochClock;

    BridgeRecorder(final BridgeFile file, final BridgeListener listener, final EpochClock epochClock)
    {
        this.file = file;
        this.listener = listener;
        this.epochClock = epochClock;
    }

    /**
     * @param kind   what happened.
     * @param peer   the peer it is about, or null.
     * @param value  the kind's first value.
     * @param value2 its second.
     */
    void record(final BridgeRecordKind kind, final PeerLink peer, final long value, final long value2)
    {
        file.record(kind, peer == null ? 0 : peer.hostId, value, value2, epochClock.time());
        listener.onRecord(kind, peer == null ? 0 : peer.hostId, peer == null || peer.name == null ? "" : peer.name,
            value, value2);
    }
}
