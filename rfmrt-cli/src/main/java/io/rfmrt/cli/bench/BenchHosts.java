package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.bench.peer.PeerTransport;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.cli.common.Netns;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

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

    @Option(names = "--seconds", defaultValue = "10", paramLabel = "S",
        description = "Measured seconds per row and rate, after one second of warm-up, 1..600 (default " +
            "${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rates", split = ",", paramLabel = "HZ", defaultValue = "1000,10000",
        description = "Frame rates, 1..100000 each (default ${DEFAULT-VALUE}).")
    List<Integer> rates;

    @Option(names = "--rows", split = ",", paramLabel = "NAME",
        description = "Rows to run (default: all): bridge-doorbell, bridge-backoff, aeron-udp-backoff, bridge-yield, " +
            "aeron-udp-yield, bridge-busy-spin, aeron-udp-busy-spin, bridge-backoff-dedicated, " +
            "aeron-udp-backoff-dedicated.")
    List<String> only;

    @Option(names = "--netns-prefix", paramLabel = "NAME",
        description = "Prefix of the two network namespaces the bench makes and removes, 1-8 of a-z, 0-9 " +
            "(default: rfb and this process's id).")
    String prefix;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        BenchPeers.checkSecondsAndRates(seconds, rates);
        final List<Row> rows = BenchPeers.select(ROWS, only, Row::name, "--rows: unknown row");
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
        final PrintWriter out = spec.commandLine().getOut();
        final List<Map<String, Object>> all = measure(Progress.steps(spec.commandLine().getErr(),
            rates.size() * rows.size(), seconds + BenchRun.STEP_OVERHEAD_SECONDS), tag, rows);
        final Result result = new Result("hosts", MachineInfo.describe(), ZonedDateTime.now().toString(), seconds,
            rates, PeerTransport.FRAME_BYTES, BenchRun.UNIFORM_JITTER,
            "veth pair between two network namespaces, " + Netns.SUBNET + ".0/24",
            BenchCompare.WARMUP_NOTE + "; latency = sender's stamp on host A -> the handler runs on " +
            "host B; rx cpu = the receiver process, tx cpu = the sender process (with its media driver for " +
            "aeron-udp), bridges cpu = both bridge processes, each in % of one core", all, targets(all, rates.get(0)));
        int exit = ExitCodes.OK;
        for (final Map<String, Object> r : all)
        {
            if (r.get("failure") != null)
            {
                spec.commandLine().getErr().println("rfmrt bench hosts: " + r.get("row") + " at " + r.get("rate_hz") +
                    " Hz failed: " + r.get("failure"));
                exit = ExitCodes.ERROR;
            }
        }
        if (json)
        {
            out.println(ChildResult.MAPPER.writeValueAsString(result));
            return exit;
        }
        print(out, result);
        return exit;
    }

    /**
     * What {@code bench hosts --json} prints.
     *
     * @param benchmark "hosts".
     * @param machine   the machine it ran on.
     * @param date      when.
     * @param seconds   each row's length.
     * @param ratesHz   the rates.
     * @param sizeBytes the frames' size.
     * @param sender    the sender's pacing.
     * @param link      what joins the two hosts.
     * @param note      how the figures are taken.
     * @param rows      each row's figures at each rate.
     * @param targets   the targets, met or missed.
     */
    record Result(String benchmark, Map<String, Object> machine, String date, int seconds, List<Integer> ratesHz,
        int sizeBytes, String sender, String link, String note, List<Map<String, Object>> rows,
        List<Map<String, Object>> targets)
    {
    }

    /**
     * Run every row at every rate across two emulated hosts.
     *
     * @return each row's figures, in order.
     */
    private List<Map<String, Object>> measure(final Progress progress, final String tag, final List<Row> rows)
        throws Exception
    {
        final List<Map<String, Object>> all = new ArrayList<>();
        try (Netns netns = Netns.create(tag, 2))
        {
            for (final int rate : rates)
            {
                for (final Row row : rows)
                {
                    progress.step(String.format("%s at %d Hz for %d s ...", row.name(), rate, seconds));
                    Map<String, Object> r;
                    try
                    {
                        r = run(netns, tag, row, BenchRun.Traffic.steady(BenchRun.UNIFORM_JITTER, rate, seconds,
                            PeerTransport.FRAME_BYTES));
                    }
                    catch (final IOException | RuntimeException ex)
                    {
                        r = new LinkedHashMap<>();
                        r.put("failure", Failures.describe(ex));
                    }
                    final Map<String, Object> row2 = new LinkedHashMap<>();
                    row2.put("row", row.name());
                    row2.put("kind", row.kind());
                    row2.put("idle", row.idle());
                    row2.put("threading", row.threading());
                    row2.put("floor", row.floor());
                    row2.put("rate_hz", rate);
                    row2.putAll(r);
                    row2.remove("histogram");
                    all.add(row2);
                }
            }
        }
        progress.finish();
        return all;
    }

    private void print(final PrintWriter out, final Result result)
    {
        final List<Map<String, Object>> all = result.rows();
        out.printf("%n%d-byte frames, uniform-jitter sender, %d s per row (%s); latency: sender's stamp on host A " +
            "-> handler runs on host B (us)%n", PeerTransport.FRAME_BYTES, seconds, BenchCompare.WARMUP_NOTE);
        out.printf("%-28s %6s %8s %8s %6s %8s %8s %8s %8s %9s %6s %6s %8s%n", "row", "rate", "sent", "frames", "lost",
            "p50", "p90", "p99", "p99.9", "max", "rx%", "tx%", "bridges%");
        for (final Map<String, Object> r : all)
        {
            if (r.get("failure") != null)
            {
                out.printf("%-28s %6s FAILED: %s%n", r.get("row"), r.get("rate_hz"), r.get("failure"));
                continue;
            }
            out.printf("%-28s %6s %8s %8s %6s %8s %8s %8s %8s %9s %6s %6s %8s%n", r.get("row"), r.get("rate_hz"),
                r.get("sent"), r.get("frames"), r.get("lost"), r.get("p50_us"), r.get("p90_us"), r.get("p99_us"),
                r.get("p999_us"), r.get("max_us"), dash(r.get("cpu_pct")), dash(r.get("tx_cpu_pct")),
                dash(r.get("bridges_cpu_pct")));
        }
        out.println("rx% = receiver process, tx% = sender process (with its media driver for aeron-udp), bridges% = " +
            "both bridge processes, in % of one core");
        for (final Map<String, Object> r : all)
        {
            if (r.get("failure") == null && r.get("lost") instanceof Long lost && lost > 0 &&
                r.get("loss_causes") instanceof Map<?, ?> causes && !causes.isEmpty())
            {
                out.printf("lost at %s Hz by %s: %s%n", r.get("rate_hz"), r.get("row"), lossLine(lost, causes));
            }
        }
        for (final Map<String, Object> t : result.targets())
        {
            out.printf("target: %s: %s (%s)%n", t.get("target"), t.get("met") == null ? "not measured" :
                (Boolean)t.get("met") ? "met" : "MISSED", t.get("figures"));
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

    /**
     * Per idle strategy and threading mode, at the first rate: the bridge's p50 within 1.5x of Aeron's own.
     */
    static List<Map<String, Object>> targets(final List<Map<String, Object>> rows, final int rate)
    {
        final List<Map<String, Object>> targets = new ArrayList<>();
        for (final Map<String, Object> b : rows)
        {
            if (!BRIDGE.equals(b.get("kind")) || !Integer.valueOf(rate).equals(b.get("rate_hz")))
            {
                continue;
            }
            final Map<String, Object> a = rows.stream().filter(r -> r.get("row").equals(b.get("floor")) &&
                r.get("rate_hz").equals(b.get("rate_hz"))).findFirst().orElse(null);
            final Map<String, Object> t = new LinkedHashMap<>();
            t.put("target", b.get("row") + " p50 <= 1.5x " + b.get("floor") + " (Aeron's own over the link) at " +
                rate + " Hz");
            if (a == null || a.get("failure") != null || b.get("failure") != null)
            {
                t.put("met", null);
                t.put("figures", "a row is missing or failed");
            }
            else
            {
                final double ratio = ((Number)b.get("p50_us")).doubleValue() /
                    Math.max(0.1, ((Number)a.get("p50_us")).doubleValue());
                t.put("met", ratio <= 1.5);
                t.put("figures", String.format("p50 %s vs %s us, ratio %.2f", b.get("p50_us"), a.get("p50_us"),
                    ratio));
            }
            targets.add(t);
        }
        return targets;
    }

    private static Map<String, Object> run(final Netns netns, final String tag, final Row row,
        final BenchRun.Traffic traffic) throws Exception
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
        final Map<String, Object> m = new LinkedHashMap<>();
        try
        {
            final String variant;
            final Process[] bridges = new Process[2];
            if (BRIDGE.equals(row.kind()))
            {
                for (int host = 0; host < 2; host++)
                {
                    bridges[host] = startBridge(netns, host, roots[host], row, dir);
                    processes.add(bridges[host]);
                }
                for (int host = 0; host < 2; host++)
                {
                    awaitConverged(dir.resolve("bridge" + host + ".out"), bridges[host]);
                }
                variant = NETWORK;
            }
            else
            {
                variant = row.idle() + ":" + row.threading() + ":" + Netns.address(1) + ":" + AERON_PORT;
            }
            final SharedMemoryFile control = SharedMemoryFile.create(dir.resolve("control"), 4096,
                "bench control file");
            try
            {
                final Process receiver = start(netns, 1, roots[1], dir.resolve("receiver.err"), ChildJvm.INTERNAL,
                    "bench-peer-receiver", row.kind(), variant, dir.toString(), Long.toString(traffic.warmupFrames()));
                processes.add(receiver);
                final BufferedReader rx = lines(receiver);
                if (BenchPeers.protocolLine(rx, "ready", receiver) == null)
                {
                    m.put("failure", "the receiver was not ready in 60 s: " + errors(dir.resolve("receiver.err")));
                    return m;
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
                    m.put("failure", (sent == null ? "the sender" : "the receiver") + " gave no result: " +
                        errors(dir.resolve(sent == null ? "sender.err" : "receiver.err")));
                    return m;
                }
                final JsonNode s = ChildResult.tree(sent);
                final JsonNode r = ChildResult.tree(received);
                m.put("sent", s.get("sent").asLong());
                m.put("send_rate_hz", s.get("send_rate_hz").asLong());
                m.put("refused_by_sender", s.get("refused").asLong());
                BenchRun.putFigures(m, r, s.get("sent").asLong());
                final Map<String, Long> causes = new LinkedHashMap<>();
                r.path("loss_causes").fields().forEachRemaining(e -> causes.put(e.getKey(), e.getValue().asLong()));
                m.put("loss_causes", causes);
                m.put("tx_cpu_pct", s.get("cpu_pct").isNull() ? null : s.get("cpu_pct").asDouble());
                if (bridges[0] != null)
                {
                    final double ticks = (bridgeCpu1[0] + bridgeCpu1[1] - bridgeCpu0[0] - bridgeCpu0[1]);
                    final double hz = 100.0;
                    m.put("bridges_cpu_pct", Math.round(1000.0 * ticks / hz / ((wall1 - wall0) / 1e9)) / 10.0);
                }
                final String failure = !r.get("failure").isNull() ? r.get("failure").asText() :
                    !s.get("failure").isNull() ? s.get("failure").asText() : null;
                m.put("failure", failure);
                return m;
            }
            finally
            {
                control.close();
            }
        }
        finally
        {
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
            Folders.deleteTree(dir);
            for (final Path root : roots)
            {
                Folders.deleteTree(root);
            }
        }
    }

    private static Process startBridge(final Netns netns, final int host, final Path root, final Row row,
        final Path dir) throws IOException
    {
        final int peer = 1 - host;
        final ProcessBuilder builder = ChildJvm.builderOn(netns, host, root, "bridge", "--network", NETWORK, "--host-id",
            Integer.toString(host + 1), "--host-name", "bench-host" + host, "--channel",
            "aeron:udp?endpoint=" + Netns.address(host) + ":" + BRIDGE_PORT, "--peers",
            (peer + 1) + "@" + Netns.address(peer) + ":" + BRIDGE_PORT, "--size", "1M", "--log-size", "8M",
            "--idle", row.idle(), "--threading", row.threading());
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
        @Parameters(index = "0")
        String kind;

        @Parameters(index = "1")
        String variant;

        @Parameters(index = "2")
        Path dir;

        @Parameters(index = "3")
        int rate;

        @Parameters(index = "4")
        int seconds;

        @Override
        public Integer call() throws Exception
        {
            // a bench killed outright leaves no one to stop this sender's RT thread: it ends with its parent
            ChildJvm.haltWhenParentGone("bench-hosts-sender");
            final PeerTransport transport = BenchPeers.transport(kind);
            if (transport == null)
            {
                throw new UsageException("bench-hosts-sender: unknown transport '" + kind + "'");
            }
            final BenchRun.Traffic traffic = BenchRun.Traffic.steady(BenchRun.UNIFORM_JITTER, rate, seconds,
                PeerTransport.FRAME_BYTES);
            final SharedMemoryFile map = SharedMemoryFile.open(dir.resolve("control"), "bench control file");
            final long[] sent = new long[4];
            final AtomicReference<String> failure = new AtomicReference<>();
            final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
            long cpu = 0;
            try (PeerTransport.Sender sender = transport.sender(dir, variant, "");
                RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false,
                    Path.of("/")), warning -> { }))
            {
                final UnsafeBuffer control = map.buffer();
                sender.connect("");
                final long cpu0 = os.getProcessCpuTime();
                final RtThread thread = env.start("rfmrt-bench-sender", env.housekeepingCpu(), 60,
                    () -> BenchPeers.send(sender, traffic, control, sent, failure));
                thread.join(TimeUnit.SECONDS.toMillis(traffic.seconds() + 600L));
                cpu = os.getProcessCpuTime() - cpu0;
            }
            finally
            {
                map.close();
            }
            final Map<String, Object> r = new LinkedHashMap<>();
            r.put("sent", sent[0]);
            r.put("send_rate_hz", sent[1] <= 0 ? 0 : Math.round(sent[0] * 1e9 / sent[1]));
            r.put("refused", sent[2]);
            r.put("cpu_pct", sent[1] <= 0 ? null : Math.round(1000.0 * cpu / sent[1]) / 10.0);
            r.put("failure", failure.get());
            ChildResult.write(System.out, r);
            return failure.get() == null ? ExitCodes.OK : ExitCodes.ERROR;
        }
    }
}
