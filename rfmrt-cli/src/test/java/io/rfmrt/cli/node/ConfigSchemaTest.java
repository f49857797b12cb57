package io.rfmrt.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schemas {@code rfmrt node} checks with are docs/schema's, byte for byte, and they see a configuration in the
 * spelling the node reads it as: an older spelling is no schema problem, a bad value is.
 */
class ConfigSchemaTest
{
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void shouldShipTheSchemasOfTheDocs() throws IOException
    {
        for (final String name : List.of(ConfigSchema.NODE, ConfigSchema.LAYOUT))
        {
            try (InputStream in = ConfigSchema.class.getResourceAsStream(ConfigSchema.FOLDER + name))
            {
                assertThat(in).as(name).isNotNull();
                assertThat(in.readAllBytes()).as(name)
                    .isEqualTo(Files.readAllBytes(Path.of("..", "docs", "schema", name)));
            }
        }
    }

    @Test
    void shouldTakeTheValuesTheReadersTakeInAnyCaseInAnyCase() throws IOException
    {
        final JsonNode layout = YAML.readTree("channels:\n" +
            "  - {name: a, node: 1, offset: 0x10000, slots: 16, slotSize: 128, event: intr1, to: ALL}\n" +
            "variables:\n  - {name: v, type: FLOAT64, offset: 0x100}\n");
        assertThat(ConfigSchema.check(ConfigSchema.LAYOUT, layout)).containsOnlyKeys("channels[0].event",
            "channels[0].to", "variables[0].type");
        assertThat(ConfigSchema.check(ConfigSchema.LAYOUT, ConfigSchema.canonicalLayout(layout))).isEmpty();
        final JsonNode node = YAML.readTree("device: sim:lab1?node=2\nlayout: l.yaml\nreceive: {event: intr2}\n");
        assertThat(ConfigSchema.check(ConfigSchema.NODE, ConfigSchema.canonical(node))).isEmpty();
        // a value no case makes right is still refused
        assertThat(ConfigSchema.check(ConfigSchema.LAYOUT, ConfigSchema.canonicalLayout(YAML.readTree(
            "channels:\n  - {name: a, node: 1, offset: 0, slots: 16, slotSize: 128, event: intr9}\n"))))
            .containsOnlyKeys("channels[0].event");
    }

    @Test
    void shouldSeeOlderSpellingsAsTheNodeReadsThem() throws IOException
    {
        final JsonNode old = YAML.readTree("device: sim:lab1?node=2\nlayout: layout.yaml\n" +
            "receive: {channels: [sensor], wait: SPIN_THEN_BLOCK(20us)}\njournal: {roll: FIVE_MINUTELY}\n");
        assertThat(ConfigSchema.check(ConfigSchema.NODE, old)).containsOnlyKeys("receive.wait", "journal.roll");
        final JsonNode canonical = ConfigSchema.canonical(old);
        assertThat(canonical.at("/receive/wait").asText()).isEqualTo("spin-then-block(20us)");
        assertThat(canonical.at("/journal/roll").asText()).isEqualTo("five-minutely");
        assertThat(old.at("/receive/wait").asText()).as("the file as read is left alone")
            .isEqualTo("SPIN_THEN_BLOCK(20us)");
        assertThat(ConfigSchema.check(ConfigSchema.NODE, canonical)).isEmpty();
        for (final String device : List.of("sim:lab1?node=2", "bridge:lab1?node=2", "rfm2g:/dev/rfm2g0"))
        {
            assertThat(ConfigSchema.check(ConfigSchema.NODE, YAML.readTree("device: " + device + "\nlayout: l.yaml\n")))
                .as(device).isEmpty();
        }
        assertThat(ConfigSchema.check(ConfigSchema.NODE, YAML.readTree("device: shm:lab1\nlayout: l.yaml\n")))
            .containsOnlyKeys("device");

        final JsonNode bad = ConfigSchema.canonical(YAML.readTree("device: sim:lab1?node=2\nlayout: layout.yaml\n" +
            "receive: {wait: SOMETIMES}\nheartbeat: often\npublish: {rateHz: 0}\n"));
        assertThat(ConfigSchema.check(ConfigSchema.NODE, bad).values()).containsExactly(
            "receive.wait 'sometimes' does not match the schema's pattern " +
                "^(blocking|busy-spin|inline|spin-then-block(\\([^)]+\\))?|polling(\\([^)]+\\))?)$",
            "publish.rateHz 0 is less than 1",
            "heartbeat 'often' does not match the schema's pattern ^(0|[0-9.]+ *(ns|us|µs|ms|s|m|h))$");
    }
}
