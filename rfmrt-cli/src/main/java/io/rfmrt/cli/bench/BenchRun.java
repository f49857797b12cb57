package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One receive mode under one traffic shape, as the bench commands run it: a fresh emulated network, a receiver
 * process ({@code bench-receiver}), and a sender thread in this process that stands for another machine. Also the
 * two floors measured beside the results: the timer floor (cyclictest) and the one-hop wake floor (a plain
 * cross-process futex wake, as {@code bench events} measures it).
 */
final class BenchRun
{
    /**
     * The channel: 16,384 slots. A burst of 2,000 frames does not lap the receiver, and at 100 kHz the ring holds
     * 164 ms of traffic: the longest receiver stalls measured on a 2-vCPU VM (about 100 ms, RT throttling plus the
     * hypervisor) fit; at 4,096 slots (41 ms) they lost about 1 % of the frames at 100 kHz.
     */
    static final ChannelSpec CHANNEL = new ChannelSpec("bench", 1, 0x10000, 16384, 256, EventType.INTR1, 2);
    /** The receiver's DMA ring: as deep as the channel, so that the ring is the only limit. */
    static final int DMA_SLOTS = 16384;
    /** Memory of the bench network: the channel (4 MiB from 64 KiB) and the counters below it. */
    static final int NETWORK_BYTES = 8 << 20;
    static final int START_OFFSET = 0x100;
    static final int TOTAL_OFFSET = 0x108;

    /** The sender thread's name. */
    static final String SENDER_THREAD = "rfmrt-bench-sender";
    /** Sender whose send times are each moved by a uniform random offset of up to half a period either way. */
    static final String UNIFORM_JITTER = "uniform-jitter";
    /**
     * Seconds a step takes beyond its measured ones, about: the warm-up second and a receiver JVM started and stopped
     * (a 2-s step of bench ramp took 10-11 s on the 2-CPU machine of docs/cli.md). Only the first progress line uses
     * it; later ones take the steps' mean.
     */
    static final int STEP_OVERHEAD_SECONDS = 8;
    /** Sender that sends at exact multiples of the period (phase-locked to a poller of a related period). */
    static final String FIXED_PERIOD = "fixed-period";
    /** Sender of bursts: frames back to back, then silence. */
    static final String BURST = "burst";

    /**
     * The modes, in the order they run: name, wait strategy, journal, consumer priority (SCHED_FIFO).
     */
    static final String[][] MODES = {
        {"interrupt", "BLOCKING", "off", "70"},
        {"interrupt-inline", "INLINE", "off", "70"},
        {"interrupt-journal", "BLOCKING", "on", "70"},
        {"spin-then-block", "SPIN_THEN_BLOCK(50000)", "off", "70"},
        {"busy-spin", "BUSY_SPIN", "off", "70"},
        {"poll-1khz", "POLLING(1000000)", "off", "70"},
        {"poll-10khz", "POLLING(100000)", "off", "70"}};

    /**
     * What the sender sends.
     *
     * @param sender      {@link #UNIFORM_JITTER}, {@link #FIXED_PERIOD} or {@link #BURST}.
     * @param rate        frames per second (steady senders).
     * @param seconds     measured seconds (steady senders; one more second is sent first as warm-up).
     * @param size        payload bytes.
     * @param burstFrames frames per burst (burst sender).
     * @param bursts      bursts (burst sender; the first one is warm-up for the latency figures).
     * @param gapNanos    silence after each burst.
     */
    record Traffic(String sender, int rate, int seconds, int size, int burstFrames, int bursts, long gapNanos)
    {
        static Traffic steady(final String sender, final int rate, final int seconds, final int size)
        {
            return new Traffic(sender, rate, seconds, size, 0, 0, 0);
        }

        static Traffic burst(final int frames, final int bursts, final long gapNanos, final int size)
        {
            return new Traffic(BURST, 0, 0, size, frames, bursts, gapNanos);
        }

        long total()
        {
            return BURST.equals(sender) ? (long)burstFrames * bursts : (long)(seconds + 1) * rate;
        }

        long warmupFrames()
        {
            return BURST.equals(sender) ? burstFrames : rate;
        }
    }

    private BenchRun()
    {
    }

    /**
     * @param name a mode name.
     * @return its row of {@link #MODES}, or null.
     */
    static String[] mode(final String name)
    {
        for (final String[] mode : MODES)
        {
            if (mode[0].equals(name))
            {
                return mode;
            }
        }
        return null;
    }

    /**
     * @param names mode names from the command line.
     * @throws UsageException naming the first unknown one.
     */
    static void checkModes(final List<String> names)
    {
        for (final String name : names)
        {
            if (mode(name) == null)
            {
                throw new UsageException("--modes: unknown mode '" + name + "'");
            }
        }
    }

    /**
     * Run one mode.
     *
     * @param mode    a row of {@link #MODES}.
     * @param traffic what to send.
     * @return the figures; {@code failure} is non-null when the receiver did not finish well (a thread died, no
     * result), and then the CPU figure is null and the run invalid.
     */
    static Map<String, Object> run(final String[] mode, final Traffic traffic) throws Exception
    {
        final String network = "bench-" + ProcessHandle.current().pid() + "-" + mode[0];
        SimNetwork.create(network, NETWORK_BYTES).close();
        try
        {
            final Process receiver = ChildJvm.startInternal("bench-receiver", network, mode[0], mode[1], mode[2], mode[3],
                Long.toString(traffic.warmupFrames()));
            final BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                StandardCharsets.UTF_8));
            final String ready = lines.readLine();
            if (!"ready".equals(ready))
            {
                receiver.destroyForcibly();
                throw new IllegalStateException(mode[0] + ": the receiver process said '" + ready + "'");
            }
            final long[] sent = new long[2];
            try (RfmDevice sender = RfmDevices.open("sim:" + network + "?node=1");
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")),
                    warning -> { }))
            {
                // the sender stands for another machine: its own thread, SCHED_FIFO 60, on the housekeeping core
                env.start(SENDER_THREAD, env.housekeepingCpu(), 60, () -> send(sender, traffic, sent)).join(
                    TimeUnit.SECONDS.toMillis(traffic.seconds() + 600L));
            }
            final String line = lines.readLine();
            final boolean ended = receiver.waitFor(60, TimeUnit.SECONDS);
            if (!ended)
            {
                receiver.destroyForcibly();
            }
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("mode", mode[0]);
            m.put("wait", mode[1]);
            m.put("journal", "on".equals(mode[2]));
            m.put("sender", traffic.sender());
            m.put("sent", sent[0]);
            m.put("send_rate_hz", sent[1] <= 0 ? 0 : Math.round(sent[0] * 1e9 / sent[1]));
            if (!ChildResult.is(line))
            {
                m.put("failure", "the receiver process ended without a result (exit " +
                    (ended ? Integer.toString(receiver.exitValue()) : "none: killed") + ")");
                m.put("valid", false);
                return m;
            }
            final JsonNode r = ChildResult.tree(line);
            putFigures(m, r, sent[0]);
            for (final String key : List.of("gaps", "gaps_in_warmup", "dma_dropped_in_warmup", "torn", "dma_missing",
                "fifo_overflows", "dma_dropped",
                "handoff_full", "events", "empty_wakes", "bounded_drains", "errors"))
            {
                m.put(key, r.get(key).asLong());
            }
            final ObjectMapper mapper = new ObjectMapper();
            m.put("stages_p50_us", mapper.convertValue(r.get("stages_p50_us"), Map.class));
            m.put("threads", mapper.convertValue(r.get("threads"), List.class));
            final String failure = r.get("failure").isNull() ? null : r.get("failure").asText();
            if (failure == null && ended && receiver.exitValue() != 0)
            {
                m.put("failure", "the receiver process exited " + receiver.exitValue());
            }
            else
            {
                m.put("failure", failure);
            }
            m.put("valid", m.get("failure") == null && m.get("cpu_pct") != null);
            return m;
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
    }

    /**
     * Copy a receiver's result into a row: frames, lost (sent - frames), mean and percentiles, CPU (null when the
     * receiver had none) and the latency histogram (HdrHistogram, compressed, base64) for plots.
     *
     * @param m    the row.
     * @param r    the receiver's result object.
     * @param sent frames the sender sent.
     */
    static void putFigures(final Map<String, Object> m, final JsonNode r, final long sent)
    {
        final long frames = r.get("frames").asLong();
        m.put("frames", frames);
        m.put("lost", sent - frames);
        for (final String key : List.of("mean_us", "p50_us", "p90_us", "p99_us", "p999_us", "max_us"))
        {
            m.put(key, r.get(key).asDouble());
        }
        m.put("cpu_pct", r.get("cpu_pct").isNull() ? null : r.get("cpu_pct").asDouble());
        m.put("histogram", r.path("histogram").asText(null));
    }

    private static void send(final RfmDevice device, final Traffic traffic, final long[] sent)
    {
        final FramePublisher publisher = new FramePublisher(device, CHANNEL);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[traffic.size()]);
        final long total = traffic.total();
        final long begin = System.nanoTime();
        device.window().putLongRelease(START_OFFSET, begin);
        if (BURST.equals(traffic.sender()))
        {
            long i = 0;
            for (int b = 0; b < traffic.bursts(); b++)
            {
                for (int f = 0; f < traffic.burstFrames(); f++)
                {
                    payload.putLong(0, ++i);
                    publisher.publish(payload, 0, traffic.size(), 0);
                }
                LockSupport.parkNanos(traffic.gapNanos());
            }
        }
        else
        {
            pace(traffic, begin, i ->
            {
                payload.putLong(0, i);
                publisher.publish(payload, 0, traffic.size(), 0);
            });
        }
        sent[1] = System.nanoTime() - begin;
        sent[0] = total;
        device.window().putLongRelease(TOTAL_OFFSET, total);
    }

    /**
     * One send of a steady sender, called by {@link #pace} at each send time, on the sender's thread.
     */
    @FunctionalInterface
    interface Send
    {
        /**
         * @param i the frame's number, 1 for the first.
         */
        void send(long i);
    }

    /**
     * The steady senders' clock: {@link Traffic#total()} sends at the traffic's rate from {@code begin}, each send
     * time moved by a uniform random offset within half a period either way ({@link #UNIFORM_JITTER}, the same seeded
     * sequence in every run) or not at all ({@link #FIXED_PERIOD}). Parks until 60 us before a send time, then spins.
     *
     * @param traffic a steady traffic shape.
     * @param begin   {@code System.nanoTime()} of the start; the first send is one period later.
     * @param send    called at each send time.
     */
    static void pace(final Traffic traffic, final long begin, final Send send)
    {
        final long total = traffic.total();
        final boolean jitter = UNIFORM_JITTER.equals(traffic.sender());
        final double period = 1e9 / traffic.rate();
        // a fixed seed: the same jitter sequence in every mode of a run, so modes see the same traffic
        final SplittableRandom random = new SplittableRandom(0x5eed);
        final long base = begin + (long)period;
        for (long i = 1; i <= total; i++)
        {
            final long due = base + (long)((i - 1) * period + (jitter ? (random.nextDouble() - 0.5) * period : 0));
            final long park = due - System.nanoTime() - 60_000;
            if (park > 0)
            {
                LockSupport.parkNanos(park);
            }
            while (System.nanoTime() < due)
            {
                Thread.onSpinWait();
            }
            send.send(i);
        }
    }

    /**
     * Measure the floors of this machine, now.
     *
     * @param seconds cyclictest's run time.
     * @return {@code timer} (cyclictest) and {@code wake} (one cross-process futex wake) summaries.
     */
    static Map<String, Object> floors(final int seconds) throws Exception
    {
        final Map<String, Object> floors = new LinkedHashMap<>();
        final Histogram cyclic = Cyclictest.result(Cyclictest.start(seconds));
        final Map<String, Object> timer = new LinkedHashMap<>();
        timer.put("tool", "cyclictest");
        timer.putAll(Histograms.summary(cyclic));
        timer.put("mean_us", Math.round(cyclic.getMean() / 100.0) / 10.0);
        floors.put("timer", timer);

        final String network = "bench-" + ProcessHandle.current().pid() + "-floor";
        try (SimNetwork net = SimNetwork.create(network, 1 << 20))
        {
            final BenchEvents events = new BenchEvents();
            events.count = Math.max(1_000, Math.min(20_000, seconds * 1_000));
            events.rate = 1_000;
            final Histogram futex = events.runFutex(network, net.dir());
            final Map<String, Object> wake = new LinkedHashMap<>();
            wake.put("tool", "plain cross-process futex wake at 1 kHz");
            wake.putAll(Histograms.summary(futex));
            wake.put("mean_us", Math.round(futex.getMean() / 100.0) / 10.0);
            floors.put("wake", wake);
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
        return floors;
    }
}
