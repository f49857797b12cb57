package io.rfmrt.runtime.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.rfm.channel.ChannelLayout;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published JSON Schema of a channel layout (docs/schema/layout.schema.json, for editors) names exactly the keys
 * {@link ChannelLayout} reads, at each level, closes each mapping as the reader does, and takes the shipped layout.
 */
class LayoutSchemaTest
{
    private static final Path SCHEMA = Path.of("..", "docs", "schema", "layout.schema.json");

    @Test
    void shouldNameEveryKeyTheLayoutReaderTakesAndNoOther() throws Exception
    {
        final JsonNode schema = new ObjectMapper().readTree(SCHEMA.toFile());
        assertThat(names(schema)).isEqualTo(readerKeys("TOP_KEYS"));
        assertThat(names(schema.at("/properties/channels/items"))).isEqualTo(readerKeys("CHANNEL_KEYS"));
        assertThat(names(schema.at("/properties/variables/items"))).isEqualTo(readerKeys("VARIABLE_KEYS"));
        for (final JsonNode level : List.of(schema, schema.at("/properties/channels/items"),
            schema.at("/properties/variables/items")))
        {
            assertThat(level.get("additionalProperties").asBoolean()).as("closed, as the reader is").isFalse();
        }
    }

    @Test
    void shouldTakeTheShippedLayoutAndNameAKeyItDoesNotHave() throws Exception
    {
        final JsonNode schema = new ObjectMapper().readTree(SCHEMA.toFile());
        final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        final JsonNode shipped = yaml.readTree(Path.of("..", "deploy", "conf", "layout.yaml").toFile());
        ChannelLayout.load(Path.of("..", "deploy", "conf", "layout.yaml"));
        assertThat(problems(schema, shipped)).isEmpty();
        assertThat(problems(schema, yaml.readTree("channels:\n  - {name: a, node: 1, offset: 0, slots: 8, " +
            "slotSize: 128, event: intr9}\nvariables:\n  - {name: v, type: double, offset: 8, unit: m}\n")))
            .containsExactly("channels[0].event 'intr9' is not one of the schema's values",
                "variables[0].type 'double' is not one of the schema's values", "variables[0].unit: not in the schema");
    }

    private static Set<String> names(final JsonNode level)
    {
        final Set<String> names = new TreeSet<>();
        level.get("properties").fieldNames().forEachRemaining(names::add);
        return names;
    }

    @SuppressWarnings("unchecked")
    private static Set<String> readerKeys(final String field) throws ReflectiveOperationException
    {
        final Field keys = ChannelLayout.class.getDeclaredField(field);
        keys.setAccessible(true);
        return new TreeSet<>((Set<String>)keys.get(null));
    }

    /** The keys, enums and patterns of a layout against the schema: the keywords it uses, not a validator. */
    private static List<String> problems(final JsonNode schema, final JsonNode layout)
    {
        final List<String> problems = new ArrayList<>();
        layout.fieldNames().forEachRemaining(key ->
        {
            if (!schema.get("properties").has(key))
            {
                problems.add(key + ": not in the schema");
            }
        });
        for (final String list : List.of("channels", "variables"))
        {
            final JsonNode items = schema.at("/properties/" + list + "/items/properties");
            for (int i = 0; i < layout.path(list).size(); i++)
            {
                final JsonNode entry = layout.get(list).get(i);
                final String where = list + "[" + i + "]";
                entry.fields().forEachRemaining(field ->
                {
                    final JsonNode property = items.get(field.getKey());
                    final String value = field.getValue().asText();
                    if (property == null)
                    {
                        problems.add(where + "." + field.getKey() + ": not in the schema");
                    }
                    else if (property.has("enum") && !property.get("enum").toString().contains("\"" + value + "\""))
                    {
                        problems.add(where + "." + field.getKey() + " '" + value + "' is not one of the schema's values");
                    }
                    else if (field.getValue().isTextual() && property.has("pattern") &&
                        !Pattern.compile(property.get("pattern").asText()).matcher(value).find())
                    {
                        problems.add(where + "." + field.getKey() + " '" + value + "' does not match the schema's " +
                            "pattern");
                    }
                });
            }
        }
        return problems;
    }
}
