package io.rfmrt.runtime;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import io.rfmrt.runtime.replay.Playback;
import io.rfmrt.runtime.replay.PlaybackRecording;
import io.rfmrt.runtime.replay.Player;
import io.rfmrt.runtime.threads.RtSettings;
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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A recording made by a running node, played back into a fresh node of the same configuration on its own thread:
 * every frame arrives, with the recorded numbers and payloads, as recorded or as fast as the receiver keeps up.
 */
class PlaybackNodeTest
{
    private static final int FRAMES = 300;

    @TempDir
    Path dir;

    private Path root;

    @BeforeEach
    void setUp() throws IOException
    {
        root = SimRoot.use("rfmrt-playback-node-test-");
        Files.writeString(dir.resolve("layout.yaml"), """
            memorySize: 1M
            channels:
              - {name: sensor,  node: 1, offset: 0x10000, slots: 64, slotSize: 128, event: INTR1, to: 2}
            """);
    }

    @AfterEach
    void tearDown() throws IOException
    {
        SimRoot.remove(root);
    }

    @Test
    void shouldPlayARecordingIntoAFreshNodeWithEveryFrameAndTheRecordedNumbers() throws Exception
    {
        final NodeContext recorder = config("recorded");
        final List<Long> recorded = new ArrayList<>();
        final RfmNode first = new RfmNode(recorder.out(line -> { }));
        try (RfmDevice sender = RfmDevices.open("sim:play?node=1&size=1M"))
        {
            first.start();
            final FramePublisher publisher = new FramePublisher(sender, recorder.inputs().get(0));
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            // the first 10 numbers are skipped: playback keeps the recorded ones
            publisher.resumeAfter(10);
            for (int i = 0; i < FRAMES; i++)
            {
                payload.putLong(0, 1000 + i);
                publisher.publish(payload, 0, payload.capacity(), 0);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            awaitHandled(first, FRAMES);
            first.close();
        }
        final PlaybackRecording recording = PlaybackRecording.load(dir.resolve("recorded"), null, null, Set.of());
        assertThat(recording.frames()).isEqualTo(FRAMES);
        assertThat(recording.sources()).singleElement().satisfies(s ->
        {
            assertThat(s.node()).isEqualTo(1);
            assertThat(s.channel()).isEqualTo(recorder.inputs().get(0));
            assertThat(s.journal()).isEqualTo(".");
        });
        for (int i = 0; i < FRAMES; i++)
        {
            recorded.add(recording.seq(i));
        }
        assertThat(recorded.get(0)).isEqualTo(11);

        for (final double rate : new double[]{2.0, Player.RATE_MAX})
        {
            final String name = rate == Player.RATE_MAX ? "played-max" : "played";
            final RfmNode second = new RfmNode(config(name).out(line -> { }));
            second.start();
            try (Playback playback = Playback.start(recording, Playback.Options.of("play").withRate(rate)
                .withRt(new RtSettings(List.of(), false, false, false, Path.of("/")), 0), line -> { }))
            {
                assertThat(playback.awaitDone(60, TimeUnit.SECONDS)).isTrue();
                assertThat(playback.failure()).isNull();
                assertThat(playback.player().stalled()).isFalse();
                assertThat(playback.player().framesSent()).isEqualTo(FRAMES);
                assertThat(playback.placementTable()).contains(Player.THREAD_NAME);
                if (rate == Player.RATE_MAX)
                {
                    assertThat(playback.receivers()).containsExactly(2);
                }
                else
                {
                    // a loose bound: the recorded 0.3 s at twice the speed (the benchmark reports the real timing)
                    final long played = playback.player().endNanos() - playback.player().startNanos();
                    assertThat(played).isBetween(recording.spanNanos() / 2, recording.spanNanos());
                }
                awaitHandled(second, FRAMES);
                assertThat(second.receivePath().counter(FrameCounter.GAPS)).isZero();
                assertThat(second.receivePath().counter(FrameCounter.TORN)).isZero();
            }
            second.close();
            final List<Long> played = new ArrayList<>();
            long payloadSum = 0;
            try (JournalReader reader = JournalReader.open(dir.resolve(name)))
            {
                final JournalRecord record = new JournalRecord();
                while (reader.next(record))
                {
                    if (record.kind() == RecordKind.FRAME)
                    {
                        played.add(record.seq());
                        payloadSum += record.payload().getLong(record.payloadOffset());
                    }
                }
            }
            assertThat(played).as("at rate " + rate).isEqualTo(recorded);
            assertThat(payloadSum).isEqualTo((long)FRAMES * 1000 + (long)FRAMES * (FRAMES - 1) / 2);
        }
    }

    private NodeContext config(final String journal) throws IOException
    {
        final Path file = dir.resolve(journal + ".yaml");
        Files.writeString(file, """
            device: sim:play?node=2&size=1M&dma=auto
            layout: layout.yaml
            receive:
              channels: [sensor]
              wait: BLOCKING
            threads:
              cpus: []
              isr:       {priority: 0}
              consumer:  {priority: 0}
              lockMemory: false
            journal:
              enabled: true
              dir: %s
            heartbeat: 0
            """.formatted(journal));
        return NodeConfig.load(file);
    }

    private static void awaitHandled(final RfmNode node, final long frames) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (node.receivePath().counter(RuntimeCounter.FRAMES_HANDLED) < frames && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertThat(node.receivePath().counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(frames);
    }
}
