package io.rfmrt.rfm.bridge;

/**
 * The counters of a host's bridge, in its bridge file (slot = id), readable by any process
 * ({@code rfmrt rfm status}). Ids never change meaning; new counters take new ids below {@link #SLOT_COUNT}.
 * Counters marked "writers" are added to by the node processes that write into the outbound log, the rest by the
 * bridge.
 */
public enum BridgeCounter
{
    /** Write records taken from this host's outbound log and sent. */
    WRITES_SENT(0, "writes sent"),
    /** Event records taken from this host's outbound log and sent. */
    EVENTS_SENT(1, "events sent"),
    /** Write records received from peers and applied to this host's image. */
    WRITES_APPLIED(2, "writes applied"),
    /** Event records received from peers and delivered to a card of this host. */
    EVENTS_DELIVERED(3, "events delivered"),
    /** Events from peers for a node id no card holds anywhere this host knows of. */
    EVENTS_UNDELIVERED(4, "events undelivered"),
    /** Messages sent on the publications to peers (each copy counted). */
    MESSAGES_SENT(5, "messages sent"),
    /** Messages received from peers. */
    MESSAGES_RECEIVED(6, "messages received"),
    /** Bytes of messages sent (each copy counted). */
    BYTES_SENT(7, "bytes sent"),
    /** Bytes of messages received. */
    BYTES_RECEIVED(8, "bytes received"),
    /** Offers a publication refused for now (back pressure, admin action); retried. */
    BACK_PRESSURE(9, "back-pressured offers"),
    /** Peers lost (silence, image gone, a new session, a publication that stayed blocked). */
    PEER_LOSSES(10, "peer losses"),
    /** Times the link went down because a peer was lost: the images may differ from then on. */
    DIVERGENCES(11, "divergences"),
    /** Times the link came up with every peer in sync both ways: the images hold the same words again. */
    CONVERGENCES(12, "convergences"),
    /** Resynchronisations this host asked a peer for. */
    RESYNCS_REQUESTED(13, "resyncs requested"),
    /** Resynchronisations this host served to a peer. */
    RESYNCS_SERVED(14, "resyncs served"),
    /** Bytes of owned words sent in resynchronisations. */
    RESYNC_BYTES_SENT(15, "resync bytes sent"),
    /** Bytes of words applied from peers' resynchronisations. */
    RESYNC_BYTES_APPLIED(16, "resync bytes applied"),
    /** Words two hosts both claimed in a resynchronisation (written on both while apart); the lower host id won. */
    RESYNC_CONFLICTS(17, "resync conflicts"),
    /** Writes that found the outbound log full (writers): their words were marked for a later resend, in no order. */
    LOG_OVERFLOWS(18, "log overflows"),
    /** Events that found the outbound log full (writers): the send was refused with LINK_TEST_FAIL. */
    LOG_EVENT_REFUSALS(19, "events refused, log full"),
    /** Overflow-marked words, and former words taken back from a peer, sent again to every peer. */
    OVERFLOW_WORDS_RESENT(20, "overflow words resent"),
    /** Events a starting bridge found in the log, left by a bridge that died: dropped, too late to deliver. */
    STALE_EVENTS_DROPPED(21, "stale events dropped"),
    /** Node ids claimed on two hosts at once, each pair counted once. */
    DUPLICATE_NODE_IDS(22, "duplicate node ids"),
    /** Messages refused: another version, a bad length, an unknown host or type, another memory size. */
    BAD_MESSAGES(23, "bad messages"),
    /** Writers that died in the middle of a log record, skipped by the bridge. */
    LOG_UNBLOCKS(24, "log records unblocked"),
    /** Streams to a peer the media driver refused to start (its network unreachable); tried again. */
    PUBLICATION_ERRORS(25, "publication errors"),
    /** Errors the Aeron client reported (the media driver keeps its own in its error log). */
    AERON_ERRORS(26, "Aeron client errors"),
    /** A resync request asked again: neither answer nor progress for half the peer time-out. */
    RESYNCS_ASKED_AGAIN(27, "resyncs asked again"),
    /**
     * Events from peers a node of this host did not take in time: its card's FIFO for the type was full. The write
     * before each was applied; the card counts it too ({@code FIFO_OVERFLOWS}).
     */
    EVENTS_DROPPED_NODE_BEHIND(28, "events dropped, node behind"),
    /**
     * Frames from peers not moved into a node's DMA ring because the ring stayed full (the node did not release its
     * slots in time); the card counts it too ({@code DMA_DROPPED}). The frame's words are in the image.
     */
    DMA_DROPPED_NODE_BEHIND(29, "DMA transfers dropped, node behind"),
    /**
     * Words of this host a peer gave back after this host's image started empty (its bridge file made new), taken
     * where nothing newer was written here since; each is then sent again to every peer.
     */
    FORMER_WORDS_TAKEN_BACK(30, "former words taken back"),
    /**
     * Polls of the peers' messages cut short because deliveries had waited a quarter of the peer time-out (for nodes
     * whose DMA rings ask to be waited for): the duty cycle ran its timers before applying the rest.
     */
    INBOUND_POLLS_CUT(31, "inbound polls cut short");

    /** Counter slots in the bridge file. */
    public static final int SLOT_COUNT = 64;

    private static final BridgeCounter[] BY_ID = new BridgeCounter[SLOT_COUNT];

    static
    {
        for (final BridgeCounter counter : values())
        {
            if (BY_ID[counter.id] != null)
            {
                throw new AssertionError("bridge counter id " + counter.id + " taken twice");
            }
            BY_ID[counter.id] = counter;
        }
    }

    private final int id;
    private final String label;

    BridgeCounter(final int id, final String label)
    {
        this.id = id;
        this.label = label;
    }

    /**
     * @return the stable id, the counter's slot.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return a short human label.
     */
    public String label()
    {
        return label;
    }

    /**
     * @param id a slot.
     * @return the counter in that slot, or null.
     */
    public static BridgeCounter fromId(final int id)
    {
        return id >= 0 && id < SLOT_COUNT ? BY_ID[id] : null;
    }
}
