package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.management.OperatingSystemMXBean;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.Renamed;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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

    /** System property that turns the sender's warm-up ({@link #warmUpSender}) on, e.g.
     * {@code -Drfmrt.bench.senderWarmUp=true}. */
    static final String SENDER_WARMUP_PROPERTY = "rfmrt.bench.senderWarmUp";
    /** DMA slots of the receiving card the sender's warm-up sends to: a ring its pauses fill at 200 kHz. */
    static final int SENDER_WARMUP_SLOTS = 256;
    /** How long the sender's warm-up's drainer stops, in ms. */
    static final int SENDER_WARMUP_PAUSE_MS = 2;
    /** How often it stops, in ms. */
    static final int SENDER_WARMUP_PAUSE_EVERY_MS = 20;
    /** Its longest wait for an interrupt, in ns. */
    static final long SENDER_WARMUP_WAIT_NS = 1_000_000;

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

    /** How a receiver's stage medians and its threads are read (Jackson's types). */
    private static final TypeReference<LinkedHashMap<String, Double>> STAGES = new TypeReference<>()
    {
    };
    private static final TypeReference<List<BenchCompare.Receiver.ThreadHygiene>> THREADS = new TypeReference<>()
    {
    };

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
     * @return the CPU time this process has used, all threads, ns.
     */
    static long processCpuNanos()
    {
        return ((OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
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
     * {@code --rows} of the benches that run three receive modes by default ({@code bench ramp}, {@code bench burst}),
     * and its old name {@code --modes}. A picocli mixin.
     */
    static final class ModeRows
    {
        @Option(names = "--rows", split = ",", paramLabel = "NAME",
            defaultValue = "interrupt,interrupt-inline,spin-then-block",
            description = "Rows (receive modes) to run (default ${DEFAULT-VALUE}); the names of bench compare.")
        List<String> rows;

        @Option(names = "--modes", split = ",", hidden = true, description = "The old name of --rows.")
        List<String> oldModes;

        /**
         * @param spec the command.
         * @return the modes asked for, by either name, each known.
         * @throws UsageException for an unknown one, or both names given.
         */
        List<String> selected(final CommandSpec spec)
        {
            final List<String> modes = Renamed.pick(spec, "--modes", oldModes, rows);
            checkModes(modes);
            return modes;
        }
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
                throw new UsageException("--rows: unknown row '" + name + "'");
            }
        }
    }

    /**
     * Run one mode.
     *
     * @param mode    a row of {@link #MODES}.
     * @param traffic what to send.
     * @return the run; its {@code failure} is non-null when the receiver did not finish well (a thread died, no
     * result), and then the CPU figure is null and the run invalid.
     */
    static ModeRun run(final String[] mode, final Traffic traffic) throws Exception
    {
        if (Boolean.getBoolean(SENDER_WARMUP_PROPERTY))
        {
            // off by default: at 100 kHz (interrupt row) runs with it lost frames where runs without it did not
            // (docs/benchmarks.md, "the warm-ups take the rare branches")
            warmUpSender(traffic);
        }
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
            final SenderHoldUps holdUps = BURST.equals(traffic.sender()) ? null :
                new SenderHoldUps((long)(1e9 / traffic.rate()));
            try (RfmDevice sender = RfmDevices.open("sim:" + network + "?node=1");
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")),
                    warning -> { }))
            {
                // the sender stands for another machine: its own thread, SCHED_FIFO 60, on the housekeeping core
                env.start(SENDER_THREAD, env.housekeepingCpu(), 60, () -> send(sender, traffic, sent, holdUps)).join(
                    TimeUnit.SECONDS.toMillis(traffic.seconds() + 600L));
            }
            final String line = lines.readLine();
            final boolean ended = receiver.waitFor(60, TimeUnit.SECONDS);
            if (!ended)
            {
                receiver.destroyForcibly();
            }
            final long sendRate = sent[1] <= 0 ? 0 : Math.round(sent[0] * 1e9 / sent[1]);
            // the wait strategy as the node YAML and the command line spell it
            final String wait = NodeContext.canonicalSpelling(mode[1]);
            // read once the sender's thread has been joined
            final SenderHoldUps.Figures held = holdUps == null ? null : holdUps.figures();
            if (!ChildResult.is(line))
            {
                return new ModeRun(mode[0], wait, "on".equals(mode[2]), traffic.sender(), sent[0], sendRate, held,
                    null, null, "the receiver process ended without a result (exit " +
                    (ended ? Integer.toString(receiver.exitValue()) : "none: killed") + ")", false);
            }
            final JsonNode r = ChildResult.tree(line);
            final ReceiverFigures figures = ReceiverFigures.of(r, sent[0]);
            String failure = r.get("failure").isNull() ? null : r.get("failure").asText();
            if (failure == null && ended && receiver.exitValue() != 0)
            {
                failure = "the receiver process exited " + receiver.exitValue();
            }
            return new ModeRun(mode[0], wait, "on".equals(mode[2]), traffic.sender(), sent[0], sendRate, held,
                figures, Counts.of(r), failure, failure == null && figures.cpuPct() != null,
                failure == null ? r.path("cpu_untimed").asText(null) : null);
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
    }

    /**
     * One mode's run, as the bench results carry it. A receiver that gave no result has no figures and no counts
     * (they are left out of the JSON).
     *
     * @param mode         the mode's name (left out of a bench peers row, which names its transport).
     * @param waitStrategy its wait strategy ({@code wait} in JSON).
     * @param journal      whether it journaled.
     * @param sender       the sender's pacing.
     * @param sent         frames sent.
     * @param sendRateHz   the rate they were sent at.
     * @param holdUps      how far the sender fell behind its send times (steady senders), or null (a burst sender,
     *                     left out).
     * @param figures      the receiver's figures, or null.
     * @param counts       its losses by cause, stages and threads, or null.
     * @param failure      why the run is invalid (a thread died, no result, a bad exit), or null.
     * @param valid        whether it finished well with a CPU figure.
     * @param cpuUntimed   why a receiver that did not fail has no CPU figure (its window of the sending was too
     *                     short to time), or null (left out).
     */
    record ModeRun(@JsonInclude(JsonInclude.Include.NON_NULL) String mode,
        @JsonProperty("wait") String waitStrategy, boolean journal, String sender, long sent, long sendRateHz,
        @JsonUnwrapped SenderHoldUps.Figures holdUps, @JsonUnwrapped ReceiverFigures figures,
        @JsonUnwrapped Counts counts, String failure, boolean valid,
        @JsonInclude(JsonInclude.Include.NON_NULL) String cpuUntimed)
    {
        ModeRun(final String mode, final String waitStrategy, final boolean journal, final String sender,
            final long sent, final long sendRateHz, final SenderHoldUps.Figures holdUps, final ReceiverFigures figures,
            final Counts counts, final String failure, final boolean valid)
        {
            this(mode, waitStrategy, journal, sender, sent, sendRateHz, holdUps, figures, counts, failure, valid, null);
        }

        /**
         * @return this run as a bench peers row holds it: without the mode's name and the histogram.
         */
        ModeRun forPeers()
        {
            return new ModeRun(null, waitStrategy, journal, sender, sent, sendRateHz, holdUps,
                figures == null ? null : figures.withoutHistogram(), counts, failure, valid, cpuUntimed);
        }
    }

    /**
     * A receiver's latency and CPU, as every bench row carries them.
     *
     * @param frames    frames handled.
     * @param lost      sent - frames.
     * @param meanUs    mean end-to-end latency, µs.
     * @param p50Us     median, µs.
     * @param p90Us     90th percentile, µs.
     * @param p99Us     99th percentile, µs.
     * @param p999Us    99.9th percentile, µs.
     * @param maxUs     largest, µs.
     * @param cpuPct    the receiver's CPU, % of one core; null when it had none.
     * @param histogram the latency histogram ({@link Histograms#encode}) for plots; null (and left out) in a row
     *                  whose plot has it already.
     */
    record ReceiverFigures(long frames, long lost, double meanUs, double p50Us, double p90Us, double p99Us,
        double p999Us, double maxUs, Double cpuPct, @JsonInclude(JsonInclude.Include.NON_NULL) String histogram)
    {
        /**
         * @param r    a receiver's result line.
         * @param sent frames the sender sent.
         * @return its figures.
         */
        static ReceiverFigures of(final JsonNode r, final long sent)
        {
            final long frames = r.get("frames").asLong();
            return new ReceiverFigures(frames, sent - frames, r.get("mean_us").asDouble(), r.get("p50_us").asDouble(),
                r.get("p90_us").asDouble(), r.get("p99_us").asDouble(), r.get("p999_us").asDouble(),
                r.get("max_us").asDouble(), r.get("cpu_pct").isNull() ? null : r.get("cpu_pct").asDouble(),
                r.path("histogram").asText(null));
        }

        /**
         * @return the figures without the histogram.
         */
        ReceiverFigures withoutHistogram()
        {
            return new ReceiverFigures(frames, lost, meanUs, p50Us, p90Us, p99Us, p999Us, maxUs, cpuPct, null);
        }

        /**
         * @param figures figures, or null.
         * @return their latency histogram, or null when there is none.
         */
        static Histogram histogramOf(final ReceiverFigures figures)
        {
            return figures == null || figures.histogram() == null ? null : Histograms.decode(figures.histogram());
        }
    }

    /**
     * A receive path's losses by cause and its other counters ({@link BenchCompare.Receiver.Result}).
     *
     * @param gaps               frames lost to gaps.
     * @param gapsInWarmup       of them, in the warm-up.
     * @param dmaDroppedInWarmup DMA drops in the warm-up.
     * @param torn               torn frames.
     * @param dmaMissing         frames whose DMA buffer was missing.
     * @param fifoOverflows      event FIFO overflows.
     * @param dmaDropped         DMA drops.
     * @param handoffFull        frames the hand-off ring had no room for.
     * @param events             events taken.
     * @param emptyWakes         wakes that found no frame.
     * @param boundedDrains      drains cut short by their bound.
     * @param errors             errors counted.
     * @param stagesP50Us        each stage's median, µs, by its label.
     * @param threads            each receive thread's page faults and preemptions after the warm-up.
     * @param skips              the frames missing by number at the receiver, and when; null from a receiver that
     *                           did not say (left out).
     */
    record Counts(long gaps, long gapsInWarmup, long dmaDroppedInWarmup, long torn, long dmaMissing,
        long fifoOverflows, long dmaDropped, long handoffFull, long events, long emptyWakes, long boundedDrains,
        long errors, Map<String, Double> stagesP50Us, List<BenchCompare.Receiver.ThreadHygiene> threads,
        @JsonInclude(JsonInclude.Include.NON_NULL) SequenceSkips.Figures skips)
    {
        static Counts of(final JsonNode r) throws JsonProcessingException
        {
            return new Counts(r.get("gaps").asLong(), r.get("gaps_in_warmup").asLong(),
                r.get("dma_dropped_in_warmup").asLong(), r.get("torn").asLong(), r.get("dma_missing").asLong(),
                r.get("fifo_overflows").asLong(), r.get("dma_dropped").asLong(), r.get("handoff_full").asLong(),
                r.get("events").asLong(), r.get("empty_wakes").asLong(), r.get("bounded_drains").asLong(),
                r.get("errors").asLong(), ChildResult.MAPPER.convertValue(r.get("stages_p50_us"), STAGES),
                ChildResult.MAPPER.convertValue(r.get("threads"), THREADS),
                r.path("skips").isObject() ?
                    ChildResult.MAPPER.treeToValue(r.get("skips"), SequenceSkips.Figures.class) : null);
        }

        /**
         * @return the losses by cause, by their JSON names, for {@link BenchHosts#lossLine}.
         */
        Map<String, Long> lossCauses()
        {
            final Map<String, Long> causes = new LinkedHashMap<>();
            causes.put("gaps", gaps);
            causes.put("torn", torn);
            causes.put("dma_missing", dmaMissing);
            causes.put("handoff_full", handoffFull);
            causes.put("dma_dropped", dmaDropped);
            causes.put("fifo_overflows", fifoOverflows);
            return causes;
        }
    }

    /**
     * Warm the sender's code up before the receiver starts, as the receiver's own warm-up does its: two seconds of the
     * steady traffic at its rate through the same code ({@link #send}) on a private network, each second from a sending
     * card of its own (a card's first send maps the receiver's ring: the real run's first frame is one too), the
     * receiving card drained by a thread that waits on its interrupt and stops for {@value #SENDER_WARMUP_PAUSE_MS} ms
     * every {@value #SENDER_WARMUP_PAUSE_EVERY_MS} ms, so that a waiter to wake, a full event FIFO and a full DMA ring
     * are in the profile too (at 200 kHz, uncommon traps in the sender's first frames sent it back to the interpreter,
     * 0.6 s behind its send times after the first second). A burst sender is not warmed.
     *
     * @param traffic the traffic about to be sent.
     */
    static void warmUpSender(final Traffic traffic) throws Exception
    {
        if (BURST.equals(traffic.sender()))
        {
            return;
        }
        final String network = "bench-" + ProcessHandle.current().pid() + "-sender-warmup";
        SimNetwork.create(network, NETWORK_BYTES).close();
        try (RfmDevice receiving = RfmDevices.open("sim:" + network + "?node=2&dmaSlots=" + SENDER_WARMUP_SLOTS +
            "&dmaSlotSize=256&dma=auto"))
        {
            receiving.enableEvent(CHANNEL.event());
            final AtomicBoolean done = new AtomicBoolean();
            final Thread drainer = new Thread(() -> drainWithPauses(receiving, done), SENDER_THREAD + "-warmup");
            drainer.setDaemon(true);
            drainer.start();
            try
            {
                final Traffic second = Traffic.steady(traffic.sender(), traffic.rate(), 0, traffic.size());
                for (int card = 0; card < 2; card++)
                {
                    try (RfmDevice sending = RfmDevices.open("sim:" + network + "?node=1"))
                    {
                        send(sending, second, new long[2], new SenderHoldUps((long)(1e9 / traffic.rate())));
                    }
                }
            }
            finally
            {
                done.set(true);
                drainer.join();
            }
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
    }

    private static void drainWithPauses(final RfmDevice device, final AtomicBoolean done)
    {
        final EventInfo info = new EventInfo();
        final DmaCompletion completion = new DmaCompletion();
        final DmaEngine dma = device.dma();
        long pauseAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SENDER_WARMUP_PAUSE_EVERY_MS);
        while (!done.get())
        {
            if (device.awaitEvent(CHANNEL.event(), SENDER_WARMUP_WAIT_NS, info) == RfmStatus.SUCCESS)
            {
                while (device.pollEvent(CHANNEL.event(), info) == RfmStatus.SUCCESS)
                {
                    Thread.onSpinWait();
                }
            }
            while (dma.takeCompleted(completion))
            {
                dma.release(completion);
            }
            if (System.nanoTime() - pauseAt >= 0)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(SENDER_WARMUP_PAUSE_MS));
                pauseAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SENDER_WARMUP_PAUSE_EVERY_MS);
            }
        }
    }

    private static void send(final RfmDevice device, final Traffic traffic, final long[] sent,
        final SenderHoldUps holdUps)
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
            pace(traffic, begin, SystemNanoClock.INSTANCE, holdUps, i ->
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
        pace(traffic, begin, SystemNanoClock.INSTANCE, new SenderHoldUps((long)(1e9 / traffic.rate())), send);
    }

    /**
     * {@link #pace(Traffic, long, Send)} on a given clock, telling {@code holdUps} how late each send was. A send
     * that fell due while the sender was held up (parked too long, descheduled) goes at once: after a hold-up, every
     * frame that fell due in it is sent back to back.
     *
     * @param traffic a steady traffic shape.
     * @param begin   {@code clock.nanoTime()} of the start; the first send is one period later.
     * @param clock   the sender's clock.
     * @param holdUps told each send's time and when it went, on the sender's thread.
     * @param send    called at each send time.
     */
    static void pace(final Traffic traffic, final long begin, final NanoClock clock, final SenderHoldUps holdUps,
        final Send send)
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
            long now = clock.nanoTime();
            final long park = due - now - 60_000;
            if (park > 0)
            {
                LockSupport.parkNanos(park);
                now = clock.nanoTime();
            }
            while (now < due)
            {
                Thread.onSpinWait();
                now = clock.nanoTime();
            }
            holdUps.onSend(due, now);
            send.send(i);
        }
    }

    /**
     * Measure the floors of this machine, now.
     *
     * @param seconds cyclictest's run time.
     * @return the timer (cyclictest) and wake (one cross-process futex wake) floors.
     */
    static Floors floors(final int seconds) throws Exception
    {
        final Floor timer = Floor.of("cyclictest", Cyclictest.result(Cyclictest.start(seconds)));
        final String network = "bench-" + ProcessHandle.current().pid() + "-floor";
        try (SimNetwork net = SimNetwork.create(network, 1 << 20))
        {
            final BenchEvents events = new BenchEvents();
            events.count = Math.max(1_000, Math.min(20_000, seconds * 1_000));
            events.rate = 1_000;
            return new Floors(timer, Floor.of("plain cross-process futex wake at 1 kHz",
                events.runFutex(network, net.dir())));
        }
        finally
        {
            SimNetwork.destroy(network, true);
        }
    }

    /**
     * The machine's floors, measured in the same run as the modes.
     *
     * @param timer the timer floor (cyclictest).
     * @param wake  the one-hop wake floor (a plain cross-process futex wake).
     */
    record Floors(Floor timer, Floor wake)
    {
    }

    /**
     * One floor.
     *
     * @param tool        what measured it.
     * @param percentiles its latency percentiles.
     * @param meanUs      its mean, µs.
     */
    record Floor(String tool, @JsonUnwrapped Histograms.Percentiles percentiles, double meanUs)
    {
        static Floor of(final String tool, final Histogram histogram)
        {
            return new Floor(tool, Histograms.Percentiles.of(histogram),
                Math.round(histogram.getMean() / 100.0) / 10.0);
        }
    }
}
