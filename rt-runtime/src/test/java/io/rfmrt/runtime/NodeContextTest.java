package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.channel.ChannelLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link NodeContext}: the one place a node's settings are defaulted and checked, whether they come from code or,
 * key by key, from a node YAML; every problem is reported at once, one line each, named by its key and value.
 */
class NodeContextTest
{
    private static final ChannelLayout LAYOUT = ChannelLayout.parse("layout.yaml", """
        channels:
          - {name: sensor,  node: 1, offset: 0x10000, slots: 8, slotSize: 128, event: INTR1, to: 2}
          - {name: status,  node: 1, offset: 0x10400, slots: 8, slotSize: 128, event: INTR1, to: 2}
          - {name: command, node: 2, offset: 0x10800, slots: 8, slotSize: 128, event: INTR2, to: 1}
        """);

    @TempDir
    Path dir;

    private NodeContext valid()
    {
        return new NodeContext().source("node.yaml").device("sim:ctx?node=2").layout(LAYOUT).journalEnabled(false);
    }

    private static List<String> problems(final NodeContext ctx)
    {
        try
        {
            ctx.conclude();
        }
        catch (final ConfigException ex)
        {
            return ex.problems();
        }
        throw new AssertionError("concluded without a problem");
    }

    @Test
    void shouldReportTwoBadKeysAsTwoLinesAtOnce()
    {
        final NodeContext ctx = valid();
        ctx.yamlValue("threads.consumer.priority", "high");
        ctx.yamlValue("journal.ringBytes", "3000");

        assertThat(problems(ctx)).containsExactly(
            "threads.consumer.priority 'high' is not a whole number 0..99",
            "journal.ringBytes 3000 is not a power of two between 4K and 1G");
        assertThatThrownBy(ctx::conclude).hasMessage("node.yaml: threads.consumer.priority 'high' is not a whole " +
            "number 0..99; journal.ringBytes 3000 is not a power of two between 4K and 1G");
    }

    @Test
    void shouldReportTextAndRuleProblemsTogetherInTheOrderOfTheReference()
    {
        final NodeContext ctx = valid().inputs(List.of(LAYOUT.channel("sensor").orElseThrow()));
        // given out of the reference's order: the report follows the reference
        ctx.yamlValue("heartbeat", "often");
        ctx.yamlValue("strict", "maybe");
        ctx.yamlValue("receive.rateHz", "0");
        ctx.yamlValue("receive.event", "INTR9");

        assertThat(problems(ctx)).containsExactly(
            "receive.event: " + eventProblem("INTR9"),
            "receive.rateHz 0 is not 1..1000000",
            "strict 'maybe' is not true or false",
            "heartbeat 'often' is not a duration (e.g. 1s, 500ms, 0)");
    }

    @Test
    void shouldApplyTheSameRulesToSettingsFromCode()
    {
        assertThat(problems(valid().inputRateHz(0).cpus(List.of(5000)).heartbeatNanos(-1)
            .inputs(List.of(LAYOUT.channel("sensor").orElseThrow(), LAYOUT.channel("status").orElseThrow()))))
            .containsExactly(
                "receive.channels: two input channels are published by node 1 (the receiver tells channels apart " +
                    "by publisher)",
                "receive.rateHz 0 is not 1..1000000",
                "threads.cpus '5000' is not a cpu number",
                "heartbeat -1 ns is negative (0 turns it off)");
    }

    @Test
    void shouldResolveYamlNamesAgainstTheLayoutAtConclude() throws Exception
    {
        Files.writeString(dir.resolve("layout.yaml"), LAYOUT.toYaml());
        final NodeContext ctx = new NodeContext().yamlFolders(dir, dir.resolve("state"));
        assertThat(ctx.yamlValue("device", "sim:ctx?node=2")).isTrue();
        assertThat(ctx.yamlValue("layout", "layout.yaml")).isTrue();
        assertThat(ctx.yamlValue("receive.channels", "sensor, ")).isTrue();
        assertThat(ctx.yamlValue("publish.channel", "command")).isTrue();
        assertThat(ctx.yamlValue("publish.size", "")).as("blank: not given").isTrue();
        assertThat(ctx.yamlList("threads.cpus", List.of("1", " 2"))).isTrue();
        assertThat(ctx.yamlValue("colour", "red")).as("no setting has this key").isFalse();
        assertThat(ctx.yamlList("receive.colours", List.of("red"))).isFalse();

        ctx.conclude();
        assertThat(ctx.inputs()).containsExactly(LAYOUT.channel("sensor").orElseThrow());
        assertThat(ctx.publishChannel()).isEqualTo(LAYOUT.channel("command").orElseThrow());
        assertThat(ctx.publishSize()).isEqualTo(NodeContext.PUBLISH_SIZE_DEFAULT);
        assertThat(ctx.cpus()).containsExactly(1, 2);
        assertThat(ctx.journalDir()).isEqualTo(dir.resolve("state").resolve(NodeContext.JOURNAL_DIR_DEFAULT));
    }

    @Test
    void shouldNameAListWhereOneValueBelongsAndAPublishWithoutAChannel()
    {
        final NodeContext ctx = valid();
        ctx.yamlList("threads.isr.priority", List.of("1", "2"));
        ctx.yamlValue("publish.rateHz", "500");
        ctx.yamlValue("threads.cpus", "1, x");

        assertThat(problems(ctx)).containsExactly(
            "publish: missing 'publish.channel'",
            "threads.cpus 'x' is not a cpu number",
            "threads.isr.priority: [1, 2] is a list, not one value");
    }

    @Test
    void shouldNameAChannelTheLayoutDoesNotHave()
    {
        final NodeContext ctx = valid();
        ctx.yamlValue("receive.channels", "sensor,nope");
        ctx.yamlValue("publish.channel", "gone");

        assertThat(problems(ctx)).containsExactly(
            "receive.channels 'nope' is not a channel of the layout",
            "publish.channel 'gone' is not a channel of the layout");
    }

    private static String eventProblem(final String text)
    {
        try
        {
            EventType.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            return ex.getMessage();
        }
        throw new AssertionError(text + " parsed");
    }
}
