package io.rfmrt.runtime.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.Sizes;
import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.LayoutException;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.RuntimeConfiguration;
import io.rfmrt.runtime.WaitStrategy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One node's configuration, loaded from YAML and validated as a whole; every problem names its key (dotted, as in
 * the reference in docs/runtime.md) and the bad value.
 * <pre>
 * device: sim:lab1?node=2            # device URI
 * layout: layout.yaml                # relative to this file
 * receive:
 *   channels: [sensor]               # input channels of the layout (empty: this node only publishes)
 *   event: INTR1                     # default: the channels' event
 *   wait: BLOCKING                   # BLOCKING | SPIN_THEN_BLOCK(ns) | BUSY_SPIN | POLLING(ns) | INLINE
 * publish:                           # optional built-in source of test frames
 *   channel: command
 *   rateHz: 1000
 *   size: 64
 * threads:
 *   cpus: [2, 3]                     # cores for RT threads; empty: /sys/devices/system/cpu/isolated
 *   isr:       {cpu: 2, priority: 80}
 *   consumer:  {cpu: 3, priority: 70}
 *   publisher: {cpu: 3, priority: 60}
 *   housekeeping: {cpu: 0}           # journal and heartbeat threads, SCHED_OTHER
 *   lockMemory: true
 *   cpuDmaLatency: false
 * strict: false                      # refuse to run when an RT step is refused
 * journal:
 *   enabled: true
 *   dir: journal                     # relative to $STATE_DIRECTORY when set, else to this file
 *   roll: HOURLY
 *   ringBytes: 1M
 * heartbeat: 1s                      # 0 turns it off
 * app: none                          # none | controller | plant | {name: controller, ...settings}
 *                                    #   | {class: com.example.MyLaw, ...settings} (a jar on the classpath)
 * </pre>
 * {@link #context()} turns it into the {@link RfmNode.Context} the node is composed from; settings not given here
 * come from {@link RuntimeConfiguration} (system properties override its defaults).
 *
 * @param source        the file, for messages.
 * @param device        device URI.
 * @param layout        the loaded layout.
 * @param inputs        input channels.
 * @param event         event type that announces input frames.
 * @param waitStrategy  consumer wait strategy.
 * @param inputRateHz   frames per second the input channels are expected to carry (ring sizing).
 * @param publish       built-in publisher, or null.
 * @param threads       thread placement.
 * @param strict        fail on any refused RT step.
 * @param journal       journal settings.
 * @param heartbeatNanos heartbeat period, 0 = off.
 * @param app           the app the node runs ({@link App#NONE}: none).
 */
public record NodeConfig(
    String source,
    String device,
    ChannelLayout layout,
    List<ChannelSpec> inputs,
    EventType event,
    WaitStrategy waitStrategy,
    int inputRateHz,
    Publish publish,
    Threads threads,
    boolean strict,
    Journal journal,
    long heartbeatNanos,
    App app)
{
    /** Placement cpu meaning "choose": the first RT core for RT threads, the housekeeping core for the journal. */
    public static final int CPU_AUTO = -2;
    /** Placement cpu meaning "do not pin". */
    public static final int CPU_NONE = -1;

    /** Default heartbeat period: 1 s. */
    public static final long HEARTBEAT_DEFAULT_NS = RuntimeConfiguration.HEARTBEAT_NS_DEFAULT;

    private static final Set<String> KEYS = Set.of(
        "device", "layout", "receive.channels", "receive.event", "receive.wait", "receive.rateHz", "publish.channel", "publish.rateHz",
        "publish.size", "threads.cpus", "threads.isr.cpu", "threads.isr.priority", "threads.consumer.cpu",
        "threads.consumer.priority", "threads.publisher.cpu", "threads.publisher.priority",
        "threads.housekeeping.cpu", "threads.lockMemory", "threads.cpuDmaLatency", "strict", "journal.enabled",
        "journal.dir", "journal.roll", "journal.ringBytes", "heartbeat");

    /** The variable systemd sets to the service's {@code StateDirectory=} folders. */
    public static final String STATE_DIRECTORY_VARIABLE = "STATE_DIRECTORY";

    private static final Set<String> ROLLS = Set.of("MINUTELY", "FIVE_MINUTELY", "TEN_MINUTELY", "HALF_HOURLY",
        "HOURLY", "TWO_HOURLY", "FOUR_HOURLY", "SIX_HOURLY", "DAILY", "FAST_HOURLY", "FAST_DAILY");

    /**
     * The file as written, bound by Jackson: scalars as text (each is checked and converted with the key it came
     * from, so that every bad value is reported, not only the first), lists and the app's settings as trees.
     *
     * @param device    {@code device}.
     * @param layout    {@code layout}.
     * @param receive   {@code receive}.
     * @param publish   {@code publish}.
     * @param threads   {@code threads}.
     * @param strict    {@code strict}.
     * @param journal   {@code journal}.
     * @param heartbeat {@code heartbeat}.
     * @param app       {@code app}.
     */
    record Yaml(String device, String layout, ReceiveYaml receive, PublishYaml publish, ThreadsYaml threads,
        String strict, JournalYaml journal, String heartbeat, JsonNode app)
    {
        Yaml
        {
            receive = receive == null ? new ReceiveYaml(null, null, null, null) : receive;
            publish = publish == null ? new PublishYaml(null, null, null) : publish;
            threads = threads == null ? new ThreadsYaml(null, null, null, null, null, null, null) : threads;
            journal = journal == null ? new JournalYaml(null, null, null, null) : journal;
        }
    }

    /**
     * @param channels     {@code receive.channels}: a list or a comma-separated string.
     * @param event        {@code receive.event}.
     * @param waitStrategy {@code receive.wait}.
     * @param rateHz       {@code receive.rateHz}.
     */
    record ReceiveYaml(JsonNode channels, String event, @JsonProperty("wait") String waitStrategy, String rateHz)
    {
    }

    /**
     * @param channel {@code publish.channel}.
     * @param rateHz  {@code publish.rateHz}.
     * @param size    {@code publish.size}.
     */
    record PublishYaml(String channel, String rateHz, String size)
    {
    }

    /**
     * @param cpu      {@code .cpu}.
     * @param priority {@code .priority}.
     */
    record PlacementYaml(String cpu, String priority)
    {
    }

    /**
     * @param cpus          {@code threads.cpus}.
     * @param isr           {@code threads.isr}.
     * @param consumer      {@code threads.consumer}.
     * @param publisher     {@code threads.publisher}.
     * @param housekeeping  {@code threads.housekeeping}.
     * @param lockMemory    {@code threads.lockMemory}.
     * @param cpuDmaLatency {@code threads.cpuDmaLatency}.
     */
    record ThreadsYaml(JsonNode cpus, PlacementYaml isr, PlacementYaml consumer, PlacementYaml publisher,
        PlacementYaml housekeeping, String lockMemory, String cpuDmaLatency)
    {
        ThreadsYaml
        {
            isr = isr == null ? new PlacementYaml(null, null) : isr;
            consumer = consumer == null ? new PlacementYaml(null, null) : consumer;
            publisher = publisher == null ? new PlacementYaml(null, null) : publisher;
            housekeeping = housekeeping == null ? new PlacementYaml(null, null) : housekeeping;
        }
    }

    /**
     * @param enabled   {@code journal.enabled}.
     * @param dir       {@code journal.dir}.
     * @param roll      {@code journal.roll}.
     * @param ringBytes {@code journal.ringBytes}.
     */
    record JournalYaml(String enabled, String dir, String roll, String ringBytes)
    {
    }

    private static final ObjectMapper BINDER = new ObjectMapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * The app a node runs.
     *
     * @param name     {@code none}, a factory's name, or the class name.
     * @param instance the configured app, null for none.
     */
    public record App(String name, NodeApp instance)
    {
        /** No app: frames are only journaled (today's plain node). */
        public static final App NONE = new App("none", null);
    }

    /**
     * A thread's place.
     *
     * @param cpu      core; {@link #CPU_NONE} = not pinned, {@link #CPU_AUTO} = the first RT core.
     * @param priority SCHED_FIFO 1..99, 0 = SCHED_OTHER.
     */
    public record Placement(int cpu, int priority)
    {
        io.rfmrt.runtime.CpuPlacement toRuntime()
        {
            return new io.rfmrt.runtime.CpuPlacement(cpu, priority);
        }
    }

    /**
     * Thread placement.
     *
     * @param cpus          RT cores, empty = discover.
     * @param isr           ISR-wake thread.
     * @param consumer      consumer thread.
     * @param publisher     built-in publisher thread.
     * @param housekeeping  journal core; {@link #CPU_NONE} = not pinned, {@link #CPU_AUTO} = the first core that is
     *                      not an RT core.
     * @param lockMemory    mlockall.
     * @param cpuDmaLatency hold /dev/cpu_dma_latency at 0.
     */
    public record Threads(List<Integer> cpus, Placement isr, Placement consumer, Placement publisher,
        int housekeeping, boolean lockMemory, boolean cpuDmaLatency)
    {
    }

    /**
     * Built-in source of test frames.
     *
     * @param channel the output channel.
     * @param rateHz  frames per second.
     * @param size    payload bytes.
     */
    public record Publish(ChannelSpec channel, int rateHz, int size)
    {
    }

    /**
     * Journal settings.
     *
     * @param enabled   journal or not.
     * @param dir       folder.
     * @param roll      Chronicle roll cycle name.
     * @param ringBytes bytes per writer ring.
     */
    public record Journal(boolean enabled, Path dir, String roll, int ringBytes)
    {
    }

    /**
     * @param file a node YAML file.
     * @return the validated configuration.
     * @throws ConfigException naming the file and every bad key.
     */
    public static NodeConfig load(final Path file)
    {
        return load(file, stateDirectory(System.getenv(STATE_DIRECTORY_VARIABLE)));
    }

    /**
     * @param file     a node YAML file.
     * @param stateDir folder a relative {@code journal.dir} is relative to; null: the file's folder.
     * @return the validated configuration.
     * @throws ConfigException naming the file and every bad key.
     */
    public static NodeConfig load(final Path file, final Path stateDir)
    {
        final String text;
        try
        {
            text = io.rfmrt.rfm.TextFiles.read(file, io.rfmrt.rfm.TextFiles.MAX_CONFIG_BYTES);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ConfigException(file.toString(), List.of(ex.getMessage()));
        }
        final Path base = file.toAbsolutePath().getParent();
        return parse(file.toString(), text, base, stateDir == null ? base : stateDir);
    }

    /**
     * The folder systemd gives a service for its state ({@code StateDirectory=}, passed as {@code $STATE_DIRECTORY},
     * several folders separated by colons): the first one, when it is an absolute path.
     *
     * @param variable the variable's value, or null when it is not set.
     * @return the folder, or null when there is none.
     */
    public static Path stateDirectory(final String variable)
    {
        if (variable == null || variable.isBlank())
        {
            return null;
        }
        final String first = variable.split(":", -1)[0].trim();
        return first.startsWith("/") ? Path.of(first) : null;
    }

    /**
     * @param source name of the origin, for messages.
     * @param yaml   the configuration.
     * @param base   folder that relative paths are relative to.
     * @return the validated configuration.
     * @throws ConfigException naming the source and every bad key.
     */
    public static NodeConfig parse(final String source, final String yaml, final Path base)
    {
        return parse(source, yaml, base, base);
    }

    /**
     * @param source   name of the origin, for messages.
     * @param yaml     the configuration.
     * @param base     folder that relative paths are relative to (the layout).
     * @param stateDir folder that a relative {@code journal.dir} is relative to.
     * @return the validated configuration.
     * @throws ConfigException naming the source and every bad key.
     */
    public static NodeConfig parse(final String source, final String yaml, final Path base, final Path stateDir)
    {
        final JsonNode root;
        try
        {
            root = new ObjectMapper(new YAMLFactory())
                .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION).readTree(yaml);
        }
        catch (final IOException ex)
        {
            final java.util.regex.Matcher dup = io.rfmrt.rfm.TextFiles.DUPLICATE_KEY.matcher(
                String.valueOf(ex.getMessage()));
            if (dup.find())
            {
                throw new ConfigException(source, List.of("duplicate key '" + dup.group(1) + "'"));
            }
            throw new ConfigException(source, List.of("not valid YAML: " +
                String.valueOf(ex.getMessage()).lines().findFirst().orElse("")));
        }
        if (root == null || !root.isObject())
        {
            throw new ConfigException(source, List.of("expected a mapping of settings"));
        }
        final Map<String, JsonNode> values = new TreeMap<>();
        flatten("", root, values);
        final Reader r = new Reader();
        for (final String key : values.keySet())
        {
            if (!KEYS.contains(key) && !key.equals("app") && !key.startsWith("app."))
            {
                r.problems.add("unknown key '" + key + "'");
            }
        }
        final Yaml y;
        try
        {
            y = bind((com.fasterxml.jackson.databind.node.ObjectNode)root.deepCopy(), values, r.problems);
        }
        catch (final ConfigException ex)
        {
            throw new ConfigException(source, r.problems);
        }

        final String device = r.text("device", y.device(), null);
        if (device == null)
        {
            r.problems.add("missing 'device' (e.g. sim:lab1?node=2)");
        }
        else
        {
            try
            {
                // the URI's form, before anything is opened: the same check for --check-config and the start
                RfmDevices.checkUri(device);
            }
            catch (final RfmException ex)
            {
                r.problems.add("device: " + ex.getMessage());
            }
        }
        final String layoutName = r.text("layout", y.layout(), null);
        ChannelLayout layout = null;
        if (layoutName == null)
        {
            r.problems.add("missing 'layout' (the channel layout YAML)");
        }
        else
        {
            try
            {
                layout = ChannelLayout.load(base.resolve(layoutName));
            }
            catch (final LayoutException ex)
            {
                r.problems.add("layout: " + ex.getMessage());
            }
        }

        final List<ChannelSpec> inputs = new ArrayList<>();
        for (final String name : r.list(y.receive().channels()))
        {
            if (layout != null)
            {
                layout.channel(name).ifPresentOrElse(inputs::add, () -> r.problems.add(
                    "receive.channels '" + name + "' is not a channel of the layout"));
            }
        }
        EventType event = inputs.isEmpty() ? EventType.INTR1 : inputs.get(0).event();
        final String eventText = r.text("receive.event", y.receive().event(), null);
        if (eventText != null)
        {
            try
            {
                event = EventType.parse(eventText);
            }
            catch (final IllegalArgumentException ex)
            {
                r.problems.add("receive.event: " + ex.getMessage());
            }
        }
        for (final ChannelSpec c : inputs)
        {
            if (c.event() != event)
            {
                r.problems.add("receive.channels '" + c.name() + "' is announced by " + c.event() +
                    ", not by receive.event " + event);
            }
        }
        final Set<Integer> publishers = new java.util.HashSet<>();
        for (final ChannelSpec c : inputs)
        {
            if (!publishers.add(c.node()))
            {
                r.problems.add("receive.channels: two input channels are published by node " + c.node() +
                    " (the receiver tells channels apart by publisher)");
            }
        }
        WaitStrategy wait = WaitStrategy.blocking();
        try
        {
            wait = WaitStrategy.parse(r.text("receive.wait", y.receive().waitStrategy(), RuntimeConfiguration.waitStrategy()));
        }
        catch (final IllegalArgumentException ex)
        {
            r.problems.add("receive.wait: " + ex.getMessage());
        }
        final int inputRate = (int)r.number("receive.rateHz", y.receive().rateHz(),
            ReceivePath.INPUT_RATE_DEFAULT_HZ, 1, 1_000_000);

        Publish publish = null;
        final String publishChannel = r.text("publish.channel", y.publish().channel(), null);
        if (publishChannel != null && layout != null)
        {
            final ChannelSpec out = layout.channel(publishChannel).orElse(null);
            if (out == null)
            {
                r.problems.add("publish.channel '" + publishChannel + "' is not a channel of the layout");
            }
            final int rate = (int)r.number("publish.rateHz", y.publish().rateHz(), 1000, 1, 100_000);
            final int size = (int)r.number("publish.size", y.publish().size(), 64, 16, out == null ? 1 << 20 : out.maxPayload());
            publish = out == null ? null : new Publish(out, rate, size);
        }
        else if (values.keySet().stream().anyMatch(k -> k.startsWith("publish.") || k.equals("publish")))
        {
            if (publishChannel == null)
            {
                r.problems.add("publish: missing 'publish.channel'");
            }
        }

        final List<Integer> cpus = new ArrayList<>();
        for (final String cpu : r.list(y.threads().cpus()))
        {
            try
            {
                final int c = Integer.parseInt(cpu);
                if (c < 0 || c > 4095)
                {
                    throw new NumberFormatException();
                }
                cpus.add(c);
            }
            catch (final NumberFormatException ex)
            {
                r.problems.add("threads.cpus '" + cpu + "' is not a cpu number");
            }
        }
        final Threads threads = new Threads(List.copyOf(cpus),
            new Placement((int)r.number("threads.isr.cpu", y.threads().isr().cpu(), CPU_AUTO, -1, 4095),
                (int)r.number("threads.isr.priority", y.threads().isr().priority(), RuntimeConfiguration.isrPriority(), 0, 99)),
            new Placement((int)r.number("threads.consumer.cpu", y.threads().consumer().cpu(), CPU_AUTO, -1, 4095),
                (int)r.number("threads.consumer.priority", y.threads().consumer().priority(), RuntimeConfiguration.consumerPriority(), 0, 99)),
            new Placement((int)r.number("threads.publisher.cpu", y.threads().publisher().cpu(), CPU_AUTO, -1, 4095),
                (int)r.number("threads.publisher.priority", y.threads().publisher().priority(), RuntimeConfiguration.publisherPriority(),
                    0, 99)),
            (int)r.number("threads.housekeeping.cpu", y.threads().housekeeping().cpu(), CPU_AUTO, -1, 4095),
            r.bool("threads.lockMemory", y.threads().lockMemory(), RuntimeConfiguration.lockMemory()),
            r.bool("threads.cpuDmaLatency", y.threads().cpuDmaLatency(), RuntimeConfiguration.cpuDmaLatency()));
        final boolean strict = r.bool("strict", y.strict(), RuntimeConfiguration.strict());

        final String roll = r.text("journal.roll", y.journal().roll(), RuntimeConfiguration.journalRoll()).toUpperCase(java.util.Locale.ROOT);
        if (!ROLLS.contains(roll))
        {
            r.problems.add("journal.roll '" + roll + "' is not one of " + new java.util.TreeSet<>(ROLLS));
        }
        final long ring = r.size("journal.ringBytes", y.journal().ringBytes(), RuntimeConfiguration.journalRingBytes());
        if (ring < 4096 || ring > (1 << 30) || Long.bitCount(ring) != 1)
        {
            r.problems.add("journal.ringBytes " + ring + " is not a power of two between 4K and 1G");
        }
        final Journal journal = new Journal(r.bool("journal.enabled", y.journal().enabled(), RuntimeConfiguration.journalEnabled()),
            stateDir.resolve(r.text("journal.dir", y.journal().dir(), "journal")).normalize(), roll, (int)Math.min(ring, 1 << 30));
        if (journal.enabled() && Files.exists(journal.dir()) && !Files.isDirectory(journal.dir()))
        {
            r.problems.add("journal.dir " + journal.dir() + " is not a folder");
        }

        long heartbeat = RuntimeConfiguration.heartbeatNanos();
        final String beat = r.text("heartbeat", y.heartbeat(), null);
        if (beat != null)
        {
            heartbeat = parseDuration(beat, r.problems);
        }
        final App app = NodeApps.resolve(y.app(), r.problems);
        if (!r.problems.isEmpty())
        {
            throw new ConfigException(source, r.problems);
        }
        return new NodeConfig(source, device, layout, List.copyOf(inputs), event, wait, inputRate, publish, threads, strict,
            journal, heartbeat, app);
    }

    /**
     * Check the configuration against the device it opened, before any thread starts: the built-in publisher's
     * channel must be this node's, no input channel may be this node's own, and every channel and variable of the
     * layout must lie inside the network's memory.
     *
     * @param nodeId     the device's node id.
     * @param memorySize the device's memory, bytes.
     * @throws ConfigException naming each problem.
     */
    public void checkDevice(final int nodeId, final long memorySize)
    {
        context().checkDevice(nodeId, memorySize);
    }

    /**
     * @return a new, concluded node context of these settings (device URI, layout, placements, journal, app).
     */
    public RfmNode.Context context()
    {
        final RfmNode.Context ctx = new RfmNode.Context()
            .source(source)
            .device(device)
            .layout(layout)
            .inputs(inputs)
            .event(event)
            .waitStrategy(waitStrategy)
            .inputRateHz(inputRateHz)
            .cpus(threads.cpus())
            .isrPlacement(threads.isr().toRuntime())
            .consumerPlacement(threads.consumer().toRuntime())
            .publisherPlacement(threads.publisher().toRuntime())
            .housekeepingCpu(threads.housekeeping())
            .lockMemory(threads.lockMemory())
            .cpuDmaLatency(threads.cpuDmaLatency())
            .strict(strict)
            .journalEnabled(journal.enabled())
            .journalDir(journal.dir())
            .journalRoll(journal.roll())
            .journalRingBytes(journal.ringBytes())
            .heartbeatNanos(heartbeatNanos)
            .app(app.instance());
        if (publish != null)
        {
            ctx.publish(publish.channel(), publish.rateHz(), publish.size());
        }
        return ctx.conclude();
    }

    /**
     * Bind the file to {@link Yaml}. A value of the wrong shape (a scalar where a mapping belongs, a list where one
     * value belongs) is named once and left out, and binding goes on, so that every such key is reported.
     */
    private static Yaml bind(final com.fasterxml.jackson.databind.node.ObjectNode tree,
        final Map<String, JsonNode> values, final List<String> problems)
    {
        for (int attempt = 0; attempt < 64; attempt++)
        {
            try
            {
                return BINDER.treeToValue(tree, Yaml.class);
            }
            catch (final JsonProcessingException ex)
            {
                final List<String> path = new ArrayList<>();
                if (ex instanceof JsonMappingException m)
                {
                    for (final JsonMappingException.Reference ref : m.getPath())
                    {
                        if (ref.getFieldName() == null)
                        {
                            break;
                        }
                        path.add(ref.getFieldName());
                    }
                }
                final String key = String.join(".", path);
                if (problems.stream().noneMatch(p -> p.startsWith("unknown key '" + key)))
                {
                    final JsonNode value = values.get(key);
                    problems.add(key + ": " + (value == null ? "is a mapping, not one value" :
                        value.isArray() ? value + " is a list, not one value" :
                            "'" + value.asText() + "' is not a mapping of settings"));
                }
                JsonNode parent = tree;
                for (int i = 0; i < path.size() - 1 && parent != null; i++)
                {
                    parent = parent.get(path.get(i));
                }
                if (path.isEmpty() || !(parent instanceof com.fasterxml.jackson.databind.node.ObjectNode o) ||
                    o.remove(path.get(path.size() - 1)) == null)
                {
                    break;
                }
            }
        }
        throw new ConfigException("", problems);
    }

    private static long parseDuration(final String text, final List<String> problems)
    {
        try
        {
            // the one duration grammar (docs/runtime.md); a bare number is seconds
            return io.rfmrt.rfm.Units.parseDuration(text, java.util.concurrent.TimeUnit.SECONDS);
        }
        catch (final IllegalArgumentException ex)
        {
            problems.add("heartbeat '" + text + "' is not a duration (e.g. 1s, 500ms, 0)");
            return 0;
        }
    }

    private static void flatten(final String prefix, final JsonNode node, final Map<String, JsonNode> into)
    {
        if (node.isObject())
        {
            final Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext())
            {
                final Map.Entry<String, JsonNode> field = fields.next();
                flatten(prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(), field.getValue(), into);
            }
        }
        else
        {
            into.put(prefix, node);
        }
    }

    /** Typed reads of the bound values, each named by its key, collecting problems. */
    private static final class Reader
    {
        final List<String> problems = new ArrayList<>();

        String text(final String key, final String value, final String fallback)
        {
            return value == null || value.isBlank() ? fallback : value.trim();
        }

        List<String> list(final JsonNode v)
        {
            final List<String> items = new ArrayList<>();
            if (v == null || v.isNull())
            {
                return items;
            }
            if (v.isArray())
            {
                v.forEach(item -> items.add(item.asText().trim()));
            }
            else
            {
                for (final String part : v.asText().split(","))
                {
                    if (!part.isBlank())
                    {
                        items.add(part.trim());
                    }
                }
            }
            return items;
        }

        long number(final String key, final String value, final long fallback, final long min, final long max)
        {
            final String t = text(key, value, null);
            if (t == null)
            {
                return fallback;
            }
            try
            {
                final long n = Sizes.parseNumber(t);
                if (n < min || n > max)
                {
                    problems.add(key + " " + n + " is not " + min + ".." + max);
                    return fallback;
                }
                return n;
            }
            catch (final NumberFormatException ex)
            {
                problems.add(key + " '" + t + "' is not a whole number " + min + ".." + max);
                return fallback;
            }
        }

        long size(final String key, final String value, final long fallback)
        {
            final String t = text(key, value, null);
            if (t == null)
            {
                return fallback;
            }
            try
            {
                return Sizes.parseSize(t);
            }
            catch (final IllegalArgumentException ex)
            {
                problems.add(key + " '" + t + "' is not a size (e.g. 1M)");
                return fallback;
            }
        }

        boolean bool(final String key, final String value, final boolean fallback)
        {
            final String t = text(key, value, null);
            if (t == null)
            {
                return fallback;
            }
            if ("true".equalsIgnoreCase(t) || "false".equalsIgnoreCase(t))
            {
                return Boolean.parseBoolean(t);
            }
            problems.add(key + " '" + t + "' is not true or false");
            return fallback;
        }
    }
}
