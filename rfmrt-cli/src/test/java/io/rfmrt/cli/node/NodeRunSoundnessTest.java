package io.rfmrt.cli.node;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.RfmNode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt node} says, in its exit code and on stderr, a run that did not do what it was for, and prints the
 * figures of a failed run too: a plant whose controller never came exits 4, a node whose handler threw exits 1 with
 * its {@code result} line. Processes of their own, as the exit codes are the behaviour.
 */
class NodeRunSoundnessTest
{
    private final Path simRoot = Path.of("/dev/shm", "rfmrt-node-sound-" + UUID.randomUUID());

    @AfterEach
    void tearDown() throws IOException
    {
        CliProcesses.removeTree(simRoot);
    }

    @Test
    void shouldExitFourNamingItWhenThePlantsControllerNeverCame(@TempDir final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("layout.yaml"), ControlFrames.layoutText());
        Files.writeString(dir.resolve("plant.yaml"), """
            device: sim:sound?node=1&dmaSlots=2048&dmaSlotSize=128
            layout: layout.yaml
            receive: {channels: [axis.command], wait: blocking}
            threads: {isr: {priority: 0}, consumer: {priority: 0}, lockMemory: false, cpuDmaLatency: false}
            strict: false
            journal: {enabled: true, dir: journal}
            heartbeat: 0
            app: {name: plant, rateHz: 1000, cycles: 200, priority: 0}
            """);
        final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, "node", "--config",
            dir.resolve("plant.yaml").toString());
        final CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> stderr(node));
        final String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final String errText = err.get(30, TimeUnit.SECONDS);

        assertThat(node.exitValue()).as(out + errText).isEqualTo(ExitCodes.APP);
        assertThat(errText.lines().filter(l -> l.startsWith("rfmrt node: "))).as(errText).singleElement().asString()
            .matches("rfmrt node: plant: no command from the controller in \\d+ periods: the axis was never driven");
        assertThat(out).contains("warning: plant: no command from the controller after ")
            .containsPattern("(?m)^result \\{.*\"uncommanded_cycles\":[1-9]")
            .endsWith("stopped; the run was not sound\n");
    }

    @Test
    void shouldPrintTheResultLineOfANodeWhoseHandlerThrew(@TempDir final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("layout.yaml"), ControlFrames.layoutText());
        Files.writeString(dir.resolve("law.yaml"), """
            device: sim:sound?node=2&dmaSlots=2048&dmaSlotSize=128
            layout: layout.yaml
            receive: {channels: [axis.sensor], wait: inline}
            threads: {isr: {priority: 0}, consumer: {priority: 0}, lockMemory: false, cpuDmaLatency: false}
            strict: false
            journal: {enabled: true, dir: journal}
            heartbeat: 0
            app: {class: %s}
            """.formatted(ThrowingLaw.class.getName()));
        System.setProperty(SimNetwork.ROOT_PROPERTY, simRoot.toString());
        final Process node = CliProcesses.start(simRoot, ProcessBuilder.Redirect.PIPE, "node", "--config",
            dir.resolve("law.yaml").toString());
        final CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> stderr(node));
        final CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> stdout(node));
        try (RfmDevice plant = RfmDevices.open(ControlFrames.deviceUri("sound", ControlFrames.PLANT_NODE)))
        {
            final FramePublisher publisher = new FramePublisher(plant, ControlFrames.SENSOR);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[ControlFrames.SENSOR_LENGTH]);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // frames until the node has stopped on its failure (the first ones may come before it listens)
            while (node.isAlive() && System.nanoTime() < deadline)
            {
                publisher.publish(payload, 0, payload.capacity(), 0);
                Thread.sleep(1);
            }
        }
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        final String outText = out.get(30, TimeUnit.SECONDS);
        final String errText = err.get(30, TimeUnit.SECONDS);

        assertThat(node.exitValue()).as(outText + errText).isEqualTo(ExitCodes.ERROR);
        assertThat(errText).as(outText).contains("rfmrt node: thread rfmrt-isr: IllegalStateException: the law " +
            "broke on its 5th frame");
        assertThat(outText).as(errText).containsPattern("(?m)^result \\{\"frames\":5}$")
            .endsWith("stopped after a thread failed\n");
    }

    private static String stderr(final Process process)
    {
        try
        {
            return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static String stdout(final Process process)
    {
        try
        {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    /** A law that throws on its 5th frame; its result counts the frames it saw. */
    public static final class ThrowingLaw implements NodeApp
    {
        private int frames;

        /** Its result. @param frames frames seen. */
        public record Result(int frames)
        {
        }

        @Override
        public void onStart(final RfmNode node)
        {
        }

        @Override
        public FrameHandler handler()
        {
            return (frame, stamps) ->
            {
                if (++frames == 5)
                {
                    throw new IllegalStateException("the law broke on its 5th frame");
                }
            };
        }

        @Override
        public Object result()
        {
            return new Result(frames);
        }
    }
}
