package io.rfmrt.runtime.replay;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.CpuPlacement;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.RtErrorPolicy;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.CountersFileException;
import io.rfmrt.runtime.counters.CountersFileView;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A recording played onto an emulated network: one device per played source (its recorded node id, or the one
 * given), the recorded channel of each, the {@link Player} on its own thread placed like the node's other senders
 * (the RT environment's first RT cpu, {@code SCHED_FIFO} at the publisher priority, {@code rfmrt.publisher.priority}),
 * under the runtime's error policy. What to play comes from {@link PlaybackRecording#load}; the command line renders
 * progress and the summary from the getters.
 * <pre>{@code
 * final PlaybackRecording recording = PlaybackRecording.load(dir, null, null, Set.of(1));
 * try (Playback playback = Playback.start(recording, Playback.Options.of("lab1"), System.err::println))
 * {
 *     while (!playback.awaitDone(1, TimeUnit.SECONDS)) { ... playback.player().framesSent() ... }
 * }
 * }</pre>
 * <p>
 * Threading: {@link #start} and {@link #close} on one thread; the getters from any.
 */
public final class Playback implements AutoCloseable
{
    /** Most frames unhandled by the receivers in {@link Player#RATE_MAX} mode (a quarter of an event FIFO). */
    public static final int WINDOW_MAX = 32;

    /**
     * Told when the playback starts and when it has played its last frame, on the player thread, with the device of
     * each source: an application that needs more than frames (an end-of-stream word a receiver waits for) writes it
     * there.
     */
    public interface Listener
    {
        /**
         * Before the first frame.
         *
         * @param recording what is played.
         * @param channels  the channel of each source, in {@link PlaybackRecording#sources()} order.
         * @param devices   the device of each source, in the same order.
         */
        default void started(final PlaybackRecording recording, final List<ChannelSpec> channels,
            final List<RfmDevice> devices)
        {
        }

        /**
         * After the last frame of the last loop (not after a stop from outside or a stalled receiver).
         *
         * @param recording what was played.
         * @param channels  the channel of each source.
         * @param devices   the device of each source.
         * @param lastFrame the last frame published ({@link PlaybackRecording} index).
         */
        default void ended(final PlaybackRecording recording, final List<ChannelSpec> channels,
            final List<RfmDevice> devices, final int lastFrame)
        {
        }
    }

    /**
     * How to play.
     *
     * @param network     the emulated network (it must exist: the receivers made it).
     * @param node        the node id to publish as, or -1 for the recorded source's (one source only when given).
     * @param rate        speed: 1.0 as recorded, 2.0 twice as fast, {@link Player#RATE_MAX} as fast as the
     *                    receivers keep up.
     * @param loops       times through the recording, or {@link Player#FOREVER}.
     * @param renumber    number frames 1, 2, ... per source, on across loops.
     * @param startPaused begin paused.
     * @param rt          the RT environment's settings (cpus, strict, memory lock).
     * @param priority    the player thread's SCHED_FIFO priority (0: SCHED_OTHER).
     * @param listener    told of start and end on the player thread, or {@code null}.
     */
    public record Options(String network, int node, double rate, long loops, boolean renumber, boolean startPaused,
        RtSettings rt, int priority, Listener listener)
    {
        /**
         * @param network the network.
         * @return as recorded, once, at rate 1.0, the node's RT defaults.
         */
        public static Options of(final String network)
        {
            return new Options(network, -1, 1.0, 1, false, false, new RtSettings(List.of(),
                NodeContext.strictDefault(), NodeContext.lockMemoryDefault(), NodeContext.cpuDmaLatencyDefault(),
                Path.of("/")), NodeContext.publisherPriorityDefault(), null);
        }

        /**
         * @param node the node id to publish as, -1 for the recorded one.
         * @return a copy.
         */
        public Options withNode(final int node)
        {
            return new Options(network, node, rate, loops, renumber, startPaused, rt, priority, listener);
        }

        /**
         * @param rate speed, or {@link Player#RATE_MAX}.
         * @return a copy.
         */
        public Options withRate(final double rate)
        {
            return new Options(network, node, rate, loops, renumber, startPaused, rt, priority, listener);
        }

        /**
         * @param loops times through the recording, or {@link Player#FOREVER}.
         * @return a copy.
         */
        public Options withLoops(final long loops)
        {
            return new Options(network, node, rate, loops, renumber, startPaused, rt, priority, listener);
        }

        /**
         * @param renumber number frames 1, 2, ... per source.
         * @return a copy.
         */
        public Options withRenumber(final boolean renumber)
        {
            return new Options(network, node, rate, loops, renumber, startPaused, rt, priority, listener);
        }

        /**
         * @param paused begin paused.
         * @return a copy.
         */
        public Options withStartPaused(final boolean paused)
        {
            return new Options(network, node, rate, loops, renumber, paused, rt, priority, listener);
        }

        /**
         * @param listener told of start and end.
         * @return a copy.
         */
        public Options withListener(final Listener listener)
        {
            return new Options(network, node, rate, loops, renumber, startPaused, rt, priority, listener);
        }

        /**
         * @param rt       the RT environment's settings.
         * @param priority the player thread's priority.
         * @return a copy.
         */
        public Options withRt(final RtSettings rt, final int priority)
        {
            return new Options(network, node, rate, loops, renumber, startPaused, rt, priority, listener);
        }
    }

    private final PlaybackRecording recording;
    private final Options options;
    private final List<RfmDevice> devices = new ArrayList<>();
    private final List<ChannelSpec> channels = new ArrayList<>();
    private final List<CountersFileView> receivers = new ArrayList<>();
    private final RtErrorPolicy errors = new RtErrorPolicy(null);
    private RtEnvironment env;
    private Player player;
    private AgentRunner runner;
    private String placement = "";

    private Playback(final PlaybackRecording recording, final Options options)
    {
        this.recording = recording;
        this.options = options;
    }

    /**
     * Join the network as each source's node, check the channels against its memory, find the receivers (for
     * {@link Player#RATE_MAX}), prepare the RT environment and start the player thread.
     *
     * @param recording what to play.
     * @param options   how.
     * @param warn      one line per refused RT step (permissive mode).
     * @return the running playback.
     * @throws ReplayException one line: no such network, a node id held by a running process, a channel that does
     *                         not fit the network, {@code --speed max} without a running receiver.
     */
    public static Playback start(final PlaybackRecording recording, final Options options, final Consumer<String> warn)
    {
        final Playback playback = new Playback(recording, options);
        try
        {
            playback.open(warn);
            return playback;
        }
        catch (final RuntimeException ex)
        {
            playback.close();
            throw ex;
        }
    }

    /**
     * @param recording what to play.
     * @param options   how.
     * @return the channel each source is published on: the recorded one, as node {@link Options#node()} if given.
     * @throws ReplayException when a node id is given for several sources or addresses the channel to itself.
     */
    public static List<ChannelSpec> channels(final PlaybackRecording recording, final Options options)
    {
        final List<PlaybackRecording.Source> sources = recording.sources();
        if (options.node() >= 0 && sources.size() > 1)
        {
            throw new ReplayException("playback: --node " + options.node() + " names one node, but " + sources.size() +
                " sources are played (" + recording.sourceNodes() + "); choose one with --source");
        }
        final List<ChannelSpec> list = new ArrayList<>();
        for (final PlaybackRecording.Source s : sources)
        {
            final ChannelSpec c = s.channel();
            final int node = options.node() >= 0 ? options.node() : c.node();
            if (node < 0 || node > RfmDevice.MAX_NODE_ID)
            {
                throw new ReplayException("playback: --node " + node + " is not a node id 0-255");
            }
            if (node == c.target())
            {
                throw new ReplayException("playback: channel '" + c.name() + "' goes to node " + c.target() +
                    "; it cannot be published as that node (--node " + node + ")");
            }
            list.add(new ChannelSpec(c.name(), node, c.offset(), c.slots(), c.slotSize(), c.event(), c.target()));
        }
        return list;
    }

    private void open(final Consumer<String> warn)
    {
        final String network = options.network();
        try
        {
            if (!RfmDevices.networkExists(network))
            {
                throw new ReplayException("playback: network '" + network + "' does not exist (start the receiving " +
                    "node first: it joins or makes the network)");
            }
        }
        catch (final RfmException | IllegalArgumentException ex)
        {
            throw new ReplayException("playback: " + ex.getMessage(), ex);
        }
        channels.addAll(channels(recording, options));
        final boolean max = options.rate() == Player.RATE_MAX;
        final NanoClock clock = SystemNanoClock.INSTANCE;
        final FramePublisher[][] publishers = new FramePublisher[channels.size()][];
        final Set<Integer> ours = new HashSet<>();
        for (final ChannelSpec c : channels)
        {
            ours.add(c.node());
        }
        for (int s = 0; s < channels.size(); s++)
        {
            final ChannelSpec c = channels.get(s);
            final RfmDevice device;
            try
            {
                device = RfmDevices.open("sim:" + network + "?node=" + c.node());
            }
            catch (final RfmException | IllegalArgumentException ex)
            {
                throw new ReplayException("playback: cannot join network '" + network + "' as node " + c.node() +
                    ": " + ex.getMessage(), ex);
            }
            devices.add(device);
            if (c.offset() + c.length() > device.memorySize())
            {
                throw new ReplayException(String.format("playback: channel '%s' (0x%x + %d bytes) lies outside the " +
                    "%d-byte memory of network '%s'", c.name(), c.offset(), c.length(), device.memorySize(), network));
            }
            final int count = options.renumber() || options.loops() == 1 ? 1 : 2;
            publishers[s] = new FramePublisher[count];
            for (int p = 0; p < count; p++)
            {
                publishers[s][p] = new FramePublisher(device, c, clock);
            }
        }
        Player.Credit credit = null;
        int window = 0;
        if (max)
        {
            credit = credit(ours);
            window = WINDOW_MAX;
            for (final ChannelSpec c : channels)
            {
                window = Math.min(window, Math.max(1, c.slots() / 2));
            }
        }
        final Listener listener = options.listener();
        final List<ChannelSpec> playedOn = List.copyOf(channels);
        final List<RfmDevice> joined = List.copyOf(devices);
        final Player.Listener adapter = listener == null ? null : new Player.Listener()
        {
            @Override
            public void started(final PlaybackRecording played)
            {
                listener.started(played, playedOn, joined);
            }

            @Override
            public void ended(final PlaybackRecording played, final int lastFrame)
            {
                listener.ended(played, playedOn, joined, lastFrame);
            }
        };
        player = new Player(recording, publishers, clock, options.rate(), options.loops(), options.renumber(),
            credit, window, adapter, options.startPaused());
        env = RtEnvironment.prepare(options.rt(), warning -> warn.accept("warning: " + warning));
        final int cpu = env.rtCpus().isEmpty() ? CpuPlacement.CPU_NONE : env.rtCpus().get(0);
        runner = new AgentRunner(player.idleStrategy(), errors, null, player);
        env.start(Player.THREAD_NAME, cpu, options.priority(), runner);
        placement = env.placementTable();
    }

    /**
     * The receivers of the played channels: each channel's target node, or for a broadcast channel every other node
     * with a counters file on the network; their {@link RuntimeCounter#FRAMES_HANDLED} counters, from where they
     * stand now.
     */
    private Player.Credit credit(final Set<Integer> ours)
    {
        final Set<Integer> targets = new TreeSet<>();
        for (final ChannelSpec c : channels)
        {
            if (c.target() == RfmDevice.ALL_NODES)
            {
                for (final Path file : CountersSnapshot.files(RfmDevices.folder("sim:" + options.network(), false)))
                {
                    final String name = file.getFileName().toString();
                    final int node = Integer.parseInt(name.substring("node-".length(),
                        name.length() - NodeCounters.FILE_SUFFIX.length()));
                    if (!ours.contains(node))
                    {
                        targets.add(node);
                    }
                }
            }
            else
            {
                targets.add(c.target());
            }
        }
        if (targets.isEmpty())
        {
            throw new ReplayException("playback: --speed max follows the receiving nodes' counters files, and no " +
                "node of network '" + options.network() + "' has one (is the receiving node running?)");
        }
        for (final int node : targets)
        {
            try
            {
                receivers.add(CountersFileView.open(NodeCounters.fileFor("sim:" + options.network(), node)));
            }
            catch (final CountersFileException ex)
            {
                throw new ReplayException("playback: --speed max follows node " + node + "'s frames handled, and " +
                    ex.getMessage(), ex);
            }
        }
        final CountersFileView[] views = receivers.toArray(new CountersFileView[0]);
        final int handled = RuntimeCounter.FRAMES_HANDLED.id();
        final long[] base = new long[views.length];
        for (int i = 0; i < views.length; i++)
        {
            base[i] = views[i].value(handled);
        }
        return () ->
        {
            long least = Long.MAX_VALUE;
            for (int i = 0; i < views.length; i++)
            {
                least = Math.min(least, views[i].value(handled) - base[i]);
            }
            return least;
        };
    }

    /**
     * @return the player (progress, pause).
     */
    public Player player()
    {
        return player;
    }

    /**
     * @return what is played.
     */
    public PlaybackRecording recording()
    {
        return recording;
    }

    /**
     * @return the channel each source is published on, in {@link PlaybackRecording#sources()} order.
     */
    public List<ChannelSpec> channels()
    {
        return List.copyOf(channels);
    }

    /**
     * @return the nodes whose frames handled {@link Player#RATE_MAX} follows (empty at other rates).
     */
    public List<Integer> receivers()
    {
        final List<Integer> nodes = new ArrayList<>();
        receivers.forEach(r -> nodes.add(r.node()));
        return nodes;
    }

    /**
     * @return the player thread's placement table (thread, cpu, policy, priority, refused steps).
     */
    public String placementTable()
    {
        return placement;
    }

    /**
     * @return the player thread's failure in one line, or {@code null} while it is well.
     */
    public String failure()
    {
        return errors.failure();
    }

    /**
     * Wait until the playback has ended or the player thread failed.
     *
     * @param timeout longest wait.
     * @param unit    its unit.
     * @return whether it has ended (or failed).
     * @throws InterruptedException when interrupted.
     */
    public boolean awaitDone(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!player.done() && errors.failure() == null)
        {
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                return false;
            }
            Thread.sleep(Math.max(1, Math.min(10, TimeUnit.NANOSECONDS.toMillis(left))));
        }
        return true;
    }

    /**
     * @param recycle a histogram to reuse, or {@code null}.
     * @return the timing errors since the last call, ns.
     */
    public Histogram timing(final Histogram recycle)
    {
        return player.timing(recycle);
    }

    /**
     * Stop the player thread, release the node ids and the receivers' counters files. Idempotent.
     */
    @Override
    public void close()
    {
        if (runner != null)
        {
            runner.close();
            runner = null;
        }
        if (env != null)
        {
            env.close();
            env = null;
        }
        for (final RfmDevice device : devices)
        {
            device.close();
        }
        devices.clear();
        for (final CountersFileView view : receivers)
        {
            view.close();
        }
        receivers.clear();
    }
}
