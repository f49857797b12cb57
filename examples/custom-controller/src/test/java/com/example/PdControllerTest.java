package com.example;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.Main;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.AppSettings;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.runtime.ZeroAllocation;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's controller allocates nothing on its hot path, runs as an {@code rfmrt node} against the demo plant,
 * and its journal replays.
 */
class PdControllerTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-example-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        if (Files.exists(simRoot))
        {
            try (Stream<Path> files = Files.walk(simRoot))
            {
                for (final Path f : files.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(f);
                }
            }
        }
        System.clearProperty(SimNetwork.ROOT_PROPERTY);
    }

    @Test
    void shouldNotAllocateOnTheHotPath() throws Exception
    {
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        SimNetwork.create("alloc", ControlFrames.LAYOUT.memorySize()).close();
        final PdController app = new PdController();
        final List<String> problems = new ArrayList<>();
        app.configure(new AppSettings("app", null, problems));
        assertThat(problems).isEmpty();
        // a node with the app and no inputs: onStart opens the publisher; the test thread plays the consumer
        try (RfmNode node = RfmNode.launch(new NodeContext()
            .device(ControlFrames.deviceUri("alloc", ControlFrames.CONTROLLER_NODE))
            .layout(ControlFrames.LAYOUT)
            .journalEnabled(false)
            .lockMemory(false)
            .heartbeatNanos(0)
            .app(app)))
        {
            final UnsafeBuffer frame = new UnsafeBuffer(new byte[ControlFrames.SLOT_SIZE]);
            final FrameView view = new FrameView().wrap(frame, 0);
            final StageStamps stamps = new StageStamps();
            final int p = FrameHeaderDescriptor.HEADER_SIZE;
            final ZeroAllocation.Result r = ZeroAllocation.measure((first, count) ->
            {
                for (long k = first; k < first + count; k++)
                {
                    frame.putLong(FrameHeaderDescriptor.SEND_NANOS_OFFSET, k);
                    frame.putLong(p + ControlFrames.SENSOR_CYCLE_OFFSET, k + 1);
                    frame.putDouble(p + ControlFrames.SENSOR_POSITION_OFFSET, 1e-6 * (k & 0xff));
                    app.onSensor(view, stamps);
                }
            }, 50_000, 100_000, 5);
            assertThat(r.lastWindowBytes()).as(r.toString()).isZero();
        }
    }

    @Test
    void shouldRunAsANodeAgainstTheDemoPlantAndReplay(@TempDir final Path dir) throws Exception
    {
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        SimNetwork.create("example", ControlFrames.LAYOUT.memorySize()).close();
        Files.writeString(dir.resolve("layout.yaml"), ControlFrames.layoutText());
        final String common = """
            layout: layout.yaml
            threads: {cpus: [], lockMemory: false}
            heartbeat: 0
            """;
        Files.writeString(dir.resolve("controller.yaml"), """
            device: %s
            receive: {channels: [axis.sensor]}
            journal: {dir: journal/controller}
            app: {class: com.example.PdController, positionGain: 100}
            """.formatted(ControlFrames.deviceUri("example", ControlFrames.CONTROLLER_NODE)) + common);
        Files.writeString(dir.resolve("plant.yaml"), """
            device: %s
            receive: {channels: [axis.command]}
            journal: {dir: journal/plant}
            app: {name: plant, cycles: 2000}
            """.formatted(ControlFrames.deviceUri("example", ControlFrames.PLANT_NODE)) + common);

        final Process controller = node(dir.resolve("controller.yaml"));
        awaitInterruptEnabled("example", ControlFrames.CONTROLLER_NODE, controller);
        final Process plant = node(dir.resolve("plant.yaml"));
        final String plantOut = new String(plant.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final String controllerOut = new String(controller.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(plant.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(controller.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(plant.exitValue()).as(plantOut).isZero();
        assertThat(controller.exitValue()).as(controllerOut).isZero();

        final JsonNode result = resultOf(controllerOut);
        final JsonNode plantResult = resultOf(plantOut);
        assertThat(plantResult.get("cycles").asLong()).isEqualTo(2000);
        // the plant publishes a frame per tick it takes (a tick it woke too late for is missed, not made up)
        final long published = plantResult.get("sensor_frames").asLong();
        assertThat(published).isGreaterThan(1000).isLessThanOrEqualTo(2000);
        assertThat(result.get("cycles").asLong()).as("the controller answered the plant's frames")
            .isGreaterThan(published * 95 / 100).isLessThanOrEqualTo(published);
        assertThat(result.get("tracking_rms").asDouble()).as("it tracks the demo profile").isLessThan(0.01);
        assertThat(plantResult.get("commands_received").asLong()).isEqualTo(result.get("cycles").asLong());

        // the journal replays: one FRAME record per answered sensor frame
        final StringWriter json = new StringWriter();
        assertThat(Main.run(new String[]{"replay", dir.resolve("journal/controller").toString(), "--json"},
            new PrintWriter(json, true), new PrintWriter(new StringWriter(), true))).isZero();
        final JsonNode replay = new ObjectMapper().readTree(json.toString()).get("journals").get(0);
        assertThat(replay.get("by_kind").get("FRAME").asLong()).isEqualTo(result.get("cycles").asLong());
        assertThat(replay.get("by_kind").get("SAMPLE").asLong()).isEqualTo(result.get("cycles").asLong());
    }

    private static JsonNode resultOf(final String out) throws IOException
    {
        final String line = out.lines().filter(l -> l.startsWith("result ")).findFirst()
            .orElseThrow(() -> new AssertionError("no result line in: " + out));
        return new ObjectMapper().readTree(line.substring("result ".length()));
    }

    private Process node(final Path config) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("rfmrt.jvm.flags").trim().split("\\s+")));
        command.add("-D" + SimNetwork.ROOT_PROPERTY + "=" + simRoot);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "node",
            "--child", "--config", config.toString()));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static void awaitInterruptEnabled(final String network, final int node, final Process process)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && process.isAlive())
        {
            try (SimNetwork net = SimNetwork.attach(network))
            {
                if (net.cards().stream().anyMatch(c -> c.node() == node && c.ownerAlive() && c.enabledMask() != 0))
                {
                    return;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the controller node did not come up");
    }
}
