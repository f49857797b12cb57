package io.rfmrt.rfm.internal.bridge;

import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.bridge.BridgeContext;
import io.rfmrt.rfm.bridge.BridgeCounter;
import io.rfmrt.rfm.bridge.BridgeListener;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.DmaRingFullPolicy;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import io.rfmrt.rfm.internal.sim.SimDevice;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One seeded run of the bridge protocol: 3 to 5 hosts, each a real {@link BridgeAgent} over its own network image and
 * bridge file, with a node that writes its own words and sends events, over {@link SimLinks} and a simulated clock.
 * Faults (links down both ways or one way, bridges killed and restarted, bridges stopped and resumed, hosts restarted
 * with an empty image) come from the seed; so does every choice of order and delay. The same seed replays the same
 * run (the empty restarts are drawn from a stream of their own: the other faults of a seed are as without them).
 * <p>
 * Properties, checked every step and at the end (a violation throws {@link Violation} naming the step):
 * <pre>
 *   (a) from the last fault's end, every host's link is up within the peer time-out + 1 s and stays up;
 *   (b) at the end every host's image holds, word by word, the last value the word's owner wrote (a word whose owner
 *       restarted empty and has not written it since: one value it wrote, the same on every host, no older than
 *       the oldest copy the other hosts held when it restarted);
 *   (c) an event never arrives before the data its sender wrote before it;
 *   (d) at the end every divergence of a bridge's link has its convergence, and nothing threw.
 * </pre>
 */
final class BridgeSimulation
{
    static final long STEP_NS = 1_000_000L;
    static final long PEER_TIMEOUT_NS = 200_000_000L;
    static final long HEARTBEAT_NS = 50_000_000L;
    static final long HEAL_BOUND_NS = PEER_TIMEOUT_NS + 1_000_000_000L;
    static final long MEMORY = 4096;
    static final int WORDS_USED = 96;
    private static final String NETWORK = "sim";
    private static final long QUIET_NS = 300_000_000L;
    private static final int NODE_LIMIT = 8;
    private static final long EMPTY_RESTART_SALT = 0x454d505459525354L;

    /**
     * A property that did not hold.
     */
    static final class Violation extends AssertionError
    {
        Violation(final String message, final Throwable cause)
        {
            super(message, cause);
        }
    }

    enum FaultKind
    {
        LINK_BOTH_WAYS, LINK_ONE_WAY, HOST_CUT_OFF, KILL_RESTART, PAUSE,
        /** Bridge and node killed, the host's image zeroed and its bridge file removed, both started again. */
        EMPTY_RESTART
    }

    /** The kinds {@link #random} draws from: the empty restarts come from a stream of their own. */
    private static final FaultKind[] DRAWN_KINDS = {FaultKind.LINK_BOTH_WAYS, FaultKind.LINK_ONE_WAY,
        FaultKind.HOST_CUT_OFF, FaultKind.KILL_RESTART, FaultKind.PAUSE};

    record Fault(FaultKind kind, int host, int other, long startNs, long endNs)
    {
    }

    private final long seed;
    private final Path root;
    private final SplittableRandom random;
    /** Draws the empty restarts, apart from {@link #random}: a seed's other faults and choices stay as they were. */
    private final SplittableRandom emptyRandom;
    private final int hostCount;
    private final SimLinks links;
    private final long startNs;
    private final List<Fault> faults = new ArrayList<>();
    private final Host[] hosts;
    private final long[] expected = new long[WORDS_USED];
    /**
     * Per word, -1 while its value is known exactly ({@link #expected}); after its owner restarted empty and until it
     * writes the word again, the oldest value it may come back as (what the other hosts held of it then, 0 when none
     * did): every host must then agree on one value from there to the last written.
     */
    private final long[] lowestAccepted = new long[WORDS_USED];
    private long lastHealNs;
    private long askedAgain;
    private long takenBack;
    private long steps;
    private final StringBuilder trace = new StringBuilder();
    private final boolean tracing;

    BridgeSimulation(final long seed, final Path root, final boolean tracing)
    {
        this.seed = seed;
        this.root = root;
        this.tracing = tracing;
        random = new SplittableRandom(seed);
        hostCount = 3 + random.nextInt(3);
        // the leases are read against the real clock by the nodes: start far ahead of it so they never lapse
        startNs = System.nanoTime() + 3_600_000_000_000L;
        links = new SimLinks(hostCount, PEER_TIMEOUT_NS, startNs, random.split());
        hosts = new Host[hostCount + 1];
        java.util.Arrays.fill(lowestAccepted, -1);
        planFaults();
        emptyRandom = new SplittableRandom(seed ^ EMPTY_RESTART_SALT);
        planEmptyRestarts();
    }

    long steps()
    {
        return steps;
    }

    /**
     * @return resync requests asked again on every host together (after {@link #run()}).
     */
    long askedAgain()
    {
        return askedAgain;
    }

    /**
     * @return former words taken back by hosts restarted empty, on every host together (after {@link #run()}; a
     *         host restarted empty again loses its count with its file).
     */
    long takenBack()
    {
        return takenBack;
    }

    int hostCount()
    {
        return hostCount;
    }

    List<Fault> faults()
    {
        return faults;
    }

    private void planFaults()
    {
        final int count = random.nextInt(1, 7);
        long at = 300_000_000L;
        for (int i = 0; i < count; i++)
        {
            at += random.nextLong(50_000_000L, 600_000_000L);
            final FaultKind kind = DRAWN_KINDS[random.nextInt(DRAWN_KINDS.length)];
            final int host = 1 + random.nextInt(hostCount);
            int other = 1 + random.nextInt(hostCount - 1);
            other = other >= host ? other + 1 : other;
            final long length = random.nextLong(5_000_000L, 3 * PEER_TIMEOUT_NS);
            faults.add(new Fault(kind, host, other, startNs + at, startNs + at + length));
            lastHealNs = Math.max(lastHealNs, startNs + at + length);
        }
    }

    /**
     * Half the seeds restart one host, or two, with an empty image: its bridge and node killed, its image zeroed and
     * its bridge file removed (the network reset and made again), then both started again.
     */
    private void planEmptyRestarts()
    {
        if (emptyRandom.nextBoolean())
        {
            return;
        }
        final int count = 1 + emptyRandom.nextInt(2);
        for (int i = 0; i < count; i++)
        {
            final long at = 400_000_000L + emptyRandom.nextLong(2_500_000_000L);
            final int host = 1 + emptyRandom.nextInt(hostCount);
            final long length = emptyRandom.nextLong(5_000_000L, 3 * PEER_TIMEOUT_NS);
            faults.add(new Fault(FaultKind.EMPTY_RESTART, host, 0, startNs + at, startNs + at + length));
            lastHealNs = Math.max(lastHealNs, startNs + at + length);
        }
    }

    /**
     * Run the seed to its end.
     *
     * @throws Violation naming the seed, the step and the property.
     */
    void run()
    {
        try
        {
            for (int h = 1; h <= hostCount; h++)
            {
                hosts[h] = new Host(h);
                resetNetwork(hosts[h].dir);
                hosts[h].start();
            }
            for (int h = 1; h <= hostCount; h++)
            {
                hosts[h].openNode();
            }
            final long upBy = lastHealNs + HEAL_BOUND_NS;
            // a fault shorter than the time-out may still be noticed up to a time-out after it ended
            while (links.nowNs - lastHealNs <= PEER_TIMEOUT_NS || !allUp())
            {
                step(true);
                if (links.nowNs - upBy > 0)
                {
                    for (int h = 1; h <= hostCount; h++)
                    {
                        if (!hosts[h].agent.linkUp())
                        {
                            fail("(a) host " + h + "'s link is not up " + (HEAL_BOUND_NS / 1_000_000) +
                                " ms after the last fault ended", null);
                        }
                    }
                }
            }
            final long quietBy = links.nowNs + QUIET_NS;
            while (links.nowNs - quietBy <= 0 || links.inFlight() && links.nowNs - quietBy <= QUIET_NS)
            {
                step(false);
                for (int h = 1; h <= hostCount; h++)
                {
                    if (!hosts[h].agent.linkUp())
                    {
                        fail("(a) host " + h + "'s link went down after the last fault", null);
                    }
                }
            }
            checkImages();
            checkCounters();
        }
        catch (final Violation ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            fail("(d) thrown: " + ex, ex);
        }
        finally
        {
            close();
        }
    }

    private boolean allUp()
    {
        for (int h = 1; h <= hostCount; h++)
        {
            if (hosts[h].agent == null || !hosts[h].agent.linkUp())
            {
                return false;
            }
        }
        return true;
    }

    private void step(final boolean writing)
    {
        steps++;
        applyFaults();
        final int first = random.nextInt(hostCount);
        for (int i = 0; i < hostCount; i++)
        {
            final Host host = hosts[1 + (first + i) % hostCount];
            if (writing && host.nodeOpen())
            {
                host.act();
            }
            if (host.agent != null && !links.paused[host.id])
            {
                final int runs = 1 + random.nextInt(2);
                for (int r = 0; r < runs; r++)
                {
                    host.agent.doWork();
                }
            }
            host.takeEvents();
        }
        links.step();
        links.nowNs += STEP_NS;
    }

    private void applyFaults()
    {
        final long now = links.nowNs;
        for (int a = 1; a <= hostCount; a++)
        {
            for (int b = 1; b <= hostCount; b++)
            {
                links.up[a][b] = true;
            }
        }
        for (final Fault f : faults)
        {
            final boolean active = now - f.startNs >= 0 && now - f.endNs < 0;
            switch (f.kind)
            {
                case LINK_BOTH_WAYS ->
                {
                    if (active)
                    {
                        links.up[f.host][f.other] = false;
                        links.up[f.other][f.host] = false;
                    }
                }
                case LINK_ONE_WAY ->
                {
                    if (active)
                    {
                        links.up[f.host][f.other] = false;
                    }
                }
                case HOST_CUT_OFF ->
                {
                    if (active)
                    {
                        for (int o = 1; o <= hostCount; o++)
                        {
                            links.up[f.host][o] = false;
                            links.up[o][f.host] = false;
                        }
                    }
                }
                case PAUSE ->
                {
                    if (now - f.startNs >= 0 && now - f.startNs < STEP_NS)
                    {
                        links.paused[f.host] = true;
                        note("pause host " + f.host);
                    }
                    if (now - f.endNs >= 0 && now - f.endNs < STEP_NS)
                    {
                        links.paused[f.host] = false;
                        note("resume host " + f.host);
                    }
                }
                case KILL_RESTART ->
                {
                    if (now - f.startNs >= 0 && now - f.startNs < STEP_NS && hosts[f.host].agent != null)
                    {
                        hosts[f.host].kill();
                    }
                    if (now - f.endNs >= 0 && now - f.endNs < STEP_NS && hosts[f.host].agent == null)
                    {
                        hosts[f.host].start();
                    }
                }
                case EMPTY_RESTART ->
                {
                    final Host host = hosts[f.host];
                    if (now - f.startNs >= 0 && now - f.startNs < STEP_NS && host.nodeOpen())
                    {
                        host.wipe();
                    }
                    if (now - f.endNs >= 0 && now - f.endNs < STEP_NS && !host.nodeOpen())
                    {
                        if (host.agent == null)
                        {
                            host.start();
                        }
                        host.openNode();
                    }
                }
            }
        }
    }

    private void checkImages()
    {
        for (int h = 1; h <= hostCount; h++)
        {
            final Host host = hosts[h];
            for (int w = 0; w < WORDS_USED; w++)
            {
                final long value = host.view.memory().getLongVolatile(w * 8);
                if (lowestAccepted[w] < 0 && value != expected[w])
                {
                    fail("(b) host " + h + " holds " + value + " in word " + w + ", its owner host " +
                        owner(w) + " wrote " + expected[w] + " last", null);
                }
                final long first = hosts[1].view.memory().getLongVolatile(w * 8);
                if (lowestAccepted[w] >= 0 && (value != first || value < lowestAccepted[w] || value > expected[w] ||
                    value != 0 && value % 16 != owner(w)))
                {
                    fail("(b) host " + h + " holds " + value + " in word " + w + " (host 1 holds " + first +
                        "); its owner host " + owner(w) + " restarted empty and did not write it again: every host " +
                        "must hold one value it wrote, from " + lowestAccepted[w] + " (the oldest the others held " +
                        "then) to " + expected[w] + " (its last)", null);
                }
            }
        }
    }

    private void checkCounters()
    {
        for (int h = 1; h <= hostCount; h++)
        {
            final Host host = hosts[h];
            final BridgeFile file = BridgeFile.of(host.view.bridge());
            askedAgain += file.counter(BridgeCounter.RESYNCS_ASKED_AGAIN);
            takenBack += file.counter(BridgeCounter.FORMER_WORDS_TAKEN_BACK);
            final long converged = file.counter(BridgeCounter.CONVERGENCES);
            final long diverged = file.counter(BridgeCounter.DIVERGENCES);
            final long endedUp = host.endedUp + (host.agent != null && host.agent.linkUp() ? 1 : 0);
            if (converged - diverged + host.wipedBalance != endedUp)
            {
                fail("(d) host " + h + ": " + converged + " convergences, " + diverged + " divergences, " +
                    endedUp + " bridges whose link was up when they ended", null);
            }
        }
    }

    int owner(final int word)
    {
        return 1 + word % hostCount;
    }

    private void fail(final String what, final Throwable cause)
    {
        throw new Violation("seed " + seed + " (" + hostCount + " hosts, faults " + describeFaults() + "), step " + steps +
            ", at " + (links.nowNs - startNs) / 1_000_000 + " ms: " + what +
            "; replay with -Drfmrt.sim.seed=" + seed + (tracing ? "\n" + trace : ""), cause);
    }

    String describeFaults()
    {
        final StringBuilder text = new StringBuilder();
        for (final Fault f : faults)
        {
            text.append(text.length() == 0 ? "" : ", ").append(f.kind).append(' ').append(f.host);
            if (f.kind == FaultKind.LINK_BOTH_WAYS || f.kind == FaultKind.LINK_ONE_WAY)
            {
                text.append(f.kind == FaultKind.LINK_ONE_WAY ? "->" : "<->").append(f.other);
            }
            text.append(' ').append((f.startNs - startNs) / 1_000_000).append('-')
                .append((f.endNs - startNs) / 1_000_000).append(" ms");
        }
        return text.toString();
    }

    private void note(final String line)
    {
        if (tracing)
        {
            trace.append((links.nowNs - startNs) / 1_000_000).append(" ms: ").append(line).append('\n');
        }
    }

    private void close()
    {
        for (int h = 1; h <= hostCount; h++)
        {
            if (hosts[h] != null)
            {
                hosts[h].close();
            }
        }
    }

    /**
     * Make a host's network as new for the next seed without building it again (building one writes every card's
     * FIFOs: most of a seed's time): memory zeroed, the cards of the simulation's nodes as new, no node or stand-in
     * held, no bridge file (the next bridge makes a fresh one).
     */
    static void resetNetwork(final Path dir)
    {
        if (!NetworkImage.exists(dir))
        {
            return;
        }
        try (NetworkImage image = NetworkImage.attach(dir, NETWORK))
        {
            image.memory().setMemory(0, (int)image.memorySize(), (byte)0);
            for (int node = 0; node < NODE_LIMIT; node++)
            {
                if (image.isRemote(node))
                {
                    image.releaseRemote(node);
                }
                if (image.isPresent(node))
                {
                    image.release(node);
                }
                image.card(node).init();
            }
            image.link(false);
        }
        try
        {
            Files.deleteIfExists(dir.resolve(BridgeFileDescriptor.FILE_NAME));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * One simulated host: its network folder, its bridge (when running), its node.
     */
    private final class Host
    {
        final int id;
        final Path dir;
        BridgeAgent agent;
        NetworkImage view;
        RfmDevice node;
        long endedUp;
        long wipedBalance;
        long nextValue;
        final EventInfo info = new EventInfo();

        Host(final int id)
        {
            this.id = id;
            this.dir = root.resolve("host" + id);
        }

        void start()
        {
            final BridgeContext ctx = new BridgeContext()
                .network(dir, NETWORK)
                .memorySize(MEMORY)
                .hostId(id)
                .hostName("host" + id)
                .channel("aeron:udp?endpoint=10.0.0." + id + ":40456")
                .logCapacity(64 * 1024)
                .peerTimeoutNs(PEER_TIMEOUT_NS)
                .heartbeatNs(HEARTBEAT_NS)
                .nanoClock(() -> links.nowNs)
                .epochClock(() -> (links.nowNs - startNs) / 1_000_000)
                .listener(listener())
                .errorHandler(ex ->
                {
                    throw new IllegalStateException("transport error on host " + id, ex);
                });
            for (int o = 1; o <= hostCount; o++)
            {
                if (o != id)
                {
                    ctx.peer(new BridgeContext.Peer(o, "10.0.0." + o + ":40456"));
                }
            }
            try
            {
                Files.createDirectories(dir);
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
            ctx.conclude();
            links.paused[id] = false;
            agent = new BridgeAgent(ctx, links.factory(id));
            if (view == null)
            {
                view = NetworkImage.attach(dir, NETWORK);
            }
            note("start host " + id);
        }

        private BridgeListener listener()
        {
            return (kind, peerHostId, peerName, value, value2) ->
                note("host " + id + ": " + kind + " peer " + peerHostId + " " + value + " " + value2);
        }

        void openNode()
        {
            node = SimDevice.open("sim:" + NETWORK + "?node=" + id, NetworkImage.attach(dir, NETWORK), id,
                DmaMode.AUTO, DmaRingFullPolicy.DROP_NEWEST, 4, 256, false);
            node.enableEvent(EventType.INTR1);
        }

        boolean nodeOpen()
        {
            return node != null;
        }

        /**
         * Bridge and node killed, the image zeroed, the bridge file removed. What the host's words may come back as is
         * what the other hosts hold of them now (its last writes may have been lost with it).
         */
        void wipe()
        {
            if (agent != null)
            {
                kill();
            }
            node.close();
            node = null;
            final BridgeFile file = BridgeFile.of(view.bridge());
            wipedBalance += file.counter(BridgeCounter.CONVERGENCES) - file.counter(BridgeCounter.DIVERGENCES);
            view.close();
            view = null;
            resetNetwork(dir);
            for (int w = 0; w < WORDS_USED; w++)
            {
                if (owner(w) != id)
                {
                    if (lowestAccepted[w] >= 0 && holders(w) == 0)
                    {
                        // its owner has not taken it back yet and this host held the last copy: lost everywhere
                        lowestAccepted[w] = 0;
                    }
                    continue;
                }
                long lowest = lowestAccepted[w] < 0 ? Long.MAX_VALUE : lowestAccepted[w];
                boolean held = false;
                for (int o = 1; o <= hostCount; o++)
                {
                    final Host other = hosts[o];
                    if (o != id && other.view != null &&
                        BridgeFile.of(other.view.bridge()).owners().owner(w) == id)
                    {
                        held = true;
                        lowest = Math.min(lowest, other.view.memory().getLongVolatile(w * 8));
                    }
                }
                lowestAccepted[w] = held ? lowest : 0;
            }
            note("wipe host " + id);
        }

        /**
         * @return the running hosts whose owner table names the word's owner for it (the owner among them, once it
         *         took the word back).
         */
        private int holders(final int word)
        {
            int count = 0;
            for (int o = 1; o <= hostCount; o++)
            {
                final Host other = hosts[o];
                if (other.view != null && BridgeFile.of(other.view.bridge()).owners().owner(word) == owner(word))
                {
                    count++;
                }
            }
            return count;
        }

        /**
         * A process killed: no goodbye, its claim left behind (taken over by the next bridge as a dead one's).
         */
        void kill()
        {
            if (agent.linkUp())
            {
                endedUp++;
            }
            agent = null;
            links.kill(id);
            BridgeFile.of(view.bridge()).releaseBridge();
            note("kill host " + id);
        }

        void act()
        {
            final int roll = random.nextInt(100);
            if (roll < 30)
            {
                final int word = ownWord();
                final long value = ++nextValue * 16 + id;
                node.window().putLongRelease(word * 8L, value);
                expected[word] = value;
                lowestAccepted[word] = -1;
            }
            else if (roll < 33)
            {
                // the event's data is the value just written to the sender's first word
                final int word = id - 1;
                final long value = ++nextValue * 16 + id;
                node.window().putLongRelease(word * 8L, value);
                expected[word] = value;
                lowestAccepted[word] = -1;
                final int target = random.nextInt(4) == 0 ? RfmDevice.ALL_NODES : otherHost();
                node.sendEvent(target, EventType.INTR1, (int)(value & 0x7FFF_FFFF));
            }
        }

        private int ownWord()
        {
            final int perHost = WORDS_USED / hostCount;
            return id - 1 + hostCount * random.nextInt(perHost);
        }

        private int otherHost()
        {
            final int o = 1 + random.nextInt(hostCount - 1);
            return o >= id ? o + 1 : o;
        }

        void takeEvents()
        {
            if (node == null)
            {
                return;
            }
            while (node.awaitEvent(EventType.INTR1, RfmDevice.NO_WAIT, info) == RfmStatus.SUCCESS)
            {
                final int source = info.sourceNode();
                final long data = info.data() & 0xFFFF_FFFFL;
                final long held = view.memory().getLongVolatile((source - 1) * 8) & 0x7FFF_FFFFL;
                if (held < data)
                {
                    fail("(c) host " + id + " took event " + data + " from node " + source + " while it holds " +
                        held + " of the word written before it", null);
                }
            }
        }

        void close()
        {
            if (node != null)
            {
                node.close();
                node = null;
            }
            if (agent != null)
            {
                if (agent.linkUp())
                {
                    endedUp++;
                }
                agent.onClose();
                agent = null;
            }
            if (view != null)
            {
                view.close();
                view = null;
            }
        }
    }
}
