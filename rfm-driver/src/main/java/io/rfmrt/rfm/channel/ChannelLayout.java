package io.rfmrt.rfm.channel;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.Sizes;
import io.rfmrt.rfm.TextFiles;
import org.agrona.BitUtil;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * How a network's reflective memory is divided: transmit channels (rings of frame slots) and named shared
 * variables. Loaded from YAML and validated as a whole; every problem is reported with the entry it concerns.
 * <pre>
 * memorySize: 16M            # optional, default 16M
 * channels:
 *   - name: sensor
 *     node: 1                # publisher
 *     offset: 0x10000        # 64-byte aligned
 *     slots: 8               # power of two, at least 2
 *     slotSize: 128          # multiple of 64: 32-byte header + payload
 *     event: INTR1           # optional, default INTR1
 *     to: all                # optional: a node id or all (default)
 * variables:
 *   - name: axis.position
 *     type: float64          # int8 int16 int32 int64 float32 float64
 *     offset: 0x100          # aligned to the type's size
 * </pre>
 *
 * @param memorySize bytes of memory the layout is made for.
 * @param channels   channels in file order.
 * @param variables  variables in file order.
 */
public record ChannelLayout(long memorySize, List<ChannelSpec> channels, List<VariableSpec> variables)
{
    /** Memory size when the layout names none. */
    public static final long DEFAULT_MEMORY_SIZE = 16L << 20;

    private static final Set<String> TOP_KEYS = Set.of("memorySize", "channels", "variables");
    private static final Set<String> CHANNEL_KEYS = Set.of("name", "node", "offset", "slots", "slotSize", "event",
        "to");
    private static final Set<String> VARIABLE_KEYS = Set.of("name", "type", "offset");

    /**
     * @param name a channel name.
     * @return the channel.
     */
    public Optional<ChannelSpec> channel(final String name)
    {
        return channels.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /**
     * @param name a variable name.
     * @return the variable.
     */
    public Optional<VariableSpec> variable(final String name)
    {
        return variables.stream().filter(v -> v.name().equals(name)).findFirst();
    }

    /**
     * The layout as YAML that {@link #parse} reads back into an equal layout: sizes and offsets as numbers (offsets in
     * hex), names quoted, events by name, {@code to: all} for a broadcast channel. Journals record a node's channels
     * this way (docs/journal.md), so that a recording can be played back without its configuration.
     *
     * @return the YAML text, ending with a newline.
     */
    public String toYaml()
    {
        final StringBuilder yaml = new StringBuilder(128 + 128 * (channels.size() + variables.size()));
        yaml.append("memorySize: ").append(memorySize).append('\n');
        yaml.append(channels.isEmpty() ? "channels: []\n" : "channels:\n");
        for (final ChannelSpec c : channels)
        {
            yaml.append("  - {name: ").append(quoted(c.name()))
                .append(", node: ").append(c.node())
                .append(", offset: 0x").append(Long.toHexString(c.offset()))
                .append(", slots: ").append(c.slots())
                .append(", slotSize: ").append(c.slotSize())
                .append(", event: ").append(c.event().name())
                .append(", to: ").append(c.target() == RfmDevice.ALL_NODES ? "all" : Integer.toString(c.target()))
                .append("}\n");
        }
        yaml.append(variables.isEmpty() ? "variables: []\n" : "variables:\n");
        for (final VariableSpec v : variables)
        {
            yaml.append("  - {name: ").append(quoted(v.name()))
                .append(", type: ").append(v.type().name().toLowerCase(Locale.ROOT))
                .append(", offset: 0x").append(Long.toHexString(v.offset()))
                .append("}\n");
        }
        return yaml.toString();
    }

    private static String quoted(final String text)
    {
        // a double-quoted YAML scalar: backslash, quote and control characters escaped, everything else as it is
        final StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '"' || c == '\\')
            {
                quoted.append('\\').append(c);
            }
            else if (c < 0x20 || c == 0x7F)
            {
                quoted.append(String.format(Locale.ROOT, "\\u%04x", (int)c));
            }
            else
            {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    /**
     * @param file a YAML layout.
     * @return the validated layout.
     * @throws LayoutException naming the file and each bad entry.
     */
    public static ChannelLayout load(final Path file)
    {
        final String text;
        try
        {
            text = TextFiles.read(file, TextFiles.MAX_CONFIG_BYTES);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new LayoutException(file.toString(), List.of(ex.getMessage()));
        }
        return parse(file.toString(), text);
    }

    /**
     * @param source name of the origin, for messages.
     * @param yaml   the layout text.
     * @return the validated layout.
     * @throws LayoutException naming the source and each bad entry.
     */
    public static ChannelLayout parse(final String source, final String yaml)
    {
        final JsonNode root;
        try
        {
            root = new ObjectMapper(new YAMLFactory())
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).readTree(yaml);
        }
        catch (final IOException ex)
        {
            final Matcher dup = TextFiles.DUPLICATE_KEY.matcher(String.valueOf(ex.getMessage()));
            if (dup.find())
            {
                throw new LayoutException(source, List.of("duplicate key '" + dup.group(1) + "'"));
            }
            final String message = ex.getMessage() == null ? ex.toString() : ex.getMessage().lines().findFirst()
                .orElse("");
            throw new LayoutException(source, List.of("not valid YAML: " + message));
        }
        final List<String> problems = new ArrayList<>();
        if (root == null || !root.isObject())
        {
            throw new LayoutException(source, List.of("expected a mapping with 'channels' and/or 'variables'"));
        }
        unknownKeys(root, TOP_KEYS, "top level", problems);
        long memorySize = DEFAULT_MEMORY_SIZE;
        if (root.has("memorySize"))
        {
            final Long size = size(root.get("memorySize"), "memorySize", problems);
            if (size != null)
            {
                memorySize = size;
            }
        }
        final List<ChannelSpec> channels = new ArrayList<>();
        final List<VariableSpec> variables = new ArrayList<>();
        final JsonNode channelNodes = root.path("channels");
        if (!channelNodes.isMissingNode() && !channelNodes.isNull() && !channelNodes.isArray())
        {
            problems.add("'channels' must be a list");
        }
        int index = 0;
        for (final JsonNode node : iterable(channelNodes))
        {
            final ChannelSpec spec = channel(node, index++, problems);
            if (spec != null)
            {
                channels.add(spec);
            }
        }
        final JsonNode variableNodes = root.path("variables");
        if (!variableNodes.isMissingNode() && !variableNodes.isNull() && !variableNodes.isArray())
        {
            problems.add("'variables' must be a list");
        }
        index = 0;
        for (final JsonNode node : iterable(variableNodes))
        {
            final VariableSpec spec = variable(node, index++, problems);
            if (spec != null)
            {
                variables.add(spec);
            }
        }
        final ChannelLayout layout = new ChannelLayout(memorySize, List.copyOf(channels), List.copyOf(variables));
        layout.check(problems);
        if (!problems.isEmpty())
        {
            throw new LayoutException(source, problems);
        }
        return layout;
    }

    private void check(final List<String> problems)
    {
        final Map<String, String> names = new HashMap<>();
        final List<Region> regions = new ArrayList<>();
        for (final ChannelSpec c : channels)
        {
            final String what = "channel '" + c.name() + "'";
            if (names.put(c.name(), what) != null)
            {
                problems.add("duplicate name '" + c.name() + "'");
            }
            if (c.slots() < 2 || !BitUtil.isPowerOfTwo(c.slots()))
            {
                problems.add(what + ": slots " + c.slots() + " is not a power of two ≥ 2");
            }
            if (c.slotSize() < FrameHeaderDescriptor.SLOT_ALIGNMENT ||
                c.slotSize() % FrameHeaderDescriptor.SLOT_ALIGNMENT != 0)
            {
                problems.add(what + ": slotSize " + c.slotSize() + " is not a multiple of " +
                    FrameHeaderDescriptor.SLOT_ALIGNMENT);
            }
            if (c.offset() % FrameHeaderDescriptor.SLOT_ALIGNMENT != 0)
            {
                problems.add(String.format("%s: offset 0x%x is not %d-byte aligned", what, c.offset(),
                    FrameHeaderDescriptor.SLOT_ALIGNMENT));
            }
            if (!c.event().sendable())
            {
                problems.add(what + ": event " + c.event() + " cannot be sent (RESET or INTR1..INTR4)");
            }
            if (c.target() == c.node())
            {
                problems.add(what + ": 'to' is its own publisher node " + c.node());
            }
            regions.add(new Region(what, c.offset(), c.length()));
        }
        for (final VariableSpec v : variables)
        {
            final String what = "variable '" + v.name() + "'";
            if (names.put(v.name(), what) != null)
            {
                problems.add("duplicate name '" + v.name() + "'");
            }
            if (v.offset() % v.type().size() != 0)
            {
                problems.add(String.format("%s: offset 0x%x is not %d-byte aligned for %s", what, v.offset(),
                    v.type().size(), v.type().name().toLowerCase(Locale.ROOT)));
            }
            regions.add(new Region(what, v.offset(), v.type().size()));
        }
        for (final Region r : regions)
        {
            if (r.offset < 0 || r.offset + r.length > memorySize)
            {
                problems.add(String.format("%s: 0x%x..0x%x is outside the memory (0x0..0x%x)", r.what, r.offset,
                    r.offset + r.length - 1, memorySize - 1));
            }
        }
        regions.sort(Comparator.comparingLong(Region::offset));
        for (int i = 0; i < regions.size(); i++)
        {
            for (int j = i + 1; j < regions.size() && regions.get(j).offset < regions.get(i).end(); j++)
            {
                final Region a = regions.get(i);
                final Region b = regions.get(j);
                problems.add(String.format("%s (0x%x..0x%x) overlaps %s (0x%x..0x%x)", a.what, a.offset, a.end() - 1,
                    b.what, b.offset, b.end() - 1));
            }
        }
    }

    private record Region(String what, long offset, long length)
    {
        long end()
        {
            return offset + length;
        }
    }

    private static ChannelSpec channel(final JsonNode node, final int index, final List<String> problems)
    {
        if (!node.isObject())
        {
            problems.add("channels[" + index + "] is not a mapping");
            return null;
        }
        final String name = text(node, "name");
        final String what = name == null ? "channels[" + index + "]" : "channel '" + name + "'";
        final int before = problems.size();
        unknownKeys(node, CHANNEL_KEYS, what, problems);
        if (name == null)
        {
            problems.add(what + ": missing 'name'");
        }
        final Long publisher = required(node, "node", what, problems);
        final Long offset = required(node, "offset", what, problems);
        final Long slots = required(node, "slots", what, problems);
        final Long slotSize = required(node, "slotSize", what, problems);
        EventType event = EventType.INTR1;
        if (node.has("event"))
        {
            try
            {
                event = EventType.parse(node.get("event").asText());
            }
            catch (final IllegalArgumentException ex)
            {
                problems.add(what + ": " + ex.getMessage());
            }
        }
        int target = RfmDevice.ALL_NODES;
        if (node.has("to") && !"all".equalsIgnoreCase(node.get("to").asText()))
        {
            final Long to = size(node.get("to"), what + ": to", problems);
            if (to != null)
            {
                if (to < 0 || to > RfmDevice.MAX_NODE_ID)
                {
                    problems.add(what + ": to " + to + " is not a node id 0-255 or 'all'");
                }
                target = to.intValue();
            }
        }
        if (publisher != null && (publisher < 0 || publisher > RfmDevice.MAX_NODE_ID))
        {
            problems.add(what + ": node " + publisher + " is not a node id 0-255");
        }
        if (slots != null && (slots < 1 || slots > (1 << 20)))
        {
            problems.add(what + ": slots " + slots + " is out of range");
        }
        if (slotSize != null && (slotSize < 1 || slotSize > (1 << 20)))
        {
            problems.add(what + ": slotSize " + slotSize + " is out of range");
        }
        if (problems.size() != before)
        {
            return null;
        }
        return new ChannelSpec(name, publisher.intValue(), offset, slots.intValue(), slotSize.intValue(), event,
            target);
    }

    private static VariableSpec variable(final JsonNode node, final int index, final List<String> problems)
    {
        if (!node.isObject())
        {
            problems.add("variables[" + index + "] is not a mapping");
            return null;
        }
        final String name = text(node, "name");
        final String what = name == null ? "variables[" + index + "]" : "variable '" + name + "'";
        final int before = problems.size();
        unknownKeys(node, VARIABLE_KEYS, what, problems);
        if (name == null)
        {
            problems.add(what + ": missing 'name'");
        }
        final Long offset = required(node, "offset", what, problems);
        VariableSpec.Type type = null;
        final String typeText = text(node, "type");
        if (typeText == null)
        {
            problems.add(what + ": missing 'type'");
        }
        else
        {
            try
            {
                type = VariableSpec.Type.valueOf(typeText.toUpperCase(Locale.ROOT));
            }
            catch (final IllegalArgumentException ex)
            {
                problems.add(what + ": type '" + typeText + "' is not one of int8 int16 int32 int64 float32 float64");
            }
        }
        if (problems.size() != before)
        {
            return null;
        }
        return new VariableSpec(name, type, offset);
    }

    private static void unknownKeys(final JsonNode node, final Set<String> known, final String what,
        final List<String> problems)
    {
        final Iterator<String> names = node.fieldNames();
        while (names.hasNext())
        {
            final String key = names.next();
            if (!known.contains(key))
            {
                problems.add(what + ": unknown key '" + key + "'");
            }
        }
    }

    private static String text(final JsonNode node, final String key)
    {
        final JsonNode value = node.get(key);
        return value == null || value.isNull() || value.asText().isBlank() ? null : value.asText();
    }

    private static Long required(final JsonNode node, final String key, final String what,
        final List<String> problems)
    {
        final JsonNode value = node.get(key);
        if (value == null || value.isNull())
        {
            problems.add(what + ": missing '" + key + "'");
            return null;
        }
        return size(value, what + ": " + key, problems);
    }

    private static Long size(final JsonNode value, final String what, final List<String> problems)
    {
        if (value.isIntegralNumber())
        {
            return value.asLong();
        }
        try
        {
            return Sizes.parseSize(value.asText());
        }
        catch (final IllegalArgumentException ex)
        {
            problems.add(what + " '" + value.asText() + "' is not a number");
            return null;
        }
    }

    private static Iterable<JsonNode> iterable(final JsonNode node)
    {
        return node.isArray() ? node::elements : List.of();
    }
}
