package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.bench.peer.BridgePeer;
import io.rfmrt.cli.bench.peer.PeerTransport;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.Converters;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.cli.common.Netns;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.rfm.bridge.BridgeWarmUp;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * {@code rfmrt bench hosts}: one-way latency of a frame from a node on host A to the handler of a node on host B
 * through the two hosts' bridges, beside Aeron's own latency over the same link (a publication on A, a subscription
 * on B, the same idle strategy and driver threading mode), in one run. The hosts are two network namespaces on a veth
 * pair ({@link Netns}); each bridge, the sender and the receiver are processes in their host's namespace. Same frames
 * (64 bytes), same random-phase sender and same latency definition as {@code bench peers} (the sender's
 * {@code System.nanoTime()} stamp to the handler running in the receiver: one clock, one machine). Needs root.
 */
@Command(name = "hosts", mixinStandardHelpOptions = true,
    description = "Frame latency host A -> host B through the bridges, beside Aeron UDP on the same link (root).",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class BenchHosts implements Callable<Integer>
{
    private static final String BRIDGE = "bridge";
    private static final String AERON_UDP = "aeron-udp";
    private static final String NETWORK = "bench";
    private static final int AERON_PORT = 40457;
    private static final int BRIDGE_PORT = 40456;
    private static final String RING_WAIT_DEFAULT = "100ms";

    /**
     * One row.
     *
     * @param name      what it is called (also in {@code --rows}).
     * @param kind      {@code bridge} or {@code aeron-udp}.
     * @param idle      the idle strategy of the bridges (bridge) or of the polling threads (aeron-udp).
     * @param threading the media drivers' threading mode.
     */
    record Row(String name, String kind, String idle, String threading, String floor)
    {
    }

    static final List<Row> ROWS = List.of(
        new Row("bridge-doorbell", BRIDGE, "doorbell", "INVOKER", "aeron-udp-backoff"),
        new Row("bridge-backoff", BRIDGE, "backoff", "INVOKER", "aeron-udp-backoff"),
        new Row("aeron-udp-backoff", AERON_UDP, "backoff", "INVOKER", null),
        new Row("bridge-yield", BRIDGE, "yield", "INVOKER", "aeron-udp-yield"),
        new Row("aeron-udp-yield", AERON_UDP, "yield", "INVOKER", null),
        new Row("bridge-busy-spin", BRIDGE, "busy-spin", "INVOKER", "aeron-udp-busy-spin"),
        new Row("aeron-udp-busy-spin", AERON_UDP, "busy-spin", "INVOKER", null),
        new Row("bridge-backoff-dedicated", BRIDGE, "backoff", "DEDICATED", "aeron-udp-backoff-dedicated"),
        new Row("aeron-udp-backoff-dedicated", AERON_UDP, "backoff", "DEDICATED", null));

    @Spec
    CommandSpec spec;

    @Mixin
    BenchRows.RateOptions pace;

    @Option(names = "--rows", split = ",", paramLabel = "NAME",
        description = "Rows to run (default: all): bridge-doorbell, bridge-backoff, aeron-udp-backoff, bridge-yield, " +
            "aeron-udp-yield, bridge-busy-spin, aeron-udp-busy-spin, bridge-backoff-dedicated, " +
            "aeron-udp-backoff-dedicated.")
    List<String> only;

    @Option(names = "--netns-prefix", paramLabel = "NAME",
        description = "Prefix of the two network namespaces the bench makes and removes, 1-8 of a-z, 0-9 " +
            "(default: rfb and this process's id).")
    String prefix;

    @Option(names = "--warm-up-frames", defaultValue = "" + BridgeWarmUp.FRAMES_DEFAULT, paramLabel = "N",
        description = "Frames each bridge warms up with before it joins (rfmrt bridge --warm-up-frames; 0: the " +
            "bridges start cold; default ${DEFAULT-VALUE}).")
    int warmUpFrames;

    @Option(names = "--receiver-warm-up-frames", defaultValue = "" + BridgePeer.WARM_UP_FRAMES, paramLabel = "N",
        description = "Frames the receiving node's loop is warmed up with, on a private network of host B, before " +
            "it opens (bridge rows; then on until its JVM's JIT is idle, at most 20 s; 0: it starts cold, as before " +
            "2026-12-07; default ${DEFAULT-VALUE}).")
    int receiverWarmUpFrames;

    @Option(names = "--ring-full", defaultValue = "backpressure", paramLabel = "POLICY",
        description = "What the receiving node's DMA ring does when it is full (dmaPolicy of its device URI): " +
            "backpressure (the bridge waits for a free slot, up to --ring-wait, and Aeron's flow control holds the " +
            "sending host back, as Aeron's own rows do) or drop-newest (a card's ring: the frame is dropped and " +
            "counted); default ${DEFAULT-VALUE}.")
    String ringFull;

    @Option(names = "--ring-wait", defaultValue = RING_WAIT_DEFAULT, converter = Converters.Duration.class,
        paramLabel = "DURATION",
        description = "Under --ring-full backpressure, the longest wait for a free slot before a frame is dropped " +
            "(dmaWait; default ${DEFAULT-VALUE}).")
    long ringWaitNanos;

    @Option(names = "--keep", paramLabel = "DIR",
        description = "Keep what each row's processes said and counted in DIR/RATE-ROW/: the bridges' and the " +
            "sender's and receiver's output, `rfm status` of both hosts after the row, and a timeline of every " +
            "counter of both hosts (cards, bridges, their media drivers), sampled every " + KEEP_PERIOD_MS +
            " ms by one ordinary-priority process per host (probe-hostN.txt). Off by default: the probes cost cpu.")
    Path keep;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    /** The period of the counter timeline of {@code --keep}. */
    static final int KEEP_PERIOD_MS = 5;

    @Override
    public Integer call() throws Exception
    {
        pace.check();
        if (receiverWarmUpFrames < 0)
        {
            throw new UsageException("--receiver-warm-up-frames " + receiverWarmUpFrames + " is negative (0: the " +
                "receiver starts cold)");
        }
        if (warmUpFrames < 0)
        {
            throw new UsageException("--warm-up-frames " + warmUpFrames + " is negative (0: the bridges start cold)");
        }
        final String ring = ringParameters();
        final List<Row> rows = BenchRows.select(ROWS, only, Row::name, "--rows: unknown row");
        final String tag = prefix != null ? prefix : "rfb" + ProcessHandle.current().pid() % 100_000;
        if (!tag.matches("[a-z0-9]{1,8}"))
        {
            throw new UsageException("--netns-prefix '" + tag + "' is not 1-8 of a-z, 0-9");
        }
        final String unavailable = Netns.unavailable();
        if (unavailable != null)
        {
            throw new IllegalStateException("bench hosts needs network namespaces: " + unavailable);
        }
        final List<HostsRow> all = measure(Progress.steps(spec.commandLine().getErr(),
            pace.rates.size() * rows.size(), pace.seconds + BenchRun.STEP_OVERHEAD_SECONDS), tag, rows, ring);
        final Result result = new Result(BenchRows.RunHeader.of("hosts", pace.seconds, pace.rates),
            "veth pair between two network namespaces, " + Netns.SUBNET + ".0/24",
            BenchCompare.WARMUP_NOTE + "; latency = sender's stamp on host A -> the handler runs on " +
            "host B; rx cpu = the receiver process, tx cpu = the sender process (with its media driver for " +
            "aeron-udp), bridges cpu = both bridge processes, each in % of one core", ringDescription(), all,
            targets(all, pace.rates.get(0)));
        return BenchRows.finish(result.run(), all, result, json, spec.commandLine(), out -> print(out, result));
    }

    /**
     * @return the receiving node's device URI parameters for {@code --ring-full} and {@code --ring-wait}, checked.
     */
    private String ringParameters()
    {
        final DmaRingFullPolicy policy;
        try
        {
            policy = DmaRingFullPolicy.parse(ringFull);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("--ring-full '" + ringFull + "' is not drop-newest or backpressure");
        }
        final boolean waitGiven = spec.commandLine().getParseResult().hasMatchedOption("--ring-wait");
        if (policy == DmaRingFullPolicy.DROP_NEWEST)
        {
            if (waitGiven)
            {
                throw new UsageException("--ring-wait " + waitText() + " needs --ring-full backpressure (a ring " +
                    "that drops never waits)");
            }
            return "dmaPolicy=drop-newest";
        }
        if (ringWaitNanos < 0)
        {
            throw new UsageException("--ring-wait " + waitText() + " is not a wait of 0 to 1s");
        }
        if (ringWaitNanos > TimeUnit.SECONDS.toNanos(1))
        {
            throw new UsageException("--ring-wait " + waitText() + " is over 1s (the bridges' peer time-out)");
        }
        return "dmaPolicy=backpressure&dmaWait=" + ringWaitNanos + "ns";
    }

    /** {@code --ring-wait} as it was written. */
    private String waitText()
    {
        final List<String> given = spec.findOption("--ring-wait").originalStringValues();
        return given.isEmpty() ? RING_WAIT_DEFAULT : given.get(given.size() - 1);
    }

    private String ringDescription()
    {
        return BridgePeer.SLOTS + " slots, " + (ringParameters().startsWith("dmaPolicy=drop-newest") ?
            "drop-newest (a frame that finds it full is dropped and counted, dma_dropped)" :
            "backpressure (the bridge waits up to " + waitText() + " for a free slot, then drops and counts)");
    }

    /**
     * What {@code bench hosts --json} prints.
     *
     * @param run     the bench, machine, date, seconds, rates, frame size and sender.
     * @param link    what joins the two hosts.
     * @param note         how the figures are taken.
     * @param receiverRing what the receiving node's DMA ring does when it is full (bridge rows).
     * @param rows         each row's figures at each rate.
     * @param targets      the targets, met or missed.
     */
    record Result(@JsonUnwrapped BenchRows.RunHeader run, String link, String note, String receiverRing,
        List<HostsRow> rows, List<BenchRows.RowTarget> targets)
    {
    }

    /**
     * One row at one rate, as {@code --json} shows it: the row's settings, what went over the link when the run came
     * that far, and why the row failed.
     *
     * @param row       the row's name.
     * @param kind      {@code bridge} or {@code aeron-udp}.
     * @param idle      the idle strategy.
     * @param threading the media drivers' threading mode.
     * @param floor     the Aeron row a bridge row is held to, or null.
     * @param rateHz    the rate.
     * @param transfer  what the sender and the receiver measured, or null (left out).
     * @param failure   why the row failed, or null.
     */
    record HostsRow(String row, String kind, String idle, String threading, String floor, int rateHz,
        @JsonUnwrapped Transfer transfer, String failure) implements BenchRows.RateRow
    {
        static HostsRow of(final Row row, final int rate, final Transfer transfer, final String failure)
        {
            return new HostsRow(row.name(), row.kind(), row.idle(), row.threading(), row.floor(), rate, transfer,
                failure);
        }

        @Override
        public String name()
        {
            return row;
        }
    }

    /**
     * What went over the link: the sender's figures, the receiver's (no histogram), its loss counters, and the CPU of
     * the sending process and of the bridges.
     *
     * @param sent            frames sent.
     * @param sendRateHz      the rate they were sent at.
     * @param refusedBySender frames the transport refused.
     * @param figures         the receiver's figures.
     * @param lossCauses      the receiver's loss counters, by name.
     * @param skips           the frames missing by number at the receiver, and when.
     * @param txCpuPct        the sending process, % of one core, or null.
     * @param bridgesCpuPct   both bridge processes, % of one core (bridge rows only).
     */
    record Transfer(long sent, long sendRateHz, long refusedBySender, @JsonUnwrapped BenchRun.ReceiverFigures figures,
        Map<String, Long> lossCauses, SequenceSkips.Figures skips, Double txCpuPct,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double bridgesCpuPct)
    {
    }

    /**
     * Run every row at every rate across two emulated hosts.
     *
     * @return each row's figures, in order.
     */
    private List<HostsRow> measure(final Progress progress, final String tag, final List<Row> rows,
        final String ring) throws Exception
    {
        final List<HostsRow> all = new ArrayList<>();
        try (Netns netns = Netns.create(tag, 2))
        {
            for (final int rate : pace.rates)
            {
                for (final Row row : rows)
                {
                    progress.step(String.format("%s at %d Hz for %d s ...", row.name(), rate, pace.seconds));
                    try
                    {
                        all.add(run(netns, tag, row, BenchRun.Traffic.steady(BenchRun.UNIFORM_JITTER, rate,
                            pace.seconds, PeerTransport.FRAME_BYTES), warmUpFrames, receiverWarmUpFrames, ring,
                            keep == null ? null : keep.resolve(rate + "-" + row.name())));
                    }
                    catch (final IOException | RuntimeException ex)
                    {
                        all.add(HostsRow.of(row, rate, null, Failures.describe(ex)));
                    }
                }
            }
        }
        progress.finish();
        return all;
    }

    private void print(final PrintWriter out, final Result result)
    {
        out.printf("%n%d-byte frames, uniform-jitter sender, %d s per row (%s); latency: sender's stamp on host A " +
            "-> handler runs on host B (us)%n", PeerTransport.FRAME_BYTES, pace.seconds, BenchCompare.WARMUP_NOTE);
        out.printf("%-28s %6s %8s %8s %6s %8s %8s %8s %8s %9s %6s %6s %8s%n", "row", "rate", "sent", "frames", "lost",
            "p50", "p90", "p99", "p99.9", "max", "rx%", "tx%", "bridges%");
        for (final HostsRow r : result.rows())
        {
            if (r.failure() != null)
            {
                out.printf("%-28s %6s FAILED: %s%n", r.row(), r.rateHz(), r.failure());
                continue;
            }
            final Transfer t = r.transfer();
            final BenchRun.ReceiverFigures f = t.figures();
            out.printf("%-28s %6s %8s %8s %6s %8s %8s %8s %8s %9s %6s %6s %8s%n", r.row(), r.rateHz(), t.sent(),
                f.frames(), f.lost(), f.p50Us(), f.p90Us(), f.p99Us(), f.p999Us(), f.maxUs(), dash(f.cpuPct()),
                dash(t.txCpuPct()), dash(t.bridgesCpuPct()));
        }
        out.println("rx% = receiver process, tx% = sender process (with its media driver for aeron-udp), bridges% = " +
            "both bridge processes, in % of one core");
        out.println("receiving node's DMA ring (bridge rows): " + result.receiverRing());
        for (final HostsRow r : result.rows())
        {
            if (r.failure() == null && r.transfer().figures().lost() > 0 && !r.transfer().lossCauses().isEmpty())
            {
                final String skipped = r.transfer().skips() == null ? "" : r.transfer().skips().line();
                out.printf("lost at %s Hz by %s: %s%s%n", r.rateHz(), r.row(),
                    lossLine(r.transfer().figures().lost(), r.transfer().lossCauses()),
                    skipped.isEmpty() ? "" : "; missing " + skipped);
            }
        }
        for (final BenchRows.RowTarget t : result.targets())
        {
            out.println(t.line());
        }
    }

    /**
     * The receiver's loss counters that are not zero, and what they leave unexplained: frames that had not reached the
     * handler when the receiver stopped (2 s after the last send) and were counted nowhere. A frame the card dropped
     * on a full DMA ring never reaches the receiver, which sees its sequence number skipped: it is in {@code gaps}
     * too, so {@code dma_dropped} (and {@code fifo_overflows}, events whose frames are still drained) say why, and
     * are not added up.
     */
    public static String lossLine(final long lost, final Map<?, ?> causes)
    {
        final StringBuilder b = new StringBuilder();
        long counted = 0;
        for (final Map.Entry<?, ?> e : causes.entrySet())
        {
            final long n = ((Number)e.getValue()).longValue();
            if (n != 0)
            {
                b.append(e.getKey()).append(' ').append(n).append(", ");
                if (!"dma_dropped".equals(e.getKey()) && !"fifo_overflows".equals(e.getKey()))
                {
                    counted += n;
                }
            }
        }
        return b.append("not counted ").append(Math.max(0, lost - counted))
            .append(" (not handled when the receiver stopped, 2 s after the last send)").toString();
    }

    private static Object dash(final Object value)
    {
        return value == null ? "-" : value;
    }

    /** The rate at which the bridge's p99 and cpu are held to Aeron's own. */
    static final int TARGET_RATE_HZ = 10_000;

    /**
     * What a bridge row is held to, against its floor (Aeron's own over the same link, same idle strategy and
     * threading): its p50 within 1.1x at the first rate; its p99 within 2x, and both bridges' cpu within 1.5x of
     * Aeron's sender and receiver processes together, at {@link #TARGET_RATE_HZ}; no frame lost at any rate run.
     */
    static List<BenchRows.RowTarget> targets(final List<HostsRow> rows, final int rate)
    {
        final List<BenchRows.RowTarget> targets = new ArrayList<>();
        final List<String> bridges = rows.stream().filter(r -> BRIDGE.equals(r.kind())).map(HostsRow::row)
            .distinct().toList();
        for (final String name : bridges)
        {
            final HostsRow first = find(rows, name, rate);
            final String floor = first != null ? first.floor() : null;
            targets.add(compare(name + " p50 <= 1.1x " + floor + " (Aeron's own over the link) at " + rate + " Hz",
                first, find(rows, floor, rate), "p50", f -> f.figures().p50Us(), 1.1));
            if (find(rows, name, TARGET_RATE_HZ) != null)
            {
                final HostsRow b = find(rows, name, TARGET_RATE_HZ);
                final HostsRow a = find(rows, floor, TARGET_RATE_HZ);
                targets.add(compare(name + " p99 <= 2x " + floor + " at " + TARGET_RATE_HZ + " Hz", b, a, "p99",
                    f -> f.figures().p99Us(), 2.0));
                targets.add(compare(name + " bridges' cpu <= 1.5x " + floor + "'s sender and receiver at " +
                    TARGET_RATE_HZ + " Hz", b, a, "cpu %", f -> f.bridgesCpuPct() != null ? f.bridgesCpuPct() :
                    sum(f.figures().cpuPct(), f.txCpuPct()), 1.5));
            }
            final List<HostsRow> all = rows.stream().filter(r -> r.row().equals(name)).toList();
            final boolean measured = all.stream().allMatch(r -> r.failure() == null && r.transfer() != null);
            final String lost = all.stream().map(r -> r.transfer() == null ? "-" : Long.toString(
                r.transfer().figures().lost())).reduce((x, y) -> x + "/" + y).orElse("-");
            targets.add(!measured ? BenchRows.RowTarget.unmeasured(name + " loses no frame at any rate") :
                new BenchRows.RowTarget(name + " loses no frame at any rate", all.stream().allMatch(r ->
                    r.transfer().figures().lost() == 0), "lost " + lost + " at " + all.stream().map(r ->
                    Integer.toString(r.rateHz())).reduce((x, y) -> x + "/" + y).orElse("-") + " Hz"));
        }
        return targets;
    }

    private static HostsRow find(final List<HostsRow> rows, final String name, final int rate)
    {
        return rows.stream().filter(r -> r.row().equals(name) && r.rateHz() == rate).findFirst().orElse(null);
    }

    private static Double sum(final Double a, final Double b)
    {
        return a == null || b == null ? null : a + b;
    }

    private static BenchRows.RowTarget compare(final String target, final HostsRow b, final HostsRow a,
        final String what, final Function<Transfer, Double> figure, final double limit)
    {
        if (a == null || b == null || a.failure() != null || b.failure() != null || a.transfer() == null ||
            b.transfer() == null || figure.apply(a.transfer()) == null || figure.apply(b.transfer()) == null)
        {
            return BenchRows.RowTarget.unmeasured(target);
        }
        return BenchRows.RowTarget.within(target, what, figure.apply(b.transfer()), figure.apply(a.transfer()),
            limit);
    }

    private static HostsRow run(final Netns netns, final String tag, final Row row,
        final BenchRun.Traffic traffic, final int warmUpFrames, final int receiverWarmUpFrames, final String ring,
        final Path keepDir) throws Exception
    {
        final Path dir = Path.of("/dev/shm", tag + "-bench-" + row.name());
        final Path[] roots = {Path.of("/dev/shm", tag + "-host0"), Path.of("/dev/shm", tag + "-host1")};
        Folders.deleteTree(dir);
        for (final Path root : roots)
        {
            Folders.deleteTree(root);
        }
        SharedMemoryFile.createFolders(dir);
        final List<Process> processes = new ArrayList<>();
        final List<Process> probes = new ArrayList<>();
        final int rate = traffic.rate();
        if (keepDir != null)
        {
            Folders.deleteTree(keepDir);
            Files.createDirectories(keepDir);
        }
        try
        {
            final String variant;
            final Process[] bridges = new Process[2];
            if (BRIDGE.equals(row.kind()))
            {
                for (int host = 0; host < 2; host++)
                {
                    bridges[host] = startBridge(netns, host, roots[host], row, dir, warmUpFrames);
                    processes.add(bridges[host]);
                }
                for (int host = 0; host < 2; host++)
                {
                    awaitConverged(dir.resolve("bridge" + host + ".out"), bridges[host]);
                }
                variant = BridgePeer.variant(NETWORK, ring);
                if (keepDir != null)
                {
                    for (int host = 0; host < 2; host++)
                    {
                        final ProcessBuilder probe = ChildJvm.builderOn(netns, host, roots[host], ChildJvm.INTERNAL,
                            "bench-hosts-probe", NETWORK, keepDir.resolve("probe-host" + host + ".txt").toString(),
                            Integer.toString(KEEP_PERIOD_MS));
                        // every thread of the probe's JVM SCHED_FIFO, its GC and VM threads too: with only its
                        // sampling thread so, its allocations stopped it for up to 2.8 s while the bench's RT threads
                        // and other work held both cpus (its GC threads waited for a cpu)
                        probe.command().addAll(0, List.of("chrt", "-f", Integer.toString(BenchHostsProbe.PRIORITY)));
                        probes.add(probe.redirectError(keepDir.resolve("probe-host" + host + ".err").toFile()).start());
                    }
                }
            }
            else
            {
                variant = row.idle() + ":" + row.threading() + ":" + Netns.address(1) + ":" + AERON_PORT;
            }
            final SharedMemoryFile control = BenchRows.createControl(dir);
            try
            {
                final Process receiver = start(netns, 1, roots[1], dir.resolve("receiver.err"), ChildJvm.INTERNAL,
                    "bench-peer-receiver", row.kind(), variant, dir.toString(), Long.toString(traffic.warmupFrames()),
                    Integer.toString(receiverWarmUpFrames));
                processes.add(receiver);
                final BufferedReader rx = lines(receiver);
                if (BenchPeers.protocolLine(rx, "ready", receiver) == null)
                {
                    return HostsRow.of(row, rate, null, "the receiver was not ready in 60 s: " +
                        errors(dir.resolve("receiver.err")));
                }
                final long[] bridgeCpu0 = cpuTicks(bridges);
                final long wall0 = System.nanoTime();
                final Process sender = start(netns, 0, roots[0], dir.resolve("sender.err"), ChildJvm.INTERNAL,
                    "bench-hosts-sender", row.kind(), variant, dir.toString(), Integer.toString(traffic.rate()),
                    Integer.toString(traffic.seconds()));
                processes.add(sender);
                final BufferedReader tx = lines(sender);
                final String sent = BenchPeers.protocolLine(tx, ChildResult.PREFIX, sender);
                final long wall1 = System.nanoTime();
                final long[] bridgeCpu1 = cpuTicks(bridges);
                final String received = BenchPeers.protocolLine(rx, ChildResult.PREFIX, receiver);
                if (sent == null || received == null)
                {
                    return HostsRow.of(row, rate, null, (sent == null ? "the sender" : "the receiver") +
                        " gave no result: " + errors(dir.resolve(sent == null ? "sender.err" : "receiver.err")));
                }
                if (keepDir != null)
                {
                    keepRow(netns, roots, bridges, probes, keepDir, wall0, sent, received);
                }
                final BenchRows.SendFigures s = ChildResult.read(sent, BenchRows.SendFigures.class);
                final JsonNode r = ChildResult.tree(received);
                final Map<String, Long> causes = new LinkedHashMap<>();
                r.path("loss_causes").fields().forEachRemaining(e -> causes.put(e.getKey(), e.getValue().asLong()));
                Double bridgesCpu = null;
                if (bridges[0] != null)
                {
                    final double ticks = (bridgeCpu1[0] + bridgeCpu1[1] - bridgeCpu0[0] - bridgeCpu0[1]);
                    final double hz = 100.0;
                    bridgesCpu = Math.round(1000.0 * ticks / hz / ((wall1 - wall0) / 1e9)) / 10.0;
                }
                final SequenceSkips.Figures skips = r.path("skips").isObject() ?
                    ChildResult.MAPPER.treeToValue(r.get("skips"), SequenceSkips.Figures.class) : null;
                return HostsRow.of(row, rate, new Transfer(s.sent(), s.sendRateHz(), s.refused(),
                    BenchRun.ReceiverFigures.of(r, s.sent()).withoutHistogram(), causes, skips, s.cpuPct(),
                    bridgesCpu),
                    !r.get("failure").isNull() ? r.get("failure").asText() : s.failure());
            }
            finally
            {
                control.close();
            }
        }
        finally
        {
            processes.addAll(0, probes);
            for (final Process p : processes)
            {
                p.destroy();
            }
            for (final Process p : processes)
            {
                if (!p.waitFor(10, TimeUnit.SECONDS))
                {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            if (keepDir != null)
            {
                try (var files = Files.list(dir))
                {
                    for (final Path f : files.filter(f -> f.toString().endsWith(".out") ||
                        f.toString().endsWith(".err")).toList())
                    {
                        Files.copy(f, keepDir.resolve(f.getFileName()));
                    }
                }
            }
            Folders.deleteTree(dir);
            for (final Path root : roots)
            {
                Folders.deleteTree(root);
            }
        }
    }

    /**
     * {@code --keep}: after a row's traffic, while its bridges still run, each host's {@code rfm status}, the
     * sender's and receiver's result lines and when the sender was started ({@code System.nanoTime()}, the clock of
     * the probes' timelines); then the probes are stopped so that their files are complete.
     */
    private static void keepRow(final Netns netns, final Path[] roots, final Process[] bridges,
        final List<Process> probes, final Path keepDir, final long senderStartedNanos, final String sent,
        final String received) throws Exception
    {
        Files.writeString(keepDir.resolve("row.txt"), "sender started at " + senderStartedNanos + " ns\n" +
            "sender: " + sent + "\nreceiver: " + received + "\n");
        for (int host = 0; host < 2 && bridges[0] != null; host++)
        {
            final Process status = ChildJvm.builderOn(netns, host, roots[host], "rfm", "status", "--network", NETWORK)
                .redirectErrorStream(true).redirectOutput(keepDir.resolve("status-host" + host + ".txt").toFile())
                .start();
            if (!status.waitFor(60, TimeUnit.SECONDS))
            {
                status.destroyForcibly();
            }
        }
        for (final Process p : probes)
        {
            p.destroy();
        }
        for (final Process p : probes)
        {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static Process startBridge(final Netns netns, final int host, final Path root, final Row row,
        final Path dir, final int warmUpFrames) throws IOException
    {
        final int peer = 1 - host;
        final ProcessBuilder builder = ChildJvm.builderOn(netns, host, root, "bridge", "--network", NETWORK, "--host-id",
            Integer.toString(host + 1), "--host-name", "bench-host" + host, "--channel",
            "aeron:udp?endpoint=" + Netns.address(host) + ":" + BRIDGE_PORT, "--peers",
            (peer + 1) + "@" + Netns.address(peer) + ":" + BRIDGE_PORT, "--size", "1M", "--log-size", "8M",
            "--idle", row.idle(), "--aeron-threading", row.threading(), "--warm-up-frames",
            Integer.toString(warmUpFrames));
        return builder.redirectOutput(dir.resolve("bridge" + host + ".out").toFile())
            .redirectError(dir.resolve("bridge" + host + ".err").toFile()).start();
    }

    private static void awaitConverged(final Path out, final Process bridge) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(out) || !Files.readString(out).contains("CONVERGED"))
        {
            if (!bridge.isAlive() || System.nanoTime() > deadline)
            {
                throw new IllegalStateException("a bridge did not come up: " + (Files.exists(out) ?
                    Files.readString(out).trim() : "no output") + " " + errors(out.resolveSibling(
                    out.getFileName().toString().replace(".out", ".err"))));
            }
            Thread.sleep(20);
        }
    }

    private static Process start(final Netns netns, final int host, final Path root, final Path err,
        final String... args) throws IOException
    {
        return ChildJvm.builderOn(netns, host, root, args).redirectError(err.toFile()).start();
    }

    private static BufferedReader lines(final Process p)
    {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    private static String errors(final Path err) throws IOException
    {
        return Files.exists(err) ? Files.readString(err).trim().replace('\n', ' ') : "";
    }

    /**
     * @return utime + stime of each process, clock ticks (0 for none).
     */
    private static long[] cpuTicks(final Process[] processes) throws IOException
    {
        final long[] ticks = new long[processes.length];
        for (int i = 0; i < processes.length; i++)
        {
            if (processes[i] == null)
            {
                continue;
            }
            final String stat = Files.readString(Path.of("/proc", Long.toString(processes[i].pid()), "stat"));
            final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks[i] = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        }
        return ticks;
    }

    /**
     * The sending process of one row, on host A: the same paced sender as {@code bench peers}, on a SCHED_FIFO
     * thread on the housekeeping cpu; one result line (frames sent, rate, refused, the process's CPU).
     */
    @Command(name = "bench-hosts-sender", hidden = true,
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
    public static final class Sender implements Callable<Integer>
    {
        @Mixin
        BenchRows.ChildParameters row;

        @Parameters(index = "3")
        int rate;

        @Parameters(index = "4")
        int seconds;

        @Override
        public Integer call() throws Exception
        {
            // a bench killed outright leaves no one to stop this sender's RT thread: it ends with its parent
            ChildJvm.haltWhenParentGone("bench-hosts-sender");
            final PeerTransport transport = row.transport("bench-hosts-sender");
            final BenchRun.Traffic traffic = BenchRun.Traffic.steady(BenchRun.UNIFORM_JITTER, rate, seconds,
                PeerTransport.FRAME_BYTES);
            final SharedMemoryFile map = row.openControl();
            final long[] sent = new long[4];
            final AtomicReference<String> failure = new AtomicReference<>();
            long cpu = 0;
            try (PeerTransport.Sender sender = transport.sender(row.dir, row.variant, "");
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false,
                    Path.of("/")), warning -> { }))
            {
                final UnsafeBuffer control = map.buffer();
                sender.connect("");
                final long cpu0 = BenchRun.processCpuNanos();
                final RtThread thread = env.start("rfmrt-bench-sender", env.housekeepingCpu(), 60,
                    () -> BenchPeers.send(sender, traffic, control, sent, failure));
                thread.join(TimeUnit.SECONDS.toMillis(traffic.seconds() + 600L));
                cpu = BenchRun.processCpuNanos() - cpu0;
            }
            finally
            {
                map.close();
            }
            ChildResult.write(System.out, BenchRows.SendFigures.of(sent, cpu, failure.get()));
            return failure.get() == null ? ExitCodes.OK : ExitCodes.ERROR;
        }
    }
}
