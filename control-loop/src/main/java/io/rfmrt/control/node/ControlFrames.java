package io.rfmrt.control.node;

import io.rfmrt.control.Cia402Drive;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.runtime.NodeContext;
import org.agrona.MutableDirectBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.agrona.BitUtil.SIZE_OF_DOUBLE;
import static org.agrona.BitUtil.SIZE_OF_INT;
import static org.agrona.BitUtil.SIZE_OF_LONG;

/**
 * The motion-control demo's layout, payloads and journal codes.
 * <pre>
 * sensor  frame (plant 1 → controller 2, INTR1)
 *   0 position f64 [rad] |  8 velocity f64 [rad/s] | 16 cycle i64          | 24 plant send nanos i64
 *  32 status word i32    | 36 payload version i32 (= PAYLOAD_VERSION)
 * command frame (controller 2 → plant 1, INTR2)
 *   0 torque f64 [N·m]   |  8 cycle i64 answered   | 16 setpoint f64 [rad] | 24 state i64 (AxisState id)
 *  32 control word i32   | 36 payload version i32 (= PAYLOAD_VERSION)
 * </pre>
 * The control and status words take CiA 402's bits (docs/protocol.md lists them); a frame of another payload version
 * is not acted on.
 * Journal records: the codes are {@link ControlJournal}'s (repeated here for the nodes that write them).
 */
public final class ControlFrames
{
    /** Plant node id. */
    public static final int PLANT_NODE = 1;
    /** Controller node id. */
    public static final int CONTROLLER_NODE = 2;

    /** Name of the layout resource beside this class: deploy/conf/layout.yaml, packaged by the build. */
    public static final String LAYOUT_RESOURCE = "layout.yaml";

    /**
     * The control layout, read from deploy/conf/layout.yaml (packaged beside this class): the one source of the
     * channels below. The ring sizes (2048 slots, chosen for 10 kHz) and their reasons are in that file.
     */
    public static final ChannelLayout LAYOUT = ChannelLayout.parse(LAYOUT_RESOURCE, layoutText());

    /** Sensor frames, plant → controller: the layout's {@code axis.sensor}. */
    public static final ChannelSpec SENSOR = LAYOUT.channel("axis.sensor").orElseThrow();
    /** Command frames, controller → plant: the layout's {@code axis.command}. */
    public static final ChannelSpec COMMAND = LAYOUT.channel("axis.command").orElseThrow();

    /** Slots of each channel ring and of each node's DMA ring (the layout's, 2048: see its comment). */
    public static final int RING_SLOTS = SENSOR.slots();
    /** Bytes per slot: the 32-byte header and a 40-byte payload, rounded up. */
    public static final int SLOT_SIZE = SENSOR.slotSize();

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
    public static final int SENSOR_STATUS_WORD_OFFSET = SENSOR_SEND_NANOS_OFFSET + SIZE_OF_LONG;
    public static final int SENSOR_VERSION_OFFSET = SENSOR_STATUS_WORD_OFFSET + SIZE_OF_INT;
    public static final int SENSOR_LENGTH = SENSOR_VERSION_OFFSET + SIZE_OF_INT;

    /** Version of the two payloads: 1 had no control or status word; 2 added them at offset 32. */
    public static final int PAYLOAD_VERSION = 2;

    /** Control word bit 0 (CiA 402): switch on. */
    public static final int CW_SWITCH_ON = Cia402Drive.CW_SWITCH_ON;
    /** Control word bit 1: enable voltage. */
    public static final int CW_ENABLE_VOLTAGE = Cia402Drive.CW_ENABLE_VOLTAGE;
    /** Control word bit 2: quick stop, active low (0 = quick stop requested). */
    public static final int CW_QUICK_STOP = Cia402Drive.CW_QUICK_STOP;
    /** Control word bit 3: enable operation. */
    public static final int CW_ENABLE_OPERATION = Cia402Drive.CW_ENABLE_OPERATION;
    /** Control word bit 7: fault reset (acted on at its rising edge). */
    public static final int CW_FAULT_RESET = Cia402Drive.CW_FAULT_RESET;
    /** Control word bit 14 (manufacturer specific): release the holding brake. */
    public static final int CW_BRAKE_RELEASE = Cia402Drive.CW_BRAKE_RELEASE;
    /** The command CiA 402 calls "enable operation", with the brake released: the only word the plant drives on. */
    public static final int CW_OPERATE = Cia402Drive.CW_OPERATE;
    /** CiA 402 "shutdown" with the brake engaged: what the controller sends in STARTING, SAFE and RECOVERING. */
    public static final int CW_SHUTDOWN = Cia402Drive.CW_SHUTDOWN;
    /**
     * CiA 402 "quick stop" (enable voltage, quick stop bit clear): the fault reaction. A drive that was enabled ramps the
     * axis to rest at its quick-stop deceleration, then engages the brake.
     */
    public static final int CW_QUICK_STOP_COMMAND = Cia402Drive.CW_QUICK_STOP_COMMAND;

    /** Status word bit 0 (CiA 402): ready to switch on. */
    public static final int SW_READY_TO_SWITCH_ON = Cia402Drive.SW_READY_TO_SWITCH_ON;
    /** Status word bit 1: switched on. */
    public static final int SW_SWITCHED_ON = Cia402Drive.SW_SWITCHED_ON;
    /** Status word bit 2: operation enabled. */
    public static final int SW_OPERATION_ENABLED = Cia402Drive.SW_OPERATION_ENABLED;
    /** Status word bit 3: fault (the drive faulted; only a fault reset edge leaves it). */
    public static final int SW_FAULT = Cia402Drive.SW_FAULT;
    /** Status word bit 5: quick stop, active low (0 = a quick stop is running). */
    public static final int SW_QUICK_STOP = Cia402Drive.SW_QUICK_STOP;
    /** Status word bit 6: switch on disabled. */
    public static final int SW_SWITCH_ON_DISABLED = Cia402Drive.SW_SWITCH_ON_DISABLED;
    /** Status word bit 14 (manufacturer specific): the holding brake holds (engaged, or not yet released). */
    public static final int SW_BRAKE_ENGAGED = Cia402Drive.SW_BRAKE_ENGAGED;

    public static final int COMMAND_TORQUE_OFFSET = 0;
    public static final int COMMAND_CYCLE_OFFSET = COMMAND_TORQUE_OFFSET + SIZE_OF_DOUBLE;
    public static final int COMMAND_SETPOINT_OFFSET = COMMAND_CYCLE_OFFSET + SIZE_OF_LONG;
    public static final int COMMAND_STATE_OFFSET = COMMAND_SETPOINT_OFFSET + SIZE_OF_DOUBLE;
    public static final int COMMAND_CONTROL_WORD_OFFSET = COMMAND_STATE_OFFSET + SIZE_OF_LONG;
    public static final int COMMAND_VERSION_OFFSET = COMMAND_CONTROL_WORD_OFFSET + SIZE_OF_INT;
    public static final int COMMAND_LENGTH = COMMAND_VERSION_OFFSET + SIZE_OF_INT;

    /** FAULT code: the command was written after the deadline. */
    public static final int FAULT_DEADLINE_MISS = ControlJournal.FAULT_DEADLINE_MISS;
    /** FAULT code: the plant's newest command was too old; it braked. */
    public static final int FAULT_COMMAND_STALE = ControlJournal.FAULT_COMMAND_STALE;
    /** FAULT code: a thread of the node woke later than one period (a stall it measured itself). */
    public static final int FAULT_STALL = ControlJournal.FAULT_STALL;
    /** FAULT code: the axis faulted on its following error. */
    public static final int FAULT_FOLLOWING_ERROR = ControlJournal.FAULT_FOLLOWING_ERROR;
    /** FAULT code: the plant missed ticks. */
    public static final int FAULT_MISSED_TICKS = ControlJournal.FAULT_MISSED_TICKS;
    /** FAULT code: a command reached the plant late. */
    public static final int FAULT_LATE_COMMAND = ControlJournal.FAULT_LATE_COMMAND;
    /** FAULT code: the controller skipped a sensor frame because a newer one was there. */
    public static final int FAULT_FRAME_SKIPPED = ControlJournal.FAULT_FRAME_SKIPPED;
    /** FAULT code: the plant's drive faulted. */
    public static final int FAULT_DRIVE_FAULT = ControlJournal.FAULT_DRIVE_FAULT;
    /** Why a drive faulted: command timeout. */
    public static final int DRIVE_FAULT_COMMAND_TIMEOUT = ControlJournal.DRIVE_FAULT_COMMAND_TIMEOUT;
    /** SAMPLE kind: one control cycle. */
    public static final int SAMPLE_CONTROL = ControlJournal.SAMPLE_CONTROL;
    /** SAMPLE kind: the controller's inputs of one cycle, for re-runs. */
    public static final int SAMPLE_CONTROL_INPUT = ControlJournal.SAMPLE_CONTROL_INPUT;
    /** SAMPLE kind: the plant's state each period (position, velocity, applied torque, braking 0/1). */
    public static final int SAMPLE_PLANT = ControlJournal.SAMPLE_PLANT;

    /** Offset of a word the plant sets when it has published its last frame (cycle count): layout variable
     * {@code plant.done}. */
    public static final int PLANT_DONE_OFFSET = (int)LAYOUT.variable("plant.done").orElseThrow().offset();
    /** Offset of the plant's {@code app.rateHz}, written when it starts (layout variable {@code plant.rateHz}). */
    public static final int PLANT_RATE_OFFSET = (int)LAYOUT.variable("plant.rateHz").orElseThrow().offset();
    /** Offset of the controller's {@code app.rateHz}, written when it starts ({@code controller.rateHz}). */
    public static final int CONTROLLER_RATE_OFFSET =
        (int)LAYOUT.variable("controller.rateHz").orElseThrow().offset();

    /**
     * The one line refusing a run whose two sides were given different rates.
     *
     * @param here     this side's name.
     * @param hereHz   its rate.
     * @param there    the other side's name.
     * @param thereHz  the other side's rate, as it wrote it.
     * @return the line.
     */
    public static String rateMismatch(final String here, final long hereHz, final String there, final long thereHz)
    {
        return here + " app.rateHz " + hereHz + " differs from the " + there + "'s " + thereHz +
            " (layout word " + there + ".rateHz): give both nodes the same rate";
    }

    /**
     * The checks a control node's app makes of its node: it journals every period, and takes its one input channel.
     *
     * @param app      the app's name ({@code controller}, {@code plant}).
     * @param period   what it journals ({@code every cycle}, {@code every period}).
     * @param input    its input channel.
     * @param ctx      the node's context.
     * @param problems receives one line per problem.
     */
    static void checkApp(final String app, final String period, final ChannelSpec input, final NodeContext ctx,
        final List<String> problems)
    {
        if (!ctx.journalEnabled())
        {
            problems.add("app " + app + " journals " + period + ": journal.enabled must be true");
        }
        if (!ctx.inputs().equals(List.of(input)))
        {
            problems.add("app " + app + " takes the layout's '" + input.name() + "' channel as its one input " +
                "(receive.channels: [" + input.name() + "])");
        }
    }

    /**
     * Write a sensor payload.
     *
     * @param payload     the buffer, {@link #SENSOR_LENGTH} bytes.
     * @param position    the measured position, rad.
     * @param velocity    the measured velocity, rad/s.
     * @param cycle       the plant's cycle.
     * @param sendNanos   the plant's stamp.
     * @param statusWord  the drive's CiA 402 status word.
     */
    static void putSensor(final MutableDirectBuffer payload, final double position, final double velocity,
        final long cycle, final long sendNanos, final int statusWord)
    {
        payload.putDouble(SENSOR_POSITION_OFFSET, position);
        payload.putDouble(SENSOR_VELOCITY_OFFSET, velocity);
        payload.putLong(SENSOR_CYCLE_OFFSET, cycle);
        payload.putLong(SENSOR_SEND_NANOS_OFFSET, sendNanos);
        payload.putInt(SENSOR_STATUS_WORD_OFFSET, statusWord);
        payload.putInt(SENSOR_VERSION_OFFSET, PAYLOAD_VERSION);
    }

    /**
     * Write a command payload.
     *
     * @param payload     the buffer, {@link #COMMAND_LENGTH} bytes.
     * @param torque      the torque, N·m.
     * @param cycle       the sensor cycle it answers.
     * @param setpoint    the setpoint position, rad.
     * @param state       the axis state id.
     * @param controlWord the CiA 402 control word.
     */
    static void putCommand(final MutableDirectBuffer payload, final double torque, final long cycle,
        final double setpoint, final int state, final int controlWord)
    {
        payload.putDouble(COMMAND_TORQUE_OFFSET, torque);
        payload.putLong(COMMAND_CYCLE_OFFSET, cycle);
        payload.putDouble(COMMAND_SETPOINT_OFFSET, setpoint);
        payload.putLong(COMMAND_STATE_OFFSET, state);
        payload.putInt(COMMAND_CONTROL_WORD_OFFSET, controlWord);
        payload.putInt(COMMAND_VERSION_OFFSET, PAYLOAD_VERSION);
    }

    /**
     * @return the text of the control layout (deploy/conf/layout.yaml as packaged), to write beside node configs.
     */
    public static String layoutText()
    {
        try (InputStream in = ControlFrames.class.getResourceAsStream(LAYOUT_RESOURCE))
        {
            if (in == null)
            {
                throw new IllegalStateException("the control layout " + LAYOUT_RESOURCE + " is not packaged");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private ControlFrames()
    {
    }
}
