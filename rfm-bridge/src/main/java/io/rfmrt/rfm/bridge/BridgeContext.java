package io.rfmrt.rfm.bridge;

import io.aeron.ChannelUri;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.rfmrt.rfm.internal.bridge.BridgeFile;
import io.rfmrt.rfm.internal.bridge.BridgeFileDescriptor;
import io.rfmrt.rfm.internal.sim.NetworkImage;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The settings of a host's bridge, and the peers it joins. Defaults are filled and everything is checked by
 * {@link #conclude()}, which names the setting and the value it refuses.
 * <p>
 * A type of its own, as Aeron's driver context is a settings object apart from the agents it configures: the public
 * launcher and the duty cycle in the internal package both read it, and it knows neither.
 */
public final class BridgeContext
{
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
    private Consumer<MediaDriver.Context> driverCustomiser;
    private Path aeronDir;
    private int termLength = TERM_LENGTH_DEFAULT;
    private BridgeListener listener = (kind, peer, name, value, value2) -> { };
    private ErrorHandler errorHandler = error -> { };
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;
    private EpochClock epochClock = SystemEpochClock.INSTANCE;
    private boolean concluded;

    /**
     * Check every setting and fill the defaults; called when the bridge is launched.
     *
     * @return this.
     * @throws IllegalArgumentException naming the setting and the value refused.
     */
    public BridgeContext conclude()
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
            return InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException ex)
        {
            return "host";
        }
    }

    /**
     * @param networkDir the network's folder (checked by the caller).
     * @param network    its name.
     * @return this.
     */
    public BridgeContext network(final Path networkDir, final String network)
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
    public BridgeContext memorySize(final long memorySize)
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
    public BridgeContext hostId(final int hostId)
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
    public BridgeContext hostName(final String hostName)
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
    public BridgeContext channel(final String channel)
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
    public BridgeContext peer(final Peer peer)
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
    public BridgeContext logCapacity(final int logCapacity)
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
    public BridgeContext peerTimeoutNs(final long peerTimeoutNs)
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
    public BridgeContext heartbeatNs(final long heartbeatNs)
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
    public BridgeContext threadingMode(final ThreadingMode threadingMode)
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
    public BridgeContext driverIdle(final Supplier<IdleStrategy> driverIdle)
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
     * Something done to the media driver's settings last, just before it starts: the bridge's warm-up gives its private
     * drivers a receive endpoint that loses data on purpose and keeps their settings to read their counters. Not for
     * a real bridge (null, the default: the driver as the bridge sets it up).
     *
     * @param driverCustomiser called once with the driver's context, or null.
     * @return this.
     */
    public BridgeContext driverCustomiser(final Consumer<MediaDriver.Context> driverCustomiser)
    {
        this.driverCustomiser = driverCustomiser;
        return this;
    }

    /**
     * @return what is done to the media driver's settings before it starts, or null.
     */
    public Consumer<MediaDriver.Context> driverCustomiser()
    {
        return driverCustomiser;
    }

    /**
     * @param aeronDir the media driver's folder (default: {@code bridge-aeron} in the network folder).
     * @return this.
     */
    public BridgeContext aeronDir(final Path aeronDir)
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
    public BridgeContext termLength(final int termLength)
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
    public BridgeContext listener(final BridgeListener listener)
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
    public BridgeContext errorHandler(final ErrorHandler errorHandler)
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
    public BridgeContext nanoClock(final NanoClock nanoClock)
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
    public BridgeContext epochClock(final EpochClock epochClock)
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
