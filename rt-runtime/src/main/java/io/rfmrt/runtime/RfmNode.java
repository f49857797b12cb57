package io.rfmrt.runtime;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.VariableSpec;
import io.rfmrt.runtime.config.ConfigException;
import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.internal.BoundedClose;
import io.rfmrt.runtime.internal.PeriodicAgent;
import io.rfmrt.runtime.internal.ScheduleIdleStrategy;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One node: the device, the RT environment, the journal, the receive path for its input channels, an optional
 * built-in publisher, the heartbeat and the app's agents, each thread an Agrona agent under one
 * {@link RtErrorPolicy}. Composed from a {@link Context} (as Aeron's {@code MediaDriver} is from its
 * {@code MediaDriver.Context}): {@link #launch(Context)}, or {@code new RfmNode(ctx)} and {@link #start()}; then
 * {@link #close()} (on SIGTERM/SIGINT, when a thread failed — see {@link Context#onFailure} and {@link #failure()} —
 * or when the app asked for it, {@link #terminate()}): threads stop, the journal is flushed, the node id is released.
 */
public final class RfmNode implements AutoCloseable
{
    /** Name of the built-in publisher's thread. */
    public static final String PUBLISHER_THREAD = "rfmrt-publisher";
    /** Name of the heartbeat's thread. */
    public static final String HEARTBEAT_THREAD = "rfmrt-heartbeat";

    private static final Logger LOG = LogManager.getLogger("io.rfmrt.node");
    private static final Logger HEARTBEAT = LogManager.getLogger("io.rfmrt.heartbeat");
    /** The publisher sleeps until this long before each send time, then spins. */
    private static final long PUBLISH_SPIN_NS = 50_000;

    private static final Set<String> ROLLS = Set.of("MINUTELY", "FIVE_MINUTELY", "TEN_MINUTELY", "HALF_HOURLY",
        "HOURLY", "TWO_HOURLY", "FOUR_HOURLY", "SIX_HOURLY", "DAILY", "FAST_HOURLY", "FAST_DAILY");

    /**
     * What the built-in publisher sends: fills the payload of frame number {@code count} (1, 2, ...). Runs on the
     * publisher thread: no allocation, no blocking.
     */
    @FunctionalInterface
    public interface PayloadWriter
    {
        /**
         * @param count   the frame number.
         * @param payload the payload buffer ({@code publish.size} bytes).
         */
        void write(long count, MutableDirectBuffer payload);
    }

    /**
     * Everything a node is made of, set fluently, then {@link #conclude()}d once: defaults from
     * {@link RuntimeConfiguration} (each overridable by its system property), and one validation that reports every
     * problem at once ({@link ConfigException}, problems named by the node YAML's keys).
     */
    public static final class Context
    {
        private boolean concluded;
        private String source = "node";
        private String deviceUri;
        private RfmDevice device;
        private ChannelLayout layout;
        private List<ChannelSpec> inputs = List.of();
        private EventType event;
        private WaitStrategy waitStrategy;
        private int inputRateHz = ReceivePath.INPUT_RATE_DEFAULT_HZ;
        private List<Integer> cpus = List.of();
        private Boolean lockMemory;
        private Boolean cpuDmaLatency;
        private Boolean strict;
        private CpuPlacement isr;
        private CpuPlacement consumer;
        private CpuPlacement publisher;
        private CpuPlacement heartbeat = CpuPlacement.HOUSEKEEPING;
        private CpuPlacement app;
        private int housekeepingCpu = CpuPlacement.CPU_AUTO;
        private Boolean journalEnabled;
        private Path journalDir;
        private Integer journalRingBytes;
        private String journalRoll;
        private Long heartbeatNanos;
        private Consumer<String> heartbeatSink = HEARTBEAT::info;
        private ChannelSpec publishChannel;
        private int publishRateHz = 1000;
        private int publishSize = 64;
        private PayloadWriter payloadWriter = (count, payload) -> payload.putLong(0, count);
        private FrameHandler handler;
        private NodeApp nodeApp;
        private final List<NodeAgent> agents = new ArrayList<>();
        private Consumer<String> out = line -> { };
        private Consumer<String> appOut;
        private Runnable onFailure;
        private Runnable terminationHook;
        private Integer warmupFrames;

        /**
         * @param source what the settings came from (a file name), for messages.
         * @return this.
         */
        public Context source(final String source)
        {
            this.source = source;
            return this;
        }

        /** @return what the settings came from. */
        public String source()
        {
            return source;
        }

        /**
         * @param uri the device URI ({@code sim:lab1?node=2}, {@code rfm2g:/dev/rfm2g0}); opened by the node.
         * @return this.
         */
        public Context device(final String uri)
        {
            this.deviceUri = uri;
            return this;
        }

        /**
         * @param device an open device; the node uses it and closes it with itself.
         * @return this.
         */
        public Context device(final RfmDevice device)
        {
            this.device = device;
            return this;
        }

        /** @return the device URI, or null when an open device was given. */
        public String deviceUri()
        {
            return deviceUri;
        }

        /** @return the open device given, or null. */
        public RfmDevice device()
        {
            return device;
        }

        /**
         * @param layout the channel layout of the network.
         * @return this.
         */
        public Context layout(final ChannelLayout layout)
        {
            this.layout = layout;
            return this;
        }

        /** @return the channel layout. */
        public ChannelLayout layout()
        {
            return layout;
        }

        /**
         * @param inputs the node's input channels (empty: it only publishes).
         * @return this.
         */
        public Context inputs(final List<ChannelSpec> inputs)
        {
            this.inputs = List.copyOf(inputs);
            return this;
        }

        /** @return the input channels. */
        public List<ChannelSpec> inputs()
        {
            return inputs;
        }

        /**
         * @param event the event type that announces input frames (default: the first input's).
         * @return this.
         */
        public Context event(final EventType event)
        {
            this.event = event;
            return this;
        }

        /** @return the event type of input frames. */
        public EventType event()
        {
            return event;
        }

        /**
         * @param wait how the consumer waits (default {@link RuntimeConfiguration#WAIT_STRATEGY_DEFAULT}).
         * @return this.
         */
        public Context waitStrategy(final WaitStrategy wait)
        {
            this.waitStrategy = wait;
            return this;
        }

        /** @return the consumer's wait strategy. */
        public WaitStrategy waitStrategy()
        {
            return waitStrategy;
        }

        /**
         * @param rateHz frames per second the input channels are expected to carry (default
         *               {@link ReceivePath#INPUT_RATE_DEFAULT_HZ}): the node warns at start when the ring that holds
         *               frames through a stall covers less than {@link ReceivePath#STALL_COVER_DEFAULT_NS} at it.
         * @return this.
         */
        public Context inputRateHz(final int rateHz)
        {
            this.inputRateHz = rateHz;
            return this;
        }

        /** @return frames per second the input channels are expected to carry. */
        public int inputRateHz()
        {
            return inputRateHz;
        }

        /**
         * @param cpus RT cores (empty: the isolated cores, else best effort).
         * @return this.
         */
        public Context cpus(final List<Integer> cpus)
        {
            this.cpus = List.copyOf(cpus);
            return this;
        }

        /** @return the RT cores asked for. */
        public List<Integer> cpus()
        {
            return cpus;
        }

        /**
         * @param lock mlockall before threads start.
         * @return this.
         */
        public Context lockMemory(final boolean lock)
        {
            this.lockMemory = lock;
            return this;
        }

        /** @return whether memory is locked. */
        public boolean lockMemory()
        {
            return lockMemory;
        }

        /**
         * @param hold hold /dev/cpu_dma_latency at 0.
         * @return this.
         */
        public Context cpuDmaLatency(final boolean hold)
        {
            this.cpuDmaLatency = hold;
            return this;
        }

        /** @return whether /dev/cpu_dma_latency is held. */
        public boolean cpuDmaLatency()
        {
            return cpuDmaLatency;
        }

        /**
         * @param strict refuse to run when an RT step is refused.
         * @return this.
         */
        public Context strict(final boolean strict)
        {
            this.strict = strict;
            return this;
        }

        /** @return whether a refused RT step stops the start. */
        public boolean strict()
        {
            return strict;
        }

        /**
         * @param placement the ISR-wake thread's place.
         * @return this.
         */
        public Context isrPlacement(final CpuPlacement placement)
        {
            this.isr = placement;
            return this;
        }

        /** @return the ISR-wake thread's place. */
        public CpuPlacement isrPlacement()
        {
            return isr;
        }

        /**
         * @param placement the consumer (or polling) thread's place.
         * @return this.
         */
        public Context consumerPlacement(final CpuPlacement placement)
        {
            this.consumer = placement;
            return this;
        }

        /** @return the consumer thread's place. */
        public CpuPlacement consumerPlacement()
        {
            return consumer;
        }

        /**
         * @param placement the built-in publisher's place.
         * @return this.
         */
        public Context publisherPlacement(final CpuPlacement placement)
        {
            this.publisher = placement;
            return this;
        }

        /** @return the built-in publisher's place. */
        public CpuPlacement publisherPlacement()
        {
            return publisher;
        }

        /**
         * @param placement the heartbeat's place (default: not pinned, SCHED_OTHER).
         * @return this.
         */
        public Context heartbeatPlacement(final CpuPlacement placement)
        {
            this.heartbeat = placement;
            return this;
        }

        /** @return the heartbeat's place. */
        public CpuPlacement heartbeatPlacement()
        {
            return heartbeat;
        }

        /**
         * @param placement the place of app agents that ask for {@link CpuPlacement#CPU_AUTO} at priority 0 (default: the
         *                  publisher's).
         * @return this.
         */
        public Context appPlacement(final CpuPlacement placement)
        {
            this.app = placement;
            return this;
        }

        /** @return the default place of app agents. */
        public CpuPlacement appPlacement()
        {
            return app;
        }

        /**
         * @param cpu the journal thread's core: {@link CpuPlacement#CPU_AUTO} = the first core that is not an RT core,
         *            {@link CpuPlacement#CPU_NONE} = not pinned.
         * @return this.
         */
        public Context housekeepingCpu(final int cpu)
        {
            this.housekeepingCpu = cpu;
            return this;
        }

        /** @return the journal thread's core. */
        public int housekeepingCpu()
        {
            return housekeepingCpu;
        }

        /**
         * @param enabled journal or not.
         * @return this.
         */
        public Context journalEnabled(final boolean enabled)
        {
            this.journalEnabled = enabled;
            return this;
        }

        /** @return whether the node journals. */
        public boolean journalEnabled()
        {
            return journalEnabled;
        }

        /**
         * @param dir the journal folder.
         * @return this.
         */
        public Context journalDir(final Path dir)
        {
            this.journalDir = dir;
            return this;
        }

        /** @return the journal folder. */
        public Path journalDir()
        {
            return journalDir;
        }

        /**
         * @param bytes bytes per journal writer ring (a power of two, 4K..1G).
         * @return this.
         */
        public Context journalRingBytes(final int bytes)
        {
            this.journalRingBytes = bytes;
            return this;
        }

        /** @return bytes per journal writer ring. */
        public int journalRingBytes()
        {
            return journalRingBytes;
        }

        /**
         * @param roll the Chronicle roll cycle name.
         * @return this.
         */
        public Context journalRoll(final String roll)
        {
            this.journalRoll = roll;
            return this;
        }

        /** @return the roll cycle name. */
        public String journalRoll()
        {
            return journalRoll;
        }

        /**
         * @param nanos heartbeat period, 0 = off.
         * @return this.
         */
        public Context heartbeatNanos(final long nanos)
        {
            this.heartbeatNanos = nanos;
            return this;
        }

        /** @return the heartbeat period, 0 = off. */
        public long heartbeatNanos()
        {
            return heartbeatNanos;
        }

        /**
         * @param sink where heartbeat lines go (default: the {@code io.rfmrt.heartbeat} logger).
         * @return this.
         */
        public Context heartbeatSink(final Consumer<String> sink)
        {
            this.heartbeatSink = sink;
            return this;
        }

        /**
         * @param channel the built-in publisher's channel (null: none).
         * @param rateHz  frames per second.
         * @param size    payload bytes.
         * @return this.
         */
        public Context publish(final ChannelSpec channel, final int rateHz, final int size)
        {
            this.publishChannel = channel;
            this.publishRateHz = rateHz;
            this.publishSize = size;
            return this;
        }

        /** @return the built-in publisher's channel, or null. */
        public ChannelSpec publishChannel()
        {
            return publishChannel;
        }

        /** @return the built-in publisher's rate. */
        public int publishRateHz()
        {
            return publishRateHz;
        }

        /** @return the built-in publisher's payload bytes. */
        public int publishSize()
        {
            return publishSize;
        }

        /**
         * @param writer what the built-in publisher sends (default: the frame number as the first 8 bytes).
         * @return this.
         */
        public Context payloadWriter(final PayloadWriter writer)
        {
            this.payloadWriter = writer;
            return this;
        }

        /**
         * @param handler the handler of input frames (default: the app's, else none); set this or an app.
         * @return this.
         */
        public Context handler(final FrameHandler handler)
        {
            this.handler = handler;
            return this;
        }

        /** @return the frame handler set, or null. */
        public FrameHandler handler()
        {
            return handler;
        }

        /**
         * @param app the app the node runs (null: none).
         * @return this.
         */
        public Context app(final NodeApp app)
        {
            this.nodeApp = app;
            return this;
        }

        /** @return the app, or null. */
        public NodeApp app()
        {
            return nodeApp;
        }

        /**
         * @param agent     one more thread of the node.
         * @param placement its place.
         * @param idle      its idle strategy.
         * @return this.
         */
        public Context agent(final org.agrona.concurrent.Agent agent, final CpuPlacement placement,
            final org.agrona.concurrent.IdleStrategy idle)
        {
            agents.add(new NodeAgent(agent, placement, idle));
            return this;
        }

        /** @return the extra agents set here (the app's come on top). */
        public List<NodeAgent> agents()
        {
            return List.copyOf(agents);
        }

        /**
         * @param out where the start-up table and warnings go (each warning once, as one line).
         * @return this.
         */
        public Context out(final Consumer<String> out)
        {
            this.out = out;
            return this;
        }

        /** @return where start-up lines go. */
        public Consumer<String> out()
        {
            return out;
        }

        /**
         * @param appOut where an app's own lines go (its progress; default: {@link #out()}).
         * @return this.
         */
        public Context appOut(final Consumer<String> appOut)
        {
            this.appOut = appOut;
            return this;
        }

        /** @return where an app's own lines go. */
        public Consumer<String> appOut()
        {
            return appOut == null ? out : appOut;
        }

        /**
         * @param action run once when a node thread fails (on that thread): wake whoever waits to stop the node.
         * @return this.
         */
        public Context onFailure(final Runnable action)
        {
            this.onFailure = action;
            return this;
        }

        /**
         * @param hook run when the app asks the node to stop ({@link RfmNode#terminate()}): wake whoever waits to
         *             close it.
         * @return this.
         */
        public Context terminationHook(final Runnable hook)
        {
            this.terminationHook = hook;
            return this;
        }

        /**
         * @param frames frames the receive path runs through before the node reports it runs.
         * @return this.
         */
        public Context warmupFrames(final int frames)
        {
            this.warmupFrames = frames;
            return this;
        }

        /** @return warm-up frames. */
        public int warmupFrames()
        {
            return warmupFrames;
        }

        /**
         * Fill what was not set from {@link RuntimeConfiguration} and check the whole, once.
         *
         * @return this.
         * @throws ConfigException naming every problem.
         */
        public Context conclude()
        {
            if (concluded)
            {
                return this;
            }
            final List<String> problems = new ArrayList<>();
            if (deviceUri == null && device == null)
            {
                problems.add("missing 'device' (e.g. sim:lab1?node=2)");
            }
            if (layout == null)
            {
                problems.add("missing 'layout' (the channel layout YAML)");
            }
            if (waitStrategy == null)
            {
                try
                {
                    waitStrategy = WaitStrategy.parse(RuntimeConfiguration.waitStrategy());
                }
                catch (final IllegalArgumentException ex)
                {
                    problems.add(RuntimeConfiguration.WAIT_STRATEGY_PROP_NAME + ": " + ex.getMessage());
                    waitStrategy = WaitStrategy.blocking();
                }
            }
            lockMemory = lockMemory == null ? RuntimeConfiguration.lockMemory() : lockMemory;
            cpuDmaLatency = cpuDmaLatency == null ? RuntimeConfiguration.cpuDmaLatency() : cpuDmaLatency;
            strict = strict == null ? RuntimeConfiguration.strict() : strict;
            isr = isr == null ? CpuPlacement.auto(RuntimeConfiguration.isrPriority()) : isr;
            consumer = consumer == null ? CpuPlacement.auto(RuntimeConfiguration.consumerPriority()) : consumer;
            publisher = publisher == null ? CpuPlacement.auto(RuntimeConfiguration.publisherPriority()) : publisher;
            app = app == null ? publisher : app;
            journalEnabled = journalEnabled == null ? RuntimeConfiguration.journalEnabled() : journalEnabled;
            journalRingBytes = journalRingBytes == null ? RuntimeConfiguration.journalRingBytes() : journalRingBytes;
            journalRoll = journalRoll == null ? RuntimeConfiguration.journalRoll() : journalRoll;
            heartbeatNanos = heartbeatNanos == null ? RuntimeConfiguration.heartbeatNanos() : heartbeatNanos;
            warmupFrames = warmupFrames == null ? RuntimeConfiguration.warmupFrames() : warmupFrames;
            event = event != null ? event : inputs.isEmpty() ? EventType.INTR1 : inputs.get(0).event();
            for (final ChannelSpec c : inputs)
            {
                if (c.event() != event)
                {
                    problems.add("receive.channels '" + c.name() + "' is announced by " + c.event() +
                        ", not by receive.event " + event);
                }
            }
            final Set<Integer> publishers = new HashSet<>();
            for (final ChannelSpec c : inputs)
            {
                if (!publishers.add(c.node()))
                {
                    problems.add("receive.channels: two input channels are published by node " + c.node() +
                        " (the receiver tells channels apart by publisher)");
                }
            }
            placement("threads.isr", isr, problems);
            placement("threads.consumer", consumer, problems);
            placement("threads.publisher", publisher, problems);
            placement("heartbeat placement", heartbeat, problems);
            for (final NodeAgent a : agents)
            {
                placement("agent " + a.agent().roleName(), a.placement(), problems);
            }
            if (housekeepingCpu < CpuPlacement.CPU_AUTO || housekeepingCpu > CpuPlacement.CPU_MAX)
            {
                problems.add("threads.housekeeping.cpu " + housekeepingCpu + " is not -1.." + CpuPlacement.CPU_MAX);
            }
            journalRoll = journalRoll.toUpperCase(java.util.Locale.ROOT);
            if (!ROLLS.contains(journalRoll))
            {
                problems.add("journal.roll '" + journalRoll + "' is not one of " + new TreeSet<>(ROLLS));
            }
            if (journalRingBytes < 4096 || journalRingBytes > (1 << 30) || Integer.bitCount(journalRingBytes) != 1)
            {
                problems.add("journal.ringBytes " + journalRingBytes + " is not a power of two between 4K and 1G");
            }
            if (journalEnabled && journalDir == null)
            {
                problems.add("missing 'journal.dir' (or journal.enabled: false)");
            }
            else if (journalEnabled && Files.exists(journalDir) && !Files.isDirectory(journalDir))
            {
                problems.add("journal.dir " + journalDir + " is not a folder");
            }
            if (heartbeatNanos < 0)
            {
                problems.add("heartbeat " + heartbeatNanos + " ns is negative (0 turns it off)");
            }
            if (publishChannel != null && (publishRateHz < 1 || publishRateHz > 100_000))
            {
                problems.add("publish.rateHz " + publishRateHz + " is not 1..100000");
            }
            if (publishChannel != null && (publishSize < 16 || publishSize > publishChannel.maxPayload()))
            {
                problems.add("publish.size " + publishSize + " is not 16.." + publishChannel.maxPayload());
            }
            if (handler != null && nodeApp != null)
            {
                problems.add("app: a node takes a frame handler or an app, not both");
            }
            if (!problems.isEmpty())
            {
                throw new ConfigException(source, problems);
            }
            concluded = true;
            return this;
        }

        private static void placement(final String key, final CpuPlacement p, final List<String> problems)
        {
            if (p.cpu() < CpuPlacement.CPU_AUTO || p.cpu() > CpuPlacement.CPU_MAX)
            {
                problems.add(key + ".cpu " + p.cpu() + " is not -1.." + CpuPlacement.CPU_MAX);
            }
            if (p.priority() < 0 || p.priority() > 99)
            {
                problems.add(key + ".priority " + p.priority() + " is not 0..99");
            }
        }

        /**
         * Everything the start checks before it opens or makes anything, and all that
         * {@code rfmrt node --check-config} runs: the settings ({@link #conclude()}); the device URI's form and the
         * network it joins, by what opening it would give ({@link RfmDevices#plan}: the node id, the memory of the
         * network there or of the one it would make) as {@link #checkDevice} checks them; the RT cpus against the
         * online ones; the journal folder ({@link Journal#folderProblem}); and the app's own check of the node
         * ({@link NodeApp#check}). The start checks the device again once it is open: a card tells its node id and
         * memory only then.
         *
         * @return this.
         * @throws ConfigException naming every problem.
         * @throws io.rfmrt.rfm.RfmException when the network there cannot be read, as opening it would.
         */
        public Context check()
        {
            conclude();
            final List<String> problems = new ArrayList<>();
            int nodeId = RfmDevices.Plan.UNKNOWN;
            long memorySize = RfmDevices.Plan.UNKNOWN;
            if (device != null)
            {
                nodeId = device.nodeId();
                memorySize = device.memorySize();
            }
            else
            {
                String uriProblem = null;
                try
                {
                    RfmDevices.checkUri(deviceUri);
                }
                catch (final io.rfmrt.rfm.RfmException ex)
                {
                    uriProblem = "device: " + ex.getMessage();
                    problems.add(uriProblem);
                }
                if (uriProblem == null)
                {
                    final RfmDevices.Plan plan = RfmDevices.plan(deviceUri);
                    nodeId = plan.nodeId();
                    memorySize = plan.memorySize();
                }
            }
            problems.addAll(deviceProblems(nodeId, memorySize));
            try
            {
                rtSettings().validate("threads.cpus");
            }
            catch (final IllegalArgumentException ex)
            {
                problems.add(ex.getMessage());
            }
            final String journalProblem = journalEnabled ? Journal.folderProblem(journalDir) : null;
            if (journalProblem != null)
            {
                problems.add("journal.dir " + journalProblem);
            }
            if (nodeApp != null)
            {
                nodeApp.check(this, problems);
            }
            if (!problems.isEmpty())
            {
                throw new ConfigException(source, problems);
            }
            return this;
        }

        RtSettings rtSettings()
        {
            return new RtSettings(cpus, strict, lockMemory, cpuDmaLatency, Path.of("/"));
        }

        /**
         * Check the settings against the device the node opened, before any thread starts: the built-in
         * publisher's channel must be this node's, no input channel may be this node's own, and the layout's memory
         * and every channel and variable of it must lie inside the network's memory.
         *
         * @param nodeId     the device's node id.
         * @param memorySize the device's memory, bytes.
         * @throws ConfigException naming each problem.
         */
        public void checkDevice(final int nodeId, final long memorySize)
        {
            final List<String> problems = deviceProblems(nodeId, memorySize);
            if (!problems.isEmpty())
            {
                throw new ConfigException(source + " (against device " + (deviceUri == null ? "given as open" :
                    deviceUri) + ")", problems);
            }
        }

        /**
         * @param nodeId     the node id, or {@link RfmDevices.Plan#UNKNOWN}: its checks are left out.
         * @param memorySize the network's memory, or {@link RfmDevices.Plan#UNKNOWN}: its checks are left out.
         */
        private List<String> deviceProblems(final int nodeId, final long memorySize)
        {
            final List<String> problems = new ArrayList<>();
            if (nodeId != RfmDevices.Plan.UNKNOWN)
            {
                if (publishChannel != null && publishChannel.node() != nodeId)
                {
                    problems.add("publish.channel '" + publishChannel.name() + "' is published by node " +
                        publishChannel.node() + " in the layout, not by this node (" + nodeId + ")");
                }
                for (final ChannelSpec c : inputs)
                {
                    if (c.node() == nodeId)
                    {
                        problems.add("receive.channels '" + c.name() + "' is published by this node (" + nodeId +
                            "); a node does not receive its own frames");
                    }
                }
            }
            if (memorySize == RfmDevices.Plan.UNKNOWN)
            {
                return problems;
            }
            if (layout.memorySize() > memorySize)
            {
                problems.add(String.format("layout: its memory (%d bytes) is larger than the network's (%d bytes)",
                    layout.memorySize(), memorySize));
            }
            for (final ChannelSpec c : layout.channels())
            {
                if (c.offset() + c.length() > memorySize)
                {
                    problems.add(String.format("layout: channel '%s' (0x%x + %d bytes) lies outside the %d-byte " +
                        "memory of the network", c.name(), c.offset(), c.length(), memorySize));
                }
            }
            for (final VariableSpec v : layout.variables())
            {
                if (v.offset() + v.type().size() > memorySize)
                {
                    problems.add(String.format("layout: variable '%s' at 0x%x lies outside the %d-byte memory of " +
                        "the network", v.name(), v.offset(), memorySize));
                }
            }
            return problems;
        }
    }

    private final Context ctx;
    private RtErrorPolicy errors = new RtErrorPolicy(null);
    private RfmDevice device;
    private RtEnvironment env;
    private Journal journal;
    private NodeCounters counters;
    private ReceivePath path;
    private Heartbeat heartbeat;
    private AgentRunner publisherRunner;
    private AgentRunner heartbeatRunner;
    private final List<AgentRunner> agentRunners = new ArrayList<>();
    private volatile long published;
    private volatile boolean terminated;
    private boolean stopped;
    private volatile String closeFailure;
    private boolean threadsLeft;

    /**
     * @param ctx the node's parts; concluded by {@link #start()} when it was not yet.
     */
    public RfmNode(final Context ctx)
    {
        this.ctx = ctx;
    }

    /**
     * @param config the validated configuration (its {@link NodeConfig#context()}).
     * @param out    where the start-up table and warnings go (the console), each warning once, as one line.
     */
    public RfmNode(final NodeConfig config, final Consumer<String> out)
    {
        this(config.context().out(out));
    }

    /**
     * @param ctx the node's parts.
     * @return the started node.
     */
    public static RfmNode launch(final Context ctx)
    {
        final RfmNode node = new RfmNode(ctx);
        node.start();
        return node;
    }

    /**
     * @return the node's parts.
     */
    public Context context()
    {
        return ctx;
    }

    /**
     * @param handler the application's frame handler (default: none); set before {@link #start()}.
     * @return this.
     */
    public RfmNode handler(final FrameHandler handler)
    {
        ctx.handler(handler);
        return this;
    }

    /**
     * @param writer what the built-in publisher sends; set before {@link #start()}.
     * @return this.
     */
    public RfmNode payloadWriter(final PayloadWriter writer)
    {
        ctx.payloadWriter(writer);
        return this;
    }

    /**
     * @param sink where heartbeat lines go; set before {@link #start()}.
     * @return this.
     */
    public RfmNode heartbeatSink(final Consumer<String> sink)
    {
        ctx.heartbeatSink(sink);
        return this;
    }

    /**
     * @param action run once when a node thread fails (on that thread).
     * @return this.
     */
    public RfmNode onFailure(final Runnable action)
    {
        ctx.onFailure(action);
        return this;
    }

    /**
     * Open everything and start the threads. On failure, what was opened is closed again.
     */
    public void start()
    {
        // everything is checked before anything is made: a refused start leaves no network, counters or journal
        ctx.check();
        // a running node is not a fault of the file (--check-config does not ask): only the start refuses to share
        final String journalInUse = ctx.journalEnabled ? Journal.folderInUse(ctx.journalDir) : null;
        if (journalInUse != null)
        {
            throw new ConfigException(ctx.source, List.of("journal.dir " + journalInUse +
                "; give each node its own journal.dir"));
        }
        final Consumer<String> out = ctx.out;
        try
        {
            device = ctx.device != null ? ctx.device : RfmDevices.open(ctx.deviceUri);
            ctx.checkDevice(device.nodeId(), device.memorySize());
            // a node opened from a URI publishes its counters in a file others read (rfmrt stat); a node given an
            // open device keeps them in memory
            counters = ctx.deviceUri != null ?
                NodeCounters.create(NodeCounters.fileFor(ctx.deviceUri, device.nodeId()), device.nodeId(),
                    ctx.deviceUri, ctx.inputs) :
                NodeCounters.inMemory(ctx.inputs);
            env = RtEnvironment.prepare(ctx.rtSettings(), warning -> out.accept("warning: " + warning));
            final int rtCpu = env.rtCpus().isEmpty() ? CpuPlacement.CPU_NONE : env.rtCpus().get(0);
            JournalWriter isrJournal = null;
            JournalWriter consumerJournal = null;
            JournalWriter errorJournal = null;
            if (ctx.journalEnabled)
            {
                final int housekeeping = ctx.housekeepingCpu == CpuPlacement.CPU_AUTO ? env.housekeepingCpu() :
                    ctx.housekeepingCpu;
                // the journal thread is placed like every other thread: by the environment's thread factory
                journal = Journal.start(new JournalConfig(ctx.journalDir, device.nodeId(), ctx.journalRingBytes,
                    ctx.journalRoll, housekeeping, journalLayout(ctx).toYaml()), env.threadFactory(housekeeping, 0));
                isrJournal = journal.newWriter("isr");
                consumerJournal = journal.newWriter("consumer");
                errorJournal = journal.newWriter("errors");
            }
            errors = new RtErrorPolicy(errorJournal, counters).onFailure(ctx.onFailure);
            if (!ctx.inputs.isEmpty())
            {
                final String shortRing = ReceivePath.ringCoverageWarning(device.dma().mode(), device.dma().slotCount(),
                    ctx.inputs, ctx.waitStrategy, ctx.inputRateHz);
                if (shortRing != null)
                {
                    out.accept("warning: " + shortRing);
                }
                // the hot path compiled before the node reports it runs
                ReceiveWarmUp.warmUp(device, ctx.inputs, ctx.event, ctx.waitStrategy, ctx.warmupFrames);
            }
            FrameHandler handler = ctx.handler;
            final List<NodeAgent> agents = new ArrayList<>(ctx.agents);
            if (ctx.nodeApp != null)
            {
                ctx.nodeApp.onStart(this);
                handler = ctx.nodeApp.handler();
                agents.addAll(ctx.nodeApp.agents());
            }
            if (handler == null)
            {
                handler = (frame, stamps) -> { };
            }
            if (!ctx.inputs.isEmpty())
            {
                path = new ReceivePath(device, ctx.inputs, ctx.event, ctx.waitStrategy, handler, isrJournal,
                    consumerJournal, SystemNanoClock.INSTANCE, errors, counters);
                path.start(env, ctx.isr.resolve(rtCpu), ctx.isr.priority(), ctx.consumer.resolve(rtCpu),
                    ctx.consumer.priority());
            }
            if (ctx.publishChannel != null)
            {
                final PeriodicAgent publisher = publisher();
                publisherRunner = new AgentRunner(new ScheduleIdleStrategy(publisher, SystemNanoClock.INSTANCE,
                    PUBLISH_SPIN_NS), errors, null, publisher);
                env.start(PUBLISHER_THREAD, ctx.publisher.resolve(rtCpu), ctx.publisher.priority(),
                    errors.guard(publisherRunner));
            }
            for (final NodeAgent a : agents)
            {
                final AgentRunner runner = new AgentRunner(a.idle(), errors, null, a.agent());
                agentRunners.add(runner);
                env.start(a.agent().roleName(), a.placement().resolve(rtCpu), a.placement().priority(),
                    errors.guard(runner));
            }
            heartbeat = new Heartbeat(device, path, line -> ctx.heartbeatSink.accept(line))
                .journal(journal, warning -> out.accept("warning: " + warning))
                .counters(counters, journal == null ? null : journal.newWriter("heartbeat"));
            if (ctx.nodeApp != null)
            {
                heartbeat.app(ctx.nodeApp::heartbeat);
            }
            if (ctx.heartbeatNanos > 0)
            {
                final PeriodicAgent beat = new PeriodicAgent(HEARTBEAT_THREAD, ctx.heartbeatNanos,
                    SystemNanoClock.INSTANCE, (count, nanos) -> heartbeat.beat());
                heartbeatRunner = new AgentRunner(new ScheduleIdleStrategy(beat, SystemNanoClock.INSTANCE, 0), errors,
                    null, beat);
                // a housekeeping thread: where the scheduler puts it, SCHED_OTHER by default
                env.start(HEARTBEAT_THREAD, ctx.heartbeat.resolve(rtCpu), ctx.heartbeat.priority(),
                    errors.guard(heartbeatRunner));
            }
            out.accept(String.format("node %d on %s: %d input channel(s) %s, wait %s, DMA %s, publish %s, journal %s",
                device.nodeId(), ctx.deviceUri == null ? "an open device" : ctx.deviceUri, ctx.inputs.size(),
                ctx.inputs.stream().map(c -> c.name()).toList(), ctx.waitStrategy, device.dma().mode(),
                ctx.publishChannel == null ? "-" : ctx.publishChannel.name() + " at " + ctx.publishRateHz + " Hz",
                journal == null ? "off" : ctx.journalDir));
            out.accept(env.placementTable());
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    /**
     * The channels a journal records beside its frames, so that a recording plays back without its configuration:
     * the node's input channels and its built-in publisher's channel, with the layout's memory size.
     */
    static ChannelLayout journalLayout(final Context ctx)
    {
        final List<ChannelSpec> channels = new ArrayList<>(ctx.inputs);
        if (ctx.publishChannel != null && !channels.contains(ctx.publishChannel))
        {
            channels.add(ctx.publishChannel);
        }
        return new ChannelLayout(ctx.layout.memorySize(), List.copyOf(channels), List.of());
    }

    private PeriodicAgent publisher()
    {
        final FramePublisher publisher = new FramePublisher(device, ctx.publishChannel);
        final int size = ctx.publishSize;
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        final PayloadWriter writer = ctx.payloadWriter;
        return new PeriodicAgent(PUBLISHER_THREAD, TimeUnit.SECONDS.toNanos(1) / ctx.publishRateHz,
            SystemNanoClock.INSTANCE, (count, nanos) ->
            {
                writer.write(count + 1, payload);
                if (publisher.publish(payload, 0, size, 0) == RfmStatus.SUCCESS)
                {
                    published = count + 1;
                }
            });
    }

    /**
     * Ask the node to stop (any thread; an app that is done): runs the context's termination hook once.
     */
    public void terminate()
    {
        if (!terminated)
        {
            terminated = true;
            if (ctx.terminationHook != null)
            {
                ctx.terminationHook.run();
            }
        }
    }

    /**
     * @return whether {@link #terminate()} was called.
     */
    public boolean terminated()
    {
        return terminated;
    }

    /**
     * @return the open device (after {@link #start()}).
     */
    public RfmDevice device()
    {
        return device;
    }

    /**
     * @return the RT environment (after {@link #start()}).
     */
    public RtEnvironment environment()
    {
        return env;
    }

    /**
     * @return the receive path, null for a node without inputs (or before its threads start).
     */
    public ReceivePath receivePath()
    {
        return path;
    }

    /**
     * @return frames the built-in publisher has sent.
     */
    public long published()
    {
        return published;
    }

    /**
     * @return the journal, null when off.
     */
    public Journal journal()
    {
        return journal;
    }

    /**
     * @return the node's counters (its counters file), null before {@link #start()}.
     */
    public NodeCounters counters()
    {
        return counters;
    }

    /**
     * @return the error policy of the node's threads.
     */
    public RtErrorPolicy errors()
    {
        return errors;
    }

    /**
     * @return the first thread failure in one line, or null while every thread is well.
     */
    public String failure()
    {
        return errors.failure();
    }

    /**
     * Stop threads (receive path, publisher, app agents, heartbeat), let the app take its figures, write a last
     * heartbeat, flush and close the journal (with any FAULT record of a failed thread), close the device (its node
     * id claim is released). Idempotent; the same order after a thread failure. A step that fails (a thread that does
     * not stop within {@link BoundedClose#STOP_TIMEOUT_MS}, a device whose shared files were damaged under it) is
     * logged in one line and kept in {@link #closeFailure()}, and the steps after it still run: the journal is
     * flushed and the claim released whatever went before.
     */
    @Override
    public void close()
    {
        closeStep("stopping the receive path", () ->
        {
            if (path != null)
            {
                path.close();
            }
        });
        closeStep("stopping the publisher", () ->
        {
            if (publisherRunner != null)
            {
                final AgentRunner runner = publisherRunner;
                publisherRunner = null;
                BoundedClose.close(runner, () -> {}, BoundedClose.STOP_TIMEOUT_MS);
            }
        });
        for (final AgentRunner runner : agentRunners)
        {
            closeStep("stopping " + runner.agent().roleName(),
                () -> BoundedClose.close(runner, () -> {}, BoundedClose.STOP_TIMEOUT_MS));
        }
        agentRunners.clear();
        closeStep("stopping the heartbeat", () ->
        {
            if (heartbeatRunner != null)
            {
                final AgentRunner runner = heartbeatRunner;
                heartbeatRunner = null;
                BoundedClose.close(runner, () -> {}, BoundedClose.STOP_TIMEOUT_MS);
            }
        });
        closeStep("stopping the app", () ->
        {
            if (!stopped && ctx.nodeApp != null && device != null && env != null)
            {
                stopped = true;
                ctx.nodeApp.onStop(this);
            }
        });
        closeStep("the last heartbeat", () ->
        {
            final String cut = counters == null ? null : counters.truncation();
            if (cut != null)
            {
                // the figures are gone with the file (the failure line names it); reading them would fault again
                heartbeat = null;
            }
            if (heartbeat != null && path != null && ctx.heartbeatNanos > 0)
            {
                // the last (partial) interval; a node whose heartbeat is off stays silent
                final Heartbeat last = heartbeat;
                heartbeat = null;
                try
                {
                    last.beat();
                }
                catch (final RuntimeException ex)
                {
                    LOG.warn("last heartbeat failed: {}", ex.toString());
                }
            }
        });
        closeStep("closing the journal", () ->
        {
            if (journal != null)
            {
                final Journal closing = journal;
                journal = null;
                closing.close();
            }
        });
        closeStep("releasing the threads", () ->
        {
            if (env != null)
            {
                final RtEnvironment closing = env;
                env = null;
                closing.close();
            }
        });
        if (threadsLeft)
        {
            // its counters file and device stay mapped until the process ends: unmapped, the thread's next access
            // would crash the JVM
            closeFailed("releasing the counters file and the device",
                new IllegalStateException("left open: a thread of the node is still running"));
            return;
        }
        closeStep("closing the counters file", () ->
        {
            if (counters != null)
            {
                // every thread that counts has stopped; the file goes before the node id is free again
                final NodeCounters closing = counters;
                counters = null;
                closing.close();
            }
        });
        closeStep("closing the device", () ->
        {
            if (device != null)
            {
                final RfmDevice closing = device;
                device = null;
                closing.close();
            }
        });
    }

    /**
     * @return the first step of {@link #close()} that failed, in one line ({@code closing the device:
     * InternalError: ...}), or null.
     */
    public String closeFailure()
    {
        return closeFailure;
    }

    private void closeStep(final String what, final Runnable step)
    {
        try
        {
            step.run();
        }
        catch (final ThreadNotStoppedException ex)
        {
            // a thread left running: what it may touch must stay mapped
            threadsLeft = true;
            closeFailed(what, ex);
        }
        catch (final RuntimeException | Error ex)
        {
            closeFailed(what, ex);
        }
    }

    private void closeFailed(final String what, final Throwable ex)
    {
        final String line = what + ": " + ex.getClass().getSimpleName() +
            (ex.getMessage() == null ? "" : ": " + ex.getMessage());
        LOG.error("node close: {}", line);
        if (closeFailure == null)
        {
            closeFailure = line;
        }
    }
}
