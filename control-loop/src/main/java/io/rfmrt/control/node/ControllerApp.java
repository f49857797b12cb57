package io.rfmrt.control.node;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.CycleStatistics;
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
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.Lateness;
import io.rfmrt.control.node.NodeResults.LossCauses;
import io.rfmrt.control.node.NodeResults.ThreadHygiene;
import io.rfmrt.control.replay.GainsFile;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmWindow;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.AppSettings;
import io.rfmrt.runtime.CpuPlacement;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.NodeAgent;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.NodeAppFactory;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageStamps;
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
 * a watchdog agent ({@code rfmrt-watchdog}, a timer: a missing frame cannot wake anything; {@link WatchdogTimer})
 * drives the axis to SAFE (drive disabled, brake on) when frames stop and back to RUNNING after M good frames of frame
 * time. On entering RUNNING it holds the axis where it stands until the drive reports its brake released; a drive that
 * faulted is reset (an edge of the fault-reset bit) in STARTING and RECOVERING only. The loop's periodicity and
 * execution ({@link CycleStatistics}) go to the heartbeat, the journal (writer {@code monitor}) and the result. The trajectory clock advances only in
 * RUNNING, on the sensor's cycle number; after a recovery the trajectory is rejoined bumplessly: an S-curve from the
 * measured position at rest to the end of the segment it stopped in, then the profile from there
 * ({@link TrajectoryRejoin}). A monitor agent
 * ({@code rfmrt-monitor}, housekeeping) prints a line per second and stops the node when the plant says it is done.
 * <pre>
 * app:
 *   name: controller
 *   rateHz: 1000            # loop rate: what RateCheck accepts (598..10000 with the standard tune)
 *   watchdogPriority: 75    # SCHED_FIFO priority of the watchdog timer (on the first RT core)
 *   followingErrorRad: 0.005         # position lag limit at rest (0.020 with the fast profile)
 *   followingErrorAtSpeedRad: 0.010  # the limit at the profile's top speed, scaled linearly between (0.030 fast)
 *   followingErrorFilterMs: 10       # lag above the limit for this long (in sensor cycles) faults the axis
 *   profile: standard       # standard | fast (DemoProfile)
 *   brakeReleaseTimeoutMs: 200       # the drive must report "operation enabled, brake released" this soon
 *   encoderBits: 17         # counts per revolution = 2^bits, for the following error in counts
 *   gains: {positionGainPerS: 60}    # ControllerGains settings; those not given keep the standard tune
 *   stallAt: 0              # the controller-stall fault: the thread is held up once after this sensor cycle (0 = none)
 *   stallNanos: 0           # for this long
 * </pre>
 * The trajectory starts after the first cycle, since the watchdog went RUNNING, whose sensor frame reports the drive
 * operating with its brake released, whether this thread saw RUNNING before that frame or only after it: the watchdog's
 * timer runs beside the handler, so when the handler sees the new state depends on timing. Started so, the set-points
 * and the commands are a function of the sensor frames alone: the same frames played again ({@code rfmrt replay
 * --play}) give the same commands.
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
     * @param rateHz           loop rate (default 1000); {@link RateCheck} is the one rule for it.
     * @param watchdogPriority the watchdog timer's SCHED_FIFO priority (default 75).
     * @param followingErrorRad        the position lag limit at rest, rad (default 0.005; 0.020 with the fast
     *                                 profile).
     * @param followingErrorAtSpeedRad the limit at the profile's top speed, rad (default 0.010; 0.030 fast).
     * @param followingErrorFilterMs   how long the lag may stay above the limit before the axis faults (default 10).
     * @param profile          the trajectory, {@link DemoProfile#STANDARD} (default) or {@link DemoProfile#FAST}.
     * @param brakeReleaseTimeoutMs how long after entering RUNNING the drive may take to report operation enabled
     *                              with the brake released (default 200 ms); longer is a drive trip.
     * @param encoderBits      the encoder's counts per revolution as a power of two, for reporting the following
     *                         error in counts (default 17).
     * @param gains            {@link ControllerGains} settings by component name (default none: the standard tune).
     * @param stallAt          the controller-stall fault: the sensor cycle after whose command the handler's thread is
     *                         held up once (0 = none, the default).
     * @param stallNanos       how long, ns (at most 10 s).
     */
    public record Settings(Integer rateHz, Integer watchdogPriority, Double followingErrorRad,
        Double followingErrorAtSpeedRad, Double followingErrorFilterMs, String profile, Double brakeReleaseTimeoutMs,
        Integer encoderBits, java.util.Map<String, Object> gains, Long stallAt, Long stallNanos)
    {
        /** Defaults and ranges. */
        public Settings
        {
            rateHz = rateHz == null ? 1000 : rateHz;
            watchdogPriority = watchdogPriority == null ? 75 : watchdogPriority;
            profile = profile == null ? DemoProfile.STANDARD : profile;
            // the fast profile lags more (its moves need most of the torque; an inertia the tune underestimates
            // shows as lag): its limits are wider
            final boolean fast = DemoProfile.FAST.equals(profile);
            followingErrorRad = followingErrorRad == null ? (fast ? 20e-3 : 5e-3) : followingErrorRad;
            followingErrorAtSpeedRad = followingErrorAtSpeedRad == null ?
                Math.max(fast ? 30e-3 : 10e-3, followingErrorRad) : followingErrorAtSpeedRad;
            followingErrorFilterMs = followingErrorFilterMs == null ? 10.0 : followingErrorFilterMs;
            brakeReleaseTimeoutMs = brakeReleaseTimeoutMs == null ? 200.0 : brakeReleaseTimeoutMs;
            encoderBits = encoderBits == null ? 17 : encoderBits;
            stallAt = stallAt == null ? 0 : stallAt;
            stallNanos = stallNanos == null ? 0 : stallNanos;
            if (stallAt < 0 || stallNanos < 0 || stallNanos > TimeUnit.SECONDS.toNanos(10))
            {
                throw new IllegalArgumentException("stallAt " + stallAt + " must be >= 0 and stallNanos " +
                    stallNanos + " 0..10000000000");
            }
            if (!(followingErrorRad > 0) || !(followingErrorAtSpeedRad >= followingErrorRad) ||
                !(followingErrorFilterMs > 0) || followingErrorFilterMs > 1000)
            {
                throw new IllegalArgumentException("followingErrorRad " + followingErrorRad + " must be > 0, " +
                    "followingErrorAtSpeedRad " + followingErrorAtSpeedRad + " >= followingErrorRad, " +
                    "followingErrorFilterMs " + followingErrorFilterMs + " in (0, 1000]");
            }
            if (!DemoProfile.STANDARD.equals(profile) && !DemoProfile.FAST.equals(profile))
            {
                throw new IllegalArgumentException("profile '" + profile + "' is not " + DemoProfile.STANDARD +
                    " or " + DemoProfile.FAST);
            }
            if (!(brakeReleaseTimeoutMs >= 1) || brakeReleaseTimeoutMs > 10_000)
            {
                throw new IllegalArgumentException("brakeReleaseTimeoutMs " + brakeReleaseTimeoutMs +
                    " is not 1..10000");
            }
            if (encoderBits < 8 || encoderBits > 32)
            {
                throw new IllegalArgumentException("encoderBits " + encoderBits + " is not 8..32");
            }
            final String refused = RateCheck.refusal(rateHz);
            if (refused != null)
            {
                throw new IllegalArgumentException("rateHz " + rateHz + ": " + refused);
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

    private Settings settings = new Settings(null, null, null, null, null, null, null, null, null, null, null);
    private ControllerGains gains = ControllerGains.standard();
    private long periodNanos;
    private double dt;
    private AxisController controller;
    private DemoProfile profile = DemoProfile.standard();
    private final ControllerState state = new ControllerState();
    private final SensorSample sample = new SensorSample();
    private final Setpoint setpoint = new Setpoint();
    private final ControlCommand command = new ControlCommand();
    private final UnsafeBuffer commandPayload = new UnsafeBuffer(new byte[COMMAND_LENGTH]);
    private DeadlineMonitor deadline;
    private final SingleWriterRecorder latency = new SingleWriterRecorder(1, HIGHEST_NS, 3);
    private final AtomicInteger axisState = new AtomicInteger(AxisState.STARTING.id());
    private WatchdogTimer timer;
    private final AtomicLong lastCycle = new AtomicLong();
    /** The controller-stall fault's cycle until it has fired, then 0. */
    private long stallAt;
    private final AtomicLong misses = new AtomicLong();
    private FramePublisher publisher;
    private JournalWriter journal;
    private long trajectoryCycle;
    /** Sensor cycle minus trajectory cycle while RUNNING: the trajectory clock runs on the sensor's cycle number. */
    private long trajectoryOrigin;
    private FollowingError followingError;
    private TrajectoryRejoin rejoin = TrajectoryRejoin.of(profile);
    private boolean rejoining;
    /** Cycles after entering RUNNING before the drive must report "operation enabled" (its answer takes a period). */
    static final int DRIVE_ENABLE_GRACE_CYCLES = 5;
    private long runningSinceCycle;
    private boolean driveTripPending;
    private long driveTripSince;
    private long rejoinStartCycle;
    /** The sensor cycle on which the watchdog went STARTING → RUNNING (written before it publishes the state). */
    private final AtomicLong runningFromCycle = new AtomicLong();
    /** The first cycle of the current run of frames reporting the drive operating with its brake released, or 0. */
    private long driveReadySince;
    /** The cycle the axis faulted on its following error (0: not faulted); written by the handler. */
    private final AtomicLong faultCycle = new AtomicLong();
    private long faultNanos;
    private final AtomicLong skippedFrames = new AtomicLong();
    /** Entered RUNNING and waiting for the drive to report operation enabled with its brake released. */
    private boolean awaitingDrive;
    private boolean startingTrajectory;
    private double holdPosition;
    private long brakeWaitCycles;
    private int lastWord;
    private long driveResets;
    private double peakTorque;
    private CycleStatistics cycleStatistics;
    private JournalWriter monitorJournal;
    /** The last second's loop figures, for the heartbeat (written by the monitor). */
    private volatile CycleStatistics.Figures lastSecond = CycleStatistics.Figures.NONE;
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
    private final long[] missWake = new long[MISSES_KEPT];
    private final long[] missOffCpu = new long[MISSES_KEPT];
    /** The thread's CPU time and the wall time when the current cycle's handler was entered. */
    private long cycleCpuStart;
    private long cycleWallStart;
    private final long[] tripAt = new long[TRIPS_KEPT];
    private int tripsKept;
    private final long[] transitions = new long[3];
    private RfmNode node;
    private long[] cardWarm;
    private volatile List<ThreadStats> warm;
    private final Histogram cumulative = new Histogram(1, HIGHEST_NS, 3);
    private final java.lang.management.ThreadMXBean cpuClock = java.lang.management.ManagementFactory.getThreadMXBean();
    private ControllerResult result;
    /** Why the run was refused ({@link #problem()}), set by the monitor. */
    private volatile String refusal;

    @Override
    public void configure(final AppSettings given)
    {
        final Settings s = given.bind(Settings.class);
        if (s != null)
        {
            settings = s;
            stallAt = s.stallAt();
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
    public void check(final NodeContext ctx, final List<String> problems)
    {
        if (!ctx.journalEnabled())
        {
            problems.add("app controller journals every cycle: journal.enabled must be true");
        }
        if (!ctx.inputs().equals(List.of(SENSOR)))
        {
            problems.add("app controller takes the layout's 'axis.sensor' channel as its one input " +
                "(receive.channels: [axis.sensor])");
        }
    }

    @Override
    public void onStart(final RfmNode node)
    {
        this.node = node;
        final Journal journals = node.journal();
        profile = DemoProfile.named(settings.profile());
        rejoin = TrajectoryRejoin.of(profile);
        periodNanos = TimeUnit.SECONDS.toNanos(1) / settings.rateHz();
        dt = 1.0 / settings.rateHz();
        controller = new AxisController(gains.withPeriodSeconds(dt).validate());
        deadline = new DeadlineMonitor(periodNanos);
        followingError = new FollowingError(new FollowingError.Limits(settings.followingErrorRad(),
            settings.followingErrorAtSpeedRad(), profile.vMaxRadPerS(),
            Math.max(1, (int)Math.round(settings.followingErrorFilterMs() * 1e-3 / dt))));
        watchdogConfig = WatchdogConfig.defaults(periodNanos);
        brakeWaitCycles = Math.max(1, Math.round(settings.brakeReleaseTimeoutMs() * 1e-3 / dt));
        cycleStatistics = new CycleStatistics(periodNanos);
        monitorJournal = journals.newWriter("monitor");
        publisher = new FramePublisher(node.device(), COMMAND);
        journal = journals.newWriter("controller");
        final JournalWriter handlerJournal = journal;
        lateness = new WakeLateness(periodNanos, WakeLateness.CAPACITY_DEFAULT,
            (seq, startNanos, durationNanos) -> handlerJournal.fault(FAULT_STALL, seq, durationNanos, startNanos));
        final JournalWriter stateJournal = journals.newWriter("watchdog");
        timerLateness = new WakeLateness(periodNanos, WakeLateness.CAPACITY_DEFAULT,
            (seq, startNanos, durationNanos) -> stateJournal.fault(FAULT_STALL, seq, durationNanos, startNanos));
        timer = new WatchdogTimer(new Watchdog(watchdogConfig, (from, to, reason, now) ->
        {
            if (from == AxisState.STARTING && to == AxisState.RUNNING)
            {
                // the cycle of the frame that made it RUNNING (the watchdog's last), before the state is published
                runningFromCycle.setRelease(timer.watchdog().lastCycle());
            }
            axisState.setRelease(to.id());
            if (to == AxisState.SAFE && from != AxisState.SAFE && tripsKept < TRIPS_KEPT)
            {
                tripAt[tripsKept++] = now;
            }
            stateJournal.state(from.id(), to.id(), now);
            transitions[0]++;
        }));
        cardWarm = NodeResults.cardCounters(node.device(), SENSOR.event());
        // this side's rate, before its first command, for the plant to check against its own
        node.device().window().putLongRelease(CONTROLLER_RATE_OFFSET, settings.rateHz());
    }

    /**
     * @return the cycle count the plant says it ended at, or 0 while it runs. Honoured only once a sensor frame of
     * this run was handled: the plant clears the word before its first frame, so a word left set by the run before on
     * a reused network does not end this one.
     */
    private long plantDone()
    {
        return lastCycle.getAcquire() == 0 ? 0 : node.device().window().getLongAcquire(PLANT_DONE_OFFSET);
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
            new NodeAgent(new WatchdogAgent(node.device()),
                CpuPlacement.auto(settings.watchdogPriority()), new NoOpIdleStrategy()),
            new NodeAgent(new MonitorAgent(), CpuPlacement.HOUSEKEEPING, new SleepingMillisIdleStrategy(1)));
    }

    private void onSensor(final FrameView frame, final StageStamps stamps)
    {
        final long cpuStart = cpuClock.getCurrentThreadCpuTime();
        cycleCpuStart = cpuStart;
        cycleWallStart = System.nanoTime();
        final long start = stamps.consumerStartNanos();
        final long end = handle(frame, start);
        if (end != 0)
        {
            // the cycle's execution time as the thread's own CPU time: a pre-emption in the middle is not counted
            cycleStatistics.record(start, cpuClock.getCurrentThreadCpuTime() - cpuStart, end - start);
        }
        if (stallAt != 0 && lastCycle.getPlain() == stallAt)
        {
            // the controller-stall fault: this thread held up once after answering the cycle, as a pre-emption would;
            // the sensor frames published meanwhile wait in the rings, and all but the newest are skipped as backlog
            stallAt = 0;
            LockSupport.parkNanos(settings.stallNanos());
        }
    }

    /**
     * One sensor frame.
     *
     * @return when the cycle ended (its command written, or the frame skipped), or 0 for a frame not read.
     */
    private long handle(final FrameView frame, final long start)
    {
        final DirectBuffer b = frame.buffer();
        final int p = frame.payloadOffset();
        if (b.getInt(p + SENSOR_VERSION_OFFSET) != PAYLOAD_VERSION)
        {
            // another payload layout: not read (the watchdog sees the silence)
            return 0;
        }
        final long cycle = b.getLong(p + SENSOR_CYCLE_OFFSET);
        final double position = b.getDouble(p + SENSOR_POSITION_OFFSET);
        final double velocity = b.getDouble(p + SENSOR_VELOCITY_OFFSET);
        final int status = b.getInt(p + SENSOR_STATUS_WORD_OFFSET);
        final long sendNanos = frame.sendNanos();
        // since when the frames report the drive ready, followed on every frame (a skipped one too): the trajectory's
        // start is taken from the frames, not from when this thread saw RUNNING
        final boolean driveReady = (status & (SW_OPERATION_ENABLED | SW_BRAKE_ENGAGED | SW_FAULT)) ==
            SW_OPERATION_ENABLED;
        driveReadySince = !driveReady ? 0 : driveReadySince == 0 ? cycle : driveReadySince;
        // woken by the frame: it should have run when the frame was published
        lateness.wake(cycle, sendNanos, start);
        timer.offer(cycle, sendNanos, start);
        // else the timer is held up past 8,192 frames: the watchdog sees the cycles missing as a gap and trips (counted)
        lastCycle.setRelease(cycle);
        // a newer sensor frame already in reflective memory: this one is backlog (the thread was held up), and a
        // command computed on it would answer the past. Skip it, counted; the newest frame gets the command
        // (of the plant's incarnation: the frames a plant of an earlier run left in the slots are not newer)
        final RfmWindow window = node.device().window();
        final long next = SENSOR.slotOffset(frame.seq() + 1);
        final long newer = window.getLongVolatile(next + FrameHeaderDescriptor.SEQ_OFFSET);
        if (Math.abs(newer) > frame.seq() && window.getIntVolatile(next + FrameHeaderDescriptor.INCARNATION_OFFSET) ==
            window.getIntVolatile(SENSOR.slotOffset(frame.seq()) + FrameHeaderDescriptor.INCARNATION_OFFSET))
        {
            skippedFrames.setRelease(skippedFrames.getPlain() + 1);
            journal.fault(FAULT_FRAME_SKIPPED, cycle, Math.abs(newer) - frame.seq(), start);
            return start;
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
                timer.requestDriveTrip(cycle);
            }
        }
        else if (previousState == AxisState.RUNNING.id() && (awaitingDrive ?
            cycle - runningSinceCycle > brakeWaitCycles :
            (status & (SW_OPERATION_ENABLED | SW_BRAKE_ENGAGED | SW_FAULT)) != SW_OPERATION_ENABLED))
        {
            // the drive is not applying the torque (it faulted on a stale command, or lost "operation enabled"), or
            // did not release its brake in time: a trip, so the loop does not wind up against a braked axis and
            // re-enters bumplessly after the recovery
            driveTripPending = true;
            driveTripSince = cycle;
            timer.requestDriveTrip(cycle);
            st = AxisState.SAFE.id();
        }
        if (st == AxisState.RUNNING.id() && previousState != st)
        {
            // entering RUNNING: the drive is told to enable and release its brake; until it reports both, the axis is
            // held where it stands (closed loop on that position, no integrator history)
            runningSinceCycle = cycle;
            awaitingDrive = true;
            holdPosition = position;
            startingTrajectory = previousState == AxisState.STARTING.id();
        }
        if (st == AxisState.RUNNING.id() && awaitingDrive &&
            (status & (SW_OPERATION_ENABLED | SW_BRAKE_ENGAGED | SW_FAULT)) == SW_OPERATION_ENABLED)
        {
            // the drive drives and its brake is open: no integrator history from before. At the start the trajectory
            // begins; after a recovery it is rejoined bumplessly, from the measured position at rest
            // (TrajectoryRejoin). From here on its clock runs on the sensor's cycle number (a gap is time passed)
            awaitingDrive = false;
            state.reset();
            if (startingTrajectory)
            {
                // from the first frame after the watchdog's RUNNING cycle that reported the drive ready, however late
                // this thread saw RUNNING
                trajectoryOrigin = Math.max(runningFromCycle.getAcquire() + 1, driveReadySince) - trajectoryCycle - 1;
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
        final boolean driving = st == AxisState.RUNNING.id() && !awaitingDrive;
        if (st == AxisState.RUNNING.id() && awaitingDrive)
        {
            // waiting for the brake: hold the position the axis stood at, without integrating
            state.reset();
            setpoint.hold(holdPosition);
        }
        final double integratorBefore = state.integratorNm();
        if (driving)
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
        else if (st == AxisState.RUNNING.id())
        {
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
        commandPayload.putInt(COMMAND_CONTROL_WORD_OFFSET, controlWord(st, status));
        commandPayload.putInt(COMMAND_VERSION_OFFSET, PAYLOAD_VERSION);
        // the time this thread was off the cpu so far in the cycle (pre-empted): wall time since the handler was
        // entered less the thread's CPU time in it. Read before the publish, whose event delivery (on the emulator the
        // plant's ISR-wake thread pre-empts this one there) comes after the command's send stamp. The thread's CPU
        // clock is a system call, so it is read only in a cycle already past half its deadline: the publish stamps the
        // frame as it begins, so a cycle short of that here does not miss (and were it to, it would count 0 here)
        final long beforePublish = System.nanoTime();
        final long offCpu = beforePublish - sendNanos <= deadline.deadlineNanos() / 2 ? 0 :
            beforePublish - cycleWallStart - (cpuClock.getCurrentThreadCpuTime() - cycleCpuStart);
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
                // the wake-up is the node's own measure of the kernel's part in the miss
                missWake[(int)missed - 1] = start;
                missOffCpu[(int)missed - 1] = Math.max(0, offCpu);
            }
            journal.fault(FAULT_DEADLINE_MISS, cycle, cycleLatency - deadline.deadlineNanos(), written);
        }
        final double error = setpoint.position() - position;
        if (st == AxisState.RUNNING.id())
        {
            sumSquaredError += error * error;
            maxError = Math.max(maxError, Math.abs(error));
            trackedCycles++;
            peakTorque = Math.max(peakTorque, Math.abs(torque));
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
                timer.requestFault(cycle);
                journal.fault(FAULT_FOLLOWING_ERROR, cycle, (long)(Math.abs(error) * 1e9), written);
            }
        }
        lastError = error;
        journal.sample(SAMPLE_CONTROL, written, cycle, st, setpoint.position(), position, velocity, torque, error,
            cycleLatency / 1e3);
        journal.sample(SAMPLE_CONTROL_INPUT, sendNanos, cycle, st, integratorBefore, setpoint.velocity(),
            setpoint.acceleration(), setpoint.jerk(), position, velocity);
        return written;
    }

    /**
     * The control word of a cycle: only RUNNING enables the drive and releases the brake; a faulted axis is
     * quick-stopped (the drive ramps it to rest, then brakes); STARTING, SAFE and RECOVERING hold the brake on
     * (shutdown). A drive that reports a fault is reset in STARTING and RECOVERING, where the axis is about to be
     * driven again: the fault-reset bit is raised every other cycle, so the drive sees a rising edge; never in SAFE
     * (held) or FAULT (latched), and a drive never leaves its fault by itself.
     */
    private int controlWord(final int st, final int status)
    {
        final int word;
        if (st == AxisState.RUNNING.id())
        {
            word = CW_OPERATE;
        }
        else if (st == AxisState.FAULT.id())
        {
            word = CW_QUICK_STOP_COMMAND;
        }
        else if ((status & SW_FAULT) != 0 &&
            (st == AxisState.RECOVERING.id() || st == AxisState.STARTING.id()) && (lastWord & CW_FAULT_RESET) == 0)
        {
            word = CW_SHUTDOWN | CW_FAULT_RESET;
            driveResets++;
        }
        else
        {
            word = CW_SHUTDOWN;
        }
        lastWord = word;
        return word;
    }

    /** The watchdog's timer: one tick per period on the absolute schedule, parked in between. */
    private final class WatchdogAgent implements Agent
    {
        private final RfmDevice device;
        private long next;
        private boolean done;

        WatchdogAgent(final RfmDevice device)
        {
            this.device = device;
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
            if (plantDone() != 0)
            {
                done = true;
                return 0;
            }
            LockSupport.parkNanos(next - System.nanoTime());
            final long now = System.nanoTime();
            timerLateness.wake(timer.seen(), next, now);
            next += periodNanos;
            timer.tick(now);
            transitions[1] = timer.watchdog().trips();
            transitions[2] = timer.watchdog().recoveries();
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
        private long landedCycle;
        private Histogram interval;
        private int second;
        private long lastFrames;
        private boolean journalWarned;
        private boolean rateChecked;

        @Override
        public int doWork()
        {
            final long now = System.nanoTime();
            if (!rateChecked && lastCycle.getAcquire() != 0)
            {
                // a frame of this run came: the plant wrote its rate before it (0: it does not say)
                rateChecked = true;
                final long plantHz = node.device().window().getLongAcquire(PLANT_RATE_OFFSET);
                if (plantHz != 0 && plantHz != settings.rateHz())
                {
                    refusal = rateMismatch("controller", settings.rateHz(), "plant", plantHz);
                    node.context().appOut().accept("warning: " + refusal + "; stopping");
                    node.terminate();
                    return 0;
                }
            }
            final long done = plantDone();
            if (done != 0)
            {
                // the last frames are in flight or still queued: let them land while they keep coming (a held-up
                // controller, or a bridge from another host, can be seconds behind); a second without one ends it
                final long handled = lastCycle.getAcquire();
                if (landBy == 0 || handled != landedCycle)
                {
                    landedCycle = handled;
                    landBy = now + TimeUnit.SECONDS.toNanos(1);
                }
                if (handled >= done || now > landBy)
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
            // the loop's periodicity and execution: the last second for the heartbeat, the run so far to the journal
            final CycleStatistics.Figures loop = cycleStatistics.sample();
            lastSecond = loop;
            ControlJournal.loop(monitorJournal, now, cycleStatistics.total(), skippedFrames.getAcquire(), 0);
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
                    "e2e p99 %6.1f us  period p99 %6.1f us  cpu p99 %5.1f us  misses %d  state %s", second, frames,
                    lastError * 1e6, interval.getValueAtPercentile(99) / 1e3, loop.periodP99Us(),
                    loop.executionP99Us(), misses.getAcquire(), AxisState.fromId(axisState.getAcquire())));
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
    public String heartbeat()
    {
        return heartbeatSegment(lastSecond, "skipped", skippedFrames.getAcquire(), "misses", misses.getAcquire());
    }

    /**
     * @param f      a second's loop figures.
     * @param name1  a count's name.
     * @param value1 its value.
     * @param name2  another's.
     * @param value2 its value.
     * @return the heartbeat segment of a control node's loop.
     */
    static String heartbeatSegment(final CycleStatistics.Figures f, final String name1, final long value1,
        final String name2, final long value2)
    {
        return String.format(Locale.ROOT, "loop period p50 %.1f p99 %.1f max %.1f jitter p99 %.1f max %.1f us | " +
            "exec cpu p50 %.1f p99 %.1f max %.1f us | overruns %d %s %d %s %d", f.periodP50Us(), f.periodP99Us(),
            f.periodMaxUs(), f.jitterP99Us(), f.jitterMaxUs(), f.executionP50Us(), f.executionP99Us(),
            f.executionMaxUs(), f.overruns(), name1, value1, name2, value2);
    }

    @Override
    public void onStop(final RfmNode node)
    {
        final ReceivePath sensors = node.receivePath();
        if (sensors == null || lateness == null)
        {
            return;
        }
        if (refusal == null)
        {
            // a clean end: this side's rate is not there any more for the next run's other side to check against
            node.device().window().putLongRelease(CONTROLLER_RATE_OFFSET, 0);
        }
        lateness.finish();
        timerLateness.finish();
        cycleStatistics.sample();
        final CycleStatistics.Figures loop = cycleStatistics.total();
        ControlJournal.loop(monitorJournal, System.nanoTime(), loop, skippedFrames.get(), 0);
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
            Lateness.of(lateness),
            Lateness.of(timerLateness),
            Arrays.copyOf(missFrom, missesKept),
            Arrays.copyOf(missTo, missesKept),
            Arrays.copyOf(missWake, missesKept),
            Arrays.copyOf(missOffCpu, missesKept),
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
            skippedFrames.get(),
            loop,
            peakTorque,
            controller.gains().torqueLimitNm(),
            movingMaxError / (2.0 * Math.PI / (1L << settings.encoderBits())),
            settings.encoderBits(),
            profile.name(),
            driveResets);
    }

    @Override
    public ControllerResult result()
    {
        return result;
    }

    /**
     * Not sound: the two sides' rates differ, or no sensor frame came in the whole run.
     */
    @Override
    public String problem()
    {
        if (refusal != null)
        {
            return refusal;
        }
        return result != null && result.cycles() == 0 ? "controller: no sensor frame from the plant in this run" : null;
    }
}
