package io.rfmrt.control.node;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.DeadlineMonitor;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.FollowingError;
import io.rfmrt.control.RateCheck;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.TrajectoryRejoin;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.WakeLateness;
import io.rfmrt.control.Watchdog;
import io.rfmrt.control.WatchdogConfig;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.Lateness;
import io.rfmrt.control.node.NodeResults.LossCauses;
import io.rfmrt.control.node.NodeResults.ThreadHygiene;
import io.rfmrt.control.replay.GainsFile;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.CpuPlacement;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.NodeAgent;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.NodeAppFactory;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.runtime.config.AppSettings;
import io.rfmrt.runtime.config.ConfigException;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtThread;
import io.rfmrt.runtime.threads.ThreadStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static io.rfmrt.control.node.ControlFrames.*;

/**
 * The controller ({@code app: controller}), on the interrupt path: each sensor frame wakes the ISR-wake thread, the
 * node's consumer thread runs the control law (a pure function of state and input, {@link #handler()}) and writes
 * the command frame back. A deadline monitor checks sensor send → command written against a fraction of the period;
 * a watchdog agent ({@code rfmrt-watchdog}, a timer: a missing frame cannot wake anything) drives the axis to SAFE
 * (zero torque) when frames stop and back to RUNNING after M good frames. The trajectory clock advances only in
 * RUNNING, on the sensor's cycle number; after a recovery the trajectory is rejoined bumplessly: an S-curve from the
 * measured position at rest to the end of the segment it stopped in, then the profile from there
 * ({@link TrajectoryRejoin}). A monitor agent
 * ({@code rfmrt-monitor}, housekeeping) prints a line per second and stops the node when the plant says it is done.
 * <pre>
 * app:
 *   name: controller
 *   rateHz: 1000            # loop rate, 100..10000, and at least what RateCheck accepts (598 with the defaults)
 *   watchdogPriority: 75    # SCHED_FIFO priority of the watchdog timer (on the first RT core)
 *   followingErrorRad: 0.005         # position lag limit at rest
 *   followingErrorAtSpeedRad: 0.010  # the limit at the profile's top speed (scaled linearly in between)
 *   followingErrorFilterMs: 10       # lag above the limit for this long (in sensor cycles) faults the axis
 *   gains: {positionGainPerS: 60}    # ControllerGains settings; those not given keep the standard tune
 * </pre>
 * The trajectory starts on the sensor cycle on which the watchdog counted its M-th good frame (the cycle it went
 * RUNNING on), not on the cycle the handler first saw RUNNING, so the commands are a function of the sensor frames
 * alone: the same frames played again (`rfmrt replay --play`) give the same commands.
 */
public final class ControllerApp implements NodeApp
{
    /** The name {@code app:} gives. */
    public static final String NAME = "controller";
    /** Name of the watchdog timer's thread. */
    public static final String WATCHDOG_THREAD = "rfmrt-watchdog";
    /** Name of the monitor's thread. */
    public static final String MONITOR_THREAD = "rfmrt-monitor";
    private static final long HIGHEST_NS = 10_000_000_000L;
    /** Deadline misses kept with their times for matching against stalls; more are counted as not checked. */
    static final int MISSES_KEPT = 1 << 18;
    /** Watchdog trips kept with their times. */
    static final int TRIPS_KEPT = 4096;

    /**
     * The controller's settings.
     *
     * @param rateHz           loop rate (default 1000).
     * @param watchdogPriority the watchdog timer's SCHED_FIFO priority (default 75).
     * @param followingErrorRad        the position lag limit at rest, rad (default 0.005).
     * @param followingErrorAtSpeedRad the limit at the profile's top speed, rad (default 0.010).
     * @param followingErrorFilterMs   how long the lag may stay above the limit before the axis faults (default 10).
     * @param gains            {@link ControllerGains} settings by component name (default none: the standard tune).
     */
    public record Settings(Integer rateHz, Integer watchdogPriority, Double followingErrorRad,
        Double followingErrorAtSpeedRad, Double followingErrorFilterMs, java.util.Map<String, Object> gains)
    {
        /** Defaults and ranges. */
        public Settings
        {
            rateHz = rateHz == null ? 1000 : rateHz;
            watchdogPriority = watchdogPriority == null ? 75 : watchdogPriority;
            followingErrorRad = followingErrorRad == null ? 5e-3 : followingErrorRad;
            followingErrorAtSpeedRad = followingErrorAtSpeedRad == null ? Math.max(10e-3, followingErrorRad) :
                followingErrorAtSpeedRad;
            followingErrorFilterMs = followingErrorFilterMs == null ? 10.0 : followingErrorFilterMs;
            if (!(followingErrorRad > 0) || !(followingErrorAtSpeedRad >= followingErrorRad) ||
                !(followingErrorFilterMs > 0) || followingErrorFilterMs > 1000)
            {
                throw new IllegalArgumentException("followingErrorRad " + followingErrorRad + " must be > 0, " +
                    "followingErrorAtSpeedRad " + followingErrorAtSpeedRad + " >= followingErrorRad, " +
                    "followingErrorFilterMs " + followingErrorFilterMs + " in (0, 1000]");
            }
            if (rateHz < 100 || rateHz > 10_000)
            {
                throw new IllegalArgumentException("rateHz " + rateHz + " is not 100..10000");
            }
            if (watchdogPriority < 0 || watchdogPriority > 99)
            {
                throw new IllegalArgumentException("watchdogPriority " + watchdogPriority + " is not 0..99");
            }
        }
    }

    /** {@code app: controller}. */
    public static final class Factory implements NodeAppFactory
    {
        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public NodeApp create()
        {
            return new ControllerApp();
        }
    }

    private Settings settings = new Settings(null, null, null, null, null, null);
    private ControllerGains gains = ControllerGains.standard();
    private long periodNanos;
    private double dt;
    private AxisController controller;
    private final DemoProfile profile = DemoProfile.standard();
    private final ControllerState state = new ControllerState();
    private final SensorSample sample = new SensorSample();
    private final Setpoint setpoint = new Setpoint();
    private final ControlCommand command = new ControlCommand();
    private final UnsafeBuffer commandPayload = new UnsafeBuffer(new byte[COMMAND_LENGTH]);
    private DeadlineMonitor deadline;
    private final SingleWriterRecorder latency = new SingleWriterRecorder(1, HIGHEST_NS, 3);
    private final AtomicInteger axisState = new AtomicInteger(AxisState.STARTING.id());
    private final AtomicLong framesSeen = new AtomicLong();
    /** Frames handed to the watchdog timer, in order: cycle, sender stamp, handler start (single producer/consumer). */
    static final int WATCH_SLOTS = 1 << 13;
    private final long[] watchCycle = new long[WATCH_SLOTS];
    private final long[] watchStamp = new long[WATCH_SLOTS];
    private final long[] watchSeen = new long[WATCH_SLOTS];
    private final AtomicLong watchTaken = new AtomicLong();
    private final AtomicLong lastCycle = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private FramePublisher publisher;
    private JournalWriter journal;
    private JournalWriter watchdogJournal;
    private long trajectoryCycle;
    /** Sensor cycle minus trajectory cycle while RUNNING: the trajectory clock runs on the sensor's cycle number. */
    private long trajectoryOrigin;
    private FollowingError followingError;
    private final TrajectoryRejoin rejoin = TrajectoryRejoin.of(profile);
    private boolean rejoining;
    /** Cycles after entering RUNNING before the drive must report "operation enabled" (its answer takes a period). */
    static final int DRIVE_ENABLE_GRACE_CYCLES = 5;
    private long runningSinceCycle;
    private boolean driveTripPending;
    private long driveTripSince;
    /** The cycle on which the handler saw the drive not operating while RUNNING (the watchdog trips on a change). */
    private final AtomicLong driveTripCycle = new AtomicLong();
    private long rejoinStartCycle;
    /** The sensor cycle on which the watchdog went STARTING → RUNNING (written before it publishes the state). */
    private final AtomicLong runningFromCycle = new AtomicLong();
    /** The cycle the axis faulted on its following error (0: not faulted); written by the handler. */
    private final AtomicLong faultCycle = new AtomicLong();
    private long faultNanos;
    private long skippedFrames;
    private long sensorSeqOffset;
    private long movingCycles;
    private double movingSumSquaredError;
    private double movingMaxError;
    private double restMaxError;
    private int previousState = AxisState.STARTING.id();
    private double sumSquaredError;
    private double maxError;
    private long trackedCycles;
    private volatile double lastError;
    private WatchdogConfig watchdogConfig;
    private WakeLateness lateness;
    private WakeLateness timerLateness;
    private final long[] missFrom = new long[MISSES_KEPT];
    private final long[] missTo = new long[MISSES_KEPT];
    private long missesLateWake;
    private final long[] tripAt = new long[TRIPS_KEPT];
    private int tripsKept;
    private final long[] transitions = new long[3];
    private RfmNode node;
    private long[] cardWarm;
    private volatile List<ThreadStats> warm;
    private final Histogram cumulative = new Histogram(1, HIGHEST_NS, 3);
    /** The handler's CPU time per computed cycle, ns (written by the handler's thread, read after it stopped). */
    private final Histogram handlerCpu = new Histogram(1, HIGHEST_NS, 3);
    private final java.lang.management.ThreadMXBean cpuClock = java.lang.management.ManagementFactory.getThreadMXBean();
    private ControllerResult result;

    @Override
    public void configure(final AppSettings given)
    {
        final Settings s = given.bind(Settings.class);
        if (s != null)
        {
            settings = s;
            if (s.gains() != null)
            {
                try
                {
                    gains = GainsFile.apply(s.gains(), ControllerGains.standard(), given.key("gains"));
                }
                catch (final IllegalArgumentException ex)
                {
                    given.problem(ex.getMessage());
                }
            }
        }
    }

    /**
     * @return the gains the controller runs with (the period set from the rate at start).
     */
    public ControllerGains gains()
    {
        return gains;
    }

    /**
     * @return the settings.
     */
    public Settings settings()
    {
        return settings;
    }

    @Override
    public void onStart(final RfmNode node)
    {
        this.node = node;
        final Journal journals = node.journal();
        if (journals == null)
        {
            throw new ConfigException(node.context().source(), List.of("app controller journals every cycle: " +
                "journal.enabled must be true"));
        }
        if (!node.context().inputs().equals(List.of(SENSOR)))
        {
            throw new ConfigException(node.context().source(), List.of("app controller takes the layout's " +
                "'axis.sensor' channel as its one input (receive.channels: [axis.sensor])"));
        }
        final String refused = RateCheck.refusal(settings.rateHz());
        if (refused != null)
        {
            throw new ConfigException(node.context().source(), List.of("app: rateHz " + settings.rateHz() + ": " +
                refused));
        }
        periodNanos = TimeUnit.SECONDS.toNanos(1) / settings.rateHz();
        dt = 1.0 / settings.rateHz();
        controller = new AxisController(gains.withPeriodSeconds(dt).validate());
        deadline = new DeadlineMonitor(periodNanos);
        followingError = new FollowingError(new FollowingError.Limits(settings.followingErrorRad(),
            settings.followingErrorAtSpeedRad(), DemoProfile.V_MAX_RAD_PER_S,
            Math.max(1, (int)Math.round(settings.followingErrorFilterMs() * 1e-3 / dt))));
        watchdogConfig = WatchdogConfig.defaults(periodNanos);
        publisher = new FramePublisher(node.device(), COMMAND);
        journal = journals.newWriter("controller");
        final JournalWriter handlerJournal = journal;
        lateness = new WakeLateness(periodNanos, WakeLateness.CAPACITY_DEFAULT,
            (seq, startNanos, durationNanos) -> handlerJournal.fault(FAULT_STALL, seq, durationNanos, startNanos));
        final JournalWriter stateJournal = journals.newWriter("watchdog");
        watchdogJournal = stateJournal;
        timerLateness = new WakeLateness(periodNanos, WakeLateness.CAPACITY_DEFAULT,
            (seq, startNanos, durationNanos) -> stateJournal.fault(FAULT_STALL, seq, durationNanos, startNanos));
        cardWarm = NodeResults.cardCounters(node.device(), SENSOR.event());
    }

    @Override
    public FrameHandler handler()
    {
        return this::onSensor;
    }

    @Override
    public List<NodeAgent> agents()
    {
        return List.of(
            new NodeAgent(new WatchdogAgent(node.device(), watchdogJournal),
                CpuPlacement.auto(settings.watchdogPriority()), new NoOpIdleStrategy()),
            new NodeAgent(new MonitorAgent(), CpuPlacement.HOUSEKEEPING, new SleepingMillisIdleStrategy(1)));
    }

    private void onSensor(final FrameView frame, final StageStamps stamps)
    {
        final long cpuStart = cpuClock.getCurrentThreadCpuTime();
        final DirectBuffer b = frame.buffer();
        final int p = frame.payloadOffset();
        if (b.getInt(p + SENSOR_VERSION_OFFSET) != PAYLOAD_VERSION)
        {
            // another payload layout: not read (the watchdog sees the silence)
            return;
        }
        final long cycle = b.getLong(p + SENSOR_CYCLE_OFFSET);
        final double position = b.getDouble(p + SENSOR_POSITION_OFFSET);
        final double velocity = b.getDouble(p + SENSOR_VELOCITY_OFFSET);
        final long sendNanos = frame.sendNanos();
        // woken by the frame: it should have run when the frame was published
        final long wakeLateness = lateness.wake(cycle, sendNanos, stamps.consumerStartNanos());
        final long handed = framesSeen.getPlain();
        if (handed - watchTaken.getAcquire() < WATCH_SLOTS)
        {
            final int slot = (int)(handed & (WATCH_SLOTS - 1));
            watchCycle[slot] = cycle;
            watchStamp[slot] = sendNanos;
            watchSeen[slot] = stamps.consumerStartNanos();
            framesSeen.setRelease(handed + 1);
        }
        // else the timer is held up past 8,192 frames: the watchdog sees the cycles missing as a gap and trips (counted)
        lastCycle.setRelease(cycle);
        // a newer sensor frame already in reflective memory: this one is backlog (the thread was held up), and a
        // command computed on it would answer the past. Skip it, counted; the newest frame gets the command
        final long newer = node.device().window().getLongVolatile(
            SENSOR.slotOffset(frame.seq() + 1) + FrameHeaderDescriptor.SEQ_OFFSET);
        if (Math.abs(newer) > frame.seq())
        {
            skippedFrames++;
            journal.fault(FAULT_FRAME_SKIPPED, cycle, Math.abs(newer) - frame.seq(), stamps.consumerStartNanos());
            return;
        }

        final boolean faulted = faultCycle.getPlain() != 0;
        int st = faulted ? AxisState.FAULT.id() : axisState.getAcquire();
        if (st != AxisState.RUNNING.id())
        {
            driveTripPending = false;
        }
        else if (driveTripPending)
        {
            // told the watchdog the drive is not operating; until its timer has moved the axis, drive nothing (and
            // tell it again should it not have been RUNNING any more when it was told, and be so again now)
            st = AxisState.SAFE.id();
            if (cycle - driveTripSince > 2 * DRIVE_ENABLE_GRACE_CYCLES)
            {
                driveTripSince = cycle;
                driveTripCycle.setRelease(cycle);
            }
        }
        else if (previousState == AxisState.RUNNING.id() && cycle - runningSinceCycle > DRIVE_ENABLE_GRACE_CYCLES &&
            (b.getInt(p + SENSOR_STATUS_WORD_OFFSET) & SW_OPERATION_ENABLED) == 0)
        {
            // the drive is not applying the torque (it braked on a stale command): a trip, so the loop does not wind
            // up against a braked axis and re-enters bumplessly after the recovery
            driveTripPending = true;
            driveTripSince = cycle;
            driveTripCycle.setRelease(cycle);
            st = AxisState.SAFE.id();
        }
        if (st == AxisState.RUNNING.id() && previousState != st)
        {
            // entering RUNNING: no integrator history from before. At the start the trajectory begins; after a
            // recovery it is rejoined bumplessly, from the measured position at rest (TrajectoryRejoin). From here on
            // its clock runs on the sensor's cycle number (a gap in the cycles is time passed)
            state.reset();
            runningSinceCycle = cycle;
            if (previousState == AxisState.STARTING.id())
            {
                // the trajectory starts after the cycle the watchdog went RUNNING on, however late this thread saw it
                trajectoryOrigin = runningFromCycle.getAcquire();
            }
            else
            {
                rejoin.plan(trajectoryCycle * dt, position);
                rejoinStartCycle = cycle;
                rejoining = true;
            }
        }
        previousState = st;
        sample.set(cycle, sendNanos, position, velocity);
        final double integratorBefore = state.integratorNm();
        if (st == AxisState.RUNNING.id())
        {
            if (rejoining && !rejoin.sample((cycle - rejoinStartCycle) * dt, setpoint))
            {
                // the rejoin move is done: the trajectory resumes at the end of the segment it was stopped in
                rejoining = false;
                trajectoryCycle = Math.round(rejoin.resumeAtSeconds() / dt);
                trajectoryOrigin = cycle - trajectoryCycle;
            }
            if (!rejoining)
            {
                trajectoryCycle = cycle - trajectoryOrigin;
                profile.setpoint(trajectoryCycle * dt, setpoint);
            }
            controller.step(state, sample, setpoint, state, command);
        }
        else
        {
            profile.setpoint(trajectoryCycle * dt, setpoint);
            AxisController.zeroTorque(sample, setpoint, command);
        }
        final double torque = command.torqueNm();
        commandPayload.putDouble(COMMAND_TORQUE_OFFSET, torque);
        commandPayload.putLong(COMMAND_CYCLE_OFFSET, cycle);
        commandPayload.putDouble(COMMAND_SETPOINT_OFFSET, setpoint.position());
        commandPayload.putLong(COMMAND_STATE_OFFSET, st);
        // only RUNNING enables the drive and releases the brake: SAFE, RECOVERING and STARTING hold it on
        // a faulted axis is quick-stopped (the drive ramps it to rest, then brakes)
        commandPayload.putInt(COMMAND_CONTROL_WORD_OFFSET, st == AxisState.RUNNING.id() ? CW_OPERATE :
            st == AxisState.FAULT.id() ? CW_QUICK_STOP_COMMAND : CW_SHUTDOWN);
        commandPayload.putInt(COMMAND_VERSION_OFFSET, PAYLOAD_VERSION);
        publisher.publish(commandPayload, 0, COMMAND_LENGTH, 0);
        // written: the command frame's own send stamp, the moment it is in reflective memory (the same definition as
        // the sensor frame's publish time). The event's delivery after it (on the emulator the DMA copy and the
        // receiver's wake-up, done on this thread, which a card does in hardware) is the plant's side: its command age
        final long written = publisher.lastSendNanos();

        final long cycleLatency = written - sendNanos;
        latency.recordValue(cycleLatency < 1 ? 1 : Math.min(cycleLatency, HIGHEST_NS));
        if (deadline.record(sendNanos, written))
        {
            final long missed = deadline.misses();
            misses.setRelease(missed);
            if (missed <= MISSES_KEPT)
            {
                missFrom[(int)missed - 1] = sendNanos;
                missTo[(int)missed - 1] = written;
            }
            if (wakeLateness > deadline.deadlineNanos())
            {
                // the wake-up alone was past the deadline, whatever the handler took
                missesLateWake++;
            }
            journal.fault(FAULT_DEADLINE_MISS, cycle, cycleLatency - deadline.deadlineNanos(), written);
        }
        final double error = setpoint.position() - position;
        if (st == AxisState.RUNNING.id())
        {
            sumSquaredError += error * error;
            maxError = Math.max(maxError, Math.abs(error));
            trackedCycles++;
            if (setpoint.velocity() != 0.0 || setpoint.acceleration() != 0.0)
            {
                // tracking is judged over the moves: the rest between them would dilute it
                movingSumSquaredError += error * error;
                movingMaxError = Math.max(movingMaxError, Math.abs(error));
                movingCycles++;
            }
            else
            {
                restMaxError = Math.max(restMaxError, Math.abs(error));
            }
            if (followingError.check(error, setpoint.velocity()))
            {
                // latched here at once (this thread sends the quick stop from the next command on); the watchdog's
                // timer moves the axis state to FAULT and journals the transition
                faultNanos = written;
                faultCycle.setRelease(cycle);
                journal.fault(FAULT_FOLLOWING_ERROR, cycle, (long)(Math.abs(error) * 1e9), written);
            }
        }
        lastError = error;
        journal.sample(SAMPLE_CONTROL, written, cycle, st, setpoint.position(), position, velocity, torque, error,
            cycleLatency / 1e3);
        journal.sample(SAMPLE_CONTROL_INPUT, sendNanos, cycle, st, integratorBefore, setpoint.velocity(),
            setpoint.acceleration(), setpoint.jerk(), position, velocity);
        // the cycle's execution time as the thread's own CPU time: a pre-emption in the middle is not counted
        final long cpu = cpuClock.getCurrentThreadCpuTime() - cpuStart;
        handlerCpu.recordValue(Math.max(1, Math.min(cpu, HIGHEST_NS)));
    }

    /** The watchdog's timer: one tick per period on the absolute schedule, parked in between. */
    private final class WatchdogAgent implements Agent
    {
        private final RfmDevice device;
        private final Watchdog watchdog;
        private long judgedCycle;
        private long seen;
        private long next;
        private long lastDriveTrip;
        private boolean done;

        WatchdogAgent(final RfmDevice device, final JournalWriter stateJournal)
        {
            this.device = device;
            this.watchdog = new Watchdog(watchdogConfig, (from, to, reason, now) ->
            {
                if (from == AxisState.STARTING && to == AxisState.RUNNING)
                {
                    runningFromCycle.setRelease(judgedCycle);
                }
                axisState.setRelease(to.id());
                if (to == AxisState.SAFE && from != AxisState.SAFE && tripsKept < TRIPS_KEPT)
                {
                    tripAt[tripsKept++] = now;
                }
                stateJournal.state(from.id(), to.id(), now);
                transitions[0]++;
            });
        }

        @Override
        public void onStart()
        {
            next = System.nanoTime() + periodNanos;
        }

        @Override
        public int doWork()
        {
            if (done)
            {
                LockSupport.parkNanos(periodNanos);
                return 0;
            }
            // the plant's end of stream is not a sensor failure: stop watching once it says it is done
            if (device.window().getLongAcquire(PLANT_DONE_OFFSET) != 0)
            {
                done = true;
                return 0;
            }
            LockSupport.parkNanos(next - System.nanoTime());
            final long now = System.nanoTime();
            timerLateness.wake(seen, next, now);
            next += periodNanos;
            if (faultCycle.getAcquire() != 0)
            {
                watchdog.fault(now);
            }
            final long driveTrip = driveTripCycle.getAcquire();
            if (driveTrip != lastDriveTrip)
            {
                lastDriveTrip = driveTrip;
                watchdog.driveNotOperating(now);
            }
            final long frames = framesSeen.getAcquire();
            if (frames == seen)
            {
                watchdog.poll(now);
            }
            while (seen < frames)
            {
                // judged in frame time: the frame's own cycle and stamp, and when the handler took it
                final int slot = (int)(seen & (WATCH_SLOTS - 1));
                judgedCycle = watchCycle[slot];
                watchdog.onFrame(watchCycle[slot], watchStamp[slot], watchSeen[slot]);
                seen++;
                watchTaken.setRelease(seen);
            }
            transitions[1] = watchdog.trips();
            transitions[2] = watchdog.recoveries();
            return 1;
        }

        @Override
        public String roleName()
        {
            return WATCHDOG_THREAD;
        }
    }

    /** A line per second; stops the node once the plant is done and its last frames landed. */
    private final class MonitorAgent implements Agent
    {
        private final long start = System.nanoTime();
        private long nextReport = start + TimeUnit.SECONDS.toNanos(1);
        private long landBy;
        private Histogram interval;
        private int second;
        private long lastFrames;
        private boolean journalWarned;

        @Override
        public int doWork()
        {
            final long now = System.nanoTime();
            final long done = node.device().window().getLongAcquire(PLANT_DONE_OFFSET);
            if (landBy == 0 && done != 0)
            {
                // the last frames are in flight: let them land
                landBy = now + TimeUnit.SECONDS.toNanos(1);
            }
            if (landBy != 0)
            {
                if (lastCycle.getAcquire() >= done || now > landBy)
                {
                    node.terminate();
                }
                return 0;
            }
            if (now < nextReport)
            {
                return 0;
            }
            nextReport += TimeUnit.SECONDS.toNanos(1);
            final Consumer<String> live = node.context().appOut();
            journalWarned = journalWarned || JournalWarning.warnOnce(node.journal(), live);
            interval = latency.getIntervalHistogram(interval);
            cumulative.add(interval);
            final ReceivePath sensors = node.receivePath();
            final long frames = sensors.counter(RuntimeCounter.FRAMES_HANDLED);
            if (frames > lastFrames)
            {
                second++;
                if (second == 1)
                {
                    // RT hygiene is counted after the first second of frames (warm-up)
                    warm = sensors.threadStats();
                }
                live.accept(String.format(Locale.ROOT, "%4d s  cycles %6d  tracking error %+8.1f urad  " +
                    "e2e p99 %6.1f us  misses %d  state %s", second, frames, lastError * 1e6,
                    interval.getValueAtPercentile(99) / 1e3, misses.getAcquire(),
                    AxisState.fromId(axisState.getAcquire())));
                lastFrames = frames;
            }
            return 1;
        }

        @Override
        public String roleName()
        {
            return MONITOR_THREAD;
        }
    }

    @Override
    public void onStop(final RfmNode node)
    {
        final ReceivePath sensors = node.receivePath();
        if (sensors == null || lateness == null)
        {
            return;
        }
        lateness.finish();
        timerLateness.finish();
        final List<ThreadStats> end = sensors.threadStats();
        final List<RtThread> threads = sensors.threads();
        final Histogram total = latency.getIntervalHistogram();
        total.add(cumulative);
        final List<ThreadStats> warmStats = warm;
        final List<ThreadHygiene> hygiene = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++)
        {
            final ThreadStats delta = warmStats == null || i >= end.size() || i >= warmStats.size() ?
                ThreadStats.UNKNOWN : end.get(i).minus(warmStats.get(i));
            hygiene.add(new ThreadHygiene(threads.get(i).placement().thread(), delta.minorFaults(),
                delta.involuntarySwitches()));
        }
        final Journal journals = node.journal();
        final int missesKept = (int)Math.min(deadline.misses(), MISSES_KEPT);
        final long tripWindow = (watchdogConfig.missedPeriodsToTrip() + 1L) * periodNanos;
        final long[] tripFrom = new long[tripsKept];
        for (int i = 0; i < tripsKept; i++)
        {
            tripFrom[i] = tripAt[i] - tripWindow;
        }
        result = new ControllerResult(
            sensors.counter(RuntimeCounter.FRAMES_HANDLED),
            sensors.counter(FrameCounter.GAPS),
            sensors.counter(FrameCounter.TORN),
            LossCauses.of(sensors, node.device(), SENSOR.event(), cardWarm),
            deadline.misses(),
            deadline.deadlineNanos() / 1e3,
            transitions[1],
            transitions[2],
            trackedCycles == 0 ? 0.0 : Math.sqrt(sumSquaredError / trackedCycles),
            maxError,
            // the moves this run commanded (a short run ends part-way through the profile)
            profile.distanceCovered(trajectoryCycle * dt),
            trackedCycles,
            total.getValueAtPercentile(50) / 1e3,
            total.getValueAtPercentile(99) / 1e3,
            total.getMaxValue() / 1e3,
            journals.stats().droppedRingFull(),
            journals.stats().writeErrors(),
            journals.stats().recordsWritten(),
            node.environment().placementTable(),
            hygiene,
            sensors.waitStrategy().toString(),
            missesLateWake,
            Lateness.of(lateness),
            Lateness.of(timerLateness),
            Arrays.copyOf(missFrom, missesKept),
            Arrays.copyOf(missTo, missesKept),
            deadline.misses() - missesKept,
            tripFrom,
            Arrays.copyOf(tripAt, tripsKept),
            transitions[1] - tripsKept,
            NodeResults.concat(lateness, timerLateness, true),
            NodeResults.concat(lateness, timerLateness, false),
            movingCycles == 0 ? 0.0 : Math.sqrt(movingSumSquaredError / movingCycles),
            movingMaxError,
            restMaxError,
            movingCycles,
            followingError.faulted() ? 1 : 0,
            faultCycle.get(),
            followingError.lagAtFault(),
            followingError.limitAtFault(),
            followingError.peakLag(),
            skippedFrames,
            handlerCpu.getValueAtPercentile(50) / 1e3,
            handlerCpu.getValueAtPercentile(99) / 1e3,
            handlerCpu.getMaxValue() / 1e3);
    }

    @Override
    public ControllerResult result()
    {
        return result;
    }
}
