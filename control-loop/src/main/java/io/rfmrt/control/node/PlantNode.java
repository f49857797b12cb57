package io.rfmrt.control.node;

import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.AxisPlant;
import io.rfmrt.control.WakeLateness;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.WaitStrategy;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static io.rfmrt.control.node.ControlFrames.*;

/**
 * The plant node: simulates the axis on a drift-free absolute schedule (deadline += period; park to just before
 * it, spin the tail), publishes a sensor frame each period, and applies the newest command it received through the
 * interrupt path (zero-order hold). A command older than {@link #STALE_PERIODS} periods makes it brake, counted
 * and journaled. Sensor frames can be withheld for a window of cycles (the sensor-dropout fault).
 */
public final class PlantNode
{
    /** A command older than this many periods is stale: the plant brakes. */
    public static final int STALE_PERIODS = 5;

    private final AtomicLong newestCycle = new AtomicLong();
    private volatile boolean stopRequested;
    private final AtomicLong newestTorqueBits = new AtomicLong();
    /** The loop's wake − its scheduled tick; made by {@link #run}, figures read after the loop thread ended. */
    private WakeLateness lateness;

    /**
     * Ask a running plant to stop after its current cycle (any thread, e.g. a signal handler): it then tells the
     * controller it is done, flushes its journal and returns its counts so far.
     */
    public void requestStop()
    {
        stopRequested = true;
    }

    /**
     * Run the plant in this process.
     *
     * @param network    emulated network name.
     * @param journalDir where the plant's journal goes.
     * @param cycles     periods to run.
     * @param rateHz     loop rate.
     * @param dropFrom   first cycle whose sensor frame is withheld (0 = no dropout).
     * @param dropTo     first cycle published again.
     * @param warn       RT set-up warnings.
     * @return the plant's counts.
     */
    public Map<String, Object> run(final String network, final Path journalDir, final long cycles, final int rateHz,
        final long dropFrom, final long dropTo, final Consumer<String> warn)
    {
        final long[] counts = new long[4];
        try (RfmDevice device = RfmDevices.open(deviceUri(network, PLANT_NODE));
            RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, true, Path.of("/")), warn);
            Journal journal = Journal.start(JournalConfig.of(journalDir, PLANT_NODE)))
        {
            final ReceivePath commands = new ReceivePath(device, List.of(COMMAND), EventType.INTR2,
                WaitStrategy.blocking(), (frame, stamps) ->
                {
                    final int p = frame.payloadOffset();
                    newestTorqueBits.setRelease(Double.doubleToRawLongBits(
                        frame.buffer().getDouble(p + COMMAND_TORQUE_OFFSET)));
                    newestCycle.setRelease(frame.buffer().getLong(p + COMMAND_CYCLE_OFFSET));
                }, journal.newWriter("isr"), journal.newWriter("consumer"), SystemNanoClock.INSTANCE);
            final int cpu = env.rtCpus().isEmpty() ? -1 : env.rtCpus().get(0);
            ReceivePath.warmUp(device, List.of(COMMAND), EventType.INTR2, WaitStrategy.blocking(),
                ReceivePath.WARMUP_FRAMES_DEFAULT);
            final long[] cardWarm = ControllerNode.cardCounters(device, EventType.INTR2);
            commands.start(env, cpu, 80, cpu, 70);
            final JournalWriter plantJournal = journal.newWriter("plant");
            lateness = new WakeLateness(TimeUnit.SECONDS.toNanos(1) / rateHz, WakeLateness.CAPACITY_DEFAULT,
                (seq, startNanos, durationNanos) -> plantJournal.fault(FAULT_STALL, seq, durationNanos, startNanos));
            final RtThread loop = env.start("rfmrt-plant", cpu, 60, () ->
            {
                try
                {
                    loop(device, plantJournal, cycles, rateHz, dropFrom, dropTo, counts);
                }
                catch (final Throwable t)
                {
                    // under the receive path's error policy: a dead plant loop fails the run, never silently
                    commands.errors().onError(t);
                }
            });
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(cycles / Math.max(1, rateHz) + 60);
            boolean warned = false;
            while (loop.isAlive() && System.nanoTime() < deadline && !commands.errors().failed())
            {
                loop.join(100);
                warned = warned || JournalWarning.warnOnce(journal, warn);
            }
            commands.close();
            if (commands.failure() != null)
            {
                throw new IllegalStateException("plant " + commands.failure());
            }
            final Map<String, Object> result = new LinkedHashMap<>();
            result.put("cycles", counts[0]);
            result.put("interrupted", stopRequested);
            result.put("sensor_frames", counts[1]);
            result.put("stale_command_cycles", counts[2]);
            result.put("withheld_sensor_frames", counts[3]);
            result.put("commands_received", commands.counter(RuntimeCounter.FRAMES_HANDLED));
            result.put("command_gaps", commands.counter(FrameCounter.GAPS));
            result.put("lost_frame_causes", ControllerNode.lossCauses(commands, device, EventType.INTR2, cardWarm));
            result.put("journal_drops", journal.stats().droppedRingFull());
            result.put("journal_write_errors", journal.stats().writeErrors());
            result.put("journal_records", journal.stats().recordsWritten());
            lateness.finish();
            result.put("lateness", ControllerNode.latenessFigures(lateness));
            result.put("stall_start", ControllerNode.concat(lateness, null, true));
            result.put("stall_end", ControllerNode.concat(lateness, null, false));
            return result;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("plant interrupted", ex);
        }
    }

    /**
     * The plant's wait for its next tick: park to just before it, spin the tail.
     *
     * @param next the tick, {@link System#nanoTime()}.
     * @return the time it returned (the tick or later).
     */
    static long awaitTick(final long next)
    {
        final long park = next - System.nanoTime() - 60_000;
        if (park > 0)
        {
            LockSupport.parkNanos(park);
        }
        long now;
        while ((now = System.nanoTime()) < next)
        {
            Thread.onSpinWait();
        }
        return now;
    }

    private void loop(final RfmDevice device, final JournalWriter journal, final long cycles, final int rateHz,
        final long dropFrom, final long dropTo, final long[] counts)
    {
        final AxisPlant plant = new AxisPlant(AxisParameters.standard());
        plant.reset(0, 0);
        final FramePublisher publisher = new FramePublisher(device, SENSOR);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[SENSOR_LENGTH]);
        final long period = TimeUnit.SECONDS.toNanos(1) / rateHz;
        final double dt = 1.0 / rateHz;
        long next = System.nanoTime() + period;
        for (long cycle = 1; cycle <= cycles && !stopRequested; cycle++)
        {
            final long now = awaitTick(next);
            lateness.wake(cycle, next, now);
            next += period;

            // the command that answers cycle k is due before tick k + 1
            final long commandCycle = newestCycle.getAcquire();
            final long age = cycle - 1 - commandCycle;
            final boolean braking = commandCycle == 0 || age > STALE_PERIODS;
            if (braking)
            {
                plant.brake(dt);
                if (commandCycle != 0)
                {
                    counts[2]++;
                    journal.fault(FAULT_COMMAND_STALE, cycle, age, now);
                }
            }
            else
            {
                plant.step(Double.longBitsToDouble(newestTorqueBits.getAcquire()), dt);
            }
            if (dropFrom > 0 && cycle >= dropFrom && cycle < dropTo)
            {
                counts[3]++;
            }
            else
            {
                payload.putDouble(SENSOR_POSITION_OFFSET, plant.position());
                payload.putDouble(SENSOR_VELOCITY_OFFSET, plant.velocity());
                payload.putLong(SENSOR_CYCLE_OFFSET, cycle);
                payload.putLong(SENSOR_SEND_NANOS_OFFSET, now);
                publisher.publish(payload, 0, SENSOR_LENGTH, 0);
                counts[1]++;
            }
            journal.sample(SAMPLE_PLANT, now, cycle, braking ? 1 : 0, plant.position(), plant.velocity(),
                plant.torque(), braking ? 1 : 0, 0, 0);
            counts[0] = cycle;
        }
        // the controller ends when this is non-zero; a stopped plant says how far it got
        device.window().putLongRelease(PLANT_DONE_OFFSET, Math.max(1, counts[0]));
    }
}
