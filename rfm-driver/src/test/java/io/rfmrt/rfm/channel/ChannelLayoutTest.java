package io.rfmrt.rfm.channel;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChannelLayoutTest
{
    private static final String GOOD = """
        memorySize: 1M
        channels:
          - name: sensor
            node: 1
            offset: 0x1000
            slots: 8
            slotSize: 128
            event: INTR1
            to: 2
          - name: command
            node: 2
            offset: 0x2000
            slots: 4
            slotSize: 64
            event: intr2
        variables:
          - name: axis.position
            type: float64
            offset: 0x100
          - name: axis.mode
            type: int32
            offset: 0x108
        """;

    @Test
    void shouldLoadAValidLayout(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("layout.yaml");
        Files.writeString(file, GOOD);
        final ChannelLayout layout = ChannelLayout.load(file);
        assertThat(layout.memorySize()).isEqualTo(1 << 20);
        final ChannelSpec sensor = layout.channel("sensor").orElseThrow();
        assertThat(sensor).isEqualTo(new ChannelSpec("sensor", 1, 0x1000, 8, 128, EventType.INTR1, 2));
        assertThat(sensor.maxPayload()).isEqualTo(96);
        assertThat(sensor.slotOffset(9)).isEqualTo(0x1000 + 128);
        assertThat(layout.channel("command").orElseThrow().target()).isEqualTo(RfmDevice.ALL_NODES);
        assertThat(layout.channel("command").orElseThrow().event()).isEqualTo(EventType.INTR2);
        assertThat(layout.variable("axis.mode").orElseThrow().type()).isEqualTo(VariableSpec.Type.INT32);
    }

    @Test
    void shouldNameOverlappingEntries()
    {
        final String yaml = GOOD.replace("offset: 0x2000", "offset: 0x1200");
        assertThatThrownBy(() -> ChannelLayout.parse("lab.yaml", yaml))
            .isInstanceOf(LayoutException.class)
            .hasMessage("lab.yaml: channel 'sensor' (0x1000..0x13ff) overlaps channel 'command' (0x1200..0x12ff)");
    }

    @Test
    void shouldNameMisalignedEntries()
    {
        final String yaml = GOOD.replace("offset: 0x1000", "offset: 0x1010").replace("offset: 0x108", "offset: 0x10a");
        assertThatThrownBy(() -> ChannelLayout.parse("lab.yaml", yaml))
            .isInstanceOf(LayoutException.class)
            .satisfies(e -> assertThat(((LayoutException)e).problems()).containsExactly(
                "channel 'sensor': offset 0x1010 is not 64-byte aligned",
                "variable 'axis.mode': offset 0x10a is not 4-byte aligned for int32"));
    }

    @Test
    void shouldNameEntriesOutOfBounds()
    {
        final String yaml = GOOD.replace("offset: 0x2000", "offset: 0xfffc0");
        assertThatThrownBy(() -> ChannelLayout.parse("lab.yaml", yaml))
            .hasMessage("lab.yaml: channel 'command': 0xfffc0..0x1000bf is outside the memory (0x0..0xfffff)");
    }

    @Test
    void shouldNameDuplicatesAndBadSlotCounts()
    {
        final String yaml = GOOD.replace("name: command", "name: sensor").replace("slots: 4", "slots: 6")
            .replace("slotSize: 64", "slotSize: 100");
        assertThatThrownBy(() -> ChannelLayout.parse("lab.yaml", yaml))
            .satisfies(e -> assertThat(((LayoutException)e).problems()).containsExactly(
                "duplicate name 'sensor'",
                "channel 'sensor': slots 6 is not a power of two ≥ 2",
                "channel 'sensor': slotSize 100 is not a multiple of 64"));
    }

    @Test
    void shouldNameUnknownKeysMissingKeysAndBadValues()
    {
        final String yaml = """
            channels:
              - name: sensor
                node: 300
                offset: twelve
                slots: 8
                colour: red
            variables:
              - name: x
                type: complex
                offset: 0
            """;
        assertThatThrownBy(() -> ChannelLayout.parse("lab.yaml", yaml))
            .satisfies(e -> assertThat(((LayoutException)e).problems()).containsExactly(
                "channel 'sensor': unknown key 'colour'",
                "channel 'sensor': offset 'twelve' is not a number",
                "channel 'sensor': missing 'slotSize'",
                "channel 'sensor': node 300 is not a node id 0-255",
                "variable 'x': type 'complex' is not one of int8 int16 int32 int64 float32 float64"));
    }

    @Test
    void shouldReportUnreadableYamlInOneLine()
    {
        assertThatThrownBy(() -> ChannelLayout.parse("lab.yaml", "channels: [ {name: a"))
            .isInstanceOf(LayoutException.class)
            .hasMessageStartingWith("lab.yaml: not valid YAML: ")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void shouldWriteYamlThatParsesBackIntoTheSameLayout()
    {
        final ChannelLayout layout = ChannelLayout.parse("lab.yaml", GOOD);
        final String yaml = layout.toYaml();
        assertThat(yaml).contains("offset: 0x1000", "to: 2", "to: all", "event: INTR2", "type: int32");
        assertThat(ChannelLayout.parse("recorded", yaml)).isEqualTo(layout);
    }

    @Test
    void shouldRoundTripNamesWithQuotesBackslashesAndControlCharactersAndEmptyLists()
    {
        final ChannelLayout layout = new ChannelLayout(4096, java.util.List.of(
            new ChannelSpec("it's \"odd\" \\ a\tb\nc: {x}", 7, 0x40, 2, 64, EventType.INTR4, 3)), java.util.List.of());
        final ChannelLayout back = ChannelLayout.parse("recorded", layout.toYaml());
        assertThat(back).isEqualTo(layout);
        final ChannelLayout empty = new ChannelLayout(ChannelLayout.DEFAULT_MEMORY_SIZE, java.util.List.of(),
            java.util.List.of());
        assertThat(ChannelLayout.parse("recorded", empty.toYaml())).isEqualTo(empty);
    }
}
