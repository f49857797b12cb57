package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import io.rfmrt.cli.bench.peer.AeronPeer;
import io.rfmrt.cli.bench.peer.AeronUdpPeer;
import io.rfmrt.cli.bench.peer.BridgePeer;
import io.rfmrt.cli.bench.peer.ChroniclePeer;
import io.rfmrt.cli.bench.peer.FutexPeer;
import io.rfmrt.cli.bench.peer.PeerTransport;
import io.rfmrt.cli.bench.peer.UdpPeer;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Folders;
import io.rfmrt.cli.common.OutputFiles;
import io.rfmrt.cli.common.PercentilePlot;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.Renamed;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code rfmrt bench peers}: rfmrt's receive path beside what a user would pick instead, in one run, on the same
 * frames (64-byte payload), the same random-phase sender ({@link BenchRun#pace}, uniform jitter of half a period
 * either way) and the same latency definition (the sender's stamp to the handler running in the receiver process):
 * rfmrt (interrupt-inline, interrupt, spin-then-block), Aeron IPC (three idle strategies; the driver's threading
 * mode measured once and the best one used), Chronicle Queue (spinning and pausing tailer), UDP over loopback
 * (blocking receive) and the floor (a bare cross-process futex wake). Each row is a sender thread in this process
 * (SCHED_FIFO 60 on the housekeeping cpu, as for {@code bench compare}) and a receiver process (one thread,
 * SCHED_FIFO 80 on the first RT cpu, memory locked). Table, {@code --json}, and one PNG of the percentile
 * distributions.
 */
@Command(name = "peers", mixinStandardHelpOptions = true,
    description = "rfmrt's receive path beside Aeron IPC, Chronicle Queue, UDP and the futex floor; table, JSON, plot.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class BenchPeers implements Callable<Integer>
{
    /** Offset in the control file of the number of frames sent, written once at the end of the sending. */
    static final int TOTAL_OFFSET = 0;
    static final int RECEIVER_PRIORITY = 80;
    private static final String RFMRT = "rfmrt";
    private static final long PROTOCOL_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    /**
     * One row of the comparison.
     *
     * @param name    what the row is called (also in {@code --rows}).
     * @param kind    {@code rfmrt}, {@code aeron}, {@code chronicle}, {@code udp} or {@code futex}.
     * @param variant the mode, idle strategy or pauser.
     * @param what    one line for the docs and the JSON.
     */
    record Row(String name, String kind, String variant, String what)
    {
    }

    static final List<Row> ROWS = List.of(
        new Row("rfmrt-inline", RFMRT, "interrupt-inline", "rfmrt interrupt path, handler on the ISR-wake thread"),
        new Row("rfmrt-interrupt", RFMRT, "interrupt", "rfmrt interrupt path, blocking consumer thread"),
        new Row("rfmrt-spin-then-block", RFMRT, "spin-then-block", "rfmrt interrupt path, consumer spins 50 us " +
            "then blocks"),
        new Row("aeron-backoff", "aeron", AeronPeer.BACKOFF, "Aeron IPC, BackoffIdleStrategy (Agrona defaults)"),
        new Row("aeron-sleep-100us", "aeron", AeronPeer.SLEEP_100US, "Aeron IPC, SleepingIdleStrategy 100 us"),
        new Row("aeron-busy-spin", "aeron", AeronPeer.BUSY_SPIN, "Aeron IPC, BusySpinIdleStrategy"),
        new Row("chronicle-spin", "chronicle", ChroniclePeer.SPIN, "Chronicle Queue tailer, busy spin"),
        new Row("chronicle-pauser", "chronicle", ChroniclePeer.PAUSER, "Chronicle Queue tailer, Pauser.balanced()"),
        new Row("udp", "udp", "blocking", "UDP over loopback, blocking DatagramChannel receive"),
        new Row("futex-floor", "futex", "wake", "bare cross-process futex wake (the floor)"));

    static final List<String> THREADING_MODES = List.of("DEDICATED", "SHARED", "INVOKER");

    @Spec
    CommandSpec spec;

    @Mixin
    BenchRows.RateOptions pace;

    @Option(names = "--rows", split = ",", paramLabel = "NAME",
        description = "Rows to run (default: all): rfmrt-inline, rfmrt-interrupt, rfmrt-spin-then-block, " +
            "aeron-backoff, aeron-sleep-100us, aeron-busy-spin, chronicle-spin, chronicle-pauser, udp, futex-floor.")
    List<String> rowNames;

    @Option(names = "--transports", split = ",", hidden = true, description = "The old name of --rows.")
    List<String> transports;

    @Option(names = "--aeron-threading", defaultValue = "auto", paramLabel = "MODE",
        description = "Aeron media driver threading mode: auto (default: dedicated, shared and invoker are each " +
            "measured once at the first rate with the backoff subscriber, the lowest p99 is used), dedicated, " +
            "shared or invoker.")
    String aeronThreading;

    @Option(names = "--plot", defaultValue = "bench-peers.png", paramLabel = "FILE",
        description = "Where the PNG of the percentile distributions goes (default ./${DEFAULT-VALUE}).")
    Path plot;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        pace.check();
        final List<Row> rows = BenchRows.select(ROWS, Renamed.pick(spec, "--transports", transports, rowNames),
            Row::name, "--rows: unknown row");
        OutputFiles.checkWritable("--plot", plot);
        final boolean auto = "auto".equalsIgnoreCase(aeronThreading);
        if (!auto && AeronPeer.threadingMode(aeronThreading) == null)
        {
            throw new UsageException("--aeron-threading '" + aeronThreading + "' is not auto, dedicated, " +
                "shared or invoker");
        }
        final List<PeersRow> all = new ArrayList<>();
        final List<PeersRow> probes = new ArrayList<>();
        // Aeron's own spelling from here on: the receivers' arguments, the table and the JSON
        String threading = auto ? "auto" : AeronPeer.threadingMode(aeronThreading).name();
        final boolean probe = "auto".equals(threading) && rows.stream().anyMatch(r -> "aeron".equals(r.kind()));
        final Progress progress = Progress.steps(spec.commandLine().getErr(),
            (probe ? THREADING_MODES.size() : 0) + pace.rates.size() * rows.size(),
            pace.seconds + BenchRun.STEP_OVERHEAD_SECONDS);
        if ("auto".equals(threading))
        {
            threading = "SHARED";
            if (probe)
            {
                threading = probeThreading(rows.stream().filter(r -> "aeron".equals(r.kind())).findFirst().get(),
                    probes, progress);
            }
        }
        final List<Histogram> histograms = new ArrayList<>();
        for (final int rate : pace.rates)
        {
            for (final Row row : rows)
            {
                progress.step(String.format("%s at %d Hz for %d s ...", row.name(), rate, pace.seconds));
                final PeersMeasurement m = run(row, BenchRun.Traffic.steady(BenchRun.UNIFORM_JITTER, rate,
                    pace.seconds, PeerTransport.FRAME_BYTES), threading);
                histograms.add(m.histogram());
                all.add(m.row());
            }
        }
        progress.finish();
        final boolean plotted = writePlot(all, histograms, plot);
        final Result result = new Result(BenchRows.RunHeader.of("peers", pace.seconds, pace.rates), threading,
            probes, BenchCompare.WARMUP_NOTE + "; " + BenchCompare.CPU_NOTE + "; latency = sender's stamp " +
            "-> the handler runs in the receiver process", all, targets(all, pace.rates.get(0)),
            plotted ? plot.toString() : null);
        return BenchRows.finish(result.run(), all, result, json, spec.commandLine(), out -> print(out, result));
    }

    /**
     * What {@code bench peers --json} prints.
     *
     * @param run                  the bench, machine, date, seconds, rates, frame size and sender.
     * @param aeronThreading       the media driver's threading mode.
     * @param aeronThreadingProbes the probes that chose it (empty when given).
     * @param note                 how the figures are taken.
     * @param rows                 each transport's figures at each rate.
     * @param targets              the targets, met or missed.
     * @param plot                 the PNG, or {@code null} when nothing was plotted.
     */
    record Result(@JsonUnwrapped BenchRows.RunHeader run, String aeronThreading, List<PeersRow> aeronThreadingProbes,
        String note, List<PeersRow> rows, List<BenchRows.RowTarget> targets, String plot)
    {
    }

    /**
     * A row and its latency histogram, for the plot.
     *
     * @param row       the row.
     * @param histogram its histogram, or null when the receiver gave none.
     */
    record PeersMeasurement(PeersRow row, Histogram histogram)
    {
    }

    private void print(final PrintWriter out, final Result result)
    {
        final String threading = result.aeronThreading();
        final List<PeersRow> probes = result.aeronThreadingProbes();
        final boolean plotted = result.plot() != null;
        out.printf("%n%d-byte frames, uniform-jitter sender, %d s per row (%s); latency sender's stamp -> handler " +
            "runs in the receiver process (us)%n", PeerTransport.FRAME_BYTES, pace.seconds, BenchCompare.WARMUP_NOTE);
        out.printf("%-22s %6s %8s %8s %6s %8s %8s %8s %8s %9s %6s %7s%n", "transport", "rate", "sent", "frames",
            "lost", "p50", "p90", "p99", "p99.9", "max", "cpu%", "tx-side%");
        for (final PeersRow r : result.rows())
        {
            if (r.failure() != null)
            {
                out.printf("%-22s %6s FAILED: %s%n", r.transport(), r.rateHz(), r.failure());
                continue;
            }
            final BenchRun.ReceiverFigures f = r.figures();
            final Double txSide = r.side().benchSideCpuPct();
            out.printf("%-22s %6s %8s %8s %6s %8s %8s %8s %8s %9s %6s %7s%n", r.transport(), r.rateHz(),
                r.side().sentFrames(), f.frames(), f.lost(), f.p50Us(), f.p90Us(), f.p99Us(), f.p999Us(), f.maxUs(),
                f.cpuPct(), txSide == null ? "-" : txSide);
        }
        out.printf("Aeron media driver threading mode: %s%s%n", threading,
            probes.isEmpty() ? " (as given)" : " (lowest p99 of the probes, in --json)");
        out.println(BenchCompare.CPU_NOTE + "; tx-side% = the bench process's threads other than the sender " +
            "while sending: Aeron's embedded media driver and client, and the JVM's own (JIT, GC) for every row");
        for (final BenchRows.RowTarget t : result.targets())
        {
            out.println(t.line());
        }
        if (plotted)
        {
            out.println("plot: " + plot);
        }
    }

    private String probeThreading(final Row row, final List<PeersRow> probes, final Progress progress)
        throws Exception
    {
        final int probeSeconds = Math.min(3, pace.seconds);
        String best = null;
        double bestP99 = Double.MAX_VALUE;
        for (final String mode : THREADING_MODES)
        {
            progress.step(String.format("probing the Aeron driver in %s mode (%s, %d Hz, %d s) ...", mode,
                row.name(), pace.rates.get(0), probeSeconds));
            final PeersRow r = run(row, BenchRun.Traffic.steady(BenchRun.UNIFORM_JITTER, pace.rates.get(0),
                probeSeconds, PeerTransport.FRAME_BYTES), mode).row().probe(mode);
            probes.add(r);
            if (r.failure() == null && r.figures() != null && r.figures().frames() > 0)
            {
                final double p99 = r.figures().p99Us();
                if (p99 < bestP99)
                {
                    bestP99 = p99;
                    best = mode;
                }
            }
        }
        if (best == null)
        {
            throw new IllegalStateException("the Aeron driver ran in none of " + THREADING_MODES + ": " +
                probes.get(0).failure());
        }
        return best;
    }

    /**
     * The comparison's targets at the first rate, computed from the rows of this run.
     */
    static List<BenchRows.RowTarget> targets(final List<PeersRow> rows, final int rate)
    {
        final List<BenchRows.RowTarget> targets = new ArrayList<>();
        final BenchRun.ReceiverFigures floor = find(rows, "futex-floor", rate);
        for (final String rfmrt : List.of("rfmrt-inline", "rfmrt-interrupt", "rfmrt-spin-then-block"))
        {
            final BenchRun.ReceiverFigures r = find(rows, rfmrt, rate);
            for (final String peer : List.of("aeron-backoff", "udp"))
            {
                final BenchRun.ReceiverFigures p = find(rows, peer, rate);
                final String target = rfmrt + " p50, p99 and cpu% <= " + peer + " at " + rate + " Hz";
                targets.add(r == null || p == null ? BenchRows.RowTarget.unmeasured(target) :
                    new BenchRows.RowTarget(target, r.p50Us() < p.p50Us() && r.p99Us() < p.p99Us() &&
                    r.cpuPct() <= p.cpuPct(), String.format("p50 %s vs %s, p99 %s vs %s, cpu %s vs %s %%", r.p50Us(),
                    p.p50Us(), r.p99Us(), p.p99Us(), r.cpuPct(), p.cpuPct())));
            }
            final String target = rfmrt + " p50 within 1.5x of the futex floor at " + rate + " Hz";
            targets.add(r == null || floor == null ? BenchRows.RowTarget.unmeasured(target) :
                BenchRows.RowTarget.ratio(target, r.p50Us(), floor.p50Us()));
        }
        return targets;
    }

    /**
     * @return the figures of the named row at the rate when it ran well with a CPU figure, or null.
     */
    private static BenchRun.ReceiverFigures find(final List<PeersRow> rows, final String name, final int rate)
    {
        for (final PeersRow r : rows)
        {
            if (name.equals(r.transport()) && r.rateHz() == rate && r.failure() == null && r.figures() != null &&
                r.figures().cpuPct() != null)
            {
                return r.figures();
            }
        }
        return null;
    }

    /**
     * Run one row at one traffic shape.
     *
     * @return the row, and its latency histogram for the plot.
     */
    static PeersMeasurement run(final Row row, final BenchRun.Traffic traffic, final String threading) throws Exception
    {
        final PeersRow.Side side;
        final Histogram histogram;
        if (RFMRT.equals(row.kind()))
        {
            final BenchRun.ModeRun run = BenchRun.run(BenchRun.mode(row.variant()), traffic);
            histogram = BenchRun.ReceiverFigures.histogramOf(run.figures());
            side = new PeersRow.RfmrtSide(run.forPeers(), null);
        }
        else
        {
            PeersRow.PeerSide peer;
            try
            {
                peer = runPeer(row, traffic, threading);
            }
            catch (final RuntimeException ex)
            {
                // the sending side could not be set up or connected (a driver that did not start, ...)
                peer = PeersRow.PeerSide.failed(null, null, "the sending side failed: " + ex);
            }
            histogram = BenchRun.ReceiverFigures.histogramOf(peer.figures());
            side = peer.figures() == null ? peer : new PeersRow.PeerSide(peer.sender(), peer.sending(),
                peer.figures().withoutHistogram(), peer.failure(), peer.valid());
        }
        return new PeersMeasurement(new PeersRow(row.name(), row.what(), traffic.rate(),
            "aeron".equals(row.kind()) ? threading : null, side, null), histogram);
    }

    /**
     * @param kind    a transport's kind.
     * @param command the process that asks, for the refusal.
     * @return the transport.
     * @throws UsageException naming an unknown kind.
     */
    static PeerTransport transport(final String kind, final String command)
    {
        final PeerTransport transport = transport(kind);
        if (transport == null)
        {
            throw new UsageException(command + ": unknown transport '" + kind + "'");
        }
        return transport;
    }

    static PeerTransport transport(final String kind)
    {
        switch (kind)
        {
            case "aeron":
                return new AeronPeer();
            case "chronicle":
                return new ChroniclePeer();
            case "udp":
                return new UdpPeer();
            case "futex":
                return new FutexPeer();
            case "bridge":
                return new BridgePeer();
            case "aeron-udp":
                return new AeronUdpPeer();
            default:
                return null;
        }
    }

    private static PeersRow.PeerSide runPeer(final Row row, final BenchRun.Traffic traffic, final String threading)
        throws Exception
    {
        final Path dir = Path.of("/dev/shm", "rfmrt-peers-" + ProcessHandle.current().pid() + "-" + row.name());
        Folders.deleteTree(dir);
        SharedMemoryFile.createFolders(dir);
        Process receiver = null;
        try
        {
            final SharedMemoryFile map = BenchRows.createControl(dir);
            final UnsafeBuffer control = map.buffer();
            try (PeerTransport.Sender sender = transport(row.kind()).sender(dir, row.variant(), threading))
            {
                receiver = ChildJvm.startInternal("bench-peer-receiver", row.kind(), row.variant(), dir.toString(),
                    Long.toString(traffic.warmupFrames()));
                final BufferedReader lines = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                    StandardCharsets.UTF_8));
                final String ready = protocolLine(lines, "ready", receiver);
                if (ready == null)
                {
                    return PeersRow.PeerSide.failed(traffic.sender(), null, "the receiver process was not ready in " +
                        "60 s (exit " + exit(receiver) + ")");
                }
                sender.connect(ready.substring("ready".length()).trim());
                final long[] sent = new long[4];
                final AtomicReference<String> senderFailure = new AtomicReference<>();
                try (RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false,
                    Path.of("/")), warning -> { }))
                {
                    final RtThread thread = env.start("rfmrt-bench-sender", env.housekeepingCpu(), 60,
                        () -> send(sender, traffic, control, sent, senderFailure));
                    thread.join(TimeUnit.SECONDS.toMillis(traffic.seconds() + 600L));
                }
                final String line = protocolLine(lines, ChildResult.PREFIX, receiver);
                final boolean ended = receiver.waitFor(60, TimeUnit.SECONDS);
                final BenchRows.SendFigures tx = BenchRows.SendFigures.of(sent, sent[3], senderFailure.get());
                final PeersRow.Sending sending = PeersRow.Sending.of(tx);
                if (line == null)
                {
                    return PeersRow.PeerSide.failed(traffic.sender(), sending, "the receiver process ended without " +
                        "a result (exit " + (ended ? Integer.toString(receiver.exitValue()) : "none: killed") + ")");
                }
                final JsonNode r = ChildResult.tree(line);
                final BenchRun.ReceiverFigures figures = BenchRun.ReceiverFigures.of(r, sent[0]);
                String failure = r.get("failure").isNull() ? tx.failure() : r.get("failure").asText();
                if (failure == null && ended && receiver.exitValue() != 0)
                {
                    failure = "the receiver process exited " + receiver.exitValue();
                }
                return new PeersRow.PeerSide(traffic.sender(), sending, figures, failure,
                    failure == null && figures.cpuPct() != null);
            }
            finally
            {
                map.close();
            }
        }
        finally
        {
            if (receiver != null && receiver.isAlive())
            {
                receiver.destroyForcibly();
            }
            Folders.deleteTree(dir);
        }
    }

    static void send(final PeerTransport.Sender sender, final BenchRun.Traffic traffic,
        final UnsafeBuffer control, final long[] sent, final AtomicReference<String> failure)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[PeerTransport.FRAME_BYTES]);
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long[] count = {0, 0};
        final long processCpu0 = BenchRun.processCpuNanos();
        final long threadCpu0 = threads.getCurrentThreadCpuTime();
        final long begin = System.nanoTime();
        try
        {
            BenchRun.pace(traffic, begin, i ->
            {
                frame.putLong(PeerTransport.SEQ_OFFSET, i);
                frame.putLong(PeerTransport.STAMP_OFFSET, System.nanoTime());
                count[0] = i;
                if (!sender.send(frame))
                {
                    count[1]++;
                }
            });
        }
        catch (final RuntimeException | Error ex)
        {
            failure.set("the sender failed after " + count[0] + " frames: " + ex);
        }
        finally
        {
            sent[1] = System.nanoTime() - begin;
            // the driver's and client's threads: what the process spent beyond this thread
            sent[3] = Math.max(0, BenchRun.processCpuNanos() - processCpu0 - (threads.getCurrentThreadCpuTime() -
                threadCpu0));
            sent[0] = count[0];
            sent[2] = count[1];
            control.putLongRelease(TOTAL_OFFSET, Math.max(1, count[0]));
        }
    }

    /**
     * The receiver's next line that starts with {@code prefix} (other lines are skipped), or null when the process
     * ended or said nothing in time: a receiver that hangs never hangs the bench.
     */
    static String protocolLine(final BufferedReader lines, final String prefix, final Process process)
        throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + PROTOCOL_TIMEOUT_NS;
        while (System.nanoTime() < deadline)
        {
            if (lines.ready())
            {
                final String line = lines.readLine();
                if (line == null)
                {
                    return null;
                }
                if (line.startsWith(prefix))
                {
                    return line;
                }
            }
            else if (!process.isAlive())
            {
                // what it wrote before it ended is still in the pipe
                String line;
                while ((line = lines.readLine()) != null)
                {
                    if (line.startsWith(prefix))
                    {
                        return line;
                    }
                }
                return null;
            }
            else
            {
                Thread.sleep(5);
            }
        }
        return null;
    }

    private static String exit(final Process process) throws InterruptedException
    {
        return process.waitFor(10, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none";
    }

    /** One colour per row of {@link #ROWS}, the same in every panel. */
    private static final Color[] COLORS = {
        new Color(0, 90, 200), new Color(0, 160, 230), new Color(100, 60, 200), new Color(220, 40, 40),
        new Color(240, 130, 0), new Color(180, 120, 60), new Color(0, 150, 70), new Color(120, 200, 80),
        new Color(150, 150, 150), Color.BLACK};

    /**
     * One panel per rate, one under the other on the same axes, so no two lines of a panel share a colour; a
     * transport keeps its colour in every panel.
     */
    private static boolean writePlot(final List<PeersRow> rows, final List<Histogram> histograms,
        final Path plot) throws IOException
    {
        final Map<Integer, PercentilePlot> panels = new LinkedHashMap<>();
        for (int i = 0; i < rows.size(); i++)
        {
            final PeersRow r = rows.get(i);
            final PercentilePlot panel = panels.computeIfAbsent(r.rateHz(), rate ->
            {
                final PercentilePlot p = new PercentilePlot("rfmrt bench peers at " + rate + " Hz: sender's stamp " +
                    "-> handler runs in the receiver", "latency (µs)", 1200, 450);
                p.chart().getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
                return p;
            });
            if (r.failure() != null || histograms.get(i) == null)
            {
                continue;
            }
            final XYSeries series = panel.add(r.transport(), histograms.get(i));
            if (series == null)
            {
                continue;
            }
            int row = 0;
            while (row < ROWS.size() && !ROWS.get(row).name().equals(r.transport()))
            {
                row++;
            }
            series.setLineColor(COLORS[row % COLORS.length]).setLineStyle(new BasicStroke(2f));
        }
        return PercentilePlot.saveStacked(new ArrayList<>(panels.values()), plot);
    }
}
