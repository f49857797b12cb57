package io.rfmrt.control.node;

import io.rfmrt.control.WakeLateness;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.WaitStrategy;
import io.rfmrt.runtime.threads.AbsoluteTimer;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's thread that is really held up (it sleeps once) shows up as a stall it measured itself: the plant's tick
 * loop ({@link PlantApp#awaitTick}, lateness = wake − scheduled tick) and the controller's handler on a real receive
 * path (lateness = handler start − the frame's publish stamp, as {@link ControllerApp} measures it).
 */
@Tag("nodes")
class NodeLatenessTest
{
    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long HOLD = TimeUnit.MILLISECONDS.toNanos(20);

    private Path root;
    private String previousRoot;
    private RtEnvironment env;

    @BeforeEach
    void setUp()
    {
        previousRoot = System.getProperty(SimNetwork.ROOT_PROPERTY);
        root = Path.of("/dev/shm", "rfmrt-lateness-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
        env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")), w -> { });
    }

    @AfterEach
    void tearDown() throws IOException
    {
        env.close();
        if (previousRoot == null)
        {
            System.clearProperty(SimNetwork.ROOT_PROPERTY);
        }
        else
        {
            System.setProperty(SimNetwork.ROOT_PROPERTY, previousRoot);
        }
        if (Files.exists(root))
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Test
    void shouldRecordAStallWhenThePlantLoopIsHeldUpOnce() throws InterruptedException
    {
        final List<long[]> journaled = new ArrayList<>();
        final WakeLateness lateness = new WakeLateness(PERIOD, 64, (seq, start, duration) ->
            journaled.add(new long[] {seq, start, duration}));
        final long[] held = new long[2];
        final Thread loop = new Thread(() ->
        {
            final AbsoluteTimer timer = new AbsoluteTimer();
            long next = System.nanoTime() + PERIOD;
            for (long cycle = 1; cycle <= 200; cycle++)
            {
                lateness.wake(cycle, next, PlantApp.awaitTick(timer, next));
                next += PERIOD;
                if (cycle == 50)
                {
                    held[0] = System.nanoTime();
                    LockSupport.parkNanos(HOLD);
                    held[1] = System.nanoTime();
                }
            }
            lateness.finish();
        });
        loop.start();
        loop.join(30_000);

        assertThat(held[1] - held[0]).isGreaterThanOrEqualTo(HOLD);
        final long[] stall = covering(lateness, held[0], held[1]);
        assertThat(stall).as("a stall covering the hold-up %s; stalls %d", java.util.Arrays.toString(held),
            lateness.stalls()).isNotNull();
        assertThat(stall[1] - stall[0]).isGreaterThanOrEqualTo(held[1] - held[0] - PERIOD);
        assertThat(lateness.maxLatenessNanos()).isGreaterThanOrEqualTo(held[1] - held[0] - PERIOD);
        assertThat(journaled).anySatisfy(j -> assertThat(j[1]).isEqualTo(stall[0]));
        assertThat(lateness.wakes()).isEqualTo(200);
    }

    @Test
    void shouldRecordAStallWhenTheControllerHandlerIsHeldUpOnce() throws InterruptedException
    {
        final WakeLateness lateness = new WakeLateness(PERIOD, 64, null);
        final long[] held = new long[2];
        final AtomicLong handled = new AtomicLong();
        final int frames = 200;
        final long[] published = new long[frames + 1];
        try (RfmDevice sender = RfmDevices.open(ControlFrames.deviceUri("lat", ControlFrames.PLANT_NODE));
            RfmDevice receiver = RfmDevices.open(ControlFrames.deviceUri("lat", ControlFrames.CONTROLLER_NODE)))
        {
            final ReceivePath path = new ReceivePath(receiver, List.of(ControlFrames.SENSOR),
                ControlFrames.SENSOR.event(), WaitStrategy.blocking(), (frame, stamps) ->
                {
                    lateness.wake(stamps.seq(), frame.sendNanos(), stamps.consumerStartNanos());
                    if (stamps.seq() == 50)
                    {
                        held[0] = System.nanoTime();
                        LockSupport.parkNanos(HOLD);
                        held[1] = System.nanoTime();
                    }
                    handled.incrementAndGet();
                }, null, null, SystemNanoClock.INSTANCE);
            path.start(env, -1, 0, -1, 0);
            final FramePublisher publisher = new FramePublisher(sender, ControlFrames.SENSOR);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[ControlFrames.SENSOR_LENGTH]);
            final AbsoluteTimer timer = new AbsoluteTimer();
            long next = System.nanoTime() + PERIOD;
            for (int k = 1; k <= frames; k++)
            {
                PlantApp.awaitTick(timer, next);
                next += PERIOD;
                payload.putLong(ControlFrames.SENSOR_CYCLE_OFFSET, k);
                publisher.publish(payload, 0, ControlFrames.SENSOR_LENGTH, 0);
                published[k] = publisher.lastSendNanos();
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (handled.get() < frames && System.nanoTime() < deadline)
            {
                Thread.sleep(1);
            }
            path.close();
            assertThat(path.counter(RuntimeCounter.FRAMES_HANDLED)).isEqualTo(frames);
        }
        lateness.finish();
        assertThat(held[1] - held[0]).isGreaterThanOrEqualTo(HOLD);
        // the frames published while the handler slept are handled after it woke: the first of them (whenever the
        // sender got to publish it on a loaded machine) opens a stall that lasts at least until the handler woke
        long firstDuringHold = 0;
        int duringHold = 0;
        for (int k = 1; k <= frames; k++)
        {
            if (published[k] > held[0] && published[k] < held[1] - 2 * PERIOD)
            {
                firstDuringHold = firstDuringHold == 0 ? published[k] : firstDuringHold;
                duringHold++;
            }
        }
        assertThat(duringHold).as("frames published while the handler was held").isPositive();
        long[] stall = null;
        for (int i = 0; i < lateness.kept(); i++)
        {
            if (lateness.start(i) <= firstDuringHold && lateness.end(i) >= held[1])
            {
                stall = new long[] {lateness.start(i), lateness.end(i)};
            }
        }
        assertThat(stall).as("a stall from %d to at least %d; stalls %d", firstDuringHold, held[1],
            lateness.stalls()).isNotNull();
        assertThat(lateness.maxLatenessNanos()).isGreaterThanOrEqualTo(held[1] - firstDuringHold);
        assertThat(lateness.wakes()).isEqualTo(frames);
    }

    /** The kept stall that spans most of [from, to], or null. */
    private static long[] covering(final WakeLateness l, final long from, final long to)
    {
        for (int i = 0; i < l.kept(); i++)
        {
            if (l.start(i) <= from + PERIOD && l.end(i) >= to - PERIOD)
            {
                return new long[] {l.start(i), l.end(i)};
            }
        }
        return null;
    }
}
