package io.rfmrt.runtime.journal;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.RuntimeCounter;

/**
 * The runtime's own journal codes: the faults it writes itself (frame faults by {@link FrameStatus}, a failed thread,
 * a restarted publisher) and the slots of a counter snapshot. Applications journal faults, states and samples of
 * their own with codes they register in a replay vocabulary; this module knows none of them.
 *
 * <p>A COUNTERS record is read as a snapshot of cumulative values in this order (a producer that journals counters
 * lays them out so): {@link RuntimeCounter} ids from {@link #COUNTERS_RUNTIME_BASE}, {@link FrameCounter} ids from
 * {@link #COUNTERS_FRAME_BASE}, {@link RfmCounter} slots from {@link #COUNTERS_RFM_BASE};
 * {@value #COUNTERS_LENGTH_TEXT} values in all. A shorter snapshot leaves what it lacks as "n/a".
 */
public final class JournalCodes
{
    /** Fault code of a runtime thread that failed (the node then stops): seq = thread id, value = errors so far. */
    public static final int FAULT_THREAD_FAILED = 102;
    /** Fault code of a frame from a restarted publisher, taken as its first: seq = its seq, value = source node. */
    public static final int FAULT_PUBLISHER_RESTART = 103;

    /** First slot of the runtime counters in a COUNTERS snapshot. */
    public static final int COUNTERS_RUNTIME_BASE = 0;
    /** First slot of the frame counters in a COUNTERS snapshot. */
    public static final int COUNTERS_FRAME_BASE = COUNTERS_RUNTIME_BASE + RuntimeCounter.COUNT;
    /** First slot of the card counters in a COUNTERS snapshot. */
    public static final int COUNTERS_RFM_BASE = COUNTERS_FRAME_BASE + FrameCounter.COUNT;
    /** Values in a full COUNTERS snapshot. */
    public static final int COUNTERS_LENGTH = COUNTERS_RFM_BASE + RfmCounter.SLOT_COUNT;
    /** For the javadoc. */
    static final String COUNTERS_LENGTH_TEXT = "11 + 10 + 128 = 149";

    private JournalCodes()
    {
    }

    /**
     * @param status a frame status.
     * @return the fault code a frame fault of that status is journalled with.
     */
    public static int frameFaultCode(final FrameStatus status)
    {
        return status.id();
    }

    /**
     * @param code a fault code.
     * @return whether it is a frame fault, whose value is the source node.
     */
    public static boolean isFrameFault(final int code)
    {
        final FrameStatus status = FrameStatus.fromId(code);
        return status != null && status != FrameStatus.OK;
    }

    /**
     * @param snapshot counter values as journalled.
     * @param count    how many there are.
     * @return FIFO overflows over every event type, or -1 when the snapshot is too short.
     */
    public static long fifoOverflows(final long[] snapshot, final int count)
    {
        long sum = 0;
        for (final EventType type : EventType.values())
        {
            final int slot = COUNTERS_RFM_BASE + RfmCounter.FIFO_OVERFLOWS.slot(type);
            if (slot >= count)
            {
                return -1;
            }
            sum += snapshot[slot];
        }
        return sum;
    }

    /**
     * @param snapshot counter values as journalled.
     * @param count    how many there are.
     * @return journal drops, or -1 when the snapshot is too short.
     */
    public static long journalDrops(final long[] snapshot, final int count)
    {
        final int slot = COUNTERS_RUNTIME_BASE + RuntimeCounter.JOURNAL_DROPS.id();
        return slot < count ? snapshot[slot] : -1;
    }
}
