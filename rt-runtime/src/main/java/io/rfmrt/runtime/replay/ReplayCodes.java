package io.rfmrt.runtime.replay;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameStatus;
import io.rfmrt.runtime.RuntimeCounter;

/**
 * What the numbers in journal records mean to a replay: fault codes, state ids, sample kinds, and the slots of a
 * counter snapshot. The runtime writes frame faults with {@link FrameStatus#id()}s; the control loop (module
 * control-loop, which this module does not know) writes its faults, watchdog states and samples with the ids below,
 * which must stay equal to its enums' ids ({@code io.rfmrt.control.AxisState#id()}).
 *
 * <p>A COUNTERS record is read as a snapshot of cumulative values in this order (a producer that journals counters
 * lays them out so): {@link RuntimeCounter} ids from {@link #COUNTERS_RUNTIME_BASE}, {@link FrameCounter} ids from
 * {@link #COUNTERS_FRAME_BASE}, {@link RfmCounter} slots from {@link #COUNTERS_RFM_BASE};
 * {@value #COUNTERS_LENGTH_TEXT} values in all. A shorter snapshot leaves what it lacks as "n/a".
 */
public final class ReplayCodes
{
    /** Fault code of a control cycle that missed its deadline: seq = cycle, value = lateness ns. */
    public static final int FAULT_DEADLINE_MISS = 100;
    /** Fault code of a command the plant found stale: seq = cycle, value = age ns. */
    public static final int FAULT_COMMAND_STALE = 101;
    /** Fault code of a runtime thread that failed (the node then stops): seq = thread id, value = errors so far. */
    public static final int FAULT_THREAD_FAILED = 102;
    /** Fault code of a frame from a restarted publisher, taken as its first: seq = its seq, value = source node. */
    public static final int FAULT_PUBLISHER_RESTART = 103;
    /**
     * Fault code of a stall a node measured itself, a wake-up later than one period: seq = cycle or frame, value =
     * duration ns, nanos = when the thread should have run.
     */
    public static final int FAULT_STALL = 104;

    /** STATE id of an axis starting (AxisState.STARTING). */
    public static final int STATE_STARTING = 0;
    /** STATE id of an axis running (AxisState.RUNNING). */
    public static final int STATE_RUNNING = 1;
    /** STATE id of an axis held safe (AxisState.SAFE): a transition to it is a watchdog trip. */
    public static final int STATE_SAFE = 2;
    /** STATE id of an axis recovering (AxisState.RECOVERING). */
    public static final int STATE_RECOVERING = 3;

    /** SAMPLE kind of a control cycle's outputs: setpoint, position, velocity, torque, error, latency µs. */
    public static final int SAMPLE_CONTROL = 1;
    /** SAMPLE kind of a control cycle's inputs: integrator, setpoint v/a/j, sensor position, velocity. */
    public static final int SAMPLE_CONTROL_INPUT = 2;

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

    private static final String[] STATE_NAMES = {"STARTING", "RUNNING", "SAFE", "RECOVERING"};

    private ReplayCodes()
    {
    }

    /**
     * @param code a fault code.
     * @return its name: a {@link FrameStatus} name, {@code DEADLINE_MISS}, {@code COMMAND_STALE} or {@code code N}.
     */
    public static String faultName(final int code)
    {
        if (code == FAULT_DEADLINE_MISS)
        {
            return "DEADLINE_MISS";
        }
        if (code == FAULT_COMMAND_STALE)
        {
            return "COMMAND_STALE";
        }
        if (code == FAULT_THREAD_FAILED)
        {
            return "THREAD_FAILED";
        }
        if (code == FAULT_PUBLISHER_RESTART)
        {
            return "PUBLISHER_RESTART";
        }
        if (code == FAULT_STALL)
        {
            return "STALL";
        }
        final FrameStatus status = FrameStatus.fromId(code);
        if (status != null && status != FrameStatus.OK)
        {
            return status.name();
        }
        return "code " + code;
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
     * @param id a STATE id.
     * @return its name, or {@code state N}.
     */
    public static String stateName(final int id)
    {
        return id >= 0 && id < STATE_NAMES.length ? STATE_NAMES[id] : "state " + id;
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
