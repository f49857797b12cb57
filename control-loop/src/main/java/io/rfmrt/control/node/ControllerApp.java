package io.rfmrt.control.node;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.control.DeadlineMonitor;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.FollowingError;
import io.rfmrt.control.RateCheck;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.WakeLateness;
import io.rfmrt.control.Watchdog;
import io.rfmrt.control.WatchdogConfig;
import io.rfmrt.control.excite.Excitation;
import io.rfmrt.control.excite.ExcitationLimits;
import io.rfmrt.control.excite.ExcitationSpec;
import io.rfmrt.control.excite.InjectionPoint;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.CascadedPidLaw;
import io.rfmrt.control.law.ControlLaws;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.Lateness;
import io.rfmrt.control.node.NodeResults.LossCauses;
import io.rfmrt.control.node.NodeResults.ThreadHygiene;
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
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.rfmrt.control.node.ControlFrames.*;

/**
 * The controller ({@code app: controller}), on the interrupt path: each sensor frame wakes the ISR-wake thread, the
 * node's consumer thread runs the control law (a {@link ControlLaw}: the shipped cascaded PID, or one given by class
 * with {@code law:}) and writes the command frame back. A cycle ({@link #handler()}) is composed of small steps, each
 * tested alone: the drive handshake ({@link DriveHandshake}), the trajectory ({@link TrajectoryClock}), the law, the
 * supervision ({@link Supervision}), the tracking figures ({@link TrackingStatistics}) and the journal
 * ({@link CycleJournal}); its threads ({@link WatchdogAgent}, {@link MonitorAgent}) share {@link ControllerStatus}. A deadline monitor checks sensor send → command written against a fraction of the period;
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
 *   followingErrorFilter: 10ms       # lag above the limit for this long (in sensor cycles) faults the axis
 *   profile: standard       # standard | fast | cruise (DemoProfile)
 *   brakeReleaseTimeout: 200ms       # the drive must report "operation enabled, brake released" this soon
 *   encoderBits: 17         # counts per revolution = 2^bits, for the following error in counts
 *   law: cascaded-pid       # the ControlLaw: cascaded-pid (the shipped one) or a class name on the class path
 *   gains: {positionGainPerS: 60}    # the law's settings (cascaded-pid: ControllerGains; others keep the standard tune)
 *   stallAt: 0              # the controller-stall fault: the thread is held up once after this sensor cycle (0 = none)
 *   stall: 0                # for this long
 *   excite: "chirp:point=torque,f0=5,f1=400,amp=0.1,seconds=4,start=1"   # an excitation (ExcitationSpec; none)
 *   exciteTorqueLimitNm: 0.25        # the largest excitation amplitude on the torque command
 *   exciteVelocityLimitRadPerS: 20   # ... on the velocity reference
 *   excitePositionLimitRad: 0.1      # ... on the position setpoint
 *   drivePeakTorqueNm: 0.5  # the drive's peak torque: bounds a torque excitation and every excited command
 * </pre>
 * An excitation ({@link Excitation}) runs once, on the handler thread, between the trajectory and the drive: refused
 * unless the axis is driven when it is due, stopped on any fault or trip, faded out on a deadline-miss burst; each
 * cycle it injects is journaled as an EXCITATION sample, its end as an EXCITATION_STOPPED fault.
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
     *                                 and cruise profiles).
     * @param followingErrorAtSpeedRad the limit at the profile's top speed, rad (default 0.010; 0.030 fast, cruise).
     * @param followingErrorFilterMs   how long the lag may stay above the limit before the axis faults (default 10).
     * @param profile          the trajectory, {@link DemoProfile#STANDARD} (default), {@link DemoProfile#FAST} or
     *                         {@link DemoProfile#CRUISE}.
     * @param brakeReleaseTimeoutMs how long after entering RUNNING the drive may take to report operation enabled
     *                              with the brake released (default 200 ms); longer is a drive trip.
     * @param encoderBits      the encoder's counts per revolution as a power of two, for reporting the following
     *                         error in counts (default 17).
     * @param gains            the law's settings by name (default none); for the shipped law {@link ControllerGains}
     *                         components (those not given keep the standard tune).
     * @param stallAt          the controller-stall fault: the sensor cycle after whose command the handler's thread is
     *                         held up once (0 = none, the default).
     * @param stallNanos       how long, ns (at most 10 s).
     * @param law              the control law: {@value CascadedPidLaw#NAME} (the default) or a {@link ControlLaw}
     *                         class on the class path.
     * @param excite           an excitation to run ({@link ExcitationSpec}), or null for none (the default).
     * @param exciteTorqueLimitNm        the largest excitation amplitude on the torque command, N·m (default
     *                                   {@link ExcitationLimits#TORQUE_DEFAULT_NM}).
     * @param exciteVelocityLimitRadPerS the largest on the velocity reference, rad/s (default
     *                                   {@link ExcitationLimits#VELOCITY_DEFAULT_RAD_PER_S}).
     * @param excitePositionLimitRad     the largest on the position setpoint, rad (default
     *                                   {@link ExcitationLimits#POSITION_DEFAULT_RAD}).
     * @param drivePeakTorqueNm          the drive's peak torque, N·m (default
     *                                   {@link AxisParameters#PEAK_TORQUE_DEFAULT_NM}).
     */
    public record Settings(Integer rateHz, Integer watchdogPriority, Double followingErrorRad,
        Double followingErrorAtSpeedRad, Double followingErrorFilterMs, String profile, Double brakeReleaseTimeoutMs,
        Integer encoderBits, Map<String, Object> gains, Long stallAt, Long stallNanos, String law, String excite,
        Double exciteTorqueLimitNm, Double exciteVelocityLimitRadPerS, Double excitePositionLimitRad,
        Double drivePeakTorqueNm)
    {
        /** Defaults and ranges. */
        public Settings
        {
            rateHz = rateHz == null ? 1000 : rateHz;
            watchdogPriority = watchdogPriority == null ? 75 : watchdogPriority;
            profile = profile == null ? DemoProfile.STANDARD : profile;
            // the fast profile lags more (its moves need most of the torque; an inertia the tune underestimates
            // shows as lag), and the cruise profile carries excitations that move the axis off its path: their
            // limits are wider
            final boolean fast = !DemoProfile.STANDARD.equals(profile);
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
            if (!DemoProfile.isKnown(profile))
            {
                throw new IllegalArgumentException("profile '" + profile + "' is not " + DemoProfile.NAMES);
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
            exciteTorqueLimitNm = exciteTorqueLimitNm == null ? ExcitationLimits.TORQUE_DEFAULT_NM :
                exciteTorqueLimitNm;
            exciteVelocityLimitRadPerS = exciteVelocityLimitRadPerS == null ?
                ExcitationLimits.VELOCITY_DEFAULT_RAD_PER_S : exciteVelocityLimitRadPerS;
            excitePositionLimitRad = excitePositionLimitRad == null ? ExcitationLimits.POSITION_DEFAULT_RAD :
                excitePositionLimitRad;
            drivePeakTorqueNm = drivePeakTorqueNm == null ? AxisParameters.PEAK_TORQUE_DEFAULT_NM : drivePeakTorqueNm;
            final ExcitationLimits limits = new ExcitationLimits(exciteTorqueLimitNm, exciteVelocityLimitRadPerS,
                excitePositionLimitRad, drivePeakTorqueNm);
            if (excite != null)
            {
                final String problem = ExcitationSpec.parse(excite).problemFor(1.0 / rateHz, limits);
                if (problem != null)
                {
                    throw new IllegalArgumentException(problem);
                }
            }
        }

        /**
         * @return the following-error limits these settings give: at rest and at the profile's top speed, the filter
         * in cycles at the rate (at least one).
         */
        public FollowingError.Limits followingErrorLimits()
        {
            final double dt = 1.0 / rateHz;
            final int filterCycles = Math.max(1, (int)Math.round(followingErrorFilterMs * 1e-3 / dt));
            return new FollowingError.Limits(followingErrorRad, followingErrorAtSpeedRad,
                DemoProfile.named(profile).vMaxRadPerS(), filterCycles);
        }

        /**
         * @return the excitation limits these settings give.
         */
        public ExcitationLimits excitationLimits()
        {
            return new ExcitationLimits(exciteTorqueLimitNm, exciteVelocityLimitRadPerS, excitePositionLimitRad,
                drivePeakTorqueNm);
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

    private Settings settings = new Settings(null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null);
    private ControlLaw law = new CascadedPidLaw();
    private long periodNanos;
    private double dt;
    private final ControllerStatus status = new ControllerStatus();
    private final SensorSample sample = new SensorSample();
    private final Setpoint setpoint = new Setpoint();
    private final ControlCommand command = new ControlCommand();
    private final UnsafeBuffer commandPayload = new UnsafeBuffer(new byte[COMMAND_LENGTH]);
    private final SingleWriterRecorder latency = new SingleWriterRecorder(1, HIGHEST_NS, 3);
    private final Histogram cumulative = new Histogram(1, HIGHEST_NS, 3);
    private final ThreadMXBean cpuClock = ManagementFactory.getThreadMXBean();
    private DemoProfile profile = DemoProfile.standard();
    private DriveHandshake drive;
    private TrajectoryClock trajectory;
    private Supervision supervision;
    private final TrackingStatistics tracking = new TrackingStatistics();
    private CycleJournal cycleJournal;
    /** The excitation to run, or null. */
    private Excitation excitation;
    private WatchdogTimer timer;
    private FramePublisher publisher;
    /** The controller-stall fault's cycle until it has fired, then 0. */
    private long stallAt;
    /** Whether the law was updated since it was last activated or deactivated. */
    private boolean lawActive;
    private CycleStatistics cycleStatistics;
    private JournalWriter monitorJournal;
    private WatchdogConfig watchdogConfig;
    private WakeLateness lateness;
    private WakeLateness timerLateness;
    /** The thread's CPU time and the wall time when the current cycle's handler was entered. */
    private long cycleCpuStart;
    private long cycleWallStart;
    private final long[] tripAt = new long[TRIPS_KEPT];
    private int tripsKept;
    private RfmNode node;
    private long[] cardWarm;
    private ControllerResult result;

    @Override
    public void configure(final AppSettings given)
    {
        final Settings s = given.bind(Settings.class);
        if (s == null)
        {
            return;
        }
        settings = s;
        stallAt = s.stallAt();
        try
        {
            final ClassLoader loader = Thread.currentThread().getContextClassLoader();
            law = ControlLaws.create(s.law(), loader != null ? loader : ControllerApp.class.getClassLoader());
            law.configure(s.gains() == null ? Map.of() : s.gains(), 1.0 / s.rateHz());
            if (s.excite() != null)
            {
                excitation = new Excitation(ExcitationSpec.parse(s.excite()), s.excitationLimits(), 1.0 / s.rateHz());
                if (excitation.point() == InjectionPoint.VELOCITY && !law.velocityReferenceOffset(0.0))
                {
                    given.problem(given.key("excite") + ": the law " + law.getClass().getName() + " has no " +
                        "velocity reference to excite (ControlLaw.velocityReferenceOffset)");
                }
            }
        }
        catch (final IllegalArgumentException ex)
        {
            // the law names its keys gains.KEY: under this node's section
            final String message = String.valueOf(ex.getMessage());
            given.problem(message.startsWith("gains") || message.startsWith("law") ? given.key(message) :
                given.key("gains") + ": " + message);
        }
    }

    /**
     * @return the law the controller runs (configured for the period).
     */
    public ControlLaw law()
    {
        return law;
    }

    /**
     * @return the excitation it runs, or null.
     */
    public Excitation excitation()
    {
        return excitation;
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
        ControlFrames.checkApp(NAME, "every cycle", SENSOR, ctx, problems);
    }

    @Override
    public void onStart(final RfmNode node)
    {
        this.node = node;
        final Journal journals = node.journal();
        profile = DemoProfile.named(settings.profile());
        periodNanos = TimeUnit.SECONDS.toNanos(1) / settings.rateHz();
        dt = 1.0 / settings.rateHz();
        trajectory = new TrajectoryClock(profile, dt);
        watchdogConfig = WatchdogConfig.defaults(periodNanos);
        cycleStatistics = new CycleStatistics(periodNanos);
        monitorJournal = journals.newWriter("monitor");
        publisher = new FramePublisher(node.device(), COMMAND);
        final JournalWriter handlerJournal = journals.newWriter("controller");
        cycleJournal = new CycleJournal(handlerJournal);
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
                status.runningFromCycle.setRelease(timer.watchdog().lastCycle());
            }
            status.axisState.setRelease(to.id());
            if (to == AxisState.SAFE && from != AxisState.SAFE && tripsKept < TRIPS_KEPT)
            {
                tripAt[tripsKept++] = now;
            }
            stateJournal.state(from.id(), to.id(), now);
        }));
        drive = new DriveHandshake(Math.max(1, Math.round(settings.brakeReleaseTimeoutMs() * 1e-3 / dt)),
            timer::requestDriveTrip);
        supervision = new Supervision(new DeadlineMonitor(periodNanos),
            new FollowingError(settings.followingErrorLimits()), MISSES_KEPT, timer::requestFault);
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
        return status.lastCycle.getAcquire() == 0 ? 0 : node.device().window().getLongAcquire(PLANT_DONE_OFFSET);
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
            new NodeAgent(new WatchdogAgent(timer, timerLateness, periodNanos, this::plantDone, System::nanoTime),
                CpuPlacement.auto(settings.watchdogPriority()), new NoOpIdleStrategy()),
            new NodeAgent(new MonitorAgent(node, settings.rateHz(), status, supervision, latency, cumulative,
                cycleStatistics, monitorJournal, this::plantDone, () -> timer.watchdog().trips()),
                CpuPlacement.HOUSEKEEPING,
                new SleepingMillisIdleStrategy(1)));
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
        if (stallAt != 0 && status.lastCycle.getPlain() == stallAt)
        {
            // the controller-stall fault: this thread held up once after answering the cycle, as a pre-emption would;
            // the sensor frames published meanwhile wait in the rings, and all but the newest are skipped as backlog
            stallAt = 0;
            HoldUp.atLeast(settings.stallNanos());
        }
    }

    /**
     * One sensor frame: decode it, hand it to the watchdog, skip it if it is backlog, run the drive handshake, the
     * trajectory and the law (or zero torque when the axis is not driven), write the command, supervise the cycle,
     * and journal it.
     *
     * @return when the cycle ended (its command written, or the frame skipped), or 0 for a frame not read.
     */
    private long handle(final FrameView frame, final long start)
    {
        final DirectBuffer b = frame.buffer();
        final int p = frame.payloadOffset();
        if (b.getInt(p + SENSOR_VERSION_OFFSET) != PAYLOAD_VERSION)
        {
            return 0; // another payload layout: not read (the watchdog sees the silence)
        }
        final long cycle = b.getLong(p + SENSOR_CYCLE_OFFSET);
        final int statusWord = b.getInt(p + SENSOR_STATUS_WORD_OFFSET);
        final long sendNanos = frame.sendNanos();
        sample.set(cycle, sendNanos, b.getDouble(p + SENSOR_POSITION_OFFSET), b.getDouble(p + SENSOR_VELOCITY_OFFSET));
        drive.observe(cycle, statusWord);
        lateness.wake(cycle, sendNanos, start);
        timer.offer(cycle, sendNanos, start);
        status.lastCycle.setRelease(cycle);
        final long newer = newerFrames(node.device().window(), frame.seq());
        if (newer > 0)
        {
            status.skipped();
            cycleJournal.skipped(cycle, newer, start);
            return start;
        }
        final int st = drive.step(cycle, supervision.faulted() ? AxisState.FAULT.id() : status.axisState.getAcquire(),
            statusWord, sample.position());
        final int excitationStop = excitation == null ? 0 :
            excitation.cycle(cycle, st == AxisState.RUNNING.id() && drive.driving(), !supervision.faulted());
        steer(st);
        final double torque = command.torqueNm();
        putCommand(commandPayload, torque, cycle, setpoint.position(), st, drive.controlWord(st, statusWord));
        // the time this thread was off the cpu so far in the cycle (pre-empted), read before the publish (whose event
        // delivery comes after the command's send stamp), and only in a cycle already past half its deadline (the
        // thread's CPU clock is a system call; a cycle short of that here does not miss)
        final long beforePublish = System.nanoTime();
        final long offCpu = beforePublish - sendNanos <= supervision.deadlineNanos() / 2 ? 0 :
            beforePublish - cycleWallStart - (cpuClock.getCurrentThreadCpuTime() - cycleCpuStart);
        publisher.publish(commandPayload, 0, COMMAND_LENGTH, 0);
        // written: the command frame's own send stamp, the moment it is in reflective memory
        final long written = publisher.lastSendNanos();
        final long cycleLatency = written - sendNanos;
        latency.recordValue(cycleLatency < 1 ? 1 : Math.min(cycleLatency, HIGHEST_NS));
        if (supervision.deadline(sendNanos, written, start, offCpu))
        {
            cycleJournal.deadlineMiss(cycle, cycleLatency - supervision.deadlineNanos(), written);
            if (excitation != null)
            {
                excitation.deadlineMiss(cycle);
            }
        }
        final double error = setpoint.position() - sample.position();
        if (st == AxisState.RUNNING.id())
        {
            tracking.running(error, setpoint, torque);
            if (supervision.followingError(cycle, error, setpoint.velocity()))
            {
                cycleJournal.followingError(cycle, error, written);
            }
        }
        status.lastError = error;
        cycleJournal.cycle(written, st, sample, setpoint, torque, error, cycleLatency, lawJournalState);
        if (excitation != null)
        {
            if (excitation.active())
            {
                cycleJournal.excitation(written, cycle, excitation);
            }
            if (excitationStop != 0)
            {
                cycleJournal.excitationStopped(cycle, excitationStop, written);
            }
        }
        return written;
    }

    /** The law's state before this cycle's update, for the journal. */
    private double lawJournalState;

    /**
     * The setpoint and the command of a cycle acting in state {@code st}: on the drive's first ready cycle the law
     * activates and the trajectory starts or rejoins; while the drive is not yet ready the law holds the axis where it
     * stood, activated each cycle (no history); driven, the trajectory runs and the law commands; not RUNNING, the
     * setpoint stays where the trajectory stopped and the torque is zero.
     */
    private void steer(final int st)
    {
        if (drive.readyNow())
        {
            law.activate(sample);
            if (drive.startingTrajectory())
            {
                // from the first frame after the watchdog's RUNNING cycle that reported the drive ready, however late
                // this thread saw RUNNING
                trajectory.start(status.runningFromCycle.getAcquire(), drive.readySince());
            }
            else
            {
                trajectory.rejoin(sample.cycle(), sample.position());
            }
        }
        if (drive.holding())
        {
            law.activate(sample);
            setpoint.hold(drive.holdPosition());
        }
        lawJournalState = law.journalState();
        if (st == AxisState.RUNNING.id())
        {
            if (drive.driving())
            {
                trajectory.drive(sample.cycle(), setpoint);
            }
            if (excitation != null)
            {
                excitation.beforeLaw(setpoint, law);
            }
            law.update(sample, setpoint, sample.cycle() * dt, dt, command);
            if (excitation != null)
            {
                excitation.afterLaw(command);
            }
            lawActive = true;
        }
        else
        {
            if (lawActive)
            {
                law.deactivate();
                lawActive = false;
            }
            trajectory.stopped(setpoint);
            AxisController.zeroTorque(sample, setpoint, command);
        }
    }

    /**
     * @param window the node's window.
     * @param seq    the sequence of the frame taken.
     * @return how many newer sensor frames are already in reflective memory (0: none): a frame with newer ones is
     * backlog (the thread was held up), and a command computed on it would answer the past. Only frames of the same
     * plant incarnation count: those a plant of an earlier run left in the slots are not newer.
     */
    static long newerFrames(final RfmWindow window, final long seq)
    {
        final long next = SENSOR.slotOffset(seq + 1);
        final long newer = Math.abs(window.getLongVolatile(next + FrameHeaderDescriptor.SEQ_OFFSET));
        return newer > seq && window.getIntVolatile(next + FrameHeaderDescriptor.INCARNATION_OFFSET) ==
            window.getIntVolatile(SENSOR.slotOffset(seq) + FrameHeaderDescriptor.INCARNATION_OFFSET) ? newer - seq : 0;
    }

    @Override
    public String heartbeat()
    {
        return heartbeatSegment(status.lastSecond, "skipped", status.skippedFrames.getAcquire(), "misses",
            supervision == null ? 0 : supervision.misses());
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
        if (status.refusal == null)
        {
            // a clean end: this side's rate is not there any more for the next run's other side to check against
            node.device().window().putLongRelease(CONTROLLER_RATE_OFFSET, 0);
        }
        lateness.finish();
        timerLateness.finish();
        cycleStatistics.sample();
        final CycleStatistics.Figures loop = cycleStatistics.total();
        ControlJournal.loop(monitorJournal, System.nanoTime(), loop, status.skippedFrames.get(), 0);
        final List<ThreadStats> end = sensors.threadStats();
        final List<RtThread> threads = sensors.threads();
        final Histogram total = latency.getIntervalHistogram();
        total.add(cumulative);
        final List<ThreadStats> warmStats = status.warm;
        final List<ThreadHygiene> hygiene = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++)
        {
            final ThreadStats delta = warmStats == null || i >= end.size() || i >= warmStats.size() ?
                ThreadStats.UNKNOWN : end.get(i).minus(warmStats.get(i));
            hygiene.add(new ThreadHygiene(threads.get(i).placement().thread(), delta.minorFaults(),
                delta.involuntarySwitches()));
        }
        final Journal journals = node.journal();
        final long tripWindow = (watchdogConfig.missedPeriodsToTrip() + 1L) * periodNanos;
        final long[] tripFrom = new long[tripsKept];
        for (int i = 0; i < tripsKept; i++)
        {
            tripFrom[i] = tripAt[i] - tripWindow;
        }
        final long trips = timer.watchdog().trips();
        final FollowingError lag = supervision.followingErrorCheck();
        result = new ControllerResult(
            sensors.counter(RuntimeCounter.FRAMES_HANDLED),
            sensors.counter(FrameCounter.GAPS),
            sensors.counter(FrameCounter.TORN),
            LossCauses.of(sensors, node.device(), SENSOR.event(), cardWarm),
            supervision.misses(),
            supervision.deadlineNanos() / 1e3,
            trips,
            timer.watchdog().recoveries(),
            tracking.rmsError(),
            tracking.maxError(),
            // the moves this run commanded (a short run ends part-way through the profile)
            trajectory.distanceCovered(),
            tracking.trackedCycles(),
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
            supervision.missFrom(),
            supervision.missTo(),
            supervision.missWake(),
            supervision.missOffCpu(),
            supervision.missesNotKept(),
            tripFrom,
            Arrays.copyOf(tripAt, tripsKept),
            trips - tripsKept,
            NodeResults.concat(lateness, timerLateness, true),
            NodeResults.concat(lateness, timerLateness, false),
            tracking.movingRmsError(),
            tracking.movingMaxError(),
            tracking.restMaxError(),
            tracking.movingCycles(),
            lag.faulted() ? 1 : 0,
            supervision.faultCycle(),
            lag.lagAtFault(),
            lag.limitAtFault(),
            lag.peakLag(),
            status.skippedFrames.get(),
            loop,
            tracking.peakTorque(),
            law.torqueLimitNm(),
            tracking.movingMaxError() / (2.0 * Math.PI / (1L << settings.encoderBits())),
            settings.encoderBits(),
            profile.name(),
            drive.resets());
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
        if (status.refusal != null)
        {
            return status.refusal;
        }
        return result != null && result.cycles() == 0 ? "controller: no sensor frame from the plant in this run" : null;
    }
}
