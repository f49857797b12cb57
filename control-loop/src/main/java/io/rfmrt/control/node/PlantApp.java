package io.rfmrt.control.node;

import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.Cia402Drive;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.control.RateCheck;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.SimulatedAxis;
import io.rfmrt.control.TickSchedule;
import io.rfmrt.control.WakeLateness;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.node.NodeResults.Lateness;
import io.rfmrt.control.node.NodeResults.IgnoredCommands;
import io.rfmrt.control.node.NodeResults.LossCauses;
import io.rfmrt.control.node.NodeResults.PlantResult;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.AppSettings;
import io.rfmrt.runtime.ConfigException;
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
import io.rfmrt.runtime.counters.AppCounter;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.threads.AbsoluteTimer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static io.rfmrt.control.node.ControlFrames.*;

/**
 * The plant ({@code app: plant}): its loop agent ({@code rfmrt-plant}) simulates the axis on a drift-free absolute
 * schedule ({@link TickSchedule}: tick k is due at start + k·period; sleep on the kernel's absolute timer to just
 * before it, spin the short tail: {@link #TICK_SPIN_NS}), publishes
 * a sensor frame each tick, and applies the newest command the node's receive path handed it ({@link #handler()},
 * zero-order hold). The schedule never catches up: a wake-up more than half a period late misses the ticks it cannot
 * take on time (counted, journaled as MISSED_TICKS; the axis still moves through them under the held command), so
 * the controller sees a gap in the sensor cycles, never a burst. A command first seen one or more periods after it
 * was due is counted and journaled (LATE_COMMAND); one older than {@link #STALE_PERIODS} periods has timed out,
 * counted and journaled, and faults an enabled drive. The axis ({@link SimulatedAxis}: the ideal one or, with
 * {@code model: realistic}, {@link RealisticAxisPlant}) sits behind a CiA 402 drive ({@link Cia402Drive}: control
 * and status words, brake release and engage delays, its own fault, reset only on an edge); the sensor frame carries
 * what the drive measures. Sensor frames can be withheld for a window of cycles (the sensor-dropout fault). When its
 * cycles are done (or the node stops) it tells the controller through the layout's {@code plant.done} word; when
 * done it stops its node.
 * <pre>
 * app:
 *   name: plant
 *   rateHz: 1000        # loop rate, 1..10000
 *   cycles: 10000       # periods to run, 0 = until the node is stopped
 *   dropoutFrom: 0      # first cycle whose sensor frame is withheld (0 = no dropout)
 *   dropoutTo: 0        # first cycle published again
 *   priority: 60        # SCHED_FIFO priority of the loop (on the first RT core)
 *   latencyFrom: 0      # first cycle of the latency fault (0 = none)
 *   latency: 0          # from then on commands act this much later than they arrived (whole periods)
 *   quickStopRadPerS2: 50   # the drive's quick-stop deceleration
 *   model: ideal        # ideal | realistic (encoder, noise, resonance, stiction, gravity, +50 % inertia)
 *   delayPeriods: 0     # the drive applies a command this many periods after it is due (default: 1 if realistic)
 *   brakeRelease: 20ms  # the holding brake's release time (the brake holds meanwhile)
 *   brakeEngage: 10ms   # its engage time (the motor is off and the axis coasts meanwhile)
 *   stallAt: 0          # the plant-stall fault: the loop is held up once, after taking this tick (0 = none)
 *   stall: 0            # for this long
 * </pre>
 */
public final class PlantApp implements NodeApp
{
    /** The name {@code app:} gives. */
    public static final String NAME = "plant";
    /** Name of the plant loop's thread. */
    public static final String LOOP_THREAD = "rfmrt-plant";
    /** A command older than this many periods is stale: the drive faults (command timeout). */
    public static final int STALE_PERIODS = 5;
    /**
     * The controller went away when its commands had timed out this long when the plant stopped: a controller only
     * held up (a pre-emption, a stall) at the end is not gone.
     */
    public static final long GONE_MILLIS = 500;
    /** {@code model:} the ideal axis (exact position and velocity). */
    public static final String MODEL_IDEAL = "ideal";
    /** {@code model:} the realistic axis ({@link RealisticAxisPlant}). */
    public static final String MODEL_REALISTIC = "realistic";


    /** {@code app: plant}. */
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
            return new PlantApp();
        }
    }

    private PlantSettings settings = new PlantSettings(null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    /** Commands by cycle, from the handler to the loop. */
    static final int COMMAND_SLOTS = CommandMailbox.SLOTS;
    private final CommandMailbox commands = new CommandMailbox();
    /**
     * Last tick, sensor frames, stale command ticks, withheld sensor frames, missed ticks, wake-ups that missed
     * ticks, ticks taken, late commands, drive faults, drive fault resets, ticks taken before the first command;
     * written by the loop only.
     */
    private final long[] counts = new long[11];
    /** Command frames of another payload version (written by the handler); the first such version. */
    private final AtomicLong ignoredVersion = new AtomicLong();
    private volatile int badVersion;
    /** Commands the drive did not act on: not enabled, faulted without a reset edge (written by the loop). */
    private final AtomicLong ignoredNotEnabled = new AtomicLong();
    private final AtomicLong ignoredNoFaultReset = new AtomicLong();
    /** The control and status words of the first command ignored as not enabled. */
    private volatile long ignoredWords;
    /** The tick the first command was acted on (0: none yet), the last tick taken (written by the loop). */
    private final AtomicLong firstCommandTick = new AtomicLong();
    private final AtomicLong lastTick = new AtomicLong();
    /** The tick the commands last timed out on (0: they never did), times they did, whether they are now. */
    private final AtomicLong goneAtTick = new AtomicLong();
    private final AtomicLong goneEpisodes = new AtomicLong();
    private volatile boolean goneNow;
    /** Why the run was not sound ({@link #problem()}): the rate check's refusal, set by the warning agent. */
    private volatile String refusal;
    /** Late commands, for the monitor (written by the loop). */
    private final AtomicLong lateCommands = new AtomicLong();
    /** Missed ticks, for the monitor (written by the loop). */
    private final AtomicLong missedTicks = new AtomicLong();
    /** The drive's faults, for the monitor (written by the loop). */
    private final AtomicLong driveFaultCount = new AtomicLong();
    /** Late commands by how late, 1..{@link #STALE_PERIODS} periods (the last bucket: that many or more). */
    private final long[] lateByPeriods = new long[STALE_PERIODS];
    /** The tick loop's periodicity and execution: recorded by the loop, sampled by the monitor. */
    private CycleStatistics cycleStatistics;
    private JournalWriter monitorJournal;
    private volatile CycleStatistics.Figures lastSecond = CycleStatistics.Figures.NONE;
    private final ThreadMXBean cpuClock = ManagementFactory.getThreadMXBean();
    private volatile boolean finished;
    private RfmNode node;
    private JournalWriter plantJournal;
    private WakeLateness lateness;
    private long[] cardWarm;
    private PlantResult result;

    @Override
    public void configure(final AppSettings given)
    {
        final PlantSettings s = given.bind(PlantSettings.class);
        if (s != null)
        {
            settings = s;
        }
    }

    @Override
    public void check(final NodeContext ctx, final List<String> problems)
    {
        ControlFrames.checkApp(NAME, "every period", COMMAND, ctx, problems);
    }

    @Override
    public void onStart(final RfmNode node)
    {
        this.node = node;
        final double period = 1.0 / settings.rateHz();
        final List<String> axisProblems = MODEL_REALISTIC.equals(settings.model()) ?
            RealisticAxisParameters.standard().problemsFor(period) : AxisParameters.standard().problemsFor(period);
        if (!axisProblems.isEmpty())
        {
            throw new ConfigException(node.context().source(), List.of("app: rateHz " + settings.rateHz() + ": " +
                String.join("; ", axisProblems)));
        }
        // a network reused for a second run starts clean: the done word of the run before would stop a controller at
        // once (it is cleared before the first sensor frame, and a controller honours it only after one), and this
        // side's rate is there for the controller to check against its own
        node.device().window().putLongRelease(PLANT_DONE_OFFSET, 0);
        node.device().window().putLongRelease(PLANT_RATE_OFFSET, settings.rateHz());
        plantJournal = node.journal().newWriter("plant");
        monitorJournal = node.journal().newWriter("monitor");
        cycleStatistics = new CycleStatistics(TimeUnit.SECONDS.toNanos(1) / settings.rateHz());
        final JournalWriter j = plantJournal;
        lateness = new WakeLateness(TimeUnit.SECONDS.toNanos(1) / settings.rateHz(), WakeLateness.CAPACITY_DEFAULT,
            (seq, startNanos, durationNanos) -> j.fault(FAULT_STALL, seq, durationNanos, startNanos));
        cardWarm = NodeResults.cardCounters(node.device(), COMMAND.event());
    }

    @Override
    public FrameHandler handler()
    {
        return this::onCommand;
    }

    private void onCommand(final FrameView frame, final StageStamps stamps)
    {
        final int p = frame.payloadOffset();
        final int version = frame.buffer().getInt(p + COMMAND_VERSION_OFFSET);
        if (version != PAYLOAD_VERSION)
        {
            // another payload layout: not acted on (the plant brakes once the last good command is stale); counted,
            // the first version kept for the one warning
            if (ignoredVersion.getPlain() == 0)
            {
                badVersion = version;
            }
            ignoredVersion.setRelease(ignoredVersion.getPlain() + 1);
            return;
        }
        // one not newer than what the drive holds (a replayed or reordered frame) is ignored
        commands.offer(frame.buffer().getLong(p + COMMAND_CYCLE_OFFSET),
            frame.buffer().getDouble(p + COMMAND_TORQUE_OFFSET), frame.buffer().getInt(p + COMMAND_CONTROL_WORD_OFFSET));
    }

    @Override
    public List<NodeAgent> agents()
    {
        return List.of(
            new NodeAgent(new LoopAgent(), CpuPlacement.auto(settings.priority()), new NoOpIdleStrategy()),
            new NodeAgent(new WarningAgent(), CpuPlacement.HOUSEKEEPING, new SleepingMillisIdleStrategy(100)));
    }

    /**
     * The spin before each tick: the loop sleeps on the kernel's absolute timer until this long before the tick and
     * spins the rest, so a wake-up up to this late still takes the tick on time. Part of the loop's RT duty (this
     * over the period, plus the wake-up): 10 µs is 10 % of a core at 10 kHz, where spinning from 60 µs before each
     * tick cost 50 % and put the demo's RT threads over the kernel's RT budget.
     */
    public static final long TICK_SPIN_NS = 10_000;

    /**
     * The plant's wait for its next tick: sleep on the absolute timer to {@link #TICK_SPIN_NS} before it, spin the
     * tail.
     *
     * @param timer the loop's timer.
     * @param next  the tick, {@link System#nanoTime()}.
     * @return the time it returned (the tick or later).
     */
    static long awaitTick(final AbsoluteTimer timer, final long next)
    {
        timer.sleepUntil(next - TICK_SPIN_NS);
        long now;
        while ((now = System.nanoTime()) < next)
        {
            Thread.onSpinWait();
        }
        return now;
    }

    /** One tick per {@code doWork}. */
    private final class LoopAgent implements Agent
    {
        private final SimulatedAxis plant = settings.newAxis();
        private final Cia402Drive drive = new Cia402Drive(plant, settings.quickStopRadPerS2(),
            (int)Math.round(settings.brakeReleaseMs() * 1e-3 * settings.rateHz()),
            (int)Math.round(settings.brakeEngageMs() * 1e-3 * settings.rateHz()));
        private final FramePublisher publisher = new FramePublisher(node.device(), SENSOR);
        private final UnsafeBuffer payload = new UnsafeBuffer(new byte[SENSOR_LENGTH]);
        private final long period = TimeUnit.SECONDS.toNanos(1) / settings.rateHz();
        private final TickSchedule schedule = new TickSchedule(period);
        private final AbsoluteTimer timer = new AbsoluteTimer();
        private final double dt = 1.0 / settings.rateHz();
        private final long latencyPeriods = settings.latencyNanos() / period;
        private final long transportPeriods = settings.delayPeriods();
        /** For a taken tick t (slot t mod COMMAND_SLOTS): t, and the tick taken after it, the one its command is due by. */
        private final long[] takenTick = new long[COMMAND_SLOTS];
        private final long[] takenNext = new long[COMMAND_SLOTS];
        private long previousTaken;
        private boolean started;
        private long lastCommandCycle;
        private long appliedCycle;
        private double appliedTorque;
        private int appliedWord;
        private long driveFaults;
        /** The last command checked for being ignored. */
        private long ignoredChecked;

        @Override
        public void onStart()
        {
            plant.reset(0);
            started = false;
        }

        @Override
        public int doWork()
        {
            if (finished)
            {
                LockSupport.parkNanos(period);
                return 0;
            }
            if (!started)
            {
                // the schedule starts at the first tick, not when the agent was started: the node may start its
                // agents before it is done warming up, and a schedule begun then would be behind from the outset
                schedule.start(System.nanoTime());
                started = true;
            }
            long now = awaitTick(timer, schedule.dueNanos());
            final long cpuStart = cpuClock.getCurrentThreadCpuTime();
            lateness.wake(schedule.nextTick(), schedule.dueNanos(), now);
            final long firstMissed = schedule.nextTick();
            long missed = 0;
            long skipped;
            while ((skipped = schedule.skipLate(now)) > 0)
            {
                // the axis moved on while its samples were not taken: it runs those periods under the command it
                // holds, unsampled, and the loop takes the next tick it can take on time (no burst of late ticks).
                // Checked again after the wait: a hold-up here (the integration, a pre-emption) misses ticks too
                for (long k = schedule.nextTick() - skipped; k < schedule.nextTick(); k++)
                {
                    actuate(k, now, false);
                }
                missed += skipped;
                now = awaitTick(timer, schedule.dueNanos());
            }
            if (missed > 0)
            {
                counts[4] += missed;
                missedTicks.setRelease(counts[4]);
                counts[5]++;
                plantJournal.fault(FAULT_MISSED_TICKS, firstMissed, missed, now);
            }
            final long cycle = schedule.take();
            final int slot = (int)(previousTaken & (COMMAND_SLOTS - 1));
            takenTick[slot] = previousTaken;
            takenNext[slot] = cycle;
            previousTaken = cycle;
            final boolean braking = actuate(cycle, now, true);
            if (settings.dropoutFrom() > 0 && cycle >= settings.dropoutFrom() && cycle < settings.dropoutTo())
            {
                counts[3]++;
            }
            else
            {
                // what the drive reports: the ideal axis exactly, the realistic one in encoder counts
                putSensor(payload, plant.measuredPosition(), plant.measuredVelocity(), cycle, now, drive.statusWord());
                publisher.publish(payload, 0, SENSOR_LENGTH, 0);
                counts[1]++;
            }
            plantJournal.sample(SAMPLE_PLANT, now, cycle, braking ? 1 : 0, plant.position(), plant.velocity(),
                plant.torque(), braking ? 1 : 0, plant.measuredPosition(), drive.statusWord());
            counts[0] = cycle;
            counts[6]++;
            if (cycle == settings.stallAt() && settings.stallNanos() > 0)
            {
                // the plant-stall fault: this thread held up once, as a pre-emption would; the ticks that pass
                // meanwhile are missed, not made up
                HoldUp.atLeast(settings.stallNanos());
            }
            // the tick's period (from the last tick taken), its execution as the thread's CPU time, and its wall time
            cycleStatistics.record(now, cpuClock.getCurrentThreadCpuTime() - cpuStart, System.nanoTime() - now);
            if (settings.cycles() > 0 && cycle >= settings.cycles())
            {
                finish();
                node.terminate();
            }
            return 1;
        }

        /**
         * One period of the drive under the newest command it may act on (zero-order hold).
         *
         * @param cycle   the tick.
         * @param now     the time.
         * @param sampled whether the loop takes this tick (a missed tick moves the axis but counts nothing).
         * @return whether the brake is engaged.
         */
        private boolean actuate(final long cycle, final long now, final boolean sampled)
        {
            // the command that answers cycle k is due before tick k + 1; a cyclic-synchronous drive (the transport
            // delay) applies it that many periods later, and the latency fault holds each one back further
            final long delay = settings.latencyFrom() > 0 && cycle >= settings.latencyFrom() ? latencyPeriods : 0;
            adopt(cycle - 1 - transportPeriods - delay);
            final long commandCycle = appliedCycle;
            // periods late: since the first tick taken after the command's own cycle (less the drive's own transport
            // delay, which is not lateness), so the ticks the plant missed are not the command's lateness; through
            // missed ticks the drive keeps its own time and times out once the command it holds is more than
            // STALE_PERIODS old, as a drive's command timeout does
            final long age = cycle - transportPeriods - dueTick(commandCycle);
            if (sampled && commandCycle > lastCommandCycle)
            {
                // a command acted on for the first time: on time when it answers the tick before this one
                lastCommandCycle = commandCycle;
                if (age >= 1)
                {
                    counts[7]++;
                    lateCommands.setRelease(counts[7]);
                    lateByPeriods[(int)Math.min(age, STALE_PERIODS) - 1]++;
                    plantJournal.fault(FAULT_LATE_COMMAND, commandCycle, age, now);
                }
            }
            final boolean stale = commandCycle != 0 && age > STALE_PERIODS;
            // the drive (docs/protocol.md): no command yet is the word 0; a stale one times out, which faults an
            // enabled drive (it brakes and stays in FAULT until a fault reset edge)
            final boolean enabledBefore = drive.state() == Cia402Drive.State.OPERATION_ENABLED ||
                drive.state() == Cia402Drive.State.QUICK_STOP_ACTIVE;
            drive.tick(commandCycle == 0 ? 0 : appliedWord, stale, appliedTorque, dt);
            if (sampled)
            {
                countUncommanded(cycle, commandCycle, stale);
                if (commandCycle != 0 && commandCycle != ignoredChecked && !stale)
                {
                    ignoredChecked = commandCycle;
                    countIgnored(enabledBefore);
                }
            }
            counts[9] = drive.faultResets();
            if (drive.faults() != driveFaults)
            {
                driveFaults = drive.faults();
                counts[8] = driveFaults;
                driveFaultCount.setRelease(driveFaults);
                plantJournal.fault(FAULT_DRIVE_FAULT, cycle, DRIVE_FAULT_COMMAND_TIMEOUT, now);
            }
            if (stale && sampled)
            {
                counts[2]++;
                plantJournal.fault(FAULT_COMMAND_STALE, cycle, age, now);
            }
            return drive.braking();
        }

        /**
         * Ticks without a command in force: before the first (the controller not there yet) and once the commands
         * time out (it went away, or is held up).
         */
        private void countUncommanded(final long cycle, final long commandCycle, final boolean stale)
        {
            if (commandCycle == 0)
            {
                counts[10]++;
            }
            else if (firstCommandTick.getPlain() == 0)
            {
                firstCommandTick.setRelease(cycle);
            }
            if (stale != goneNow)
            {
                goneNow = stale;
                if (stale)
                {
                    goneAtTick.setRelease(cycle);
                    goneEpisodes.setRelease(goneEpisodes.getPlain() + 1);
                }
            }
            lastTick.setRelease(cycle);
        }

        /**
         * A command the drive acts on for the first time that asked for torque the drive does not apply: the drive is
         * not enabled and the command's control word does not enable operation (it lacks the CiA 402 control word),
         * or the drive is faulted and the command carries no rising edge of the fault-reset bit. A drive that was
         * enabled when the command came is not counted (its quick stop or shutdown is the command's own doing), nor a
         * command that asks to operate a drive still on its way there (shutdown, then enable: one period each).
         */
        private void countIgnored(final boolean enabledBefore)
        {
            if (appliedTorque == 0.0 || enabledBefore)
            {
                return;
            }
            final Cia402Drive.State st = drive.state();
            if (st == Cia402Drive.State.FAULT)
            {
                ignoredNoFaultReset.setRelease(ignoredNoFaultReset.getPlain() + 1);
            }
            else if (st != Cia402Drive.State.OPERATION_ENABLED && st != Cia402Drive.State.QUICK_STOP_ACTIVE &&
                (appliedWord & CW_OPERATE) != CW_OPERATE)
            {
                if (ignoredNotEnabled.getPlain() == 0)
                {
                    ignoredWords = ((long)appliedWord << 32) | (drive.statusWord() & 0xFFFF_FFFFL);
                }
                ignoredNotEnabled.setRelease(ignoredNotEnabled.getPlain() + 1);
            }
        }

        /**
         * @param commandCycle a command's cycle.
         * @return the tick it is due by: the first taken after its cycle (far in the past when no longer known).
         */
        private long dueTick(final long commandCycle)
        {
            final int slot = (int)(commandCycle & (COMMAND_SLOTS - 1));
            return takenTick[slot] == commandCycle ? takenNext[slot] : commandCycle + 1;
        }

        /**
         * Take the newest command whose cycle is at most {@code upTo}.
         *
         * @param upTo the newest cycle the drive may act on.
         */
        private void adopt(final long upTo)
        {
            if (commands.take(upTo, appliedCycle))
            {
                appliedCycle = commands.cycle();
                appliedTorque = commands.torque();
                appliedWord = commands.word();
            }
        }

        @Override
        public void onClose()
        {
            // stopped by the node (a signal) before its cycles were done: the controller still learns it ended
            finish();
        }

        @Override
        public String roleName()
        {
            return LOOP_THREAD;
        }
    }

    private void finish()
    {
        if (!finished)
        {
            finished = true;
            // the controller ends when this is non-zero; a stopped plant says how far it got
            node.device().window().putLongRelease(PLANT_DONE_OFFSET, Math.max(1, counts[0]));
        }
    }

    /**
     * The warnings, one each: the journal losing records, commands the drive ignores (and why), a controller that does
     * not come or goes away, a controller at another rate (which also stops the node); the loop's statistics once a
     * second.
     */
    private final class WarningAgent implements Agent
    {
        private boolean warned;
        private boolean versionWarned;
        private boolean notEnabledWarned;
        private boolean noResetWarned;
        private boolean neverWarned;
        private boolean goneWarned;
        private boolean rateChecked;
        private long nextSample = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);

        @Override
        public int doWork()
        {
            if (!warned)
            {
                warned = JournalWarning.warnOnce(node.journal(), line -> node.context().appOut().accept(line));
            }
            checkController();
            final long now = System.nanoTime();
            if (now >= nextSample && !finished)
            {
                nextSample += TimeUnit.SECONDS.toNanos(1);
                lastSecond = cycleStatistics.sample();
                final CycleStatistics.Figures total = cycleStatistics.total();
                ControlJournal.loop(monitorJournal, now, total, 0, lateCommands.getAcquire());
                // the loop's figures in the counters file, for readers outside the process (a tick taken is a cycle
                // the statistics recorded)
                final NodeCounters counters = node.counters();
                counters.app(AppCounter.LOOP_CYCLES).setRelease(total.cycles());
                counters.app(AppCounter.MISSED_TICKS).setRelease(missedTicks.getAcquire());
                counters.app(AppCounter.LATE_COMMANDS).setRelease(lateCommands.getAcquire());
                counters.app(AppCounter.DRIVE_FAULTS).setRelease(driveFaultCount.getAcquire());
                return 1;
            }
            return 0;
        }

        private void checkController()
        {
            final Consumer<String> out = node.context().appOut();
            if (!versionWarned && ignoredVersion.getAcquire() > 0)
            {
                versionWarned = true;
                out.accept("warning: plant: command frames of payload version " + badVersion + " ignored (this " +
                    "plant reads version " + PAYLOAD_VERSION + "; counted in ignored_commands.wrong_version)");
            }
            if (!notEnabledWarned && ignoredNotEnabled.getAcquire() > 0)
            {
                notEnabledWarned = true;
                final long words = ignoredWords;
                out.accept(String.format(Locale.ROOT, "warning: plant: commanded torque ignored: the drive is not " +
                    "enabled (control word 0x%04x, status word 0x%04x); a command enables it with the CiA 402 " +
                    "control word 0x%04x after a shutdown 0x%04x (docs/protocol.md; counted in " +
                    "ignored_commands.drive_not_enabled)", (int)(words >>> 32), (int)words, CW_OPERATE,
                    CW_SHUTDOWN));
            }
            if (!noResetWarned && ignoredNoFaultReset.getAcquire() > 0)
            {
                noResetWarned = true;
                out.accept("warning: plant: commanded torque ignored: the drive is in FAULT and the commands carry " +
                    "no rising edge of the fault-reset bit (control word bit 7); counted in " +
                    "ignored_commands.no_fault_reset");
            }
            final long first = firstCommandTick.getAcquire();
            if (!neverWarned && first == 0 && lastTick.getAcquire() > STALE_PERIODS)
            {
                neverWarned = true;
                out.accept("warning: plant: no command from the controller after " + lastTick.getAcquire() +
                    " periods: the drive stays disabled and braked until one comes (counted in uncommanded_cycles)");
            }
            if (!goneWarned && goneEpisodes.getAcquire() > 0)
            {
                goneWarned = true;
                out.accept("warning: plant: the controller's commands stopped at cycle " + goneAtTick.getAcquire() +
                    " (none for more than " + STALE_PERIODS + " periods): the drive times out and brakes " +
                    "(counted in stale_command_cycles)");
            }
            if (!rateChecked && first != 0)
            {
                // a command of this run came: the controller wrote its rate before it (0: it does not say)
                rateChecked = true;
                final long controllerHz = node.device().window().getLongAcquire(CONTROLLER_RATE_OFFSET);
                if (controllerHz != 0 && controllerHz != settings.rateHz())
                {
                    refusal = rateMismatch("plant", settings.rateHz(), "controller", controllerHz);
                    out.accept("warning: " + refusal + "; stopping");
                    finish();
                    node.terminate();
                }
            }
        }

        @Override
        public String roleName()
        {
            return "rfmrt-plant-monitor";
        }
    }

    @Override
    public String heartbeat()
    {
        return ControllerApp.heartbeatSegment(lastSecond, "late", lateCommands.getAcquire(), "missed_ticks",
            missedTicks.getAcquire());
    }

    @Override
    public void onStop(final RfmNode node)
    {
        final ReceivePath commands = node.receivePath();
        if (commands == null || lateness == null)
        {
            return;
        }
        lateness.finish();
        cycleStatistics.sample();
        final CycleStatistics.Figures loop = cycleStatistics.total();
        ControlJournal.loop(monitorJournal, System.nanoTime(), loop, 0, counts[7]);
        final Journal journal = node.journal();
        if (refusal == null)
        {
            // a clean end: this side's rate is not there any more for the next run's other side to check against
            node.device().window().putLongRelease(PLANT_RATE_OFFSET, 0);
        }
        result = new PlantResult(counts[0], settings.cycles() == 0 || counts[0] < settings.cycles(), counts[1],
            counts[2], counts[3], counts[6], counts[4], counts[5], counts[7], lateByPeriods.clone(),
            loop.periodMinUs(), loop.periodP50Us(), loop.periodP99Us(), loop.periodMaxUs(), loop, settings.model(),
            counts[8], counts[9],
            commands.counter(RuntimeCounter.FRAMES_HANDLED), commands.counter(FrameCounter.GAPS),
            LossCauses.of(commands, node.device(), COMMAND.event(), cardWarm), journal.stats().droppedRingFull(),
            journal.stats().writeErrors(), journal.stats().recordsWritten(), Lateness.of(lateness),
            NodeResults.concat(lateness, null, true), NodeResults.concat(lateness, null, false),
            counts[10] + counts[2], new IgnoredCommands(ignoredVersion.get(), ignoredNotEnabled.get(),
            ignoredNoFaultReset.get()));
    }

    @Override
    public PlantResult result()
    {
        return result;
    }

    /**
     * Not sound: the two sides' rates differ, the controller never came (no command in the whole run) or went away
     * (its commands had timed out, for at least {@link #GONE_MILLIS}, when the plant stopped).
     */
    @Override
    public String problem()
    {
        if (refusal != null)
        {
            return refusal;
        }
        if (result == null || counts[6] == 0)
        {
            return null;
        }
        if (firstCommandTick.get() == 0)
        {
            return "plant: no command from the controller in " + counts[0] + " periods: the axis was never driven";
        }
        if (goneNow && counts[0] - goneAtTick.get() >= GONE_MILLIS * settings.rateHz() / 1000)
        {
            return "plant: the controller's commands stopped at cycle " + goneAtTick.get() + " and did not come " +
                "back (the run ended at cycle " + counts[0] + ")";
        }
        return null;
    }
}
