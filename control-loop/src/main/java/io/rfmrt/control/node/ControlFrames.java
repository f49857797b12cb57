package io.rfmrt.control.node;

import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.channel.ChannelSpec;

import static org.agrona.BitUtil.SIZE_OF_DOUBLE;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * The motion-control demo's layout, payloads and journal codes.
 * <pre>
 * sensor  frame (plant 1 → controller 2, INTR1)
 *   0 position f64 [rad] |  8 velocity f64 [rad/s] | 16 cycle i64          | 24 plant send nanos i64
 * command frame (controller 2 → plant 1, INTR2)
 *   0 torque f64 [N·m]   |  8 cycle i64 answered   | 16 setpoint f64 [rad] | 24 state i64 (AxisState id)
 * </pre>
 * Journal records: the codes are {@link ControlJournal}'s (repeated here for the nodes that write them).
 */
public final class ControlFrames
{
    /** Plant node id. */
    public static final int PLANT_NODE = 1;
    /** Controller node id. */
    public static final int CONTROLLER_NODE = 2;

    /**
     * Slots of each channel ring and of each node's DMA ring. A node that is held up receives nothing: if the whole
     * node stalls (its ISR-wake thread too) only the channel ring in reflective memory holds the frames published
     * meanwhile, and if only the consumer stalls the DMA ring fills first and then the channel ring. Both are sized
     * from the worst stall the demo measured itself (docs/control.md, "Stalls"): about 55 ms on a loaded 2-vCPU VM
     * without an RT kernel, 550 frames at the highest rate (10 kHz). 2048 slots are four times that: 205 ms at
     * 10 kHz, 2 s at 1 kHz. The cost is memory only: 256 KiB of each ring (128-byte slots) in the network image and in
     * the DMA buffers; 16 slots (1.6 ms at 10 kHz) and a 64-slot DMA ring (6.4 ms) lost frames at the first stall.
     */
    public static final int RING_SLOTS = 2048;
    /** Bytes per slot: the 32-byte header and a 32-byte payload, rounded up. */
    public static final int SLOT_SIZE = 128;

    /** Sensor frames, plant → controller. */
    public static final ChannelSpec SENSOR = new ChannelSpec("sensor", PLANT_NODE, 0x10000, RING_SLOTS, SLOT_SIZE,
        EventType.INTR1, CONTROLLER_NODE);
    /** Command frames, controller → plant (right after the sensor ring). */
    public static final ChannelSpec COMMAND = new ChannelSpec("command", CONTROLLER_NODE,
        0x10000 + (long)RING_SLOTS * SLOT_SIZE, RING_SLOTS, SLOT_SIZE, EventType.INTR2, PLANT_NODE);

    /**
     * @param network the emulated network.
     * @param node    this node.
     * @return the device URI of a demo node: a DMA ring of {@link #RING_SLOTS} slots.
     */
    public static String deviceUri(final String network, final int node)
    {
        return "sim:" + network + "?node=" + node + "&dmaSlots=" + RING_SLOTS + "&dmaSlotSize=" + SLOT_SIZE;
    }

    public static final int SENSOR_POSITION_OFFSET = 0;
    public static final int SENSOR_VELOCITY_OFFSET = SENSOR_POSITION_OFFSET + SIZE_OF_DOUBLE;
    public static final int SENSOR_CYCLE_OFFSET = SENSOR_VELOCITY_OFFSET + SIZE_OF_DOUBLE;
    public static final int SENSOR_SEND_NANOS_OFFSET = SENSOR_CYCLE_OFFSET + SIZE_OF_LONG;
    public static final int SENSOR_LENGTH = SENSOR_SEND_NANOS_OFFSET + SIZE_OF_LONG;

    public static final int COMMAND_TORQUE_OFFSET = 0;
    public static final int COMMAND_CYCLE_OFFSET = COMMAND_TORQUE_OFFSET + SIZE_OF_DOUBLE;
    public static final int COMMAND_SETPOINT_OFFSET = COMMAND_CYCLE_OFFSET + SIZE_OF_LONG;
    public static final int COMMAND_STATE_OFFSET = COMMAND_SETPOINT_OFFSET + SIZE_OF_DOUBLE;
    public static final int COMMAND_LENGTH = COMMAND_STATE_OFFSET + SIZE_OF_LONG;

    /** FAULT code: the command was written after the deadline. */
    public static final int FAULT_DEADLINE_MISS = ControlJournal.FAULT_DEADLINE_MISS;
    /** FAULT code: the plant's newest command was too old; it braked. */
    public static final int FAULT_COMMAND_STALE = ControlJournal.FAULT_COMMAND_STALE;
    /** FAULT code: a thread of the node woke later than one period (a stall it measured itself). */
    public static final int FAULT_STALL = ControlJournal.FAULT_STALL;
    /** SAMPLE kind: one control cycle. */
    public static final int SAMPLE_CONTROL = ControlJournal.SAMPLE_CONTROL;
    /** SAMPLE kind: the controller's inputs of one cycle, for re-runs. */
    public static final int SAMPLE_CONTROL_INPUT = ControlJournal.SAMPLE_CONTROL_INPUT;
    /** SAMPLE kind: the plant's state each period (position, velocity, applied torque, braking 0/1). */
    public static final int SAMPLE_PLANT = ControlJournal.SAMPLE_PLANT;

    /** Offset of a word the plant sets when it has published its last frame (cycle count). */
    public static final int PLANT_DONE_OFFSET = 0x200;

    private ControlFrames()
    {
    }
}
