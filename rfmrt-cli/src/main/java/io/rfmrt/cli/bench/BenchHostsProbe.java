package io.rfmrt.cli.bench;

import io.aeron.CncFileDescriptor;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.sim.HostBridge;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.rfm.sim.SimProbe;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The counter timeline of one emulated host of {@code rfmrt bench hosts --keep}: every {@code period} ms, the counters
 * of each card of the host's copy of the network, its bridge's counters and outbound log, and every counter of the
 * bridge's media driver (Aeron's positions, back pressure, NAKs, retransmits), each line the values that changed since
 * the line before. Runs in the host's namespace with the host's emulator root until its parent goes away or stops it;
 * its sampling thread runs {@code SCHED_FIFO} {@value #PRIORITY}, above every thread of the bench (an ordinary thread
 * went unsampled for up to 0.6 s beside them on two cpus), and sleeps between samples; the bench starts the whole JVM
 * at that priority (its GC and VM threads too). Lines:
 * <pre>
 *   # clock NANOS ns is MILLIS ms epoch   once, first: the timeline's clock against the wall clock
 *   # aeron ID TYPE LABEL          once, when an Aeron counter is first seen
 *   T NAME=VALUE NAME=VALUE ...    T: System.nanoTime() (CLOCK_MONOTONIC, the sender's stamps' clock)
 * </pre>
 * Names: {@code nN.COUNTER[.TYPE]} a card's counter, {@code nN.ring_filled/taken/released} the indexes of a local
 * node's DMA ring (transfers the card completed, the node took, the node gave back), {@code b.COUNTER} the
 * bridge's, {@code b.log_queued} bytes in its outbound log, {@code aID} an Aeron counter, {@code nN.queued.TYPE}
 * events in a card's FIFO, {@code t.NAME.run/wait/state} the {@code rfmrt-*} threads of each card's holder and of the bridge ({@code /proc/PID/task/TID/schedstat}: ns run,
 * ns waited runnable; state 1 runnable, 2 asleep, 3 uninterruptible, 9 other; {@code .sys} and {@code .arg0}, from
 * {@code /proc/PID/task/TID/syscall}, the system call it is blocked in and its first argument).
 */
@Command(name = "bench-hosts-probe", hidden = true,
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class BenchHostsProbe implements Callable<Integer>
{
    private static final EventType[] TYPES = {EventType.INTR1};
    private static final RfmCounter[] CARD_COUNTERS = {RfmCounter.EVENTS_SENT, RfmCounter.EVENTS_RECEIVED,
        RfmCounter.FIFO_OVERFLOWS, RfmCounter.SENDS_REFUSED, RfmCounter.DMA_COMPLETED, RfmCounter.DMA_DROPPED,
        RfmCounter.DMA_BACKPRESSURE_STALLS, RfmCounter.SYNC_LOSSES};

    @Parameters(index = "0", paramLabel = "NETWORK")
    String network;

    @Parameters(index = "1", paramLabel = "FILE")
    Path out;

    @Parameters(index = "2", paramLabel = "PERIOD_MS")
    long periodMs;

    /** The sampling thread's {@code SCHED_FIFO} priority. */
    public static final int PRIORITY = 90;

    private volatile boolean running = true;
    private final Map<String, Long> last = new HashMap<>();

    @Override
    public Integer call() throws Exception
    {
        ChildJvm.onParentGoneOrSignal(() -> running = false);
        final AtomicReference<Exception> failure = new AtomicReference<>();
        try (RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, false, Path.of("/")),
            warning -> { }))
        {
            env.start("rfmrt-probe", -1, PRIORITY, () ->
            {
                try
                {
                    sample();
                }
                catch (final Exception ex)
                {
                    failure.set(ex);
                }
            }).join(Long.MAX_VALUE);
        }
        if (failure.get() != null)
        {
            System.err.println("bench-hosts-probe: " + failure.get());
            return ExitCodes.ERROR;
        }
        return ExitCodes.OK;
    }

    private void sample() throws Exception
    {
        try (SimNetwork net = SimNetwork.attach(network);
            SimProbe image = SimProbe.attach(network);
            PrintWriter w = new PrintWriter(new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))))
        {
            final Path cnc = SimNetwork.dir(network).resolve(HostBridge.AERON_DIR).resolve(
                CncFileDescriptor.CNC_FILE);
            final MappedByteBuffer cncBuffer = IoUtil.mapExistingFile(cnc.toFile(), "cnc");
            try
            {
                final UnsafeBuffer meta = CncFileDescriptor.createMetaDataBuffer(cncBuffer);
                final CountersReader aeron = new CountersReader(
                    CncFileDescriptor.createCountersMetaDataBuffer(cncBuffer, meta),
                    CncFileDescriptor.createCountersValuesBuffer(cncBuffer, meta));
                final Map<Integer, String> seen = new HashMap<>();
                final StringBuilder line = new StringBuilder();
                w.println("# clock " + System.nanoTime() + " ns is " + System.currentTimeMillis() + " ms epoch");
                while (running)
                {
                    line.setLength(0);
                    line.append(System.nanoTime());
                    samples++;
                    // every card of the image, read in place (SimNetwork.cards() copies all 256 each call)
                    for (int node = 0; node < SimProbe.CARD_COUNT; node++)
                    {
                        final long pid = image.ownerPid(node);
                        if (pid == 0 && !image.isPresent(node))
                        {
                            continue;
                        }
                        final String n = "n" + node;
                        if (pid != 0 && pid != bridgePid(net) && image.attachRing(node))
                        {
                            // filled by the card, taken by the node's thread, released by it
                            put(line, n + ".ring_filled", image.ringFilled(node));
                            put(line, n + ".ring_taken", image.ringTaken(node));
                            put(line, n + ".ring_released", image.ringReleased(node));
                        }
                        for (final EventType type : TYPES)
                        {
                            put(line, n + ".queued." + type, image.queued(node, type));
                        }
                        for (final RfmCounter counter : CARD_COUNTERS)
                        {
                            if (counter.perType())
                            {
                                for (final EventType type : TYPES)
                                {
                                    put(line, n + "." + counter + "." + type, image.counter(node, counter, type));
                                }
                            }
                            else
                            {
                                put(line, n + "." + counter, image.counter(node, counter, null));
                            }
                        }
                        if (pid != 0)
                        {
                            threads(line, pid);
                        }
                    }
                    final BridgeStatus bridge = BridgeStatus.of(net);
                    if (bridge != null)
                    {
                        for (final BridgeCounter counter : BridgeCounter.values())
                        {
                            put(line, "b." + counter, bridge.counter(counter));
                        }
                        put(line, "b.log_queued", bridge.logQueued());
                        threads(line, bridge.pid());
                    }
                    aeron.forEach((id, type, key, label) ->
                    {
                        if (!label.equals(seen.get(id)))
                        {
                            seen.put(id, label);
                            w.println("# aeron " + id + " " + type + " " + label);
                        }
                        put(line, "a" + id, aeron.getCounterValue(id));
                    });
                    w.println(line);
                    Thread.sleep(periodMs);
                }
            }
            finally
            {
                IoUtil.unmap(cncBuffer);
            }
        }
    }

    /** Samples between two looks for a process's {@code rfmrt-*} threads. */
    private static final int THREADS_REFRESH_SAMPLES = 200;

    private long samples;
    private long bridgePid = -1;
    private final Map<Long, List<Path>> rtThreads = new HashMap<>();

    private long bridgePid(final SimNetwork net)
    {
        if (bridgePid < 0)
        {
            final BridgeStatus bridge = BridgeStatus.of(net);
            bridgePid = bridge == null ? 0 : bridge.pid();
        }
        return bridgePid;
    }

    /**
     * The named threads ({@code rfmrt-*}) of a process: cpu time run and time waited runnable ({@code schedstat},
     * ns), and state (1 running or runnable, 2 asleep, 3 uninterruptible, 9 other).
     */
    private void threads(final StringBuilder line, final long pid)
    {
        final List<Path> tasks = rtThreads.computeIfAbsent(pid, p ->
        {
            try (var all = Files.list(Path.of("/proc", Long.toString(p), "task")))
            {
                return all.filter(t -> comm(t).startsWith("rfmrt-")).toList();
            }
            catch (final IOException | RuntimeException ex)
            {
                return List.of();
            }
        });
        if (tasks.isEmpty() || samples % THREADS_REFRESH_SAMPLES == 0)
        {
            // not started yet, or more started since (the parent-watch thread comes first): looked for again
            rtThreads.remove(pid);
        }
        for (final Path task : tasks)
        {
            try
            {
                final String name = "t." + comm(task);
                final String[] sched = Files.readString(task.resolve("schedstat")).trim().split(" ");
                put(line, name + ".run", Long.parseLong(sched[0]));
                put(line, name + ".wait", Long.parseLong(sched[1]));
                final String stat = Files.readString(task.resolve("stat"));
                final char state = stat.charAt(stat.lastIndexOf(')') + 2);
                put(line, name + ".state", state == 'R' ? 1 : state == 'S' ? 2 : state == 'D' ? 3 : 9);
                // where it sleeps: the system call it is in and its first argument (a futex: the word's address)
                final String[] syscall = Files.readString(task.resolve("syscall")).trim().split(" ");
                if (syscall.length > 1 && !"running".equals(syscall[0]))
                {
                    put(line, name + ".sys", Long.parseLong(syscall[0]));
                    put(line, name + ".arg0", Long.parseUnsignedLong(syscall[1].substring(2), 16));
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                // the thread ended
            }
        }
    }

    private static String comm(final Path task)
    {
        try
        {
            return Files.readString(task.resolve("comm")).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }

    private void put(final StringBuilder line, final String name, final long value)
    {
        final Long before = last.put(name, value);
        if (before == null || before != value)
        {
            line.append(' ').append(name).append('=').append(value);
        }
    }
}
