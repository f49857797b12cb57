package io.rfmrt.cli.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.CliRun;
import io.rfmrt.cli.Main;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.demo.DemoConfigs;
import io.rfmrt.cli.replay.DamagedJournalTest;
import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt node} refuses a configuration that cannot work before any thread starts, in one line: wrong for its
 * network, duplicate keys, special, huge or binary files, a journal folder that is a file, a negative run time.
 */
class NodeConfigCheckTest
{
    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    private Path simRoot;

    @BeforeEach
    void setUp() throws IOException
    {
        simRoot = Path.of("/dev/shm", "rfmrt-config-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        Files.copy(Path.of("..", "deploy", "conf", "layout.yaml"), dir.resolve("layout.yaml"));
    }

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    private static CliRun run(final String... args)
    {
        return CliRun.of(args);
    }

    private CliRun node(final String yaml) throws IOException
    {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, yaml);
        return run("node", "--config", file.toString(), "--seconds", "1");
    }

    private static void assertOneLine(final CliRun r, final int exit, final String... parts)
    {
        assertThat(r.exit()).as(r.err() + r.out()).isEqualTo(exit);
        assertThat(r.err()).startsWith("rfmrt: ").endsWith(NL).doesNotContain("internal error", "\tat ");
        assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
        for (final String part : parts)
        {
            assertThat(r.err()).contains(part);
        }
    }

    @Test
    void shouldCheckAsJsonAndNameEachOldSpellingItStillReads() throws IOException
    {
        final Path file = dir.resolve("old.yaml");
        Files.writeString(file, "device: sim:cfg?node=2\nlayout: layout.yaml\n" +
            "receive: {channels: [axis.sensor], wait: INLINE}\njournal: {roll: HOURLY}\n" +
            "app: {name: controller, brakeReleaseTimeoutMs: 200}\n");
        final CliRun r = run("node", "--check-config", "--config", file.toString(), "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err().lines().toList()).containsExactly(
            "rfmrt node: " + file + ": journal.roll 'HOURLY' is deprecated, write 'hourly'",
            "rfmrt node: " + file + ": receive.wait 'INLINE' is deprecated, write 'inline'",
            "rfmrt node: " + file + ": app.brakeReleaseTimeoutMs: 200 is deprecated, write " +
                "app.brakeReleaseTimeout: 200ms");
        final JsonNode valid = new ObjectMapper().readTree(r.out());
        assertThat(valid.get("valid").asBoolean()).isTrue();
        assertThat(valid.get("device").asText()).isEqualTo("sim:cfg?node=2");
        assertThat(valid.get("app").asText()).isEqualTo("controller");
        assertThat(valid.get("problems")).isEmpty();
        assertThat(r.out().lines().count()).as("one object, one line").isEqualTo(1);

        Files.writeString(file, "device: sim:cfg?node=2\nlayout: layout.yaml\nreceive: {channels: [axis.sensor]}\n" +
            "app: {name: controller, rateHz: 5}\n");
        final CliRun refused = run("node", "--check-config", "--config", file.toString(), "--json");
        assertOneLine(refused, 2, "app: rateHz 5: axis.subSteps 10 is too few");
        final JsonNode invalid = new ObjectMapper().readTree(refused.out());
        assertThat(invalid.get("valid").asBoolean()).isFalse();
        assertThat(invalid.get("problems").get(0).asText()).startsWith("app: rateHz 5: axis.subSteps 10 is too few");
        assertThat(run("node", "--config", file.toString(), "--json").err())
            .contains("--json is for --check-config");
    }

    @Test
    void shouldRefuseWhatTheSchemaRefusesWithOneProblemPerKey() throws IOException
    {
        final String head = "device: sim:cfg?node=2\nlayout: layout.yaml\n";
        // a wrong type the node's own reading would take (one channel, not a list of them): the schema's alone
        final String wrongType = head + "receive: {channels: axis.sensor}\n";
        assertOneProblem(wrongType, "receive.channels 'axis.sensor' is not an array");
        // the start refuses it as the check does, before it makes anything
        assertOneLine(node(wrongType), 2, "node.yaml: receive.channels 'axis.sensor' is not an array");
        // an unknown key and a bad kind: the node's own line, not a second one from the schema
        assertOneProblem(head + "threads: {isr: {cpuu: 1}}\n", "unknown key 'threads.isr.cpuu'");
        assertOneProblem(head + "receive: {channels: [axis.sensor], mode: interupt}\n",
            "receive.mode 'interupt' is not interrupt, inline or polling");
        // the layout against its schema: a node id as text
        Files.writeString(dir.resolve("layout.yaml"),
            Files.readString(dir.resolve("layout.yaml")).replace("node: 1,", "node: \"1\","));
        assertOneProblem(head, "layout: layout.yaml: channels[0].node '1' is not an integer",
            "layout: layout.yaml: channels[2].node '1' is not an integer");
    }

    private void assertOneProblem(final String yaml, final String... problems) throws IOException
    {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, yaml);
        final CliRun r = run("node", "--check-config", "--config", file.toString(), "--json");
        assertOneLine(r, 2, "rfmrt: " + file + ": " + String.join("; ", problems));
        assertThat(r.err().trim()).as("only these problems").isEqualTo("rfmrt: " + file + ": " +
            String.join("; ", problems));
        final JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("valid").asBoolean()).isFalse();
        assertThat(json.get("problems")).extracting(JsonNode::asText).containsExactly(problems);
    }

    @Test
    void shouldTakeTheDemosConfigurationsAsTheyAreWritten() throws IOException
    {
        final Path demo = Files.createDirectory(dir.resolve("demo"));
        final Path controller = DemoConfigs.writeBoth(demo, "cfg", demo.resolve("journal"), 1000, 100,
            "spin-then-block(20us)", "realistic", "standard");
        for (final Path file : List.of(controller, demo.resolve(DemoConfigs.PLANT_CONFIG)))
        {
            final CliRun r = run("node", "--check-config", "--config", file.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.err()).as("no warning").isEmpty();
            assertThat(r.out()).contains(file + " is valid");
        }
    }

    @Test
    void shouldRefuseToPublishAnotherNodesChannelBeforeAnyThreadStarts() throws IOException
    {
        final CliRun r = node("device: sim:cfg?node=1\nlayout: layout.yaml\npublish:\n  channel: command\n" +
            "journal:\n  enabled: false\nheartbeat: 0\n");
        assertOneLine(r, 2, "publish.channel 'command' is published by node 2 in the layout, not by this node (1)");
        assertThat(r.out()).as("no thread was placed").doesNotContain("process:", "rfmrt-publisher");
        final CliRun status = run("rfm", "status", "--network", "cfg");
        assertThat(status.out()).as("the node id was released").doesNotContain(" live ");
    }

    @Test
    void shouldValidateTheShippedControlNodesAndRefuseBadAppSettingsOnOneLine() throws IOException
    {
        for (final String name : List.of("controller.yaml", "plant.yaml"))
        {
            Files.copy(Path.of("..", "deploy", "conf", name), dir.resolve(name));
            final CliRun r = run("node", "--check-config", "--config", dir.resolve(name).toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("is valid").contains(", app " + name.replace(".yaml", ""));
        }
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\nreceive: {channels: [axis.sensor]}\n" +
            "app: {name: controller, rateHz: 5}\n"), 2, "node.yaml: app: rateHz 5: axis.subSteps 10 is too few",
            "use at least 598 Hz");
        // the one rate rule (RateCheck), the same line the demo gives for --rate
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\nreceive: {channels: [axis.sensor]}\n" +
            "app: {name: controller, rateHz: 20000}\n"), 2, "node.yaml: app: rateHz 20000: rate 20000 Hz is not " +
            "1..10000");
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\nreceive: {channels: [axis.sensor]}\n" +
            "app: {name: controller, profile: wild}\n"), 2, "node.yaml: app: profile 'wild' is not standard, fast or cruise");
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\nreceive: {channels: [axis.sensor]}\n" +
            "app: {name: controller, gains: {kp: 1, velocityGainNmSPerRad: fast}}\n"), 2,
            "node.yaml: app.gains: unknown key 'kp'; velocityGainNmSPerRad 'fast' is not a number (settings: ");
        final Path gains = dir.resolve("gains.yaml");
        Files.writeString(gains, "device: sim:cfg?node=2\nlayout: layout.yaml\nreceive: {channels: [axis.sensor]}\n" +
            "app: {name: controller, gains: {positionGainPerS: 60}}\n");
        assertThat(run("node", "--check-config", "--config", gains.toString()).exit()).isZero();
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\napp: {class: com.example.Missing}\n"), 2,
            "app.class 'com.example.Missing' is not on the node's classpath (give its jar: --app-jar JAR, " +
                "RFMRT_CLASSPATH in a checkout, conf/lib/ in a release)");
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\napp: {class: java.lang.Thread}\n"), 2,
            "app.class 'java.lang.Thread' implements neither io.rfmrt.runtime.NodeApp nor " +
                "io.rfmrt.runtime.FrameHandler");
        // the controller refuses, before any thread starts, a node that does not give it its input
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\njournal: {enabled: true, dir: j}\n" +
            "app: controller\n"), 2, "app controller takes the layout's 'axis.sensor' channel as its one input");
    }

    /** Two bad keys: both named, each with its value, on the one line of the refusal; the check says the same. */
    @Test
    void shouldNameEveryBadKeyOfTheFileAtOnce() throws IOException
    {
        final String yaml = "device: sim:cfg?node=2\nlayout: layout.yaml\nstrict: maybe\nheartbeat: often\n";
        final String both = "node.yaml: strict 'maybe' is not true or false; heartbeat 'often' is not a duration " +
            "(e.g. 1s, 500ms, 0)";
        assertOneLine(node(yaml), 2, both);
        assertOneLine(run("node", "--check-config", "--config", dir.resolve("node.yaml").toString()), 2, both);
        assertThat(simRoot).as("nothing was made").doesNotExist();
    }

    @Test
    void shouldRefuseToReceiveItsOwnChannel() throws IOException
    {
        assertOneLine(node("device: sim:cfg?node=1\nlayout: layout.yaml\nreceive:\n  channels: [sensor]\n" +
            "journal:\n  enabled: false\n"), 2, "receive.channels 'sensor' is published by this node (1)");
    }

    @Test
    void shouldRefuseALayoutOutsideTheNetworksMemory() throws IOException
    {
        assertThat(run("rfm", "create", "--network", "small", "--size", "64K").exit()).isZero();
        assertOneLine(node("device: sim:small?node=2\nlayout: layout.yaml\nreceive:\n  channels: [sensor]\n" +
            "journal:\n  enabled: false\n"), 2,
            "layout: channel 'sensor' (0x10000 + 2048 bytes) lies outside the 65536-byte memory of the network");
    }

    /**
     * What the start refuses, {@code --check-config} refuses with the same line (one check serves both), and the
     * start refuses it before it makes anything: no network, counters or journal folder is left.
     */
    @Test
    void shouldCheckTheConfigurationAsTheStartDoesBeforeMakingAnything() throws IOException
    {
        final String node1 = "device: sim:made?node=1&size=1M\nlayout: %s\npublish: {channel: sensor}\nheartbeat: 0\n";
        Files.writeString(dir.resolve("small.yaml"), "memorySize: 1M\nchannels:\n" +
            "  - {name: sensor, node: 1, offset: 0x10000, slots: 16, slotSize: 128, event: INTR1, to: 2}\n");
        Files.writeString(dir.resolve("far.yaml"), "memorySize: 16M\nchannels:\n" +
            "  - {name: sensor, node: 1, offset: 0xF00000, slots: 16, slotSize: 128, event: INTR1, to: 2}\n");
        final Path journal = dir.resolve("journal");
        final String[][] cases = {
            {node1.formatted("small.yaml") + "threads: {cpus: [999]}\njournal: {dir: " + journal + "}\n",
                "threads.cpus: cpu 999 is not online (online: "},
            {node1.formatted("small.yaml") + "journal: {dir: /proc/1}\n", "journal.dir /proc/1 is not writable"},
            {node1.formatted("small.yaml") + "journal: {dir: /proc/1/rfmrt}\n",
                "journal.dir /proc/1/rfmrt: /proc/1 is not writable"},
            {node1.formatted("far.yaml") + "journal: {enabled: false}\n",
                "layout: its memory (16777216 bytes) is larger than the network's (1048576 bytes)",
                "layout: channel 'sensor' (0xf00000 + 2048 bytes) lies outside the 1048576-byte memory of the network"},
            {node1.formatted("layout.yaml").replace("publish: {channel: sensor}", "receive: {channels: [command]}") +
                "journal: {enabled: false}\n",
                "layout: its memory (16777216 bytes) is larger than the network's (1048576 bytes)"},
            {"device: sim:made?node=2\nlayout: layout.yaml\njournal: {dir: " + journal + "}\napp: controller\n",
                "app controller takes the layout's 'axis.sensor' channel as its one input"},
        };
        for (final String[] c : cases)
        {
            final Path file = dir.resolve("node.yaml");
            Files.writeString(file, c[0]);
            final CliRun check = run("node", "--check-config", "--config", file.toString());
            assertOneLine(check, 2, java.util.Arrays.copyOfRange(c, 1, c.length));
            final CliRun start = node(c[0]);
            assertOneLine(start, 2, java.util.Arrays.copyOfRange(c, 1, c.length));
            assertThat(start.err()).as("the start and the check say the same").isEqualTo(check.err());
            assertThat(start.out()).as("no thread was placed").doesNotContain("process:", "rfmrt-publisher");
            assertThat(simRoot).as("the refused start made no network: %s", c[0]).doesNotExist();
            assertThat(journal).as("nor a journal folder").doesNotExist();
        }
        // a network that is there already is checked by its own size, not the URI's
        assertThat(run("rfm", "create", "--network", "made", "--size", "1M").exit()).isZero();
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, "device: sim:made?node=1&size=16M\nlayout: layout.yaml\njournal: {enabled: false}\n");
        assertOneLine(run("node", "--check-config", "--config", file.toString()), 2,
            "layout: its memory (16777216 bytes) is larger than the network's (1048576 bytes)");
        Files.writeString(file, node1.formatted("small.yaml") + "journal: {dir: " + journal + "}\n");
        final CliRun valid = run("node", "--check-config", "--config", file.toString());
        assertThat(valid.exit()).as(valid.err()).isZero();
        assertThat(valid.out()).contains("is valid");
        assertThat(journal).as("the check makes nothing").doesNotExist();
    }

    @Test
    void shouldRefuseDuplicateKeys() throws IOException
    {
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\nstrict: true\nstrict: false\n"), 2,
            "node.yaml: duplicate key 'strict'");
        Files.writeString(dir.resolve("layout.yaml"), Files.readString(dir.resolve("layout.yaml")) +
            "memorySize: 1M\n");
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\n"), 2, "layout.yaml: duplicate key " +
            "'memorySize'");
    }

    @Test
    void shouldRefuseSpecialHugeAndBinaryFilesBeforeReadingThem() throws IOException
    {
        assertOneLine(run("node", "--config", "/dev/zero"), 2,
            "/dev/zero: is not a regular file (a device or FIFO?)");
        final Path huge = dir.resolve("huge.yaml");
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(huge.toFile(), "rw"))
        {
            raf.setLength(3L << 30);
        }
        assertOneLine(run("node", "--config", huge.toString()), 2, "huge.yaml: is 3221225472 bytes; " +
            "a configuration file is at most 1048576");
        final Path binary = dir.resolve("binary.yaml");
        Files.write(binary, new byte[]{(byte)0xC3, (byte)0x28, 'a', ':', ' ', '1', '\n'});
        assertOneLine(run("node", "--config", binary.toString()), 2, "binary.yaml: is not UTF-8 text (a binary file?)");
        Files.write(binary, "a: 1\n\0\0\0".getBytes(StandardCharsets.US_ASCII));
        assertOneLine(run("node", "--config", binary.toString()), 2, "binary.yaml: is not text (it holds NUL bytes");
        assertOneLine(run("node", "--config", dir.toString()), 2, "is a folder, not a file");
        assertOneLine(run("node", "--config", dir.resolve("missing.yaml").toString()), 2, "missing.yaml: does not " +
            "exist");
    }

    @Test
    void shouldRefuseAJournalFolderThatIsAFile() throws IOException
    {
        assertOneLine(node("device: sim:cfg?node=2\nlayout: layout.yaml\njournal:\n  dir: /etc/passwd\n"), 2,
            "journal.dir /etc/passwd is not a folder");
    }

    @Test
    void shouldRefuseNegativeSeconds() throws IOException
    {
        Files.writeString(dir.resolve("node.yaml"), "device: sim:cfg?node=2\nlayout: layout.yaml\n");
        assertOneLine(run("node", "--config", dir.resolve("node.yaml").toString(), "--seconds", "-1"), 2,
            "--seconds -1 is negative");
        assertOneLine(run("replay", dir.toString(), "--follow", "--seconds", "-1"), 2,
            "--seconds -1.0 is not a positive number of seconds");
        assertThat(simRoot).doesNotExist();
    }

    @Test
    void shouldReportPermissionDeniedAsSuch() throws Exception
    {
        org.junit.jupiter.api.Assumptions.assumeTrue(
            (Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0 &&
            Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs root to act as the user nobody");
        final Path shared = Files.createTempDirectory(Path.of("/tmp"), "rfmrt-denied-");
        try
        {
            Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            final Path secret = Files.writeString(shared.resolve("secret.yaml"), "device: sim:x?node=1\n");
            Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            final Path closed = Files.createDirectory(shared.resolve("closed"));
            Files.writeString(closed.resolve("node.yaml"), "device: sim:x?node=1\n");
            Files.setPosixFilePermissions(closed, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            final String cp = DamagedJournalTest.readableClasspath(shared.resolve("cp"));
            for (final Path config : new Path[]{secret, closed.resolve("node.yaml")})
            {
                final java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("/usr/bin/setpriv",
                    "--reuid=65534", "--regid=65534", "--clear-groups",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                    Main.class.getName(), "node", "--config", config.toString()));
                final Process p = new ProcessBuilder(command).start();
                final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as(err).isEqualTo(2);
                assertThat(err).isEqualTo("rfmrt: " + config + ": permission denied" + NL);
            }
        }
        finally
        {
            CliProcesses.removeTree(shared);
        }
    }

    @Test
    void shouldDescribeOrdinaryFailuresWithoutAnInternalError()
    {
        assertThat(Failures.describe(new java.nio.file.AccessDeniedException("/etc/shadow")))
            .isEqualTo("/etc/shadow: permission denied");
        assertThat(Failures.describe(new io.rfmrt.runtime.journal.JournalException("journal dir x is not a folder")))
            .isEqualTo("journal dir x is not a folder");
        assertThat(Failures.describe(new java.io.UncheckedIOException(new java.nio.file.NotDirectoryException("/a/b"))))
            .isEqualTo("/a/b: not a folder");
    }
}
