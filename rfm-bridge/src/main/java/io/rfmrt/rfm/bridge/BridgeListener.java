package io.rfmrt.rfm.bridge;

/**
 * Told of each record a bridge writes (peers lost and connected, the images diverging and converging, duplicate
 * node ids, conflicts), on the bridge's thread, as it happens. The bridge file keeps the same records for other
 * processes.
 */
@FunctionalInterface
public interface BridgeListener
{
    /**
     * @param kind       what happened.
     * @param peerHostId the peer's host id, 0 when none is concerned.
     * @param peerName   the peer's host name as it said, empty when not known (yet).
     * @param value      see the kind.
     * @param value2     see the kind.
     */
    void onRecord(BridgeRecordKind kind, int peerHostId, String peerName, long value, long value2);
}
