package com.example;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.AppSettings;
import io.rfmrt.runtime.CpuPlacement;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.NodeAgent;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.rfmrt.control.node.ControlFrames.*;

/**
 * A user's own control law: a P position loop around a P velocity loop with velocity and acceleration feed-forward
 * (no integrator), on the demo's layout and payloads ({@link ControlFrames}), against the demo plant
 * ({@code app: plant}). Run it with {@code app: {class: com.example.PdController, positionGain: 120}} and this jar in
 * the release's {@code conf/lib/}.
 * <p>
 * {@link #onSensor} runs on the node's consumer thread for every sensor frame: it reads, computes, publishes the
 * command and journals one SAMPLE record, allocating nothing and never blocking (the test proves it).
 */
public final class PdController implements NodeApp
{
    /**
     * The settings under {@code app:}; a key not given keeps its default.
     *
     * @param rateHz        the plant's rate (default 1000).
     * @param positionGain  velocity reference per rad of position error, 1/s (default 120).
     * @param velocityGain  torque per rad/s of velocity error, N·m·s/rad (default 0.075).
     * @param inertia       torque per rad/s² of setpoint acceleration, kg·m² (default 2e-4).
     * @param torqueLimit   clamp on the torque, N·m (default 0.5).
     */
    public record Settings(Integer rateHz, Double positionGain, Double velocityGain, Double inertia,
        Double torqueLimit)
    {
        /** Defaults and checks. */
        public Settings
        {
            rateHz = rateHz == null ? 1000 : rateHz;
            positionGain = positionGain == null ? 120.0 : positionGain;
            velocityGain = velocityGain == null ? 0.075 : velocityGain;
            inertia = inertia == null ? 2e-4 : inertia;
            torqueLimit = torqueLimit == null ? 0.5 : torqueLimit;
            if (rateHz < 100 || rateHz > 10_000)
            {
                throw new IllegalArgumentException("rateHz " + rateHz + " is not 100..10000");
            }
            if (positionGain <= 0 || velocityGain <= 0 || inertia < 0 || torqueLimit <= 0)
            {
                throw new IllegalArgumentException("gains and the torque limit must be positive");
            }
        }
    }

    /**
     * What the node prints as its result line when it stops.
     *
     * @param cycles      sensor frames answered.
     * @param trackingRms RMS position error, rad.
     */
    public record Result(long cycles, double trackingRms)
    {
    }

    private Settings settings = new Settings(null, null, null, null, null);
    private final DemoProfile profile = DemoProfile.standard();
    private final Setpoint setpoint = new Setpoint();
    private final UnsafeBuffer command = new UnsafeBuffer(new byte[COMMAND_LENGTH]);
    private FramePublisher publisher;
    private JournalWriter journal;
    private double dt;
    private long cycles;
    /** The last sensor cycle handled, for the done-watch (written by the handler). */
    private final AtomicLong lastCycle = new AtomicLong();
    private int lastWord;
    private double sumSquaredError;
    private RfmNode node;

    @Override
    public void configure(final AppSettings given)
    {
        final Settings s = given.bind(Settings.class);
        if (s != null)
        {
            settings = s;
        }
    }

    @Override
    public void onStart(final RfmNode node)
    {
        this.node = node;
        this.dt = 1.0 / settings.rateHz();
        this.publisher = new FramePublisher(node.device(), COMMAND);
        this.journal = node.journal() == null ? null : node.journal().newWriter("controller");
        // this law's rate, for the plant to check against its own (docs/extending.md, "Running again")
        node.device().window().putLongRelease(CONTROLLER_RATE_OFFSET, settings.rateHz());
    }

    @Override
    public void onStop(final RfmNode node)
    {
        node.device().window().putLongRelease(CONTROLLER_RATE_OFFSET, 0);
    }

    @Override
    public FrameHandler handler()
    {
        return this::onSensor;
    }

    /**
     * The hot path: one sensor frame in, one command frame out.
     *
     * @param frame  the sensor frame.
     * @param stamps its stamps.
     */
    void onSensor(final FrameView frame, final StageStamps stamps)
    {
        final DirectBuffer b = frame.buffer();
        final int p = frame.payloadOffset();
        final long cycle = b.getLong(p + SENSOR_CYCLE_OFFSET);
        final double position = b.getDouble(p + SENSOR_POSITION_OFFSET);
        final double velocity = b.getDouble(p + SENSOR_VELOCITY_OFFSET);
        cycles++;
        lastCycle.setRelease(cycle);
        profile.setpoint(cycles * dt, setpoint);
        final double error = setpoint.position() - position;
        final double velocityReference = settings.positionGain() * error + setpoint.velocity();
        final double torque = Math.max(-settings.torqueLimit(), Math.min(settings.torqueLimit(),
            settings.inertia() * setpoint.acceleration() + settings.velocityGain() * (velocityReference - velocity)));
        sumSquaredError += error * error;

        command.putDouble(COMMAND_TORQUE_OFFSET, torque);
        command.putLong(COMMAND_CYCLE_OFFSET, cycle);
        command.putDouble(COMMAND_SETPOINT_OFFSET, setpoint.position());
        command.putLong(COMMAND_STATE_OFFSET, AxisState.RUNNING.ordinal());
        // the plant drives only on the operate control word (enable operation, brake released); anything else brakes.
        // A drive that faulted (its command timed out: this node or the plant was held up) stays faulted until it sees
        // a rising edge of the fault-reset bit: this law resets it at once, raising the bit every other frame
        final int word = (b.getInt(p + SENSOR_STATUS_WORD_OFFSET) & SW_FAULT) == 0 ? CW_OPERATE :
            (lastWord & CW_FAULT_RESET) == 0 ? CW_SHUTDOWN | CW_FAULT_RESET : CW_SHUTDOWN;
        lastWord = word;
        command.putInt(COMMAND_CONTROL_WORD_OFFSET, word);
        command.putInt(COMMAND_VERSION_OFFSET, PAYLOAD_VERSION);
        publisher.publish(command, 0, COMMAND_LENGTH, 0);
        if (journal != null)
        {
            final long written = System.nanoTime();
            journal.sample(SAMPLE_CONTROL, written, cycle, AxisState.RUNNING.ordinal(), setpoint.position(),
                position, velocity, torque, error, (written - frame.sendNanos()) / 1e3);
        }
    }

    @Override
    public List<NodeAgent> agents()
    {
        // a housekeeping thread: stop the node once the plant says it is done. The plant clears the word before its
        // first frame: a word left set by the run before on the same network counts only until a frame of this run came
        return List.of(new NodeAgent(new Agent()
        {
            @Override
            public int doWork()
            {
                if (lastCycle.getAcquire() != 0 && node.device().window().getLongAcquire(PLANT_DONE_OFFSET) != 0)
                {
                    node.terminate();
                }
                return 0;
            }

            @Override
            public String roleName()
            {
                return "example-done-watch";
            }
        }, CpuPlacement.HOUSEKEEPING, new SleepingMillisIdleStrategy(10)));
    }

    @Override
    public Result result()
    {
        return new Result(cycles, cycles == 0 ? 0 : Math.sqrt(sumSquaredError / cycles));
    }
}
