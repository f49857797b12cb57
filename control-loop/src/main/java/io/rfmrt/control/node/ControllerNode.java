package io.rfmrt.control.node;

import io.rfmrt.control.AxisController;
import io.rfmrt.control.AxisState;
import io.rfmrt.control.ControlCommand;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.ControllerState;
import io.rfmrt.control.DeadlineMonitor;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.SensorSample;
import io.rfmrt.control.Setpoint;
import io.rfmrt.control.Watchdog;
import io.rfmrt.control.WakeLateness;
import io.rfmrt.control.WatchdogConfig;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.runtime.WaitStrategy;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import io.rfmrt.runtime.threads.ThreadStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static io.rfmrt.control.node.ControlFrames.*;

/**
 * The controller node, on the interrupt path: each sensor frame wakes the ISR-wake thread, the consumer thread runs
 * the control law (a pure function of state and input) and writes the command frame back. A deadline monitor
 * checks sensor send → command written against a fraction of the period; a watchdog, driven by a timer thread
 * (a missing frame cannot wake anything), drives the axis to SAFE (zero torque) when frames stop and back to
 * RUNNING after M good frames. The trajectory clock advances only in RUNNING, so after a recovery the axis
 * continues the profile from where it stopped.
 */
public final class ControllerNode
{
    private static final long HIGHEST_NS = 10_000_000_000L;
    /** Deadline misses kept with their times for matching against stalls; more are counted as not checked. */
    static final int MISSES_KEPT = 1 << 18;
    /** Watchdog trips kept with their times. */
    static final int TRIPS_KEPT = 4096;

    private final ControllerGains gains;
    private final long periodNanos;
    private final double dt;
    private final AxisController controller;
    private final DemoProfile profile = DemoProfile.standard();
    private final ControllerState state = new ControllerState();
    private final SensorSample sample = new SensorSample();
    private final Setpoint setpoint = new Setpoint();
    private final ControlCommand command = new ControlCommand();
    private final UnsafeBuffer commandPayload = new UnsafeBuffer(new byte[COMMAND_LENGTH]);
    private final DeadlineMonitor deadline;
    private final SingleWriterRecorder latency = new SingleWriterRecorder(1, HIGHEST_NS, 3);
    private final AtomicInteger axisState = new AtomicInteger(AxisState.STARTING.id());
    private final AtomicLong framesSeen = new AtomicLong();
    private final AtomicLong lastCycle = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private FramePublisher publisher;
    private JournalWriter journal;
    private long trajectoryCycle;
    private int previousState = AxisState.STARTING.id();
    private double sumSquaredError;
    private double maxError;
    private long trackedCycles;
    private volatile double lastError;
    private volatile boolean running;
    private volatile boolean stopRequested;
    private final WaitStrategy wait;
    private final WatchdogConfig watchdogConfig;
    /** Handler start − the sensor frame's publish stamp; filled in {@link #run} (it journals its stalls). */
    private WakeLateness lateness;
    /** The watchdog timer's wake − its scheduled tick. */
    private WakeLateness timerLateness;
    private final long[] missFrom = new long[MISSES_KEPT];
    private final long[] missTo = new long[MISSES_KEPT];
    private long missesLateWake;
    private final long[] tripAt = new long[TRIPS_KEPT];
    private int tripsKept;

    /**
     * @param rateHz loop rate.
     */
    public ControllerNode(final int rateHz)
    {
        this(rateHz, WaitStrategy.blocking());
    }

    /**
     * @param rateHz loop rate.
     * @param wait   how sensor frames reach the controller: {@link WaitStrategy.Kind#BLOCKING} (a consumer thread
     *               behind the hand-off) or {@link WaitStrategy.Kind#INLINE} (on the ISR-wake thread, one wake).
     */
    public ControllerNode(final int rateHz, final WaitStrategy wait)
    {
        this.wait = wait;
        this.periodNanos = TimeUnit.SECONDS.toNanos(1) / rateHz;
        this.dt = 1.0 / rateHz;
        this.gains = ControllerGains.standard().withPeriodSeconds(dt).validate();
        this.controller = new AxisController(gains);
        this.deadline = new DeadlineMonitor(periodNanos);
        this.watchdogConfig = WatchdogConfig.defaults(periodNanos);
    }

    private void onSensor(final FrameView frame, final StageStamps stamps)
    {
        final DirectBuffer b = frame.buffer();
        final int p = frame.payloadOffset();
        final long cycle = b.getLong(p + SENSOR_CYCLE_OFFSET);
        final double position = b.getDouble(p + SENSOR_POSITION_OFFSET);
        final double velocity = b.getDouble(p + SENSOR_VELOCITY_OFFSET);
        final long sendNanos = frame.sendNanos();
        // woken by the frame: it should have run when the frame was published
        final long wakeLateness = lateness.wake(cycle, sendNanos, stamps.consumerStartNanos());
        framesSeen.setRelease(framesSeen.getPlain() + 1);
        lastCycle.setRelease(cycle);

        final int st = axisState.getAcquire();
        if (st == AxisState.RUNNING.id() && previousState != st)
        {
            // entering RUNNING (start or recovery): no integrator history from before
            state.reset();
        }
        previousState = st;
        sample.set(cycle, sendNanos, position, velocity);
        final double integratorBefore = state.integratorNm();
        if (st == AxisState.RUNNING.id())
        {
            trajectoryCycle++;
            profile.setpoint(trajectoryCycle * dt, setpoint);
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
        publisher.publish(commandPayload, 0, COMMAND_LENGTH, 0);
        final long written = System.nanoTime();

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
        }
        lastError = error;
        journal.sample(SAMPLE_CONTROL, written, cycle, st, setpoint.position(), position, velocity, torque, error,
            cycleLatency / 1e3);
        journal.sample(SAMPLE_CONTROL_INPUT, sendNanos, cycle, st, integratorBefore, setpoint.velocity(),
            setpoint.acceleration(), setpoint.jerk(), position, velocity);
    }

    private void watch(final RfmDevice device, final JournalWriter stateJournal, final long[] transitions)
    {
        final Watchdog watchdog = new Watchdog(watchdogConfig, (from, to, reason, now) ->
        {
            axisState.setRelease(to.id());
            if (to == AxisState.SAFE && from != AxisState.SAFE && tripsKept < TRIPS_KEPT)
            {
                tripAt[tripsKept++] = now;
            }
            stateJournal.state(from.id(), to.id(), now);
            transitions[0]++;
        });
        long seen = 0;
        long next = System.nanoTime() + periodNanos;
        // the plant's end of stream is not a sensor failure: stop watching once it says it is done
        while (running && device.window().getLongAcquire(PLANT_DONE_OFFSET) == 0)
        {
            LockSupport.parkNanos(next - System.nanoTime());
            final long now = System.nanoTime();
            timerLateness.wake(seen, next, now);
            next += periodNanos;
            final long frames = framesSeen.getAcquire();
            if (frames == seen)
            {
                watchdog.poll(now);
            }
            while (seen < frames)
            {
                watchdog.onFrame(now);
                seen++;
            }
            transitions[1] = watchdog.trips();
            transitions[2] = watchdog.recoveries();
        }
    }

    /**
     * @param path a node's receive path, closed.
     * @return the counters that tell why frames were lost: gaps (frames never seen: the publisher lapped the channel
     *         ring before they were read), dma_ring_full (times a frame waited because every DMA descriptor was
     *         taken), handoff_full, torn, stale, crc_errors, and the card's dma_dropped (transfers the card
     *         dropped on a full DMA ring) and fifo_overflows (events its FIFO could not hold), since {@code warm}.
     * @param device the node's card.
     * @param event  the event type of the path's frames.
     * @param warm   the card's counters after the warm-up ({@link #cardCounters}).
     */
    public static Map<String, Object> lossCauses(final ReceivePath path, final RfmDevice device,
        final EventType event, final long[] warm)
    {
        final long[] now = cardCounters(device, event);
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("gaps", path.counter(FrameCounter.GAPS));
        m.put("dma_ring_full", path.counter(FrameCounter.DMA_MISSING));
        m.put("handoff_full", path.counter(RuntimeCounter.HANDOFF_FULL));
        m.put("torn", path.counter(FrameCounter.TORN));
        m.put("stale", path.counter(FrameCounter.STALE));
        m.put("crc_errors", path.counter(FrameCounter.CRC_ERRORS));
        m.put("dma_dropped", now[0] - warm[0]);
        m.put("fifo_overflows", now[1] - warm[1]);
        return m;
    }

    /**
     * @param device a card.
     * @param event  an event type.
     * @return its DMA-dropped and FIFO-overflow counters (for that type), to subtract the warm-up's.
     */
    public static long[] cardCounters(final RfmDevice device, final EventType event)
    {
        return new long[] {device.counter(io.rfmrt.rfm.RfmCounter.DMA_DROPPED, null),
            device.counter(io.rfmrt.rfm.RfmCounter.FIFO_OVERFLOWS, event)};
    }

    /**
     * @param l a thread's wake-up lateness.
     * @return its figures for the run's result: wakes, stalls (and how many not kept), longest stall, p50/p99/max.
     */
    public static Map<String, Object> latenessFigures(final WakeLateness l)
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("wakes", l.wakes());
        m.put("stalls", l.stalls());
        m.put("stalls_not_kept", l.stallsNotKept());
        m.put("longest_stall_us", l.longestNanos() / 1e3);
        m.put("p50_us", l.latenessAtPercentile(50) / 1e3);
        m.put("p99_us", l.latenessAtPercentile(99) / 1e3);
        m.put("max_us", l.maxLatenessNanos() / 1e3);
        return m;
    }

    /**
     * @param a      one thread's stalls.
     * @param b      another's, or {@code null}.
     * @param starts starts, else ends.
     * @return the kept stalls' starts (or ends) of both.
     */
    public static long[] concat(final WakeLateness a, final WakeLateness b, final boolean starts)
    {
        final int n = a.kept() + (b == null ? 0 : b.kept());
        final long[] out = new long[n];
        int k = 0;
        for (final WakeLateness l : b == null ? List.of(a) : List.of(a, b))
        {
            for (int i = 0; i < l.kept(); i++)
            {
                out[k++] = starts ? l.start(i) : l.end(i);
            }
        }
        return out;
    }

    /**
     * Ask a running controller to stop within a second even if the plant never says it is done (any thread).
     */
    public void requestStop()
    {
        stopRequested = true;
    }

    /**
     * Run the controller in this process until the plant says it is done, or {@link #requestStop} is called.
     *
     * @param network    emulated network name.
     * @param journalDir where the controller's journal goes.
     * @param live       one progress line per second.
     * @param warn       RT set-up warnings.
     * @return the run's figures.
     */
    public Map<String, Object> run(final String network, final Path journalDir, final Consumer<String> live,
        final Consumer<String> warn) throws InterruptedException
    {
        final long[] transitions = new long[3];
        try (RfmDevice device = RfmDevices.open(deviceUri(network, CONTROLLER_NODE));
            RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, true, Path.of("/")), warn);
            Journal journals = Journal.start(JournalConfig.of(journalDir, CONTROLLER_NODE)))
        {
            publisher = new FramePublisher(device, COMMAND);
            journal = journals.newWriter("controller");
            final JournalWriter handlerJournal = journal;
            lateness = new WakeLateness(periodNanos, WakeLateness.CAPACITY_DEFAULT,
                (seq, startNanos, durationNanos) -> handlerJournal.fault(FAULT_STALL, seq, durationNanos, startNanos));
            final ReceivePath sensors = new ReceivePath(device, List.of(SENSOR), EventType.INTR1,
                wait, this::onSensor, journals.newWriter("isr"), journal,
                SystemNanoClock.INSTANCE);
            final int cpu = env.rtCpus().isEmpty() ? -1 : env.rtCpus().get(0);
            running = true;
            final JournalWriter stateJournal = journals.newWriter("watchdog");
            timerLateness = new WakeLateness(periodNanos, WakeLateness.CAPACITY_DEFAULT,
                (seq, startNanos, durationNanos) -> stateJournal.fault(FAULT_STALL, seq, durationNanos, startNanos));
            final RtThread watchdogThread = env.start("rfmrt-watchdog", cpu, 75, () ->
            {
                try
                {
                    watch(device, stateJournal, transitions);
                }
                catch (final Throwable t)
                {
                    // under the receive path's error policy: a dead watchdog fails the run, never silently
                    sensors.errors().onError(t);
                }
            });
            ReceivePath.warmUp(device, List.of(SENSOR), EventType.INTR1, wait, ReceivePath.WARMUP_FRAMES_DEFAULT);
            final long[] cardWarm = cardCounters(device, EventType.INTR1);
            sensors.start(env, cpu, 80, cpu, 70);

            List<ThreadStats> warm = null;
            Histogram interval = null;
            final Histogram cumulative = new Histogram(1, HIGHEST_NS, 3);
            int second = 0;
            long lastFrames = 0;
            final long start = System.nanoTime();
            boolean journalWarned = false;
            while (device.window().getLongAcquire(PLANT_DONE_OFFSET) == 0 && !stopRequested)
            {
                if (sensors.errors().awaitFailure(1000 - (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) %
                    1000), TimeUnit.MILLISECONDS))
                {
                    running = false;
                    sensors.close();
                    watchdogThread.join(5_000);
                    throw new IllegalStateException("controller " + sensors.failure());
                }
                journalWarned = journalWarned || JournalWarning.warnOnce(journals, live);
                interval = latency.getIntervalHistogram(interval);
                cumulative.add(interval);
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
            }
            // the last frames are in flight: let them land
            final long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (lastCycle.getAcquire() < device.window().getLongAcquire(PLANT_DONE_OFFSET) &&
                System.nanoTime() < deadlineNanos)
            {
                Thread.sleep(1);
            }
            final List<ThreadStats> end = sensors.threadStats();
            final List<RtThread> threads = sensors.threads();
            sensors.close();
            running = false;
            watchdogThread.join(5_000);
            lateness.finish();
            timerLateness.finish();
            final Histogram total = latency.getIntervalHistogram();
            total.add(cumulative);
            final Map<String, Object> r = new LinkedHashMap<>();
            r.put("cycles", sensors.counter(RuntimeCounter.FRAMES_HANDLED));
            r.put("lost_frames", sensors.counter(FrameCounter.GAPS));
            r.put("torn_frames", sensors.counter(FrameCounter.TORN));
            r.put("lost_frame_causes", lossCauses(sensors, device, EventType.INTR1, cardWarm));
            r.put("deadline_misses", deadline.misses());
            r.put("deadline_us", deadline.deadlineNanos() / 1e3);
            r.put("watchdog_trips", transitions[1]);
            r.put("watchdog_recoveries", transitions[2]);
            r.put("tracking_rms", trackedCycles == 0 ? 0.0 : Math.sqrt(sumSquaredError / trackedCycles));
            r.put("tracking_max", maxError);
            // the moves this run commanded (a short run ends part-way through the profile)
            r.put("move_distance", profile.distanceCovered(trajectoryCycle * dt));
            r.put("tracked_cycles", trackedCycles);
            r.put("e2e_p50_us", total.getValueAtPercentile(50) / 1e3);
            r.put("e2e_p99_us", total.getValueAtPercentile(99) / 1e3);
            r.put("e2e_max_us", total.getMaxValue() / 1e3);
            r.put("journal_drops", journals.stats().droppedRingFull());
            r.put("journal_write_errors", journals.stats().writeErrors());
            r.put("journal_records", journals.stats().recordsWritten());
            r.put("placement", env.placementTable());
            final List<Map<String, Object>> hygiene = new ArrayList<>();
            for (int i = 0; i < threads.size(); i++)
            {
                final ThreadStats delta = warm == null ? ThreadStats.UNKNOWN : end.get(i).minus(warm.get(i));
                final Map<String, Object> t = new LinkedHashMap<>();
                t.put("thread", threads.get(i).placement().thread());
                t.put("minor_faults", delta.minorFaults());
                t.put("involuntary_switches", delta.involuntarySwitches());
                hygiene.add(t);
            }
            r.put("threads_after_warmup", hygiene);
            r.put("wait", wait.toString());
            r.put("deadline_misses_late_wake", missesLateWake);
            r.put("lateness", latenessFigures(lateness));
            r.put("watchdog_timer_lateness", latenessFigures(timerLateness));
            // the times of misses, trips and stalls, for the demo to match against both nodes' stalls
            final int missesKept = (int)Math.min(deadline.misses(), MISSES_KEPT);
            r.put("miss_from", java.util.Arrays.copyOf(missFrom, missesKept));
            r.put("miss_to", java.util.Arrays.copyOf(missTo, missesKept));
            r.put("misses_not_kept", deadline.misses() - missesKept);
            final long tripWindow = (watchdogConfig.missedPeriodsToTrip() + 1L) * periodNanos;
            final long[] tripFrom = new long[tripsKept];
            for (int i = 0; i < tripsKept; i++)
            {
                tripFrom[i] = tripAt[i] - tripWindow;
            }
            r.put("trip_from", tripFrom);
            r.put("trip_to", java.util.Arrays.copyOf(tripAt, tripsKept));
            r.put("trips_not_kept", transitions[1] - tripsKept);
            r.put("stall_start", concat(lateness, timerLateness, true));
            r.put("stall_end", concat(lateness, timerLateness, false));
            return r;
        }
    }
}
