package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
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
                "receive.channels 'sensor' and 'status' are both published by node 1 (the receiver tells channels " +
                    "apart by publisher)",
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

    @Test
    void shouldRefuseTwoChannelsOfOnePublisherByTheReceivePathsOwnCheck()
    {
        final List<ChannelSpec> inputs = List.of(LAYOUT.channel("sensor").orElseThrow(),
            LAYOUT.channel("status").orElseThrow());

        assertThat(problems(valid().inputs(inputs))).containsExactly(ReceivePath.publisherClash(inputs));
        assertThat(ReceivePath.publisherClash(inputs.subList(0, 1))).isNull();
    }

    @Test
    void shouldTakeTheReceiveModeAndItsIdleApart()
    {
        final NodeContext ctx = valid();
        assertThat(ctx.yamlValue("receive.mode", "INTERRUPT")).isTrue();
        assertThat(ctx.yamlValue("receive.idle", "spin-then-block(20us)")).isTrue();

        ctx.conclude();
        assertThat(ctx.receiveMode()).isEqualTo(ReceiveMode.INTERRUPT);
        assertThat(ctx.receiveIdle()).isEqualTo(ReceiveIdle.spinThenBlock(20_000));
        assertThat(ctx.waitStrategy()).isEqualTo(WaitStrategy.spinThenBlock(20_000));
        assertThat(ctx.waitStrategy()).hasToString("SPIN_THEN_BLOCK(20000)");
    }

    @Test
    void shouldGiveEachModeItsOwnIdleWhenNoneIsGiven()
    {
        assertThat(concluded().waitStrategy()).isEqualTo(WaitStrategy.parse(NodeContext.WAIT_STRATEGY_DEFAULT));
        assertThat(concluded("receive.mode", "polling").receiveIdle())
            .isEqualTo(ReceiveIdle.period(ReceiveIdle.PERIOD_DEFAULT_NS));
        assertThat(concluded("receive.mode", "inline").receiveIdle()).isEqualTo(ReceiveIdle.block());
        assertThat(concluded("receive.mode", "interrupt").receiveIdle()).isEqualTo(ReceiveIdle.block());
        assertThat(concluded("receive.idle", "spin").receiveMode()).isEqualTo(ReceiveMode.INTERRUPT);
    }

    @Test
    void shouldReadTheShorthandAsTheModeAndIdleItStandsFor()
    {
        final String[][] table = {
            {"BLOCKING", "interrupt", "block"},
            {"SPIN_THEN_BLOCK", "interrupt", "spin-then-block"},
            {"spin-then-block(5000)", "interrupt", "spin-then-block(5000)"},
            {"BUSY_SPIN", "interrupt", "spin"},
            {"INLINE", "inline", "block"},
            {"POLLING", "polling", "period"},
            {"POLLING(100000)", "polling", "period(100us)"}};
        for (final String[] row : table)
        {
            final NodeContext shorthand = concluded("receive.wait", row[0]);
            final NodeContext apart = valid();
            apart.yamlValue("receive.mode", row[1]);
            apart.yamlValue("receive.idle", row[2]);
            apart.conclude();

            assertThat(shorthand.receiveMode()).as(row[0]).isEqualTo(apart.receiveMode());
            assertThat(shorthand.receiveIdle()).as(row[0]).isEqualTo(apart.receiveIdle());
            assertThat(shorthand.waitStrategy()).as(row[0]).isEqualTo(apart.waitStrategy());
            assertThat(shorthand.waitStrategy()).as(row[0]).isEqualTo(WaitStrategy.parse(row[0]));
        }
    }

    @Test
    void shouldRefuseTheShorthandBesideTheKeysItStandsFor()
    {
        final String line = "receive.wait is the shorthand for receive.mode and receive.idle: give it or %s, not both";
        assertThat(problems(given("receive.wait", "BLOCKING", "receive.mode", "inline")))
            .containsExactly(String.format(line, "receive.mode"));
        assertThat(problems(given("receive.wait", "BLOCKING", "receive.idle", "spin")))
            .containsExactly(String.format(line, "receive.idle"));
        final NodeContext both = given("receive.wait", "BLOCKING", "receive.mode", "interrupt");
        both.yamlValue("receive.idle", "block");
        assertThat(problems(both)).containsExactly(String.format(line, "them"));
        assertThat(problems(valid().waitStrategy(WaitStrategy.inline()).receiveMode(ReceiveMode.INLINE)))
            .as("from code alike").containsExactly(String.format(line, "receive.mode"));
    }

    @Test
    void shouldRefuseAnIdleItsModeCannotUse()
    {
        assertThat(problems(given("receive.mode", "inline", "receive.idle", "spin"))).containsExactly(
            "receive.idle 'spin' is not a wait of receive.mode inline (it takes block)");
        assertThat(problems(given("receive.mode", "polling", "receive.idle", "block"))).containsExactly(
            "receive.idle 'block' is not a wait of receive.mode polling (it takes period(time))");
        assertThat(problems(given("receive.mode", "interrupt", "receive.idle", "period(1ms)"))).containsExactly(
            "receive.idle 'period(1000000)' is not a wait of receive.mode interrupt (it takes block, spin or " +
                "spin-then-block(time))");
        assertThat(problems(given("receive.idle", "period")))
            .as("the default mode, interrupt, is the one that cannot").containsExactly(
                "receive.idle 'period(1000000)' is not a wait of receive.mode interrupt (it takes block, spin or " +
                    "spin-then-block(time))");
        assertThat(problems(valid().receiveMode(ReceiveMode.POLLING).receiveIdle(ReceiveIdle.spin())))
            .as("from code alike").containsExactly(
                "receive.idle 'spin' is not a wait of receive.mode polling (it takes period(time))");
    }

    @Test
    void shouldNameABadModeOrIdleWithEveryOtherProblemAtOnce()
    {
        final NodeContext ctx = given("receive.mode", "fast", "receive.idle", "nap");
        ctx.yamlValue("strict", "maybe");
        assertThat(problems(ctx)).containsExactly(
            "receive.mode 'fast' is not interrupt, inline or polling",
            "receive.idle 'nap' is not block, spin, spin-then-block(time) or period(time)",
            "strict 'maybe' is not true or false");

        assertThat(problems(given("receive.mode", "polling", "receive.idle", "period(10)"))).containsExactly(
            "receive.idle 'period(10)': period must be 1000 ns .. 1 s");
        assertThat(problems(given("receive.mode", "interrupt", "receive.idle", "block(5)"))).containsExactly(
            "receive.idle 'block(5)': block takes no time");
        assertThat(problems(given("receive.mode", "interrupt", "receive.idle", "spin-then-block(soon)")))
            .containsExactly("receive.idle 'spin-then-block(soon)': 'soon' is not a time (ns, or e.g. 20us)");
        assertThat(problems(valid().waitStrategy(WaitStrategy.spinThenBlock(2_000_000_000L)))).containsExactly(
            "receive.wait 'SPIN_THEN_BLOCK(2000000000)': spin must be 0 .. 1 s");
        assertThat(problems(valid().receiveIdle(ReceiveIdle.spinThenBlock(-1)))).containsExactly(
            "receive.idle 'spin-then-block(-1)': spin must be 0 .. 1 s");
    }

    private NodeContext given(final String... keysAndValues)
    {
        final NodeContext ctx = valid();
        for (int i = 0; i < keysAndValues.length; i += 2)
        {
            assertThat(ctx.yamlValue(keysAndValues[i], keysAndValues[i + 1])).isTrue();
        }
        return ctx;
    }

    private NodeContext concluded(final String... keysAndValues)
    {
        return given(keysAndValues).conclude();
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
