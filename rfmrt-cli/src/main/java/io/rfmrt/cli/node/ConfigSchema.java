package io.rfmrt.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import io.rfmrt.rfm.TextFiles;
import io.rfmrt.runtime.NodeContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON Schemas of docs/schema, which this jar ships (the build copies them), applied by {@code rfmrt node} to a
 * node configuration and to the layout it names. They refuse what the node's own reading lets pass, a value of the
 * wrong type ({@code receive.channels: sensor}, {@code publish.rateHz: "1000"}), one problem per key, named by the key
 * and its value as the node's own problems are.
 * <p>
 * The schema sees the configuration after the reader's rewrite of the older spellings it still reads
 * ({@code SPIN_THEN_BLOCK(20us)} as {@code spin-then-block(20us)}, {@link NodeContext#canonicalSpelling}): such a file
 * gives its deprecation lines and no problem. A key that the node's own problems already name (an unknown key, a bad
 * value) gets no second problem from the schema, and a layout the node refused is not checked again.
 */
final class ConfigSchema
{
    /** The node configuration's schema, docs/schema/node-config.schema.json. */
    static final String NODE = "node-config.schema.json";
    /** The layout's schema, docs/schema/layout.schema.json. */
    static final String LAYOUT = "layout.schema.json";
    /** Where the jar holds both. */
    static final String FOLDER = "/io/rfmrt/cli/schema/";

    private static final String LAYOUT_KEY = "layout";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** The key a node problem names: the one quoted after these words, else the dotted key it starts with. */
    private static final Pattern NAMED_KEY = Pattern.compile(
        "^(?:(?:unknown key|duplicate key|missing) '([^']+)'|([A-Za-z][A-Za-z0-9_.]*))");

    private ConfigSchema()
    {
    }

    /**
     * @param file         a node configuration.
     * @param nodeProblems what the node's own reading and check found in it (each naming its key).
     * @return the schema's problems with the file and its layout that the node's do not name, in the order of the
     *         file; empty when the file does not read as a YAML mapping (the node's own problems say why).
     */
    static List<String> problems(final Path file, final List<String> nodeProblems)
    {
        final JsonNode root = readYaml(file);
        if (root == null)
        {
            return List.of();
        }
        final List<String> named = new ArrayList<>();
        for (final String problem : nodeProblems)
        {
            final Matcher matcher = NAMED_KEY.matcher(problem);
            if (matcher.find())
            {
                named.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
            }
        }
        final List<String> lines = new ArrayList<>();
        for (final Map.Entry<String, String> problem : check(NODE, canonical(root)).entrySet())
        {
            if (named.stream().noneMatch(key -> related(problem.getKey(), key)))
            {
                lines.add(problem.getValue());
            }
        }
        final JsonNode layout = root.get(LAYOUT_KEY);
        if (layout != null && layout.isTextual() && named.stream().noneMatch(key -> related(LAYOUT_KEY, key)))
        {
            final Path layoutFile = file.toAbsolutePath().getParent().resolve(layout.asText());
            final JsonNode tree = readYaml(layoutFile);
            if (tree != null)
            {
                check(LAYOUT, canonicalLayout(tree)).values()
                    .forEach(line -> lines.add("layout: " + layout.asText() + ": " + line));
            }
        }
        return lines;
    }

    /**
     * @param root a node configuration as read.
     * @return a copy with each value that names a kind in the spelling the node reads it as.
     */
    static JsonNode canonical(final JsonNode root)
    {
        final JsonNode copy = root.deepCopy();
        for (final String key : NodeContext.spelledKeys())
        {
            final int dot = key.lastIndexOf('.');
            final JsonNode parent = copy.path(key.substring(0, dot));
            final JsonNode value = parent.get(key.substring(dot + 1));
            if (parent instanceof ObjectNode && value != null && value.isTextual())
            {
                ((ObjectNode)parent).put(key.substring(dot + 1),
                    NodeContext.canonicalSpelling(value.asText().trim()));
            }
        }
        if (copy.path("receive") instanceof ObjectNode receive)
        {
            recase(receive, "event", true);
        }
        return copy;
    }

    /**
     * @param layout a layout as read.
     * @return a copy in the case the schema names the values the layout reader takes in any case: event types upper
     *         case ({@code INTR1}), {@code to: all} and variable types lower case ({@code float64}).
     */
    static JsonNode canonicalLayout(final JsonNode layout)
    {
        final JsonNode copy = layout.deepCopy();
        for (final JsonNode channel : copy.path("channels"))
        {
            if (channel instanceof ObjectNode c)
            {
                recase(c, "event", true);
                recase(c, "to", false);
            }
        }
        for (final JsonNode variable : copy.path("variables"))
        {
            if (variable instanceof ObjectNode v)
            {
                recase(v, "type", false);
            }
        }
        return copy;
    }

    private static void recase(final ObjectNode parent, final String key, final boolean upper)
    {
        final JsonNode value = parent.get(key);
        if (value != null && value.isTextual())
        {
            final String text = value.asText().trim();
            parent.put(key, upper ? text.toUpperCase(Locale.ROOT) : text.toLowerCase(Locale.ROOT));
        }
    }

    /**
     * @param schemaName {@link #NODE} or {@link #LAYOUT}.
     * @param document   a document as read.
     * @return one problem per key the schema refuses (the first the schema names), by the key, dotted
     *         ({@code threads.isr.priority}, {@code channels[1].event}).
     */
    static Map<String, String> check(final String schemaName, final JsonNode document)
    {
        final Map<String, String> problems = new LinkedHashMap<>();
        for (final Error error : schema(schemaName).validate(document))
        {
            final String at = key(error.getInstanceLocation());
            final String key = error.getProperty() == null ? at :
                at.isEmpty() ? error.getProperty() : at + "." + error.getProperty();
            problems.putIfAbsent(key, line(key, error));
        }
        return problems;
    }

    private static Schema schema(final String name)
    {
        try (InputStream in = ConfigSchema.class.getResourceAsStream(FOLDER + name))
        {
            if (in == null)
            {
                throw new IllegalStateException("this build lacks its " + FOLDER + name);
            }
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(JSON.readTree(in));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @return the problem in the node's words: the key, its value, what the schema wants.
     */
    private static String line(final String key, final Error error)
    {
        final JsonNode value = error.getInstanceNode();
        final JsonNode wants = error.getSchemaNode();
        final String keyword = String.valueOf(error.getKeyword());
        switch (keyword)
        {
            case "additionalProperties":
                return "unknown key '" + key + "'";
            case "required":
                return "missing '" + key + "'";
            case "type":
                return key + " " + shown(value) + " is not " + typeNames(wants);
            case "enum":
                return key + " " + shown(value) + " is not one of " + listed(wants);
            case "pattern":
                return key + " " + shown(value) + " does not match the schema's pattern " + wants.asText();
            case "minimum":
                return key + " " + shown(value) + " is less than " + wants.asText();
            case "maximum":
                return key + " " + shown(value) + " is more than " + wants.asText();
            default:
                final String message = String.valueOf(error.getMessage());
                final int colon = message.indexOf(": ");
                return key + " " + shown(value) + ": " + (colon < 0 ? message : message.substring(colon + 2));
        }
    }

    private static String key(final NodePath path)
    {
        final StringBuilder key = new StringBuilder();
        for (int i = 0; i < path.getNameCount(); i++)
        {
            final Object element = path.getElement(i);
            if (element instanceof Integer)
            {
                key.append('[').append(element).append(']');
            }
            else
            {
                key.append(key.length() == 0 ? "" : ".").append(element);
            }
        }
        return key.toString();
    }

    private static String shown(final JsonNode value)
    {
        if (value == null || value.isMissingNode())
        {
            return "(none)";
        }
        return value.isTextual() ? "'" + value.asText() + "'" : value.toString();
    }

    private static String typeNames(final JsonNode type)
    {
        if (type == null || !type.isArray())
        {
            return article(type == null ? "?" : type.asText());
        }
        final List<String> names = new ArrayList<>();
        type.forEach(t -> names.add(article(t.asText())));
        return String.join(" or ", names);
    }

    private static String article(final String type)
    {
        return ("integer".equals(type) || "array".equals(type) || "object".equals(type) ? "an " : "a ") + type;
    }

    private static String listed(final JsonNode values)
    {
        final List<String> names = new ArrayList<>();
        values.forEach(v -> names.add(v.asText()));
        return String.join(", ", names);
    }

    /**
     * @return whether two dotted keys are one, or one lies inside the other.
     */
    private static boolean related(final String a, final String b)
    {
        return a.equals(b) || inside(a, b) || inside(b, a);
    }

    private static boolean inside(final String key, final String outer)
    {
        return key.length() > outer.length() && key.startsWith(outer) && (key.charAt(outer.length()) == '.' || key.charAt(outer.length()) == '[');
    }

    /**
     * @return the file as a YAML tree, or null when it does not read as a mapping.
     */
    private static JsonNode readYaml(final Path file)
    {
        try
        {
            final JsonNode root = YAML.readTree(TextFiles.read(file, TextFiles.MAX_CONFIG_BYTES));
            return root != null && root.isObject() ? root : null;
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            return null;
        }
    }
}
