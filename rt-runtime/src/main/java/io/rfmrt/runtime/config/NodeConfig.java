package io.rfmrt.runtime.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.rfm.TextFiles;
import io.rfmrt.runtime.ConfigException;
import io.rfmrt.runtime.NodeContext;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * Reads one node's YAML into a {@link NodeContext}, which owns every setting's default and rule: this class knows
 * only the file (its size, its YAML, its duplicate keys), walks its keys into the context
 * ({@link NodeContext#yamlValue}, {@link NodeContext#yamlList}) and hands {@code app:} to {@link NodeApps}. Every
 * problem of the file is reported at once, one per key, named by the key (dotted, as in the reference in
 * docs/runtime.md) and its bad value: the file's own (an unknown key), then the context's, then the app's.
 * <pre>
 * device: sim:lab1?node=2            # device URI
 * layout: layout.yaml                # relative to this file
 * receive:
 *   channels: [sensor]               # input channels of the layout (empty: this node only publishes)
 *   event: INTR1                     # default: the channels' event
 *   wait: blocking                   # blocking | spin-then-block(time) | busy-spin | polling(time) | inline
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
 *   roll: hourly
 *   ringBytes: 1M
 * heartbeat: 1s                      # 0 turns it off
 * app: none                          # none | controller | plant | {name: controller, ...settings}
 *                                    #   | {class: com.example.MyLaw, ...settings} (a jar on the classpath)
 * </pre>
 */
public final class NodeConfig
{
    /** The variable systemd sets to the service's {@code StateDirectory=} folders. */
    public static final String STATE_DIRECTORY_VARIABLE = "STATE_DIRECTORY";

    private static final String APP_KEY = "app";

    private NodeConfig()
    {
    }

    /**
     * @param file a node YAML file.
     * @return the concluded context of the node it describes.
     * @throws ConfigException naming the file and every bad key.
     */
    public static NodeContext load(final Path file)
    {
        return load(file, stateDirectory(System.getenv(STATE_DIRECTORY_VARIABLE)));
    }

    /**
     * @param file     a node YAML file.
     * @param stateDir folder a relative {@code journal.dir} is relative to; null: the file's folder.
     * @return the concluded context of the node it describes.
     * @throws ConfigException naming the file and every bad key.
     */
    public static NodeContext load(final Path file, final Path stateDir)
    {
        final String text;
        try
        {
            text = TextFiles.read(file, TextFiles.MAX_CONFIG_BYTES);
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
     * @return the concluded context.
     * @throws ConfigException naming the source and every bad key.
     */
    public static NodeContext parse(final String source, final String yaml, final Path base)
    {
        return parse(source, yaml, base, base);
    }

    /**
     * @param source   name of the origin, for messages.
     * @param yaml     the configuration.
     * @param base     folder that relative paths are relative to (the layout).
     * @param stateDir folder that a relative {@code journal.dir} is relative to.
     * @return the concluded context.
     * @throws ConfigException naming the source and every bad key.
     */
    public static NodeContext parse(final String source, final String yaml, final Path base, final Path stateDir)
    {
        final JsonNode root = readTree(source, yaml);
        final NodeContext ctx = new NodeContext().source(source).yamlFolders(base, stateDir);
        final List<String> problems = new ArrayList<>();
        final Map<String, JsonNode> values = new TreeMap<>();
        flatten("", root, values);
        for (final Map.Entry<String, JsonNode> e : values.entrySet())
        {
            final String key = e.getKey();
            final JsonNode value = e.getValue();
            if (key.equals(APP_KEY) || key.startsWith(APP_KEY + "."))
            {
                continue;
            }
            final boolean known;
            if (value.isArray())
            {
                final List<String> items = new ArrayList<>();
                value.forEach(item -> items.add(item.asText()));
                known = ctx.yamlList(key, items);
            }
            else
            {
                known = ctx.yamlValue(key, value.isNull() ? null : value.asText());
            }
            if (!known)
            {
                problems.add("unknown key '" + key + "'");
            }
        }
        final List<String> appProblems = new ArrayList<>();
        final List<String> appWarnings = new ArrayList<>();
        final NodeApps.App app = NodeApps.resolve(root.get(APP_KEY), appProblems, appWarnings);
        appWarnings.forEach(ctx::yamlWarning);
        ctx.app(app.name(), app.instance());
        try
        {
            ctx.conclude();
        }
        catch (final ConfigException ex)
        {
            problems.addAll(ex.problems());
        }
        problems.addAll(appProblems);
        if (!problems.isEmpty())
        {
            throw new ConfigException(source, problems);
        }
        return ctx;
    }

    private static JsonNode readTree(final String source, final String yaml)
    {
        final JsonNode root;
        try
        {
            root = new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .readTree(yaml);
        }
        catch (final IOException ex)
        {
            final Matcher dup = TextFiles.DUPLICATE_KEY.matcher(
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
        return root;
    }

    /**
     * Every leaf of the tree by its dotted key; a list is a leaf (its items are the key's values).
     *
     * @param prefix the key of {@code node}, empty at the root.
     * @param node   a YAML tree.
     * @param into   where the leaves go.
     */
    static void flatten(final String prefix, final JsonNode node, final Map<String, JsonNode> into)
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
}
