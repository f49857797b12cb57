package io.rfmrt.runtime.counters;

import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.runtime.RuntimeCounter;

/**
 * The stable type ids and counter ids of a node's counters file (the table in docs/counters.md). A counter's id is
 * fixed by what it counts, never by the order a node happened to allocate in: each kind has its own block of ids
 * and unused ids inside a block hold a {@link #TYPE_RESERVED} placeholder. Ids never change meaning; new counters
 * take free ids of their block.
 * <pre>
 *   0 ..  31   runtime counters        type 101, id = RuntimeCounter id
 *  32 ..  63   card counters           type 102, id = 32 + position in CARD_ORDER
 *  64 ..  71   journal counters        type 103, id = 64 + JournalCounter id
 *  72 ..  79   app counters            type 105, id = 72 + AppCounter id
 *  80 + 16 c   frame counters of input channel c (0, 1, ... in the node's input order)
 *              type 104, id = 80 + 16 c + FrameCounter id
 * </pre>
 */
public final class CounterIds
{
    /** Type id of a placeholder that keeps a block's unused ids; readers skip it. */
    public static final int TYPE_RESERVED = 100;
    /** Type id of a runtime counter; key: int RuntimeCounter id. */
    public static final int TYPE_RUNTIME = 101;
    /** Type id of a card counter (summed over event types), set on each heartbeat; key: int RfmCounter id. */
    public static final int TYPE_CARD = 102;
    /** Type id of a journal counter, set on each heartbeat; key: int journal counter id. */
    public static final int TYPE_JOURNAL = 103;
    /** Type id of a frame counter of one input channel; key: int FrameCounter id, int channel index, int node. */
    public static final int TYPE_FRAME = 104;
    /** Type id of an app's figure, set by the app once a second; key: int AppCounter id. */
    public static final int TYPE_APP = 105;

    /** First id of the runtime block. */
    public static final int RUNTIME_BASE = 0;
    /** First id of the card block. */
    public static final int CARD_BASE = 32;
    /** First id of the journal block. */
    public static final int JOURNAL_BASE = 64;
    /** First id of the app block. */
    public static final int APP_BASE = 72;
    /** First id of the frame counters of channel 0. */
    public static final int FRAME_BASE = 80;
    /** Ids per input channel. */
    public static final int FRAME_STRIDE = 16;
    /** Most input channels a file has counters for (one per publishing node). */
    public static final int MAX_CHANNELS = 256;

    /** Card counters in id order: a new card counter is appended, never inserted. */
    static final RfmCounter[] CARD_ORDER = {
        RfmCounter.EVENTS_SENT, RfmCounter.EVENTS_RECEIVED, RfmCounter.FIFO_OVERFLOWS, RfmCounter.EVENTS_DISABLED,
        RfmCounter.SENDS_REFUSED, RfmCounter.SENDS_UNDELIVERED, RfmCounter.AWAIT_TIMEOUTS, RfmCounter.AWAIT_CANCELS,
        RfmCounter.INTERRUPTS_RAISED, RfmCounter.DMA_COMPLETED, RfmCounter.DMA_DROPPED,
        RfmCounter.DMA_BACKPRESSURE_STALLS, RfmCounter.DMA_REJECTED, RfmCounter.SYNC_LOSSES, RfmCounter.FIFO_FAULTS};

    /** Journal counter: records written to disk. */
    public static final int JOURNAL_WRITTEN = 0;
    /** Journal counter: records dropped because the journal ring was full. */
    public static final int JOURNAL_DROPPED = 1;
    /** Journal counter: records lost to write errors. */
    public static final int JOURNAL_WRITE_ERRORS = 2;
    static final String[] JOURNAL_LABELS = {"journal records written", "journal records dropped, ring full",
        "journal write errors"};

    static
    {
        if (RuntimeCounter.COUNT > CARD_BASE - RUNTIME_BASE || CARD_ORDER.length > JOURNAL_BASE - CARD_BASE ||
            JOURNAL_LABELS.length > APP_BASE - JOURNAL_BASE || AppCounter.COUNT > FRAME_BASE - APP_BASE ||
            FrameCounter.COUNT > FRAME_STRIDE ||
            CARD_ORDER.length != RfmCounter.values().length)
        {
            throw new ExceptionInInitializerError("a counter block overflows or a card counter has no id");
        }
    }

    private CounterIds()
    {
    }

    /**
     * @param counter a runtime counter.
     * @return its counter id.
     */
    public static int runtime(final RuntimeCounter counter)
    {
        return RUNTIME_BASE + counter.id();
    }

    /**
     * @param counter a card counter.
     * @return its counter id.
     */
    public static int card(final RfmCounter counter)
    {
        for (int i = 0; i < CARD_ORDER.length; i++)
        {
            if (CARD_ORDER[i] == counter)
            {
                return CARD_BASE + i;
            }
        }
        throw new IllegalArgumentException("card counter " + counter + " has no counter id");
    }

    /**
     * @param journalCounter {@link #JOURNAL_WRITTEN}, {@link #JOURNAL_DROPPED} or {@link #JOURNAL_WRITE_ERRORS}.
     * @return its counter id.
     */
    public static int journal(final int journalCounter)
    {
        return JOURNAL_BASE + journalCounter;
    }

    /**
     * @param counter an app figure.
     * @return its counter id.
     */
    public static int app(final AppCounter counter)
    {
        return APP_BASE + counter.id();
    }

    /**
     * @param channel the input channel's index.
     * @param counter a frame counter.
     * @return its counter id.
     */
    public static int frame(final int channel, final FrameCounter counter)
    {
        return FRAME_BASE + FRAME_STRIDE * channel + counter.id();
    }

    /**
     * @param channels input channels.
     * @return counter ids a file for them holds.
     */
    public static int capacity(final int channels)
    {
        return FRAME_BASE + FRAME_STRIDE * channels;
    }
}
