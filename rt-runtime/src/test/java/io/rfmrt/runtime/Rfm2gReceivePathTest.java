package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The receive path, unchanged, on the rfm2g backend: the ISR-wake thread sleeps in RFM2gWaitForEvent of the
 * native stand-in, reads each frame with RFM2gRead into the DMA buffer, the consumer hands it to the handler.
 */
class Rfm2gReceivePathTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 16, 128, EventType.INTR1, 2);
    private static final int FRAMES = 10_000;

    @TempDir
    Path dir;

    private String was;
    private RtEnvironment env;
    private final List<String> warnings = new ArrayList<>();

    @BeforeEach
    void setUp()
    {
        was = System.getProperty(SimNetwork.ROOT_PROPERTY);
        System.setProperty(SimNetwork.ROOT_PROPERTY, Path.of("/dev/shm").resolve("rfmrt-rfm2g-" + dir.getFileName())
            .toString());
        env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")), warnings::add);
    }

    @AfterEach
    void tearDown() throws IOException
    {
        env.close();
        final Path root = SimNetwork.root();
        if (Files.exists(root))
        {
            try (var paths = Files.walk(root))
            {
                for (final Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
        if (was == null)
        {
            System.clearProperty(SimNetwork.ROOT_PROPERTY);
        }
        else
        {
            System.setProperty(SimNetwork.ROOT_PROPERTY, was);
        }
    }

    @Test
    void shouldHandleEveryFrameFromASimPublisherOnTheCard() throws IOException
    {
        try (RfmDevice sender = RfmDevices.open("sim:card?node=1&size=1M"))
        {
            final Path node = dir.resolve("rfm2g0");
            Files.writeString(node, "network=" + SimNetwork.dir("card") + "\nnode=2\ndmaBuffer=4096\n");
            try (RfmDevice card = RfmDevices.open("rfm2g:" + node +
                "?dmaThreshold=128&dmaBase=0x40000000&dmaSlots=16&dmaSlotSize=128"))
            {
                final long[] expected = {1};
                final long[] outOfOrder = {0};
                final ReceivePath path = new ReceivePath(card, List.of(SENSOR), EventType.INTR1,
                    WaitStrategy.blocking(), (frame, stamps) ->
                    {
                        if (frame.buffer().getLong(frame.payloadOffset()) != expected[0]++)
                        {
                            outOfOrder[0]++;
                        }
                    }, null, null, SystemNanoClock.INSTANCE);
                path.start(env, -1, 0, -1, 0);
                final FramePublisher publisher = new FramePublisher(sender, SENSOR);
                final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                for (int i = 0; i < FRAMES; i++)
                {
                    // a few frames in flight at most, so that no FIFO or ring overflows
                    while (publisher.lastSeq() - path.counter(RuntimeCounter.FRAMES_HANDLED) >= 4)
                    {
                        assertThat(System.nanoTime()).as("receive path stalled at %d frames",
                            path.counter(RuntimeCounter.FRAMES_HANDLED)).isLessThan(deadline);
                        Thread.onSpinWait();
                    }
                    payload.putLong(0, publisher.lastSeq() + 1);
                    publisher.publish(payload, 0, payload.capacity(), 0);
                }
                while (path.counter(RuntimeCounter.FRAMES_HANDLED) < FRAMES && System.nanoTime() < deadline)
                {
                    Thread.onSpinWait();
                }
                path.close();

                assertThat(path.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(FRAMES);
                assertThat(path.counter(RuntimeCounter.EVENTS)).isEqualTo(FRAMES);
                assertThat(path.counter(FrameCounter.GAPS)).isZero();
                assertThat(outOfOrder[0]).isZero();
                assertThat(card.dma().freeIndex()).isEqualTo(FRAMES);
            }
        }
    }
}
