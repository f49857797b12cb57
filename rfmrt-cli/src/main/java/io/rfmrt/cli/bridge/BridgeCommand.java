package io.rfmrt.cli.bridge;

import io.aeron.driver.ThreadingMode;
import io.rfmrt.cli.common.Converters;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.Renamed;
import io.rfmrt.cli.common.ServiceNotifier;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.bridge.Bridge;
import io.rfmrt.rfm.bridge.BridgeContext;
import io.rfmrt.rfm.bridge.BridgeRecordKind;
import io.rfmrt.rfm.bridge.BridgeState;
import io.rfmrt.rfm.bridge.BridgeWarmUp;
import io.rfmrt.rfm.sim.SimNetwork;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import sun.misc.Signal;

import io.rfmrt.runtime.JitWatch;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rfmrt bridge}: the bridge of this host's emulated network to the same network on other hosts, over Aeron
 * UDP, until SIGINT/SIGTERM. One per network and host; node processes of the host keep using {@code sim:} (or
 * {@code bridge:}) device URIs. Prints one line per record (peers lost and in sync, the images diverging and
 * converging, duplicate node ids); {@code rfmrt rfm status} shows the same and the counters.
 */
@Command(name = "bridge", mixinStandardHelpOptions = true,
    description = "Join this host's emulated network to other hosts' over Aeron UDP, until SIGTERM/SIGINT.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class BridgeCommand implements Callable<Integer>
{
    /** The idle strategy the measurements chose (docs/benchmarks.md, "Across hosts"). */
    static final String IDLE_DEFAULT = "doorbell";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
        .withZone(ZoneOffset.UTC);

    @Spec
    CommandSpec spec;

    @Option(names = "--network", required = true, paramLabel = "NAME", converter = Converters.NetworkName.class,
        description = "Network name (a name, not a path); created when missing.")
    String network;

    @Option(names = "--root", paramLabel = "DIR",
        description = "Folder holding networks (default: RFMRT_SIM_ROOT, else /dev/shm/rfmrt).")
    String root;

    @Option(names = "--host-id", required = true, paramLabel = "ID",
        description = "This host's id, 1-255, unique among the hosts of the network.")
    int hostId;

    @Option(names = "--host-name", paramLabel = "NAME",
        description = "The name peers show for this host (default: the machine's host name).")
    String hostName;

    @Option(names = "--channel", required = true, paramLabel = "URI",
        description = "Where this bridge listens: aeron:udp?endpoint=ADDRESS:PORT (an address of this host).")
    String channel;

    @Option(names = "--peers", required = true, split = ",", paramLabel = "ID@HOST:PORT",
        description = "The other hosts: host id @ the endpoint their bridge listens on, comma separated.")
    List<String> peers;

    @Option(names = "--size", defaultValue = "16M", paramLabel = "BYTES", converter = Converters.Size.class,
        description = "Memory size of a network the bridge creates (default ${DEFAULT-VALUE}); every host the same.")
    long size;

    @Option(names = "--log-size", defaultValue = "8M", paramLabel = "BYTES", converter = Converters.Size.class,
        description = "Outbound log of a new bridge file, a power of two 64K-256M (default ${DEFAULT-VALUE}).")
    long logSize;

    @Option(names = "--peer-timeout", defaultValue = "1s", paramLabel = "DURATION",
        converter = Converters.Duration.class,
        description = "Silence after which a peer counts as lost and the link goes down (default ${DEFAULT-VALUE}).")
    long peerTimeoutNanos;

    @Option(names = "--heartbeat", defaultValue = "100ms", paramLabel = "DURATION",
        converter = Converters.Duration.class,
        description = "Interval of HELLO messages, at most a third of the peer time-out (default ${DEFAULT-VALUE}).")
    long heartbeatNanos;

    @Option(names = "--idle", defaultValue = IDLE_DEFAULT, paramLabel = "STRATEGY",
        description = "How the bridge's thread waits for work: doorbell (sleep until a node appends, at most 1 ms), " +
            "doorbell-Nus (at most N us), backoff, busy-spin, yield or sleep-Nus (default ${DEFAULT-VALUE}).")
    String idle;

    @Option(names = "--aeron-threading", defaultValue = "invoker", paramLabel = "MODE",
        description = "The embedded media driver's threading mode: invoker (run by the bridge's thread), shared or " +
            "dedicated (threads of its own) (default ${DEFAULT-VALUE}).")
    String aeronThreading;

    @Option(names = "--threading", hidden = true, description = "The old name of --aeron-threading.")
    String threading;

    @Option(names = "--priority", defaultValue = "70", paramLabel = "P",
        description = "SCHED_FIFO priority of the bridge's thread, 1-99, or 0 for SCHED_OTHER (default " +
            "${DEFAULT-VALUE}: below a node's ISR-wake thread, above the kernel's IRQ threads).")
    int priority;

    @Option(names = "--cpu", defaultValue = "-1", paramLabel = "N",
        description = "Pin the bridge's thread to this cpu (default: not pinned).")
    int cpu;

    @Option(names = "--warm-up-frames", defaultValue = "" + BridgeWarmUp.FRAMES_DEFAULT, paramLabel = "N",
        description = "Before it joins, carry at least N frames through a private pair of bridges in this process " +
            "(over the loopback interface), then on until the JIT compilers are idle (at most 20 s): the bridge " +
            "starts with its drain and apply compiled (0: start cold; default ${DEFAULT-VALUE}).")
    int warmUpFrames;

    @Option(names = "--seconds", defaultValue = "0", paramLabel = "S",
        description = "Stop by itself after S seconds (0: run until a signal).")
    int seconds;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        if (root != null)
        {
            if (root.isBlank())
            {
                throw new UsageException("--root is empty");
            }
            System.setProperty(SimNetwork.ROOT_PROPERTY, root);
        }
        final long doorbellParkNs = doorbellParkNs(idle);
        // the driver's own threads (SHARED, DEDICATED) have no doorbell: they back off
        final Supplier<IdleStrategy> idleStrategy = doorbellParkNs > 0 ? BackoffIdleStrategy::new : idleStrategy(idle);
        final ThreadingMode mode = threadingMode(Renamed.pick(spec, "--threading", threading, aeronThreading));
        final List<BridgeContext.Peer> parsedPeers = checkOptions();
        // a NOTIFY_SOCKET it cannot use is refused before the network is made
        try (ServiceNotifier systemd = ServiceNotifier.fromEnvironment())
        {
            final BridgeContext ctx = context(out, mode, idleStrategy, parsedPeers);
            out.printf("rfmrt bridge: network %s, host %d (%s), listening on %s; peers %s; media driver %s in %s, " +
                "idle %s%n", network, hostId, ctx.hostName(), channel, String.join(",", peers), mode, ctx.aeronDir(),
                idle);
            out.flush();
            return run(out, ctx, doorbellParkNs, idleStrategy, systemd);
        }
    }


    /**
     * Check what the command line says before anything is made (the network folder, its files).
     *
     * @return the peers.
     * @throws UsageException naming the first option that makes no sense.
     */
    private List<BridgeContext.Peer> checkOptions()
    {
        if (warmUpFrames < 0)
        {
            throw new UsageException("--warm-up-frames " + warmUpFrames + " is negative (0: start cold)");
        }
        if (seconds < 0)
        {
            throw new UsageException("--seconds " + seconds + " is negative (0: run until a signal)");
        }
        if (priority < 0 || priority > 99 || cpu < -1)
        {
            throw new UsageException("--priority 0..99 and --cpu -1 or a cpu");
        }
        if (size > Integer.MAX_VALUE || logSize > Integer.MAX_VALUE)
        {
            throw new UsageException("--size and --log-size are at most 1G and 256M");
        }
        if (hostId < 1 || hostId > 255)
        {
            throw new UsageException("--host-id " + hostId + " is not 1-255");
        }
        final List<BridgeContext.Peer> parsedPeers = new ArrayList<>();
        try
        {
            for (final String peer : peers)
            {
                parsedPeers.add(BridgeContext.Peer.parse(peer.trim()));
            }
        }
        catch (final IllegalArgumentException | RfmException ex)
        {
            throw new UsageException(ex.getMessage());
        }
        checkListenChannel(channel);
        return parsedPeers;
    }

    /**
     * @return the bridge's context, concluded.
     * @throws UsageException for what only the context can check.
     */
    private BridgeContext context(final PrintWriter out, final ThreadingMode mode,
        final Supplier<IdleStrategy> idleStrategy, final List<BridgeContext.Peer> parsedPeers)
    {
        final Set<String> reported = ConcurrentHashMap.newKeySet();
        final BridgeContext ctx = new BridgeContext()
            .network(SimNetwork.checkedDir(network, true), network)
            .memorySize(size)
            .hostId(hostId)
            .hostName(hostName)
            .channel(channel)
            .logCapacity((int)logSize)
            .peerTimeoutNs(peerTimeoutNanos)
            .heartbeatNs(heartbeatNanos)
            .threadingMode(mode)
            .driverIdle(idleStrategy)
            .errorHandler(error ->
            {
                // each distinct error once (an unreachable peer repeats the same one)
                final String line = Failures.describe(error);
                if (reported.add(line))
                {
                    spec.commandLine().getErr().println("rfmrt bridge: Aeron reported: " + line);
                    spec.commandLine().getErr().flush();
                }
            })
            .listener((kind, peer, name, value, value2) ->
            {
                out.println(TIME.format(Instant.now()) + "  " + describe(kind, peer, name, value, value2));
                out.flush();
            });
        try
        {
            for (final BridgeContext.Peer peer : parsedPeers)
            {
                ctx.peer(peer);
            }
            ctx.conclude();
        }
        catch (final IllegalArgumentException | RfmException ex)
        {
            throw new UsageException(ex.getMessage());
        }
        return ctx;
    }

    /**
     * Run the bridge on a real-time thread until a signal, {@code --seconds}, or a failure.
     *
     * @param doorbellParkNs the doorbell's park time (0: the duty cycle idles with {@code idleStrategy}).
     * @param idleStrategy   the duty cycle's idle strategy without a doorbell.
     * @return the exit code.
     */
    private int run(final PrintWriter out, final BridgeContext ctx, final long doorbellParkNs,
        final Supplier<IdleStrategy> idleStrategy, final ServiceNotifier systemd) throws InterruptedException
    {
        // the bridge is on the data path between hosts: a real-time thread, memory locked, as a node's receive path;
        // mlockall first (it can take seconds), then Aeron, whose client must be served within its time-out
        final RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, false, Path.of("/")),
            warning ->
            {
                spec.commandLine().getErr().println("rfmrt bridge: warning: " + warning);
                spec.commandLine().getErr().flush();
            });
        final Bridge bridge;
        try
        {
            warmUp(out, ctx, doorbellParkNs, idleStrategy);
            bridge = Bridge.launch(ctx);
        }
        catch (final RuntimeException ex)
        {
            env.close();
            throw ex;
        }
        final CountDownLatch stop = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final DutyCycles cycles = new DutyCycles(bridge);
        final AgentRunner runner = new AgentRunner(doorbellParkNs > 0 ? bridge.doorbellIdleStrategy(doorbellParkNs) :
            idleStrategy.get(), ex ->
        {
            if (failure.compareAndSet(null, ex))
            {
                stop.countDown();
            }
        }, null, cycles);
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        // a thread that never sleeps must not run at an RT priority on a cpu it shares: it would starve the nodes that
        // write into the log (a record they claimed stays half made), so it runs SCHED_OTHER unless pinned
        final boolean neverSleeps = "busy-spin".equals(idle) || "yield".equals(idle);
        final int runPriority = neverSleeps && cpu < 0 ? 0 : priority;
        if (runPriority != priority)
        {
            spec.commandLine().getErr().println("rfmrt bridge: warning: --idle " + idle + " never sleeps: the " +
                "bridge's thread runs SCHED_OTHER (give it a cpu of its own with --cpu for priority " + priority + ")");
        }
        try (env)
        {
            env.start("rfmrt-bridge", cpu, runPriority, runner);
            // up once its thread has run a duty cycle: the media driver, subscription and publications exist
            // (launch made them) and the driver is being served; then alive while the duty cycle goes round
            final long startNs = System.nanoTime();
            while (cycles.count() == 0 && !stop.await(1, TimeUnit.MILLISECONDS))
            {
                if (seconds > 0 && System.nanoTime() - startNs >= TimeUnit.SECONDS.toNanos(seconds))
                {
                    stop.countDown();
                }
            }
            if (cycles.count() > 0 && failure.get() == null)
            {
                systemd.ready("up: network " + network + ", host " + hostId + ", listening on " + channel,
                    new Progress(cycles, failure));
            }
            final long leftNs = TimeUnit.SECONDS.toNanos(seconds) - (System.nanoTime() - startNs);
            if (seconds > 0 && leftNs > 0)
            {
                stop.await(leftNs, TimeUnit.NANOSECONDS);
            }
            else if (seconds == 0)
            {
                stop.await();
            }
            final Throwable failing = failure.get();
            systemd.stopping(failing == null ? "stopping" : "stopping: " + Failures.describe(failing));
            runner.close();
        }
        final Throwable failed = failure.get();
        if (failed != null)
        {
            spec.commandLine().getErr().println("rfmrt: bridge stopped: " + Failures.describe(failed));
            return ExitCodes.ERROR;
        }
        out.println("rfmrt bridge: stopped; the link of network " + network + " is down on this host");
        return ExitCodes.OK;
    }

    /**
     * The bridge, counting its duty cycles for the watchdog's liveness check (an ordered store: nothing allocated,
     * no lock).
     */
    static final class DutyCycles implements Agent
    {
        private final Agent agent;
        private final AtomicLong count = new AtomicLong();

        DutyCycles(final Agent agent)
        {
            this.agent = agent;
        }

        long count()
        {
            return count.get();
        }

        @Override
        public void onStart()
        {
            agent.onStart();
        }

        @Override
        public int doWork() throws Exception
        {
            final int work = agent.doWork();
            count.lazySet(count.get() + 1);
            return work;
        }

        @Override
        public void onClose()
        {
            agent.onClose();
        }

        @Override
        public String roleName()
        {
            return agent.roleName();
        }
    }

    /**
     * The bridge's liveness, asked by the systemd watchdog's thread at each ping: no failure, and at least one duty
     * cycle since the last ping (the thread idles at most 100 ms at a time; the unit pings every 5 s).
     */
    static final class Progress implements BooleanSupplier
    {
        private final DutyCycles cycles;
        private final AtomicReference<Throwable> failure;
        private long seen = -1;

        Progress(final DutyCycles cycles, final AtomicReference<Throwable> failure)
        {
            this.cycles = cycles;
            this.failure = failure;
        }

        @Override
        public boolean getAsBoolean()
        {
            final long now = cycles.count();
            final boolean moved = now != seen;
            seen = now;
            return moved && failure.get() == null;
        }
    }

    /**
     * @param kind  a record's kind.
     * @param peer  its peer host id.
     * @param name  the peer's name.
     * @param value its value.
     * @param value2 its second value.
     * @return one line for it.
     */
    public static String describe(final BridgeRecordKind kind, final int peer, final String name, final long value,
        final long value2)
    {
        final String who = peer == 0 ? "" : "peer " + peer + (name == null || name.isEmpty() ? "" : " (" + name + ")");
        return switch (kind)
        {
            case STARTED -> "started (pid " + value + ", host id " + value2 + "); link down until every peer is in " +
                "sync";
            case STOPPED -> "stopped (pid " + value + ")";
            case PEER_LOST -> who + " lost: " + reason(value) + " (it was " + state(value2) + ")";
            case PEER_CONNECTED -> who + " connected: asked for its words (request " + value + ")";
            case PEER_SYNCED -> who + " in sync: " + value + " bytes of its words applied, " + value2 + " conflicts";
            case DIVERGED -> "DIVERGED: link down" + (peer == 0 ? "" : " (" + who + " not in sync)") +
                ", the images may differ from now on (divergence " + value + ")";
            case CONVERGED -> "CONVERGED: link up, every peer in sync both ways (convergence " + value + ")";
            case DUPLICATE_NODE -> "duplicate node id " + value + ": held here (pid " + value2 + ") and by " + who;
            case RESYNC_CONFLICT -> who + ": " + value + " words written on both hosts while apart; the lower host " +
                "id's kept";
            case LOG_OVERFLOW -> "outbound log overflowed: " + value + " words sent again";
            case PEER_REFUSED -> who + " refused: its memory is " + value + " bytes, this host's " + value2;
            case NODE_BEHIND -> "node " + value + " does not keep up with the other hosts: " + value2 + " of their " +
                "events or DMA transfers to it dropped at its card so far (their writes are all applied)";
        };
    }

    private static String reason(final long id)
    {
        final BridgeRecordKind.LossReason reason = BridgeRecordKind.LossReason.fromId((int)id);
        return reason == null ? "reason " + id : reason.label();
    }

    private static String state(final long id)
    {
        final BridgeState state = BridgeState.fromId((int)id);
        return state == null ? "state " + id : state.name();
    }

    /**
     * @param name an --idle value.
     * @return the longest sleep of a doorbell strategy ({@code doorbell}: 1 ms, {@code doorbell-Nus}: N us), or 0 for
     *         another strategy.
     */
    /**
     * The channel this bridge listens on, checked as far as it can be without Aeron: its endpoint's port is 1-65535
     * and its address:port can be bound now (the media driver's own refusal says only "RegistrationException").
     *
     * @param channel the {@code --channel} value.
     * @throws UsageException naming the channel and what is wrong with it.
     */
    static void checkListenChannel(final String channel)
    {
        final Matcher m = Pattern
            .compile("aeron:udp\\?(?:.*\\|)?endpoint=(\\[[^\\]]+\\]|[^:|]+):([0-9]+)(?:\\|.*)?").matcher(channel);
        if (!m.matches())
        {
            throw new UsageException("--channel " + SimNetwork.quote(channel) +
                " is not aeron:udp?endpoint=ADDRESS:PORT");
        }
        final String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) : m.group(1);
        final int port;
        try
        {
            port = Integer.parseInt(m.group(2));
        }
        catch (final NumberFormatException ex)
        {
            throw new UsageException("--channel " + SimNetwork.quote(channel) + ": port " + m.group(2) +
                " is not 1-65535");
        }
        if (port < 1 || port > 65535)
        {
            throw new UsageException("--channel " + SimNetwork.quote(channel) + ": port " + port +
                " is not 1-65535");
        }
        try (DatagramSocket socket = new DatagramSocket(null))
        {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
        }
        catch (final IOException ex)
        {
            throw new UsageException("--channel " + SimNetwork.quote(channel) + ": cannot listen on " + host +
                ":" + port + ": " + ex.getMessage());
        }
    }

    /**
     * Warm the bridge's code up before it joins ({@link BridgeWarmUp}), then wait for the JIT compilers to be idle;
     * one line says what it did. A warm-up that cannot run (no loopback interface, say) is said and skipped: the
     * bridge then starts cold, as with {@code --warm-up-frames 0}.
     */
    private void warmUp(final PrintWriter out, final BridgeContext ctx, final long doorbellParkNs,
        final Supplier<IdleStrategy> idleStrategy)
    {
        if (warmUpFrames == 0)
        {
            return;
        }
        final JitWatch jit = new JitWatch();
        final BridgeWarmUp.Result r = BridgeWarmUp.run(ctx, b -> doorbellParkNs > 0 ?
            b.doorbellIdleStrategy(doorbellParkNs) : idleStrategy.get(), jit::idle, warmUpFrames);
        final boolean quiet = JitWatch.awaitIdle(TimeUnit.SECONDS.toNanos(10));
        if (r.problem() != null)
        {
            spec.commandLine().getErr().println("rfmrt bridge: warning: warm-up stopped after " + r.sent() +
                " frames, the bridge starts cold: " + r.problem());
            spec.commandLine().getErr().flush();
        }
        out.printf(Locale.ROOT, "%s  warmed up: %s%s%n", TIME.format(Instant.now()), r.summary(),
            quiet ? "" : "; the JIT compilers were still busy 10 s after it");
        out.flush();
    }

    static long doorbellParkNs(final String name)
    {
        if ("doorbell".equals(name))
        {
            return TimeUnit.MILLISECONDS.toNanos(1);
        }
        if (name.startsWith("doorbell-") && name.endsWith("us"))
        {
            try
            {
                final long micros = Long.parseLong(name.substring(9, name.length() - 2));
                if (micros >= 1 && micros <= 100_000)
                {
                    return TimeUnit.MICROSECONDS.toNanos(micros);
                }
            }
            catch (final NumberFormatException ignore)
            {
                // refused below
            }
            throw new UsageException("--idle '" + name + "': doorbell-Nus needs N 1..100000");
        }
        return 0;
    }

    /**
     * @param name backoff, busy-spin, yield or sleep-Nus.
     * @return new idle strategies of that kind.
     */
    public static Supplier<IdleStrategy> idleStrategy(final String name)
    {
        switch (name)
        {
            case "backoff":
                return BackoffIdleStrategy::new;
            case "busy-spin":
                return BusySpinIdleStrategy::new;
            case "yield":
                return YieldingIdleStrategy::new;
            default:
                if (name.startsWith("sleep-") && name.endsWith("us"))
                {
                    try
                    {
                        final long micros = Long.parseLong(name.substring(6, name.length() - 2));
                        if (micros >= 1 && micros <= 100_000)
                        {
                            return () -> new SleepingIdleStrategy(TimeUnit.MICROSECONDS.toNanos(micros));
                        }
                    }
                    catch (final NumberFormatException ignore)
                    {
                        // refused below
                    }
                }
                throw new UsageException("--idle '" + name + "' is not doorbell, doorbell-Nus, backoff, " +
                    "busy-spin, yield or sleep-Nus (N 1..100000)");
        }
    }

    /**
     * @param name invoker, shared or dedicated, in any case.
     * @return the mode.
     */
    public static ThreadingMode threadingMode(final String name)
    {
        final List<String> known = new ArrayList<>();
        for (final ThreadingMode mode : new ThreadingMode[]{ThreadingMode.INVOKER, ThreadingMode.SHARED,
            ThreadingMode.DEDICATED})
        {
            if (mode.name().equalsIgnoreCase(name))
            {
                return mode;
            }
            known.add(mode.name().toLowerCase(Locale.ROOT));
        }
        throw new UsageException("--aeron-threading '" + name + "' is not " + String.join(", ", known));
    }
}
