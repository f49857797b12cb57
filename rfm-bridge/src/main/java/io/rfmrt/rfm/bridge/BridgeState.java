package io.rfmrt.rfm.bridge;

/**
 * Where a bridge stands with one peer, and (for the bridge as a whole) with all of them. Written into the bridge file
 * and onto the wire by {@link #id()}, never by declaration order.
 * <pre>
 *   STOPPED ──start──▶ CONNECTING ──peer's session heard, our publication connected──▶ SYNCING
 *                          ▲                                                             │ RESYNC_END received
 *                          └──────── peer lost (silence, image gone, new session) ◀── UP ◀┘
 * </pre>
 * The bridge as a whole is UP when every configured peer is UP both ways (we hold its words and it holds ours);
 * that is when the host's link is up.
 */
public enum BridgeState
{
    /** No bridge runs (the bridge file's state after a clean stop, or before the first start). */
    STOPPED(0),
    /** Waiting for the peer: our publication to it connected and a session of its own heard. */
    CONNECTING(1),
    /** Connected; the peer is sending the words it owns (a resynchronisation we asked for). */
    SYNCING(2),
    /** In sync: everything the peer wrote is here, or on its way in order. */
    UP(3);

    private static final BridgeState[] BY_ID = new BridgeState[4];

    static
    {
        for (final BridgeState state : values())
        {
            BY_ID[state.id] = state;
        }
    }

    private final int id;

    BridgeState(final int id)
    {
        this.id = id;
    }

    /**
     * @return the stable id.
     */
    public int id()
    {
        return id;
    }

    /**
     * Allocation-free lookup.
     *
     * @param id an id.
     * @return the state, or null when no state has it.
     */
    public static BridgeState fromId(final int id)
    {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }
}
