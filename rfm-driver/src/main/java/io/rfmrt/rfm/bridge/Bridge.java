package io.rfmrt.rfm.bridge;

import io.aeron.ChannelUri;
import io.aeron.driver.ThreadingMode;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.internal.bridge.BridgeAgent;
import io.rfmrt.rfm.internal.bridge.BridgeFile;
import io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The bridge of one host: joins this host's emulated network to the same network on other hosts over Aeron UDP, so
 * that the nodes of all of them share one reflective memory (docs/protocol.md, "Bridged networks").
 * <p>
 * The node processes of the host append every store they make and every event for another host's node to the
 * host's outbound log (the {@code bridge} file beside the network); the bridge sends the log, in order, on one
 * reliable Aeron stream to each peer, and applies what its peers send to this host's image and cards. It holds a
 * card for each node of another host, so that node ids stay unique across hosts. When a peer is lost the host's
 * link goes down (SYNC_LOSS on its cards, sends refused); when the peer is back, each side sends the other the words
 * it owns and the link comes up again.
 * <p>
 * A duty cycle ({@link Agent}): run it on one thread with an {@code AgentRunner} or an {@code AgentInvoker}. With
 * the media driver in {@link ThreadingMode#INVOKER} mode (the default) that thread runs the driver too and the
 * bridge starts no thread of its own.
 */
public final class Bridge implements Agent, AutoCloseable
{
    private final BridgeAgent agent;

    private Bridge(final BridgeAgent agent)
    {
        this.agent = agent;
    }

    /**
     * Map the network (create it when missing) and its bridge file, claim the host's bridge, start the media driver
     * and the client, subscribe and publish to the peers. Nothing is sent until the first duty cycle.
     *
     * @param ctx the settings; concluded here.
     * @return the bridge; close it (or let its runner close it) to stop.
     * @throws RfmException when the network cannot be bridged (another bridge runs, a node joined before the
     *                      network was bridged, another host id made the bridge file).
     */
    public static Bridge launch(final Context ctx)
    {
        ctx.conclude();
        return new Bridge(new BridgeAgent(ctx));
    }

    @Override
    public void onStart()
    {
        agent.onStart();
    }

    @Override
    public int doWork()
    {
        return agent.doWork();
    }

    @Override
    public void onClose()
    {
        agent.onClose();
    }

    @Override
    public String roleName()
    {
        return "rfmrt-bridge";
    }

    /**
     * An idle strategy for the thread that runs this bridge: spin, yield, then sleep in the kernel until a node of
     * the host appends to the outbound log (it rings the bridge file's doorbell) or {@code maxParkNs} passes.
     *
     * @param maxParkNs longest sleep: how late, at most, traffic from the peers and the timers are seen.
     * @return a new idle strategy for one thread.
     */
    public org.agrona.concurrent.IdleStrategy doorbellIdleStrategy(final long maxParkNs)
    {
        return agent.doorbellIdleStrategy(maxParkNs);
    }

    /**
     * @return whether every peer is in sync both ways: the host's link is up.
     */
    public boolean linkUp()
    {
        return agent.linkUp();
    }

    /**
     * Stop when not run by a runner (a runner calls {@link #onClose()} itself). Idempotent.
     */
    @Override
    public void close()
    {
        agent.onClose();
    }

    /**
     * A peer: its host id and the endpoint (host:port) its bridge listens on.
     *
     * @param hostId   1..255, unique among the hosts of the network.
     * @param endpoint {@code host:port}.
     */
    public record Peer(int hostId, String endpoint)
    {
        /**
         * @param text {@code ID@host:port}.
         * @return the peer.
         * @throws IllegalArgumentException naming the text when it is not of that form.
         */
        public static Peer parse(final String text)
        {
            final int at = text.indexOf('@');
            final int colon = text.lastIndexOf(':');
            if (at <= 0 || colon < at + 2 || colon == text.length() - 1)
            {
                throw new IllegalArgumentException("peer '" + text + "' is not ID@host:port (e.g. 2@10.0.0.2:40456)");
            }
            final int id;
            final int port;
            try
            {
                id = Integer.parseInt(text.substring(0, at));
                port = Integer.parseInt(text.substring(colon + 1));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("peer '" + text + "' is not ID@host:port (e.g. 2@10.0.0.2:40456)");
            }
            if (id < 1 || id > BridgeFileDescriptor.MAX_HOST_ID || port < 1 || port > 65535)
            {
                throw new IllegalArgumentException("peer '" + text + "': host id 1..255 and port 1..65535");
            }
            return new Peer(id, text.substring(at + 1));
        }
    }

    /**
     * The settings of a bridge. Defaults are filled and everything is checked by {@link #conclude()}, which names
     * the setting and the value it refuses.
     */
    public static final class Context
    {
        /** Default memory size of a network the bridge creates. */
        public static final long MEMORY_SIZE_DEFAULT = NetworkImage.DEFAULT_MEMORY_SIZE;
        /** Default time without a word from a peer before it counts as lost. */
        public static final long PEER_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(1);
        /** Default interval of HELLO messages. */
        public static final long HEARTBEAT_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);
        /** Default Aeron term length of the publications. */
        public static final int TERM_LENGTH_DEFAULT = 4 << 20;

        private Path networkDir;
        private String network;
        private long memorySize = MEMORY_SIZE_DEFAULT;
        private int hostId;
        private String hostName;
        private String channel;
        private final List<Peer> peers = new ArrayList<>();
        private int logCapacity = BridgeFileDescriptor.DEFAULT_LOG_CAPACITY;
        private long peerTimeoutNs = PEER_TIMEOUT_DEFAULT_NS;
        private long heartbeatNs = HEARTBEAT_DEFAULT_NS;
        private ThreadingMode threadingMode = ThreadingMode.INVOKER;
        private Supplier<IdleStrategy> driverIdle = BackoffIdleStrategy::new;
        private Path aeronDir;
        private int termLength = TERM_LENGTH_DEFAULT;
        private BridgeListener listener = (kind, peer, name, value, value2) -> { };
        private ErrorHandler errorHandler = error -> { };
        private NanoClock nanoClock = SystemNanoClock.INSTANCE;
        private EpochClock epochClock = SystemEpochClock.INSTANCE;
        private boolean concluded;

        /**
         * Check every setting and fill the defaults; called by {@link Bridge#launch}.
         *
         * @return this.
         * @throws IllegalArgumentException naming the setting and the value refused.
         */
        public Context conclude()
        {
            if (concluded)
            {
                return this;
            }
            if (networkDir == null || network == null)
            {
                throw new IllegalArgumentException("no network given");
            }
            if (hostId < 1 || hostId > BridgeFileDescriptor.MAX_HOST_ID)
            {
                throw new IllegalArgumentException("host id " + hostId + " is outside 1..255");
            }
            NetworkImage.checkMemorySize(memorySize);
            final String logProblem = BridgeFile.logCapacityProblem(logCapacity);
            if (logProblem != null)
            {
                throw new IllegalArgumentException(logProblem);
            }
            if (channel == null)
            {
                throw new IllegalArgumentException("no channel given (e.g. aeron:udp?endpoint=10.0.0.1:40456)");
            }
            final ChannelUri uri;
            try
            {
                uri = ChannelUri.parse(channel);
            }
            catch (final RuntimeException ex)
            {
                throw new IllegalArgumentException("channel '" + channel + "' is not an Aeron URI: " +
                    ex.getMessage());
            }
            if (!uri.isUdp() || uri.get("endpoint") == null)
            {
                throw new IllegalArgumentException("channel '" + channel + "' is not aeron:udp?endpoint=host:port");
            }
            if (peers.isEmpty() || peers.size() > BridgeFileDescriptor.MAX_PEERS)
            {
                throw new IllegalArgumentException("give 1 to " + BridgeFileDescriptor.MAX_PEERS + " peers, not " +
                    peers.size());
            }
            final Set<Integer> ids = new HashSet<>();
            for (final Peer peer : peers)
            {
                if (peer.hostId() == hostId || !ids.add(peer.hostId()))
                {
                    throw new IllegalArgumentException("peer host id " + peer.hostId() + " is this host's or given " +
                        "twice: every host of a network has its own id");
                }
            }
            if (peerTimeoutNs < TimeUnit.MILLISECONDS.toNanos(100) || peerTimeoutNs > TimeUnit.MINUTES.toNanos(1))
            {
                throw new IllegalArgumentException("peer time-out " + peerTimeoutNs + " ns is outside 100 ms..1 min");
            }
            if (heartbeatNs < TimeUnit.MILLISECONDS.toNanos(1) || heartbeatNs * 3 > peerTimeoutNs)
            {
                throw new IllegalArgumentException("heartbeat " + heartbeatNs + " ns: at least 1 ms and at most a " +
                    "third of the peer time-out");
            }
            if (termLength < 64 * 1024 || termLength > 1 << 30 || Integer.bitCount(termLength) != 1)
            {
                throw new IllegalArgumentException("term length " + termLength + " is not a power of two between " +
                    "64K and 1G");
            }
            if (hostName == null || hostName.isBlank())
            {
                hostName = defaultHostName();
            }
            if (aeronDir == null)
            {
                aeronDir = networkDir.resolve(BridgeFileDescriptor.AERON_DIR);
            }
            concluded = true;
            return this;
        }

        private static String defaultHostName()
        {
            try
            {
                return java.net.InetAddress.getLocalHost().getHostName();
            }
            catch (final java.io.IOException ex)
            {
                return "host";
            }
        }

        /**
         * @param networkDir the network's folder (checked by the caller).
         * @param network    its name.
         * @return this.
         */
        public Context network(final Path networkDir, final String network)
        {
            this.networkDir = networkDir;
            this.network = network;
            return this;
        }

        /**
         * @return the network's folder.
         */
        public Path networkDir()
        {
            return networkDir;
        }

        /**
         * @return the network's name.
         */
        public String network()
        {
            return network;
        }

        /**
         * @param memorySize bytes of memory of the network, when the bridge creates it.
         * @return this.
         */
        public Context memorySize(final long memorySize)
        {
            this.memorySize = memorySize;
            return this;
        }

        /**
         * @return bytes of memory for a network the bridge creates.
         */
        public long memorySize()
        {
            return memorySize;
        }

        /**
         * @param hostId this host's id, 1..255, unique among the hosts of the network.
         * @return this.
         */
        public Context hostId(final int hostId)
        {
            this.hostId = hostId;
            return this;
        }

        /**
         * @return this host's id.
         */
        public int hostId()
        {
            return hostId;
        }

        /**
         * @param hostName the name peers show for this host (default: the machine's host name).
         * @return this.
         */
        public Context hostName(final String hostName)
        {
            this.hostName = hostName;
            return this;
        }

        /**
         * @return the name peers show for this host.
         */
        public String hostName()
        {
            return hostName;
        }

        /**
         * @param channel where this bridge listens, {@code aeron:udp?endpoint=host:port[|...]}; the other parameters
         *                (mtu, term-length, socket buffers) apply to the publications to the peers too.
         * @return this.
         */
        public Context channel(final String channel)
        {
            this.channel = channel;
            return this;
        }

        /**
         * @return where this bridge listens.
         */
        public String channel()
        {
            return channel;
        }

        /**
         * @param peer a peer to send to and expect messages from.
         * @return this.
         */
        public Context peer(final Peer peer)
        {
            peers.add(peer);
            return this;
        }

        /**
         * @return the peers.
         */
        public List<Peer> peers()
        {
            return peers;
        }

        /**
         * @param logCapacity bytes of the outbound log of a new bridge file (power of two, 64K..256M).
         * @return this.
         */
        public Context logCapacity(final int logCapacity)
        {
            this.logCapacity = logCapacity;
            return this;
        }

        /**
         * @return bytes of the outbound log of a new bridge file.
         */
        public int logCapacity()
        {
            return logCapacity;
        }

        /**
         * @param peerTimeoutNs time without a word from a peer before it counts as lost.
         * @return this.
         */
        public Context peerTimeoutNs(final long peerTimeoutNs)
        {
            this.peerTimeoutNs = peerTimeoutNs;
            return this;
        }

        /**
         * @return time without a word from a peer before it counts as lost.
         */
        public long peerTimeoutNs()
        {
            return peerTimeoutNs;
        }

        /**
         * @param heartbeatNs interval of HELLO messages, at most a third of the peer time-out.
         * @return this.
         */
        public Context heartbeatNs(final long heartbeatNs)
        {
            this.heartbeatNs = heartbeatNs;
            return this;
        }

        /**
         * @return interval of HELLO messages.
         */
        public long heartbeatNs()
        {
            return heartbeatNs;
        }

        /**
         * @param threadingMode the media driver's threading mode: INVOKER (run by the bridge's thread), SHARED or
         *                      DEDICATED (its own threads).
         * @return this.
         */
        public Context threadingMode(final ThreadingMode threadingMode)
        {
            this.threadingMode = threadingMode;
            return this;
        }

        /**
         * @return the media driver's threading mode.
         */
        public ThreadingMode threadingMode()
        {
            return threadingMode;
        }

        /**
         * @param driverIdle idle strategies for the media driver's own threads (SHARED, DEDICATED).
         * @return this.
         */
        public Context driverIdle(final Supplier<IdleStrategy> driverIdle)
        {
            this.driverIdle = driverIdle;
            return this;
        }

        /**
         * @return idle strategies for the media driver's own threads.
         */
        public Supplier<IdleStrategy> driverIdle()
        {
            return driverIdle;
        }

        /**
         * @param aeronDir the media driver's folder (default: {@code bridge-aeron} in the network folder).
         * @return this.
         */
        public Context aeronDir(final Path aeronDir)
        {
            this.aeronDir = aeronDir;
            return this;
        }

        /**
         * @return the media driver's folder.
         */
        public Path aeronDir()
        {
            return aeronDir;
        }

        /**
         * @param termLength Aeron term length of the publications, a power of two.
         * @return this.
         */
        public Context termLength(final int termLength)
        {
            this.termLength = termLength;
            return this;
        }

        /**
         * @return Aeron term length of the publications.
         */
        public int termLength()
        {
            return termLength;
        }

        /**
         * @param listener told of each record, on the bridge's thread.
         * @return this.
         */
        public Context listener(final BridgeListener listener)
        {
            this.listener = listener;
            return this;
        }

        /**
         * @return told of each record.
         */
        public BridgeListener listener()
        {
            return listener;
        }

        /**
         * @param errorHandler told of the errors the Aeron client reports (counted in the bridge file as well), on the
         *                     bridge's thread; it must not throw.
         * @return this.
         */
        public Context errorHandler(final ErrorHandler errorHandler)
        {
            this.errorHandler = errorHandler;
            return this;
        }

        /**
         * @return told of the Aeron client's errors.
         */
        public ErrorHandler errorHandler()
        {
            return errorHandler;
        }

        /**
         * @param nanoClock the monotonic clock of time-outs and the lease (System.nanoTime: other processes read
         *                  the lease against theirs).
         * @return this.
         */
        public Context nanoClock(final NanoClock nanoClock)
        {
            this.nanoClock = nanoClock;
            return this;
        }

        /**
         * @return the monotonic clock.
         */
        public NanoClock nanoClock()
        {
            return nanoClock;
        }

        /**
         * @param epochClock the wall clock of "last heard" and records.
         * @return this.
         */
        public Context epochClock(final EpochClock epochClock)
        {
            this.epochClock = epochClock;
            return this;
        }

        /**
         * @return the wall clock.
         */
        public EpochClock epochClock()
        {
            return epochClock;
        }
    }
}
