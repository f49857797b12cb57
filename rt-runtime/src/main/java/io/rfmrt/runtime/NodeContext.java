package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.Sizes;
import io.rfmrt.rfm.Units;
import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.LayoutException;
import io.rfmrt.rfm.channel.VariableSpec;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Everything a node is made of, and the one place that knows its defaults and its rules, as Aeron's
 * {@code MediaDriver.Context} is for a media driver. Settings are set fluently (in code, or from a node YAML through
 * {@link #yamlValue}/{@link #yamlList}, one key at a time), then {@link #conclude()}d once: what was not set comes
 * from its default (each overridable by its system property, {@code *_PROP_NAME}/{@code *_DEFAULT} below), and one
 * validation reports every problem at once, each named by the node YAML's key and the bad value
 * ({@link ConfigException}, in the order of the reference in docs/runtime.md).
 * <pre>
 *   code ── setters ─────┐
 *                        ├─▶ conclude() ─▶ check() ──────────────▶ RfmNode.start() ─▶ checkDevice()
 *   YAML ── yamlValue() ─┘   defaults,     the device URI's plan,                      the opened card's
 *           yamlList()       every rule    cpus, journal, app                          node id and memory
 * </pre>
 * A new setting is a field, its setter and getter, its default, its rule in {@link #conclude()} and, when the YAML
 * gives it, one line in the key table ({@code YAML_KEYS}); the YAML reader and the node take it from here.
 * <p>
 * Not thread safe: filled and concluded on one thread before the node starts.
 */
public final class NodeContext
{
    /** SCHED_FIFO priority of the ISR-wake thread. */
    public static final String ISR_PRIORITY_PROP_NAME = "rfmrt.node.isr.priority";
    /** Default of {@link #ISR_PRIORITY_PROP_NAME}. */
    public static final int ISR_PRIORITY_DEFAULT = 80;
    /** SCHED_FIFO priority of the consumer thread. */
    public static final String CONSUMER_PRIORITY_PROP_NAME = "rfmrt.node.consumer.priority";
    /** Default of {@link #CONSUMER_PRIORITY_PROP_NAME}. */
    public static final int CONSUMER_PRIORITY_DEFAULT = 70;
    /** SCHED_FIFO priority of the built-in publisher thread. */
    public static final String PUBLISHER_PRIORITY_PROP_NAME = "rfmrt.node.publisher.priority";
    /** Default of {@link #PUBLISHER_PRIORITY_PROP_NAME}. */
    public static final int PUBLISHER_PRIORITY_DEFAULT = 60;
    /**
     * The receive mode and idle when neither {@code receive.mode}, {@code receive.idle} nor {@code receive.wait} is
     * given, in the shorthand's spelling ({@link WaitStrategy#parse}).
     */
    public static final String WAIT_STRATEGY_PROP_NAME = "rfmrt.node.wait";
    /** Default of {@link #WAIT_STRATEGY_PROP_NAME}. */
    public static final String WAIT_STRATEGY_DEFAULT = "BLOCKING";
    /** mlockall before threads start. */
    public static final String LOCK_MEMORY_PROP_NAME = "rfmrt.node.lockMemory";
    /** Default of {@link #LOCK_MEMORY_PROP_NAME}. */
    public static final boolean LOCK_MEMORY_DEFAULT = true;
    /** Hold /dev/cpu_dma_latency at 0 while the node runs. */
    public static final String CPU_DMA_LATENCY_PROP_NAME = "rfmrt.node.cpuDmaLatency";
    /** Default of {@link #CPU_DMA_LATENCY_PROP_NAME}. */
    public static final boolean CPU_DMA_LATENCY_DEFAULT = false;
    /** Refuse to run when an RT step is refused. */
    public static final String STRICT_PROP_NAME = "rfmrt.node.strict";
    /** Default of {@link #STRICT_PROP_NAME}. */
    public static final boolean STRICT_DEFAULT = false;
    /** Heartbeat period in nanoseconds, 0 = off. */
    public static final String HEARTBEAT_NS_PROP_NAME = "rfmrt.node.heartbeat.ns";
    /** Default of {@link #HEARTBEAT_NS_PROP_NAME}: 1 s. */
    public static final long HEARTBEAT_NS_DEFAULT = 1_000_000_000L;
    /** Journal on or off. */
    public static final String JOURNAL_ENABLED_PROP_NAME = "rfmrt.node.journal.enabled";
    /** Default of {@link #JOURNAL_ENABLED_PROP_NAME}. */
    public static final boolean JOURNAL_ENABLED_DEFAULT = true;
    /** Bytes of each journal writer's ring (a power of two, 4K..1G). */
    public static final String JOURNAL_RING_BYTES_PROP_NAME = "rfmrt.node.journal.ringBytes";
    /** Default of {@link #JOURNAL_RING_BYTES_PROP_NAME}. */
    public static final int JOURNAL_RING_BYTES_DEFAULT = JournalConfig.RING_CAPACITY_BYTES_DEFAULT;
    /** Chronicle roll cycle of the journal. */
    public static final String JOURNAL_ROLL_PROP_NAME = "rfmrt.node.journal.roll";
    /** Default of {@link #JOURNAL_ROLL_PROP_NAME}. */
    public static final String JOURNAL_ROLL_DEFAULT = JournalConfig.ROLL_CYCLE_DEFAULT;
    /** Frames the receive path runs through before the node reports it runs. */
    public static final String WARMUP_FRAMES_PROP_NAME = "rfmrt.node.warmupFrames";
    /** Default of {@link #WARMUP_FRAMES_PROP_NAME}: per channel, enough for the JIT's optimising compiler. */
    public static final int WARMUP_FRAMES_DEFAULT = 30_000;

    /** Frames per second the input channels are expected to carry, when not given (ring sizing only). */
    public static final int INPUT_RATE_HZ_DEFAULT = 1000;
    /** Frames per second of the built-in publisher, when not given. */
    public static final int PUBLISH_RATE_HZ_DEFAULT = 1000;
    /** Payload bytes of the built-in publisher, when not given. */
    public static final int PUBLISH_SIZE_DEFAULT = 64;
    /** The journal folder of a node YAML that names none, under its state folder. */
    public static final String JOURNAL_DIR_DEFAULT = "journal";
    /** The name of no app. */
    public static final String APP_NONE = "none";

    private static final Logger HEARTBEAT = LogManager.getLogger("io.rfmrt.heartbeat");
    private static final Range INPUT_RATE_HZ = new Range(1, 1_000_000);
    private static final Range PUBLISH_RATE_HZ = new Range(1, 100_000);
    private static final Range PUBLISH_SIZE = new Range(16, 1 << 20);
    private static final Range CPU = new Range(CpuPlacement.CPU_NONE, CpuPlacement.CPU_MAX);
    private static final Range RT_CPU = new Range(0, CpuPlacement.CPU_MAX);
    private static final Range PRIORITY = new Range(0, 99);
    private static final Set<String> ROLLS = Set.of("MINUTELY", "FIVE_MINUTELY", "TEN_MINUTELY", "HALF_HOURLY",
        "HOURLY", "TWO_HOURLY", "FOUR_HOURLY", "SIX_HOURLY", "DAILY", "FAST_HOURLY", "FAST_DAILY");

    /**
     * The node YAML's keys (dotted, as in the reference in docs/runtime.md), each with how its text sets this
     * context. Their order is the order problems are reported in; {@code app:} is read by the YAML reader itself
     * (an app's own settings are the app's).
     */
    private static final Map<String, Binding> YAML_KEYS = new LinkedHashMap<>();

    static
    {
        value("device", (c, k, t) -> c.deviceUri = t);
        value("layout", (c, k, t) -> c.layoutFile = c.fileFolder == null ? Path.of(t) : c.fileFolder.resolve(t));
        list("receive.channels", (c, k, items) -> c.inputNames = List.copyOf(items));
        value("receive.event", (c, k, t) -> c.event = parsed(k, t, EventType::parse));
        value("receive.wait", (c, k, t) -> c.waitStrategy = parsed(k, t, WaitStrategy::parse));
        value("receive.mode", (c, k, t) -> c.receiveMode = named(k, t, ReceiveMode::parse));
        value("receive.idle", (c, k, t) -> c.receiveIdle = named(k, t, ReceiveIdle::parse));
        value("receive.rateHz", (c, k, t) -> c.inputRateHz = wholeNumber(k, t, INPUT_RATE_HZ));
        value("publish.channel", (c, k, t) -> c.publishName = t);
        value("publish.rateHz", (c, k, t) -> c.publishRateHz = wholeNumber(k, t, PUBLISH_RATE_HZ));
        value("publish.size", (c, k, t) -> c.publishSize = wholeNumber(k, t, PUBLISH_SIZE));
        list("threads.cpus", NodeContext::bindCpus);
        value("threads.isr.cpu", (c, k, t) -> c.isrCpu = wholeNumber(k, t, CPU));
        value("threads.isr.priority", (c, k, t) -> c.isrPriority = wholeNumber(k, t, PRIORITY));
        value("threads.consumer.cpu", (c, k, t) -> c.consumerCpu = wholeNumber(k, t, CPU));
        value("threads.consumer.priority", (c, k, t) -> c.consumerPriority = wholeNumber(k, t, PRIORITY));
        value("threads.publisher.cpu", (c, k, t) -> c.publisherCpu = wholeNumber(k, t, CPU));
        value("threads.publisher.priority", (c, k, t) -> c.publisherPriority = wholeNumber(k, t, PRIORITY));
        value("threads.housekeeping.cpu", (c, k, t) -> c.housekeepingCpu = wholeNumber(k, t, CPU));
        value("threads.lockMemory", (c, k, t) -> c.lockMemory = bool(k, t));
        value("threads.cpuDmaLatency", (c, k, t) -> c.cpuDmaLatency = bool(k, t));
        value("strict", (c, k, t) -> c.strict = bool(k, t));
        value("journal.roll", (c, k, t) -> c.journalRoll = t);
        value("journal.ringBytes", (c, k, t) -> c.journalRingBytes = size(k, t));
        value("journal.enabled", (c, k, t) -> c.journalEnabled = bool(k, t));
        value("journal.dir", (c, k, t) -> c.journalDir = c.stateFolder == null ? Path.of(t) :
            c.stateFolder.resolve(t).normalize());
        value("heartbeat", (c, k, t) -> c.heartbeatNanos = duration(k, t, "e.g. 1s, 500ms, 0"));
    }

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
     * Node YAML keys whose value names a kind: spelled in lower case with hyphens, as on the command line
     * ({@code spin-then-block(50us)}); the upper-case spelling ({@code SPIN_THEN_BLOCK(50us)}) still reads, with a
     * deprecation warning.
     */
    private static final Set<String> SPELLED_KEYS = Set.of("receive.wait", "receive.mode", "receive.idle",
        "journal.roll");

    private boolean concluded;
    private final List<Problem> bindProblems = new ArrayList<>();
    private final List<String> yamlWarnings = new ArrayList<>();
    private Path fileFolder;
    private Path stateFolder;
    private String source = "node";
    private String deviceUri;
    private RfmDevice device;
    private Path layoutFile;
    private ChannelLayout layout;
    private List<String> inputNames;
    private List<ChannelSpec> inputs = List.of();
    private EventType event;
    private WaitStrategy waitStrategy;
    private ReceiveMode receiveMode;
    private ReceiveIdle receiveIdle;
    private WaitStrategy receive;
    private int inputRateHz = INPUT_RATE_HZ_DEFAULT;
    private List<Integer> cpus = List.of();
    private Boolean lockMemory;
    private Boolean cpuDmaLatency;
    private Boolean strict;
    private Integer isrCpu;
    private Integer isrPriority;
    private Integer consumerCpu;
    private Integer consumerPriority;
    private Integer publisherCpu;
    private Integer publisherPriority;
    private CpuPlacement isr;
    private CpuPlacement consumer;
    private CpuPlacement publisher;
    private CpuPlacement heartbeat = CpuPlacement.HOUSEKEEPING;
    private CpuPlacement app;
    private int housekeepingCpu = CpuPlacement.CPU_AUTO;
    private Boolean journalEnabled;
    private Path journalDir;
    private Long journalRingBytes;
    private String journalRoll;
    private Long heartbeatNanos;
    private Consumer<String> heartbeatSink = HEARTBEAT::info;
    private String publishName;
    private ChannelSpec publishChannel;
    private Integer publishRateHz;
    private Integer publishSize;
    private PayloadWriter payloadWriter = (count, payload) -> payload.putLong(0, count);
    private FrameHandler handler;
    private NodeApp nodeApp;
    private String appName = APP_NONE;
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
    public NodeContext source(final String source)
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
    public NodeContext device(final String uri)
    {
        this.deviceUri = uri;
        return this;
    }

    /**
     * @param device an open device; the node uses it and closes it with itself.
     * @return this.
     */
    public NodeContext device(final RfmDevice device)
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
    public NodeContext layout(final ChannelLayout layout)
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
    public NodeContext inputs(final List<ChannelSpec> inputs)
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
    public NodeContext event(final EventType event)
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
     * The shorthand for {@link #receiveMode(ReceiveMode)} and {@link #receiveIdle(ReceiveIdle)} together
     * ({@code receive.wait}); give it or them, not both.
     *
     * @param wait the receive mode and its idle (default {@link #WAIT_STRATEGY_DEFAULT}).
     * @return this.
     */
    public NodeContext waitStrategy(final WaitStrategy wait)
    {
        this.waitStrategy = wait;
        return this;
    }

    /** @return the receive mode and idle as one value: once concluded, the ones the receive path runs. */
    public WaitStrategy waitStrategy()
    {
        return receive != null ? receive : waitStrategy;
    }

    /**
     * @param mode which receive threads run ({@code receive.mode}, default {@link ReceiveMode#INTERRUPT}).
     * @return this.
     */
    public NodeContext receiveMode(final ReceiveMode mode)
    {
        this.receiveMode = mode;
        return this;
    }

    /** @return which receive threads run; null before {@link #conclude()} when not given. */
    public ReceiveMode receiveMode()
    {
        return receive != null ? receive.mode() : receiveMode;
    }

    /**
     * @param idle how the receive thread that takes frames waits ({@code receive.idle}, default the mode's
     *             {@link ReceiveMode#defaultIdle()}); one the mode {@link ReceiveMode#takes}.
     * @return this.
     */
    public NodeContext receiveIdle(final ReceiveIdle idle)
    {
        this.receiveIdle = idle;
        return this;
    }

    /** @return how the receive thread that takes frames waits; null before {@link #conclude()} when not given. */
    public ReceiveIdle receiveIdle()
    {
        return receive != null ? receive.idle() : receiveIdle;
    }

    /**
     * @param rateHz frames per second the input channels are expected to carry (default
     *               {@link #INPUT_RATE_HZ_DEFAULT}): the node warns at start when the ring that holds
     *               frames through a stall covers less than the receive path's stall cover (100 ms) at it.
     * @return this.
     */
    public NodeContext inputRateHz(final int rateHz)
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
    public NodeContext cpus(final List<Integer> cpus)
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
    public NodeContext lockMemory(final boolean lock)
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
    public NodeContext cpuDmaLatency(final boolean hold)
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
    public NodeContext strict(final boolean strict)
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
    public NodeContext isrPlacement(final CpuPlacement placement)
    {
        this.isrCpu = placement.cpu();
        this.isrPriority = placement.priority();
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
    public NodeContext consumerPlacement(final CpuPlacement placement)
    {
        this.consumerCpu = placement.cpu();
        this.consumerPriority = placement.priority();
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
    public NodeContext publisherPlacement(final CpuPlacement placement)
    {
        this.publisherCpu = placement.cpu();
        this.publisherPriority = placement.priority();
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
    public NodeContext heartbeatPlacement(final CpuPlacement placement)
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
    public NodeContext appPlacement(final CpuPlacement placement)
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
    public NodeContext housekeepingCpu(final int cpu)
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
    public NodeContext journalEnabled(final boolean enabled)
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
    public NodeContext journalDir(final Path dir)
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
    public NodeContext journalRingBytes(final int bytes)
    {
        this.journalRingBytes = (long)bytes;
        return this;
    }

    /** @return bytes per journal writer ring. */
    public int journalRingBytes()
    {
        return (int)(long)journalRingBytes;
    }

    /**
     * @param roll the Chronicle roll cycle name.
     * @return this.
     */
    public NodeContext journalRoll(final String roll)
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
    public NodeContext heartbeatNanos(final long nanos)
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
    public NodeContext heartbeatSink(final Consumer<String> sink)
    {
        this.heartbeatSink = sink;
        return this;
    }

    /** @return where heartbeat lines go. */
    public Consumer<String> heartbeatSink()
    {
        return heartbeatSink;
    }

    /**
     * @param channel the built-in publisher's channel (null: none).
     * @param rateHz  frames per second.
     * @param size    payload bytes.
     * @return this.
     */
    public NodeContext publish(final ChannelSpec channel, final int rateHz, final int size)
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
        return publishRateHz == null ? PUBLISH_RATE_HZ_DEFAULT : publishRateHz;
    }

    /** @return the built-in publisher's payload bytes. */
    public int publishSize()
    {
        return publishSize == null ? PUBLISH_SIZE_DEFAULT : publishSize;
    }

    /**
     * @param writer what the built-in publisher sends (default: the frame number as the first 8 bytes).
     * @return this.
     */
    public NodeContext payloadWriter(final PayloadWriter writer)
    {
        this.payloadWriter = writer;
        return this;
    }

    /** @return what the built-in publisher sends. */
    public PayloadWriter payloadWriter()
    {
        return payloadWriter;
    }

    /**
     * @param handler the handler of input frames (default: the app's, else none); set this or an app.
     * @return this.
     */
    public NodeContext handler(final FrameHandler handler)
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
    public NodeContext app(final NodeApp app)
    {
        return app(app == null ? APP_NONE : app.getClass().getName(), app);
    }

    /**
     * @param name what the app is called in messages ({@code app:} in the YAML: a factory's or a class's name).
     * @param app  the app the node runs (null: none).
     * @return this.
     */
    public NodeContext app(final String name, final NodeApp app)
    {
        this.nodeApp = app;
        this.appName = app == null ? APP_NONE : name;
        return this;
    }

    /** @return the app's name, {@value #APP_NONE} when the node runs none. */
    public String appName()
    {
        return appName;
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
    public NodeContext agent(final Agent agent, final CpuPlacement placement, final IdleStrategy idle)
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
    public NodeContext out(final Consumer<String> out)
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
    public NodeContext appOut(final Consumer<String> appOut)
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
    public NodeContext onFailure(final Runnable action)
    {
        this.onFailure = action;
        return this;
    }

    /** @return what runs when a node thread fails, or null. */
    public Runnable onFailure()
    {
        return onFailure;
    }

    /**
     * @param hook run when the app asks the node to stop (the node's {@code terminate()}): wake whoever waits to
     *             close it.
     * @return this.
     */
    public NodeContext terminationHook(final Runnable hook)
    {
        this.terminationHook = hook;
        return this;
    }

    /** @return what runs when the app asks the node to stop, or null. */
    public Runnable terminationHook()
    {
        return terminationHook;
    }

    /**
     * @param frames frames the receive path runs through before the node reports it runs.
     * @return this.
     */
    public NodeContext warmupFrames(final int frames)
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
     * @param fileFolder  folder a relative {@code layout} is relative to (the node YAML's own).
     * @param stateFolder folder a relative {@code journal.dir} is relative to, and the default journal's parent.
     * @return this.
     */
    public NodeContext yamlFolders(final Path fileFolder, final Path stateFolder)
    {
        this.fileFolder = fileFolder;
        this.stateFolder = stateFolder;
        return this;
    }

    /**
     * Set the setting a node YAML key names from the key's one value, as the file gives it. A value that does not
     * read as the setting's type is kept as a problem, named by the key and the text, and reported by
     * {@link #conclude()} with every other.
     *
     * @param key  the dotted key ({@code threads.isr.priority}).
     * @param text the value's text; null or blank: not given (the default holds). A list key takes its items
     *             separated by commas.
     * @return false when no setting has this key.
     */
    public boolean yamlValue(final String key, final String text)
    {
        final Binding binding = YAML_KEYS.get(key);
        if (binding == null)
        {
            return false;
        }
        if (text == null || text.isBlank())
        {
            return true;
        }
        if (binding.list() != null)
        {
            final List<String> items = new ArrayList<>();
            for (final String part : text.split(","))
            {
                if (!part.isBlank())
                {
                    items.add(part.trim());
                }
            }
            return yamlList(key, items);
        }
        try
        {
            binding.value().set(this, key, text.trim());
            final String canonical = SPELLED_KEYS.contains(key) ? canonicalSpelling(text.trim()) : null;
            if (canonical != null && !canonical.equals(text.trim()))
            {
                yamlWarnings.add(key + " '" + text.trim() + "' is deprecated, write '" + canonical + "'");
            }
        }
        catch (final Refusal refusal)
        {
            bindProblems.add(new Problem(key, refusal.getMessage()));
        }
        return true;
    }

    /**
     * @return every key a node YAML may give besides {@code app}, dotted ({@code threads.isr.priority}), in the order
     *         of the reference; docs/schema/node-config.schema.json names the same keys (a test holds them equal).
     */
    public static List<String> yamlKeys()
    {
        return List.copyOf(YAML_KEYS.keySet());
    }

    /**
     * @return the node YAML keys whose value names a kind ({@code receive.wait}): spelled as {@link
     *         #canonicalSpelling} says, an older spelling still read with a warning.
     */
    public static Set<String> spelledKeys()
    {
        return SPELLED_KEYS;
    }

    /**
     * @param text a value that names a kind, with its argument if any: {@code SPIN_THEN_BLOCK(50us)}.
     * @return its spelling in the node YAML and on the command line: the kind in lower case with hyphens, the
     *         argument as given ({@code spin-then-block(50us)}).
     */
    public static String canonicalSpelling(final String text)
    {
        final int paren = text.indexOf('(');
        final String kind = paren < 0 ? text : text.substring(0, paren);
        return kind.toLowerCase(Locale.ROOT).replace('_', '-') + (paren < 0 ? "" : text.substring(paren));
    }

    /**
     * @param warning one line about the node YAML that does not stop the node (an old spelling that still reads),
     *                naming the key and the value.
     * @return this.
     */
    public NodeContext yamlWarning(final String warning)
    {
        yamlWarnings.add(warning);
        return this;
    }

    /**
     * @return the node YAML's warnings, in the order found (without the file's name).
     */
    public List<String> yamlWarnings()
    {
        return List.copyOf(yamlWarnings);
    }

    /**
     * Set the setting a node YAML key names from a list the file gives.
     *
     * @param key   the dotted key ({@code receive.channels}).
     * @param items the list's items as text.
     * @return false when no setting has this key.
     * @see #yamlValue
     */
    public boolean yamlList(final String key, final List<String> items)
    {
        final Binding binding = YAML_KEYS.get(key);
        if (binding == null)
        {
            return false;
        }
        if (binding.list() == null)
        {
            bindProblems.add(new Problem(key, key + ": " + items + " is a list, not one value"));
            return true;
        }
        binding.list().set(this, key, items.stream().map(String::trim).toList());
        return true;
    }

    /**
     * Fill what was not set from its default (or its system property) and check the whole, once.
     *
     * @return this.
     * @throws ConfigException naming every problem, in the order of the YAML reference.
     */
    public NodeContext conclude()
    {
        if (concluded)
        {
            return this;
        }
        final List<Problem> problems = new ArrayList<>(bindProblems);
        if (deviceUri == null && device == null)
        {
            problems.add(new Problem("device", "missing 'device' (e.g. sim:lab1?node=2)"));
        }
        else if (device == null)
        {
            try
            {
                // the URI's form, before anything is opened: the same check for --check-config and the start
                RfmDevices.checkUri(deviceUri);
            }
            catch (final RfmException ex)
            {
                problems.add(new Problem("device", "device: " + ex.getMessage()));
            }
        }
        if (layout == null && layoutFile != null)
        {
            try
            {
                layout = ChannelLayout.load(layoutFile);
            }
            catch (final LayoutException ex)
            {
                problems.add(new Problem("layout", "layout: " + ex.getMessage()));
            }
        }
        else if (layout == null)
        {
            problems.add(new Problem("layout", "missing 'layout' (the channel layout YAML)"));
        }
        concludeReceive(problems);
        concludePublish(problems);
        concludeThreads(problems);
        concludeJournal(problems);
        heartbeatNanos = heartbeatNanos == null ? heartbeatNanosDefault() : heartbeatNanos;
        if (heartbeatNanos < 0)
        {
            problems.add(new Problem("heartbeat", "heartbeat " + heartbeatNanos + " ns is negative (0 turns it off)"));
        }
        warmupFrames = warmupFrames == null ? warmupFramesDefault() : warmupFrames;
        if (handler != null && nodeApp != null)
        {
            problems.add(new Problem("app", "app: a node takes a frame handler or an app, not both"));
        }
        throwIfAny(problems);
        concluded = true;
        return this;
    }

    private void concludeReceive(final List<Problem> problems)
    {
        if (inputNames != null && layout != null)
        {
            final List<ChannelSpec> named = new ArrayList<>();
            for (final String name : inputNames)
            {
                layout.channel(name).ifPresentOrElse(named::add, () -> problems.add(new Problem("receive.channels",
                    "receive.channels '" + name + "' is not a channel of the layout")));
            }
            inputs = List.copyOf(named);
        }
        event = event != null ? event : inputs.isEmpty() ? EventType.INTR1 : inputs.get(0).event();
        for (final ChannelSpec c : inputs)
        {
            if (c.event() != event)
            {
                problems.add(new Problem("receive.channels", "receive.channels '" + c.name() + "' is announced by " +
                    c.event() + ", not by receive.event " + event));
            }
        }
        final String clash = ReceivePath.publisherClash(inputs);
        if (clash != null)
        {
            problems.add(new Problem("receive.channels", clash));
        }
        receive = concludeWait(problems);
        INPUT_RATE_HZ.check("receive.rateHz", inputRateHz, problems);
    }

    /**
     * The receive mode and idle: {@code receive.wait} (the shorthand for both), or {@code receive.mode} and
     * {@code receive.idle}, each from its default when not given (the mode of {@link #WAIT_STRATEGY_PROP_NAME}'s
     * default, and its idle when the mode is that one, else the mode's own default idle).
     */
    private WaitStrategy concludeWait(final List<Problem> problems)
    {
        WaitStrategy fallback;
        try
        {
            fallback = WaitStrategy.parse(waitStrategyDefault());
        }
        catch (final IllegalArgumentException ex)
        {
            problems.add(new Problem("receive.wait", WAIT_STRATEGY_PROP_NAME + ": " + ex.getMessage()));
            fallback = WaitStrategy.blocking();
        }
        if (waitStrategy != null && (receiveMode != null || receiveIdle != null))
        {
            problems.add(new Problem("receive.wait", "receive.wait is the shorthand for receive.mode and " +
                "receive.idle: give it or " + (receiveMode == null ? "receive.idle" : receiveIdle == null ?
                "receive.mode" : "them") + ", not both"));
            return waitStrategy;
        }
        WaitStrategy wait = waitStrategy;
        if (wait == null)
        {
            final ReceiveMode mode = receiveMode != null ? receiveMode : fallback.mode();
            final ReceiveIdle idle = receiveIdle != null ? receiveIdle : mode == fallback.mode() ? fallback.idle() :
                mode.defaultIdle();
            try
            {
                wait = new WaitStrategy(mode, idle);
            }
            catch (final IllegalArgumentException ex)
            {
                // an idle the mode cannot use
                problems.add(new Problem("receive.idle", ex.getMessage()));
                return fallback;
            }
        }
        final String problem = wait.idle().problem();
        if (problem != null)
        {
            problems.add(waitStrategy != null ? new Problem("receive.wait", "receive.wait '" + wait + "': " +
                problem) : new Problem("receive.idle", "receive.idle '" + wait.idle() + "': " + problem));
        }
        return wait;
    }

    private void concludePublish(final List<Problem> problems)
    {
        if (publishChannel == null && publishName != null && layout != null)
        {
            publishChannel = layout.channel(publishName).orElse(null);
            if (publishChannel == null)
            {
                problems.add(new Problem("publish.channel", "publish.channel '" + publishName +
                    "' is not a channel of the layout"));
            }
        }
        else if (publishChannel == null && publishName == null && (publishRateHz != null || publishSize != null))
        {
            problems.add(new Problem("publish.channel", "publish: missing 'publish.channel'"));
        }
        if (publishChannel != null)
        {
            // the defaults stay unwritten: a conclude that failed and is asked again tells given from default
            PUBLISH_RATE_HZ.check("publish.rateHz", publishRateHz(), problems);
            new Range(PUBLISH_SIZE.min(), publishChannel.maxPayload()).check("publish.size", publishSize(), problems);
        }
    }

    private void concludeThreads(final List<Problem> problems)
    {
        for (final int cpu : cpus)
        {
            if (!RT_CPU.contains(cpu))
            {
                problems.add(new Problem("threads.cpus", "threads.cpus '" + cpu + "' is not a cpu number"));
            }
        }
        lockMemory = lockMemory == null ? lockMemoryDefault() : lockMemory;
        cpuDmaLatency = cpuDmaLatency == null ? cpuDmaLatencyDefault() : cpuDmaLatency;
        strict = strict == null ? strictDefault() : strict;
        isr = placement("threads.isr", isrCpu, isrPriority, isrPriorityDefault(), problems);
        consumer = placement("threads.consumer", consumerCpu, consumerPriority, consumerPriorityDefault(), problems);
        publisher = placement("threads.publisher", publisherCpu, publisherPriority, publisherPriorityDefault(),
            problems);
        app = app == null ? publisher : app;
        placement("heartbeat placement", heartbeat.cpu(), heartbeat.priority(), 0, problems);
        for (final NodeAgent a : agents)
        {
            placement("agent " + a.agent().roleName(), a.placement().cpu(), a.placement().priority(), 0, problems);
        }
        if (housekeepingCpu != CpuPlacement.CPU_AUTO)
        {
            CPU.check("threads.housekeeping.cpu", housekeepingCpu, problems);
        }
    }

    private void concludeJournal(final List<Problem> problems)
    {
        journalEnabled = journalEnabled == null ? journalEnabledDefault() : journalEnabled;
        journalRingBytes = journalRingBytes == null ? (long)journalRingBytesDefault() : journalRingBytes;
        // Chronicle's name of the spelling given (fast-hourly, FAST_HOURLY)
        journalRoll = (journalRoll == null ? journalRollDefault() : journalRoll).toUpperCase(Locale.ROOT)
            .replace('-', '_');
        if (!ROLLS.contains(journalRoll))
        {
            problems.add(new Problem("journal.roll", "journal.roll '" + journalRoll + "' is not one of " +
                new TreeSet<>(ROLLS)));
        }
        if (journalRingBytes < 4096 || journalRingBytes > (1 << 30) || Long.bitCount(journalRingBytes) != 1)
        {
            problems.add(new Problem("journal.ringBytes", "journal.ringBytes " + journalRingBytes +
                " is not a power of two between 4K and 1G"));
        }
        if (journalDir == null && stateFolder != null)
        {
            journalDir = stateFolder.resolve(JOURNAL_DIR_DEFAULT).normalize();
        }
        if (journalEnabled && journalDir == null)
        {
            problems.add(new Problem("journal.dir", "missing 'journal.dir' (or journal.enabled: false)"));
        }
        else if (journalEnabled && Files.exists(journalDir) && !Files.isDirectory(journalDir))
        {
            problems.add(new Problem("journal.dir", "journal.dir " + journalDir + " is not a folder"));
        }
    }

    private static CpuPlacement placement(final String key, final Integer cpu, final Integer priority,
        final int defaultPriority, final List<Problem> problems)
    {
        final CpuPlacement p = new CpuPlacement(cpu == null ? CpuPlacement.CPU_AUTO : cpu,
            priority == null ? defaultPriority : priority);
        if (p.cpu() != CpuPlacement.CPU_AUTO)
        {
            CPU.check(key + ".cpu", p.cpu(), problems);
        }
        PRIORITY.check(key + ".priority", p.priority(), problems);
        return p;
    }

    /**
     * Everything the start checks before it opens or makes anything, and all that
     * {@code rfmrt node --check-config} runs: the settings ({@link #conclude()}); the network the device URI joins,
     * by what opening it would give ({@link RfmDevices#plan}: the node id, the memory of the network there or of
     * the one it would make) as {@link #checkDevice} checks them; the RT cpus against the online ones; the journal
     * folder ({@link Journal#folderProblem}); and the app's own check of the node ({@link NodeApp#check}). The start
     * checks the device again once it is open: a card tells its node id and memory only then.
     *
     * @return this.
     * @throws ConfigException naming every problem.
     * @throws RfmException when the network there cannot be read, as opening it would.
     */
    public NodeContext check()
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
            final RfmDevices.Plan plan = RfmDevices.plan(deviceUri);
            nodeId = plan.nodeId();
            memorySize = plan.memorySize();
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

    /**
     * Check the settings against the device the node opened, before any thread starts: the built-in publisher's
     * channel must be this node's, no input channel may be this node's own, and the layout's memory and every
     * channel and variable of it must lie inside the network's memory.
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
     * @return the RT environment's settings of this node (its cpus, strictness, memory lock, DMA latency hold).
     */
    public RtSettings rtSettings()
    {
        return new RtSettings(cpus, strict, lockMemory, cpuDmaLatency, Path.of("/"));
    }

    /**
     * The channels a journal records beside its frames, so that a recording plays back without its configuration:
     * the node's input channels and its built-in publisher's channel, with the layout's memory size.
     *
     * @return the layout the journal records.
     */
    public ChannelLayout journalLayout()
    {
        final List<ChannelSpec> channels = new ArrayList<>(inputs);
        if (publishChannel != null && !channels.contains(publishChannel))
        {
            channels.add(publishChannel);
        }
        return new ChannelLayout(layout.memorySize(), List.copyOf(channels), List.of());
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

    private void throwIfAny(final List<Problem> problems)
    {
        if (!problems.isEmpty())
        {
            final List<String> keys = List.copyOf(YAML_KEYS.keySet());
            throw new ConfigException(source, problems.stream()
                .sorted(Comparator.comparingInt(p -> p.order(keys)))
                .map(Problem::line)
                .toList());
        }
    }

    /** @return {@link #ISR_PRIORITY_PROP_NAME} or its default. */
    public static int isrPriorityDefault()
    {
        return Integer.getInteger(ISR_PRIORITY_PROP_NAME, ISR_PRIORITY_DEFAULT);
    }

    /** @return {@link #CONSUMER_PRIORITY_PROP_NAME} or its default. */
    public static int consumerPriorityDefault()
    {
        return Integer.getInteger(CONSUMER_PRIORITY_PROP_NAME, CONSUMER_PRIORITY_DEFAULT);
    }

    /** @return {@link #PUBLISHER_PRIORITY_PROP_NAME} or its default. */
    public static int publisherPriorityDefault()
    {
        return Integer.getInteger(PUBLISHER_PRIORITY_PROP_NAME, PUBLISHER_PRIORITY_DEFAULT);
    }

    /** @return {@link #WAIT_STRATEGY_PROP_NAME} or its default, as text. */
    public static String waitStrategyDefault()
    {
        return System.getProperty(WAIT_STRATEGY_PROP_NAME, WAIT_STRATEGY_DEFAULT);
    }

    /** @return {@link #LOCK_MEMORY_PROP_NAME} or its default. */
    public static boolean lockMemoryDefault()
    {
        return property(LOCK_MEMORY_PROP_NAME, LOCK_MEMORY_DEFAULT);
    }

    /** @return {@link #CPU_DMA_LATENCY_PROP_NAME} or its default. */
    public static boolean cpuDmaLatencyDefault()
    {
        return property(CPU_DMA_LATENCY_PROP_NAME, CPU_DMA_LATENCY_DEFAULT);
    }

    /** @return {@link #STRICT_PROP_NAME} or its default. */
    public static boolean strictDefault()
    {
        return property(STRICT_PROP_NAME, STRICT_DEFAULT);
    }

    /** @return {@link #HEARTBEAT_NS_PROP_NAME} or its default. */
    public static long heartbeatNanosDefault()
    {
        return Long.getLong(HEARTBEAT_NS_PROP_NAME, HEARTBEAT_NS_DEFAULT);
    }

    /** @return {@link #JOURNAL_ENABLED_PROP_NAME} or its default. */
    public static boolean journalEnabledDefault()
    {
        return property(JOURNAL_ENABLED_PROP_NAME, JOURNAL_ENABLED_DEFAULT);
    }

    /** @return {@link #JOURNAL_RING_BYTES_PROP_NAME} or its default. */
    public static int journalRingBytesDefault()
    {
        return Integer.getInteger(JOURNAL_RING_BYTES_PROP_NAME, JOURNAL_RING_BYTES_DEFAULT);
    }

    /** @return {@link #JOURNAL_ROLL_PROP_NAME} or its default. */
    public static String journalRollDefault()
    {
        return System.getProperty(JOURNAL_ROLL_PROP_NAME, JOURNAL_ROLL_DEFAULT);
    }

    /** @return {@link #WARMUP_FRAMES_PROP_NAME} or its default. */
    public static int warmupFramesDefault()
    {
        return Integer.getInteger(WARMUP_FRAMES_PROP_NAME, WARMUP_FRAMES_DEFAULT);
    }

    private static boolean property(final String name, final boolean fallback)
    {
        final String value = System.getProperty(name);
        return value == null ? fallback : Boolean.parseBoolean(value.trim());
    }

    private static void value(final String key, final ValueSetter setter)
    {
        YAML_KEYS.put(key, new Binding(setter, null));
    }

    private static void list(final String key, final ListSetter setter)
    {
        YAML_KEYS.put(key, new Binding(null, setter));
    }

    private static void bindCpus(final NodeContext ctx, final String key, final List<String> items)
    {
        final List<Integer> read = new ArrayList<>();
        for (final String item : items)
        {
            try
            {
                read.add(wholeNumber(key, item, RT_CPU));
            }
            catch (final Refusal refusal)
            {
                ctx.bindProblems.add(new Problem(key, key + " '" + item + "' is not a cpu number"));
            }
        }
        ctx.cpus = List.copyOf(read);
    }

    private static int wholeNumber(final String key, final String text, final Range range)
    {
        final long n;
        try
        {
            n = Sizes.parseNumber(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new Refusal(key + " '" + text + "' is not a whole number " + range);
        }
        if (!range.contains(n))
        {
            throw new Refusal(range.problem(key, n));
        }
        return (int)n;
    }

    private static long size(final String key, final String text)
    {
        try
        {
            return Sizes.parseSize(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new Refusal(key + " '" + text + "' is not a size (e.g. 1M)");
        }
    }

    private static boolean bool(final String key, final String text)
    {
        if ("true".equalsIgnoreCase(text) || "false".equalsIgnoreCase(text))
        {
            return Boolean.parseBoolean(text);
        }
        throw new Refusal(key + " '" + text + "' is not true or false");
    }

    private static long duration(final String key, final String text, final String example)
    {
        try
        {
            // the one duration grammar (docs/runtime.md); a bare number is seconds
            return Units.parseDuration(text, TimeUnit.SECONDS);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new Refusal(key + " '" + text + "' is not a duration (" + example + ")");
        }
    }

    /** A value parsed by a parser whose message starts with the value ({@code 'x' is not ...}): the key before it. */
    private static <T> T named(final String key, final String text, final Function<String, T> parser)
    {
        try
        {
            return parser.apply(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new Refusal(key + " " + ex.getMessage());
        }
    }

    private static <T> T parsed(final String key, final String text, final Function<String, T> parser)
    {
        try
        {
            return parser.apply(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new Refusal(key + ": " + ex.getMessage());
        }
    }

    /** Sets a setting from the text of its key. */
    @FunctionalInterface
    private interface ValueSetter
    {
        void set(NodeContext ctx, String key, String text);
    }

    /** Sets a setting from the items of its key's list. */
    @FunctionalInterface
    private interface ListSetter
    {
        void set(NodeContext ctx, String key, List<String> items);
    }

    /** How one YAML key sets the context: from one value, or from a list. */
    private record Binding(ValueSetter value, ListSetter list)
    {
    }

    /** One problem, named by the YAML key it belongs to (its place in the report). */
    private record Problem(String key, String line)
    {
        int order(final List<String> keys)
        {
            final int i = keys.indexOf(key);
            return i < 0 ? keys.size() : i;
        }
    }

    /** The whole numbers a setting takes, and the one line that refuses another. */
    private record Range(long min, long max)
    {
        boolean contains(final long n)
        {
            return n >= min && n <= max;
        }

        String problem(final String key, final long n)
        {
            return key + " " + n + " is not " + this;
        }

        void check(final String key, final long n, final List<Problem> problems)
        {
            if (!contains(n))
            {
                problems.add(new Problem(key, problem(key, n)));
            }
        }

        @Override
        public String toString()
        {
            return min + ".." + max;
        }
    }

    /** A value the YAML gives that does not read as its setting's type: the line that says so. */
    private static final class Refusal extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        Refusal(final String line)
        {
            super(line, null, false, false);
        }
    }
}
