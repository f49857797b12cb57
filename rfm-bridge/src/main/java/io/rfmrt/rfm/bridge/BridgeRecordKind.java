package io.rfmrt.rfm.bridge;

/**
 * What a bridge records in its bridge file's record ring (and prints): the moments the images diverged and
 * converged, and why. Written by {@link #id()}.
 */
public enum BridgeRecordKind
{
    /** The bridge started (value: its pid; value2: its host id). */
    STARTED(1, "started"),
    /** The bridge stopped cleanly. */
    STOPPED(2, "stopped"),
    /** A peer was lost (value: {@link LossReason} id). */
    PEER_LOST(3, "peer lost"),
    /** A peer's session was heard and this host asked it for the words it owns (value: request id). */
    PEER_CONNECTED(4, "peer connected"),
    /** A peer finished sending its words (value: bytes applied; value2: conflicts). */
    PEER_SYNCED(5, "peer in sync"),
    /** The link went down: the images may differ from now on (value: divergences so far; peer: one not in sync). */
    DIVERGED(6, "DIVERGED"),
    /** The link came up with every peer in sync both ways: the images converged (value: convergences so far). */
    CONVERGED(7, "CONVERGED"),
    /** A node id held on two hosts (value: node id). */
    DUPLICATE_NODE(8, "duplicate node id"),
    /** Words claimed by two hosts in a resynchronisation (value: words). */
    RESYNC_CONFLICT(9, "resync conflict"),
    /** The outbound log overflowed; the words written meanwhile are sent again (value: words). */
    LOG_OVERFLOW(10, "log overflow"),
    /** A peer refused: another memory size or host id (value: its memory size). */
    PEER_REFUSED(11, "peer refused"),
    /**
     * A node of this host did not keep up with what peers sent it: value = the node, value2 = its events and DMA
     * transfers dropped so far. At most one a second per node.
     */
    NODE_BEHIND(12, "node behind");

    private final int id;
    private final String label;

    BridgeRecordKind(final int id, final String label)
    {
        this.id = id;
        this.label = label;
    }

    /**
     * @return the stable id.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return a short label.
     */
    public String label()
    {
        return label;
    }

    /**
     * @param id an id.
     * @return the kind, or null.
     */
    public static BridgeRecordKind fromId(final int id)
    {
        for (final BridgeRecordKind kind : values())
        {
            if (kind.id == id)
            {
                return kind;
            }
        }
        return null;
    }

    /**
     * Why a peer was lost (the value of a {@link #PEER_LOST} record).
     */
    public enum LossReason
    {
        /** Nothing heard from it for the peer time-out. */
        SILENCE(1, "nothing heard"),
        /** Its Aeron image went away (end of stream, liveness time-out). */
        IMAGE_GONE(2, "its stream ended"),
        /** It opened a new session (it lost us, or restarted). */
        NEW_SESSION(3, "it started a new session"),
        /** Our publication to it stayed blocked or disconnected: a new one was started. */
        PUBLICATION(4, "our stream to it stayed blocked or disconnected (a new one started)"),
        /** It said goodbye (a clean stop). */
        BYE(5, "it stopped"),
        /** Our request for its words had no answer for half the peer time-out: asked again. */
        RESYNC_UNANSWERED(6, "our request for its words went unanswered");

        private final int id;
        private final String label;

        LossReason(final int id, final String label)
        {
            this.id = id;
            this.label = label;
        }

        /**
         * @return the stable id.
         */
        public int id()
        {
            return id;
        }

        /**
         * @return a short label.
         */
        public String label()
        {
            return label;
        }

        /**
         * @param id an id.
         * @return the reason, or null.
         */
        public static LossReason fromId(final int id)
        {
            for (final LossReason reason : values())
            {
                if (reason.id == id)
                {
                    return reason;
                }
            }
            return null;
        }
    }
}
