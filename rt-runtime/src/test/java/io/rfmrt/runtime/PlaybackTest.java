package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelLayout;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.PlaybackRecording;
import io.rfmrt.runtime.replay.Player;
import io.rfmrt.runtime.replay.ReplayException;
import io.rfmrt.runtime.replay.TimeBound;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The player's schedule, numbering, pause and credit, driven by a stepped clock with the frames landing in an emulated
 * network's memory; and the recording it plays, read from a journal whose header carries the channel layout.
 */
class PlaybackTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x1000, 8, 128, EventType.INTR1, 2);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @TempDir
    Path temp;

    private Path root;
    private RfmDevice device;
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-playback-test-");
        SimNetwork.create("play", 1 << 20).close();
        device = RfmDevices.open("sim:play?node=1");
    }

    @AfterEach
    void tearDown() throws IOException
    {
        device.close();
        SimRoot.remove(root);
    }

    @Test
    void shouldPublishEachFrameAtItsRecordedOffsetScaledByTheRate()
    {
        final PlaybackRecording recording = load(record(0, 1, 3, 7));
        assertThat(recording.frames()).isEqualTo(4);
        assertThat(recording.spanNanos()).isEqualTo(7 * MS);
        for (final double rate : new double[]{1.0, 2.0})
        {
            final Player player = player(recording, rate, 1, false);
            final long t0 = now.get();
            final List<Long> sentAt = run(player, 20 * MS, 50_000);
            final long[] expected = {0, MS, 3 * MS, 7 * MS};
            assertThat(sentAt).hasSize(4);
            for (int i = 0; i < 4; i++)
            {
                // stepped by 50 us: each frame goes out at the first step at or after its due time
                final long due = (long)(expected[i] / rate);
                assertThat(sentAt.get(i) - t0).isBetween(due, due + 50_000);
            }
            assertThat(player.done()).isTrue();
            final Histogram errors = player.timing(null);
            assertThat(errors.getTotalCount()).isEqualTo(4);
            assertThat(errors.getMaxValue()).isLessThanOrEqualTo(50_000);
        }
    }

    @Test
    void shouldStartTheNextLoopOneMeanIntervalAfterTheLastFrameAndRenumberContinuously()
    {
        final PlaybackRecording recording = load(record(0, 2, 4));
        // span 4 ms over 2 intervals: the next loop starts 2 ms after the last frame
        assertThat(recording.loopNanos()).isEqualTo(6 * MS);
        final Player player = player(recording, 1.0, 3, true);
        final long t0 = now.get();
        final List<Long> sentAt = run(player, 40 * MS, 100_000);
        assertThat(sentAt).hasSize(9);
        assertThat(sentAt.get(3) - t0).isBetween(6 * MS, 6 * MS + 100_000);
        assertThat(sentAt.get(8) - t0).isBetween(16 * MS, 16 * MS + 100_000);
        assertThat(seqs).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        assertThat(player.loop()).isEqualTo(2);
    }

    @Test
    void shouldPlayTheRecordedNumbersInEveryLoopUnderANewIncarnation()
    {
        final PlaybackRecording recording = load(record(0, 2, 4));
        final Player player = player(recording, 1.0, 2, false);
        run(player, 40 * MS, 100_000);
        assertThat(seqs).containsExactly(101L, 102L, 103L, 101L, 102L, 103L);
        assertThat(incarnations.subList(0, 3)).containsOnly(incarnations.get(0));
        assertThat(incarnations.subList(3, 6)).containsOnly(incarnations.get(3));
        assertThat(incarnations.get(3)).isNotEqualTo(incarnations.get(0));
    }

    @Test
    void shouldAddTheTimePausedToTheSchedule()
    {
        final PlaybackRecording recording = load(record(0, 10));
        final Player player = player(recording, 1.0, 1, false);
        final long t0 = now.get();
        player.doWork();
        assertThat(player.framesSent()).isEqualTo(1);
        player.pause(true);
        step(player, 3 * MS, 100_000);
        assertThat(player.paused()).isTrue();
        player.doWork();
        assertThat(player.framesSent()).isEqualTo(1);
        // paused for 20 ms: the second frame is due 10 ms after the first, plus the pause
        now.addAndGet(20 * MS);
        player.pause(false);
        player.doWork();
        assertThat(player.paused()).isFalse();
        final long pausedFor = player.pausedNanos();
        assertThat(pausedFor).isBetween(20 * MS, 24 * MS);
        final List<Long> sentAt = run(player, 20 * MS, 100_000);
        assertThat(sentAt).hasSize(1);
        assertThat(sentAt.get(0) - t0).isBetween(10 * MS + pausedFor, 10 * MS + pausedFor + 100_000);
    }

    @Test
    void shouldSendAtMostAWindowAheadOfTheReceiversAndStopWhenTheyStall()
    {
        final PlaybackRecording recording = load(record(0, 1, 2, 3, 4, 5, 6, 7));
        final AtomicLong taken = new AtomicLong();
        final Player player = new Player(recording, publishers(1), this::nanos, Player.RATE_MAX, 1, true,
            taken::get, 3, null, false);
        player.doWork();
        assertThat(player.framesSent()).isEqualTo(3);
        player.doWork();
        assertThat(player.framesSent()).isEqualTo(3);
        taken.set(2);
        player.doWork();
        assertThat(player.framesSent()).isEqualTo(5);
        assertThat(player.creditWaits()).isEqualTo(2);
        now.addAndGet(Player.STALL_NS + 1);
        player.doWork();
        assertThat(player.stalled()).isTrue();
        assertThat(player.done()).isTrue();
        assertThat(player.framesSent()).isEqualTo(5);
    }

    @Test
    void shouldAllocateNothingWhilePlaying()
    {
        final PlaybackRecording recording = load(record(0, 1, 2, 3, 4, 5, 6, 7));
        final Player player = player(recording, 1.0, Player.FOREVER, false);
        final ZeroAllocation.Result result = ZeroAllocation.measure((first, count) ->
        {
            for (int i = 0; i < count; i++)
            {
                now.addAndGet(250_000);
                player.doWork();
            }
        }, 50_000, 50_000, 5);
        assertThat(result.lastWindowBytes()).as(result.toString()).isZero();
        assertThat(player.framesSent()).isGreaterThan(10_000);
    }

    @Test
    void shouldCutTheRecordingAsTheSummaryDoesAndKeepTheChosenSources()
    {
        final Path dir = temp.resolve("two");
        final long base = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        final ChannelSpec other = new ChannelSpec("other", 3, 0x2000, 8, 128, EventType.INTR1, 2);
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2).withLayout(
            new ChannelLayout(1 << 20, List.of(SENSOR, other), List.of()).toYaml())))
        {
            final JournalWriter writer = journal.newWriter("consumer");
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            for (int i = 0; i < 10; i++)
            {
                payload.putLong(0, i);
                write(writer, 1, i + 1, base + i * 100 * MS, payload);
                write(writer, 3, i + 1, base + i * 100 * MS + MS, payload);
            }
        }
        final PlaybackRecording all = PlaybackRecording.load(dir, null, null, Set.of());
        assertThat(all.sourceNodes()).containsExactly(1, 3);
        assertThat(all.frames()).isEqualTo(20);
        assertThat(all.sources().get(1).channel()).isEqualTo(other);
        // the bounds count from the journal's start (its first header), which came a little after base - 1 s
        final long start;
        try (io.rfmrt.runtime.journal.JournalReader reader = io.rfmrt.runtime.journal.JournalReader.open(dir))
        {
            start = reader.header().nanos();
        }
        final PlaybackRecording cut = PlaybackRecording.load(dir,
            TimeBound.parse("+" + (base + 150 * MS - start) + "ns"), TimeBound.parse("+" + (base + 550 * MS - start) +
            "ns"), Set.of(1));
        assertThat(cut.sourceNodes()).containsExactly(1);
        assertThat(cut.frames()).isEqualTo(4);
        assertThat(cut.payloads().getLong(cut.payloadOffset(0))).isEqualTo(2L);
        assertThatThrownBy(() -> PlaybackRecording.load(dir, null, null, Set.of(9)))
            .isInstanceOf(ReplayException.class)
            .hasMessage("playback: no journal under " + dir + " holds frames from node 9; sources found: [1, 3]");
    }

    @Test
    void shouldRefuseAJournalWithoutALayoutInOneLineNamingItsFile()
    {
        final Path dir = temp.resolve("bare");
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2)))
        {
            write(journal.newWriter("consumer"), 1, 1, System.nanoTime(), new UnsafeBuffer(new byte[8]));
        }
        assertThatThrownBy(() -> PlaybackRecording.load(dir, null, null, Set.of()))
            .isInstanceOf(ReplayException.class)
            .hasMessageStartingWith("playback: journal file " + dir + "/")
            .hasMessageEndingWith(".cq4 records no channel layout (its node gave the journal none); playback needs " +
                "the channels its frames travelled on")
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    // ---------------------------------------------------------------------------------------------------------------

    private final List<Long> seqs = new ArrayList<>();
    private final List<Integer> incarnations = new ArrayList<>();

    private long nanos()
    {
        return now.get();
    }

    /** A journal of node 2 that received SENSOR frames (seq 101, 102, ...) at these ms offsets. */
    private Path record(final long... ms)
    {
        final Path dir = temp.resolve("rec-" + ms.length + "-" + System.nanoTime());
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2).withLayout(
            new ChannelLayout(1 << 20, List.of(SENSOR), List.of()).toYaml())))
        {
            final JournalWriter writer = journal.newWriter("consumer");
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[24]);
            final long base = System.nanoTime();
            for (int i = 0; i < ms.length; i++)
            {
                payload.putLong(0, i);
                write(writer, 1, 101 + i, base + ms[i] * MS, payload);
            }
        }
        return dir;
    }

    private static void write(final JournalWriter writer, final int source, final long seq, final long sendNanos,
        final UnsafeBuffer payload)
    {
        while (!writer.frame(seq, source, 0, 0, sendNanos, sendNanos + 1, sendNanos + 2, sendNanos + 3,
            sendNanos + 4, payload, 0, payload.capacity()))
        {
            Thread.onSpinWait();
        }
    }

    private static PlaybackRecording load(final Path dir)
    {
        return PlaybackRecording.load(dir, null, null, Set.of());
    }

    private FramePublisher[][] publishers(final int count)
    {
        final FramePublisher[] p = new FramePublisher[count];
        for (int i = 0; i < count; i++)
        {
            p[i] = new FramePublisher(device, SENSOR, this::nanos);
        }
        return new FramePublisher[][]{p};
    }

    private Player player(final PlaybackRecording recording, final double rate, final long loops,
        final boolean renumber)
    {
        seqs.clear();
        incarnations.clear();
        return new Player(recording, publishers(renumber || loops == 1 ? 1 : 2), this::nanos, rate, loops, renumber,
            null, 0, null, false);
    }

    /** Step the clock, run the player until it is done or {@code span} has passed; each frame's publish time. */
    private List<Long> run(final Player player, final long span, final long stepNanos)
    {
        final List<Long> sentAt = new ArrayList<>();
        final long end = now.get() + span;
        long seen = player.framesSent();
        while (!player.done() && now.get() < end)
        {
            player.doWork();
            for (; seen < player.framesSent(); seen++)
            {
                sentAt.add(now.get());
                final long slot = SENSOR.slotOffset(lastSeq());
                incarnations.add(device.window().getInt(slot + FrameHeaderDescriptor.INCARNATION_OFFSET));
            }
            now.addAndGet(stepNanos);
        }
        return sentAt;
    }

    private void step(final Player player, final long span, final long stepNanos)
    {
        final long end = now.get() + span;
        while (now.get() < end)
        {
            player.doWork();
            now.addAndGet(stepNanos);
        }
    }

    /** The newest frame in the channel's slots (what the player just published). */
    private long lastSeq()
    {
        long newest = 0;
        long newestSend = Long.MIN_VALUE;
        for (int s = 0; s < SENSOR.slots(); s++)
        {
            final long slot = SENSOR.offset() + (long)s * SENSOR.slotSize();
            final long seq = device.window().getLongVolatile(slot + FrameHeaderDescriptor.SEQ_OFFSET);
            final long send = device.window().getLong(slot + FrameHeaderDescriptor.SEND_NANOS_OFFSET);
            if (seq > 0 && (send > newestSend || send == newestSend && seq > newest))
            {
                newest = seq;
                newestSend = send;
            }
        }
        seqs.add(newest);
        return newest;
    }
}
