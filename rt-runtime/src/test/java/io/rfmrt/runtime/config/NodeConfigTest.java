package io.rfmrt.runtime.config;

import io.rfmrt.rfm.EventType;
import io.rfmrt.runtime.ConfigException;
import io.rfmrt.runtime.CpuPlacement;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.WaitStrategy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeConfigTest
{
    private static final String LAYOUT = """
        channels:
          - {name: sensor,  node: 1, offset: 0x10000, slots: 8, slotSize: 128, event: INTR1, to: 2}
          - {name: command, node: 2, offset: 0x10400, slots: 8, slotSize: 128, event: INTR2, to: 1}
        """;

    private static final String NODE = """
        device: sim:lab1?node=2
        layout: layout.yaml
        receive:
          channels: [sensor]
          wait: SPIN_THEN_BLOCK(5000)
        publish:
          channel: command
          rateHz: 500
          size: 32
        threads:
          cpus: [1]
          isr: {cpu: 1, priority: 81}
          consumer: {cpu: 1, priority: 71}
          housekeeping: {cpu: 0}
          lockMemory: false
        strict: true
        journal:
          dir: journal/node-2
          roll: minutely
          ringBytes: 64K
        heartbeat: 500ms
        """;

    @TempDir
    Path dir;

    @BeforeEach
    void writeLayout() throws Exception
    {
        Files.writeString(dir.resolve("layout.yaml"), LAYOUT);
    }

    private NodeContext parse(final String yaml)
    {
        return NodeConfig.parse("node.yaml", yaml, dir);
    }

    @Test
    void shouldReadTheUpperCaseSpellingsOfEarlierReleasesWithAWarningEach()
    {
        final NodeContext old = parse(NODE.replace("roll: minutely", "roll: FIVE_MINUTELY"));
        assertThat(old.yamlWarnings()).containsExactly(
            "journal.roll 'FIVE_MINUTELY' is deprecated, write 'five-minutely'",
            "receive.wait 'SPIN_THEN_BLOCK(5000)' is deprecated, write 'spin-then-block(5000)'");
        final NodeContext canonical = parse(NODE.replace("roll: minutely", "roll: five-minutely")
            .replace("SPIN_THEN_BLOCK(5000)", "spin-then-block(5000)"));
        assertThat(canonical.yamlWarnings()).isEmpty();
        assertThat(canonical.waitStrategy()).isEqualTo(old.waitStrategy());
        assertThat(canonical.journalRoll()).isEqualTo(old.journalRoll()).isEqualTo("FIVE_MINUTELY");
        assertThat(NodeContext.canonicalSpelling("POLLING(1ms)")).isEqualTo("polling(1ms)");
        assertThat(NodeContext.canonicalSpelling("busy-spin")).isEqualTo("busy-spin");
    }

    @Test
    void shouldSayTheAllowedRangeOfARateThatIsNoWholeNumber()
    {
        assertThatThrownBy(() -> parse(NODE.replace("rateHz: 500", "rateHz: 1e12")))
            .hasMessageContaining("publish.rateHz '1.0E12' is not a whole number 1..100000");
    }

    @Test
    void shouldLoadEverySetting() throws Exception
    {
        Files.writeString(dir.resolve("node.yaml"), NODE);
        final NodeContext config = NodeConfig.load(dir.resolve("node.yaml"));
        assertThat(config.deviceUri()).isEqualTo("sim:lab1?node=2");
        assertThat(config.inputs()).extracting(c -> c.name()).containsExactly("sensor");
        assertThat(config.event()).isEqualTo(EventType.INTR1);
        assertThat(config.waitStrategy()).isEqualTo(WaitStrategy.spinThenBlock(5000));
        assertThat(config.publishChannel().name()).isEqualTo("command");
        assertThat(config.publishRateHz()).isEqualTo(500);
        assertThat(config.publishSize()).isEqualTo(32);
        assertThat(config.cpus()).containsExactly(1);
        assertThat(config.isrPlacement()).isEqualTo(new CpuPlacement(1, 81));
        assertThat(config.consumerPlacement()).isEqualTo(new CpuPlacement(1, 71));
        assertThat(config.publisherPlacement()).isEqualTo(new CpuPlacement(CpuPlacement.CPU_AUTO, 60));
        assertThat(config.housekeepingCpu()).isZero();
        assertThat(config.lockMemory()).isFalse();
        assertThat(config.strict()).isTrue();
        assertThat(config.journalEnabled()).isTrue();
        assertThat(config.journalDir()).isEqualTo(dir.resolve("journal/node-2"));
        assertThat(config.journalRoll()).isEqualTo("MINUTELY");
        assertThat(config.journalRingBytes()).isEqualTo(65536);
        assertThat(config.heartbeatNanos()).isEqualTo(500_000_000L);
    }

    @Test
    void shouldPutARelativeJournalUnderTheStateDirectoryWhenOneIsGiven() throws Exception
    {
        Files.writeString(dir.resolve("node.yaml"), NODE);
        final Path state = dir.resolve("var-lib-rfmrt");
        final NodeContext config = NodeConfig.load(dir.resolve("node.yaml"), state);
        assertThat(config.journalDir()).isEqualTo(state.resolve("journal/node-2"));
        assertThat(config.layout()).isNotNull();
        assertThat(NodeConfig.load(dir.resolve("node.yaml"), null).journalDir())
            .isEqualTo(dir.resolve("journal/node-2"));
        Files.writeString(dir.resolve("abs.yaml"), NODE.replace("dir: journal/node-2", "dir: /srv/j/node-2"));
        assertThat(NodeConfig.load(dir.resolve("abs.yaml"), state).journalDir()).isEqualTo(Path.of("/srv/j/node-2"));
    }

    @Test
    void shouldTakeTheFirstAbsoluteFolderOfStateDirectory()
    {
        assertThat(NodeConfig.stateDirectory("/var/lib/rfmrt")).isEqualTo(Path.of("/var/lib/rfmrt"));
        assertThat(NodeConfig.stateDirectory("/var/lib/rfmrt:/var/lib/other")).isEqualTo(Path.of("/var/lib/rfmrt"));
        assertThat(NodeConfig.stateDirectory(null)).isNull();
        assertThat(NodeConfig.stateDirectory("")).isNull();
        assertThat(NodeConfig.stateDirectory("relative/dir")).isNull();
    }

    @Test
    void shouldUseDefaults()
    {
        final NodeContext config = parse("device: sim:lab1?node=2\nlayout: layout.yaml\nreceive: {channels: sensor}\n");
        assertThat(config.waitStrategy()).isEqualTo(WaitStrategy.blocking());
        assertThat(config.isrPlacement()).isEqualTo(CpuPlacement.auto(80));
        assertThat(config.consumerPlacement()).isEqualTo(CpuPlacement.auto(70));
        assertThat(config.housekeepingCpu()).isEqualTo(CpuPlacement.CPU_AUTO);
        assertThat(config.lockMemory()).isTrue();
        assertThat(config.strict()).isFalse();
        assertThat(config.publishChannel()).isNull();
        assertThat(config.journalRoll()).isEqualTo("HOURLY");
        assertThat(config.journalDir()).isEqualTo(dir.resolve(NodeContext.JOURNAL_DIR_DEFAULT));
        assertThat(config.heartbeatNanos()).isEqualTo(NodeContext.HEARTBEAT_NS_DEFAULT);
        assertThat(config.inputRateHz()).isEqualTo(NodeContext.INPUT_RATE_HZ_DEFAULT);
    }

    @Test
    void shouldTakeTheExpectedInputRateAndNameABadOne()
    {
        final String base = "device: sim:lab1?node=2\nlayout: layout.yaml\nreceive: {channels: sensor, rateHz: ";
        assertThat(parse(base + "10000}\n").inputRateHz()).isEqualTo(10_000);
        assertThatThrownBy(() -> parse(base + "0}\n"))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("receive.rateHz")
            .hasMessageContaining("0");
    }

    @Test
    void shouldNameEveryBadKeyAndValue()
    {
        final String yaml = NODE.replace("priority: 81", "priority: 120")
            .replace("SPIN_THEN_BLOCK(5000)", "FAST")
            .replace("strict: true", "strict: maybe")
            .replace("channels: [sensor]", "channels: [sensor, nope]")
            .replace("roll: minutely", "roll: weekly")
            .replace("heartbeat: 500ms", "heartbeat: often\ncolour: red");
        assertThatThrownBy(() -> parse(yaml))
            .isInstanceOf(ConfigException.class)
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "unknown key 'colour'",
                "receive.channels 'nope' is not a channel of the layout",
                "receive.wait: wait strategy 'FAST' is not BLOCKING, SPIN_THEN_BLOCK(ns), BUSY_SPIN, POLLING(ns) or INLINE",
                "threads.isr.priority 120 is not 0..99",
                "strict 'maybe' is not true or false",
                "journal.roll 'WEEKLY' is not one of [DAILY, FAST_DAILY, FAST_HOURLY, FIVE_MINUTELY, FOUR_HOURLY, " +
                    "HALF_HOURLY, HOURLY, MINUTELY, SIX_HOURLY, TEN_MINUTELY, TWO_HOURLY]",
                "heartbeat 'often' is not a duration (e.g. 1s, 500ms, 0)"))
            .hasMessageStartingWith("node.yaml: unknown key 'colour'; ");
    }

    @Test
    void shouldRefuseMissingDeviceAndABrokenLayout() throws Exception
    {
        Files.writeString(dir.resolve("bad.yaml"), "channels:\n  - {name: a, node: 1, offset: 3, slots: 2, " +
            "slotSize: 64}\n");
        assertThatThrownBy(() -> parse("layout: bad.yaml\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "missing 'device' (e.g. sim:lab1?node=2)",
                "layout: " + dir.resolve("bad.yaml") + ": channel 'a': offset 0x3 is not 64-byte aligned"));
    }

    @Test
    void shouldRefuseInputsOnAnotherEventType()
    {
        assertThatThrownBy(() -> parse(
            "device: sim:l?node=3\nlayout: layout.yaml\nreceive: {channels: [sensor, command]}\n"))
            .hasMessageContaining("receive.channels 'command' is announced by INTR2, not by receive.event INTR1");
    }
}
