package io.rfmrt.runtime.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.runtime.NodeContext;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published JSON Schema of a node's YAML (docs/schema/node-config.schema.json, for editors) names exactly the keys
 * the node reads ({@link NodeContext#yamlKeys()} and {@code app}), closes every mapping to other keys as the node
 * does, and takes the shipped configurations in their current spelling; the spellings of earlier releases, which the
 * node still reads with a warning, it does not.
 */
class NodeConfigSchemaTest
{
    private static final Path SCHEMA = Path.of("..", "docs", "schema", "node-config.schema.json");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void shouldNameEveryKeyTheNodeReadsAndNoOther() throws IOException
    {
        final Map<String, JsonNode> leaves = leaves();
        final List<String> read = new ArrayList<>(NodeContext.yamlKeys());
        read.add("app");
        assertThat(new TreeSet<>(leaves.keySet())).isEqualTo(new TreeSet<>(read));
    }

    @Test
    void shouldCloseEveryMappingAsTheNodeDoes() throws IOException
    {
        final JsonNode schema = new ObjectMapper().readTree(SCHEMA.toFile());
        final List<String> open = new ArrayList<>();
        closed(schema, schema, "", open);
        assertThat(open).isEmpty();
    }

    @Test
    void shouldTakeTheShippedConfigurationsAndRefuseTheOldSpellings() throws IOException
    {
        final Map<String, JsonNode> leaves = leaves();
        int files = 0;
        try (var list = Files.list(Path.of("..", "deploy", "conf")))
        {
            for (final Path file : list.filter(f -> f.getFileName().toString().startsWith("node-") ||
                f.getFileName().toString().equals("controller.yaml") ||
                f.getFileName().toString().equals("plant.yaml")).toList())
            {
                assertThat(problems(leaves, YAML.readTree(file.toFile()))).as(file.toString()).isEmpty();
                files++;
            }
        }
        assertThat(files).isEqualTo(4);
        final JsonNode old = YAML.readTree("device: sim:lab1?node=2\nlayout: layout.yaml\n" +
            "receive: {channels: [sensor], wait: SPIN_THEN_BLOCK(5000)}\njournal: {roll: HOURLY}\nheartbeat: 1s\n");
        assertThat(problems(leaves, old)).containsExactly(
            "journal.roll 'HOURLY' is not one of the schema's values",
            "receive.wait 'SPIN_THEN_BLOCK(5000)' does not match the schema's pattern");
        assertThat(problems(leaves, YAML.readTree("device: sim:x?node=1\nlayout: l.yaml\nthreads: {isr: {cpuu: 1}}\n")))
            .containsExactly("threads.isr.cpuu: not in the schema");
    }

    /** Every leaf of the schema's properties by its dotted key, $refs followed; a mapping of settings is no leaf. */
    private static Map<String, JsonNode> leaves() throws IOException
    {
        final JsonNode schema = new ObjectMapper().readTree(SCHEMA.toFile());
        final Map<String, JsonNode> leaves = new TreeMap<>();
        collect(schema, schema, "", leaves);
        return leaves;
    }

    private static void collect(final JsonNode root, final JsonNode node, final String prefix,
        final Map<String, JsonNode> into)
    {
        final Iterator<Map.Entry<String, JsonNode>> fields = node.get("properties").fields();
        while (fields.hasNext())
        {
            final Map.Entry<String, JsonNode> field = fields.next();
            final String key = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
            final JsonNode property = resolve(root, field.getValue());
            if ("object".equals(property.path("type").asText()) && property.has("properties"))
            {
                collect(root, property, key, into);
            }
            else
            {
                into.put(key, property);
            }
        }
    }

    private static void closed(final JsonNode root, final JsonNode node, final String prefix, final List<String> open)
    {
        if (!node.path("additionalProperties").isBoolean() || node.get("additionalProperties").asBoolean())
        {
            open.add(prefix.isEmpty() ? "(the file)" : prefix);
        }
        final Iterator<Map.Entry<String, JsonNode>> fields = node.get("properties").fields();
        while (fields.hasNext())
        {
            final Map.Entry<String, JsonNode> field = fields.next();
            final JsonNode property = resolve(root, field.getValue());
            if ("object".equals(property.path("type").asText()) && property.has("properties"))
            {
                closed(root, property, prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(), open);
            }
        }
    }

    private static JsonNode resolve(final JsonNode root, final JsonNode node)
    {
        final JsonNode ref = node.get("$ref");
        return ref == null ? node : resolve(root, root.at(ref.asText().substring(1)));
    }

    /**
     * What the schema says about a file: its keys (as the node flattens them; under {@code app} the app's own), and
     * each value's type, enum and pattern. The few keywords the schema uses, not a JSON Schema validator.
     */
    private static List<String> problems(final Map<String, JsonNode> leaves, final JsonNode file)
    {
        final Map<String, JsonNode> values = new TreeMap<>();
        NodeConfig.flatten("", file, values);
        final List<String> problems = new ArrayList<>();
        values.forEach((key, value) ->
        {
            if (key.equals("app") || key.startsWith("app."))
            {
                return;
            }
            final JsonNode schema = leaves.get(key);
            if (schema == null)
            {
                problems.add(key + ": not in the schema");
                return;
            }
            final List<String> types = new ArrayList<>();
            schema.path("type").forEach(t -> types.add(t.asText()));
            if (schema.path("type").isTextual())
            {
                types.add(schema.get("type").asText());
            }
            final boolean typed = types.isEmpty() ||
                types.contains("string") && value.isTextual() ||
                types.contains("integer") && (value.isIntegralNumber() || value.isTextual() &&
                    value.asText().matches("-?[0-9]+")) ||
                types.contains("boolean") && value.isBoolean() ||
                types.contains("array") && value.isArray();
            if (!typed)
            {
                problems.add(key + " '" + value + "' is not of type " + types);
            }
            else if (schema.has("enum") && !contains(schema.get("enum"), value.asText()))
            {
                problems.add(key + " '" + value.asText() + "' is not one of the schema's values");
            }
            else if (value.isTextual() && schema.has("pattern") &&
                !Pattern.compile(schema.get("pattern").asText()).matcher(value.asText()).find())
            {
                problems.add(key + " '" + value.asText() + "' does not match the schema's pattern");
            }
        });
        return problems;
    }

    private static boolean contains(final JsonNode values, final String value)
    {
        for (final JsonNode v : values)
        {
            if (v.asText().equals(value))
            {
                return true;
            }
        }
        return false;
    }
}
