package io.rfmrt.runtime.config;

import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.runtime.AppSettings;
import io.rfmrt.runtime.ConfigException;
import io.rfmrt.runtime.CpuPlacement;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.rfm.channel.FrameView;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code app:} in a node YAML (a user's class, its settings, the refusals) and {@link NodeContext#conclude()}.
 */
class NodeAppConfigTest
{
    private static final String LAYOUT = """
        channels:
          - {name: sensor,  node: 1, offset: 0x10000, slots: 8, slotSize: 128, event: INTR1, to: 2}
          - {name: command, node: 2, offset: 0x10400, slots: 8, slotSize: 128, event: INTR2, to: 1}
        """;
    private static final String NODE = "device: sim:lab1?node=2\nlayout: layout.yaml\nreceive: {channels: [sensor]}\n";

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

    /** A user's app with settings, as a jar would ship it. */
    public static final class GainApp implements NodeApp
    {
        /**
         * @param gain  a gain.
         * @param label a label.
         */
        public record Settings(Double gain, String label)
        {
            /** Checks. */
            public Settings
            {
                gain = gain == null ? 1.0 : gain;
                if (gain <= 0)
                {
                    throw new IllegalArgumentException("gain " + gain + " is not positive");
                }
            }
        }

        Settings settings;

        @Override
        public void configure(final AppSettings given)
        {
            settings = given.bind(Settings.class);
        }

        @Override
        public void onStart(final RfmNode node)
        {
        }

        @Override
        public FrameHandler handler()
        {
            return null;
        }
    }

    /** A plain handler class. */
    public static final class PlainHandler implements FrameHandler
    {
        @Override
        public void onFrame(final FrameView frame, final StageStamps stamps)
        {
        }
    }

    @Test
    void shouldLoadAUsersAppWithItsSettings()
    {
        final NodeContext config = parse(NODE + "app: {class: " + GainApp.class.getName() + ", gain: 2.5, label: x}\n");
        assertThat(config.appName()).isEqualTo(GainApp.class.getName());
        assertThat(((GainApp)config.app()).settings).isEqualTo(new GainApp.Settings(2.5, "x"));
        assertThat(parse(NODE + "app: {class: " + PlainHandler.class.getName() + "}\n").app()).isNotNull();
        assertThat(parse(NODE + "app: none\n").app()).isNull();
        assertThat(parse(NODE + "app: none\n").appName()).isEqualTo(NodeContext.APP_NONE);
        assertThat(parse(NODE).app()).isNull();
    }

    @Test
    void shouldRefuseEachBadAppOnOneLine()
    {
        assertThatThrownBy(() -> parse(NODE + "app: {class: com.example.Missing}\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "app.class 'com.example.Missing' is not on the node's classpath (give its jar: --app-jar JAR, " +
                    "RFMRT_CLASSPATH in a checkout, conf/lib/ in a release)"));
        assertThatThrownBy(() -> parse(NODE + "app: {class: java.lang.String}\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "app.class 'java.lang.String' implements neither io.rfmrt.runtime.NodeApp nor " +
                    "io.rfmrt.runtime.FrameHandler"));
        assertThatThrownBy(() -> parse(NODE + "app: meteor\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).singleElement().asString()
                .startsWith("app 'meteor' is not none"));
        assertThatThrownBy(() -> parse(NODE + "strict: maybe\napp: {class: " + GainApp.class.getName() +
            ", gain: -1, colour: red}\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "strict 'maybe' is not true or false",
                "unknown key 'app.colour' (one of [gain, label])",
                "app: gain -1.0 is not positive"));
        // every problem of the app's settings at once: an unknown key and values that do not convert
        assertThatThrownBy(() -> parse(NODE + "app: {class: " + GainApp.class.getName() +
            ", gain: lots, label: [a, b], colour: red}\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "unknown key 'app.colour' (one of [gain, label])",
                "app.gain 'lots' is not a number",
                "app.label '[\"a\",\"b\"]' is not a valid value"));
        assertThatThrownBy(() -> parse(NODE + "app: {class: " + GainApp.class.getName() + ", gain: -1}\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly("app: gain -1.0 is not positive"));
        assertThatThrownBy(() -> parse(NODE + "app: {class: " + GainApp.class.getName() + ", gain: lots}\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "app.gain 'lots' is not a number"));
    }

    @Test
    void shouldNameEveryValueOfTheWrongShape()
    {
        assertThatThrownBy(() -> parse("device: sim:lab1?node=2\nlayout: layout.yaml\nreceive: 5\n" +
            "threads: {isr: {priority: [1]}}\nstrict: maybe\n"))
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "unknown key 'receive'",
                "threads.isr.priority: [1] is a list, not one value",
                "strict 'maybe' is not true or false"));
    }

    @Test
    void shouldFillDefaultsFromTheConfigurationAndReportEveryProblemOfAContext()
    {
        final NodeContext ctx = new NodeContext().device("sim:x?node=1")
            .layout(ChannelLayout.parse("layout.yaml", LAYOUT)).journalEnabled(false).conclude();
        assertThat(ctx.isrPlacement()).isEqualTo(CpuPlacement.auto(NodeContext.ISR_PRIORITY_DEFAULT));
        assertThat(ctx.heartbeatNanos()).isEqualTo(NodeContext.HEARTBEAT_NS_DEFAULT);
        assertThat(ctx.waitStrategy().toString()).isEqualTo(NodeContext.WAIT_STRATEGY_DEFAULT);

        System.setProperty(NodeContext.CONSUMER_PRIORITY_PROP_NAME, "65");
        try
        {
            assertThat(new NodeContext().device("sim:x?node=1").layout(ctx.layout()).journalEnabled(false)
                .conclude().consumerPlacement().priority()).isEqualTo(65);
        }
        finally
        {
            System.clearProperty(NodeContext.CONSUMER_PRIORITY_PROP_NAME);
        }

        assertThatThrownBy(() -> new NodeContext().isrPlacement(new CpuPlacement(-7, 120)).journalRingBytes(1000)
            .journalRoll("weekly").conclude())
            .isInstanceOf(ConfigException.class)
            .satisfies(e -> assertThat(((ConfigException)e).problems()).containsExactly(
                "missing 'device' (e.g. sim:lab1?node=2)",
                "missing 'layout' (the channel layout YAML)",
                "threads.isr.cpu -7 is not -1..4095",
                "threads.isr.priority 120 is not 0..99",
                "journal.roll 'WEEKLY' is not one of [DAILY, FAST_DAILY, FAST_HOURLY, FIVE_MINUTELY, FOUR_HOURLY, " +
                    "HALF_HOURLY, HOURLY, MINUTELY, SIX_HOURLY, TEN_MINUTELY, TWO_HOURLY]",
                "journal.ringBytes 1000 is not a power of two between 4K and 1G",
                "missing 'journal.dir' (or journal.enabled: false)"));
    }
}
