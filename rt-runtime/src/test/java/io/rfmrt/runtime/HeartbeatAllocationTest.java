package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heartbeat shows the bytes each RT thread of the receive path allocated over the beat ({@code alloc+N}, read
 * with HotSpot's per-thread counter on the heartbeat's thread) and warns once when the thread that runs the handler
 * allocates after the warm-up. The beats are taken here, by the test, after a known number of frames.
 */
class HeartbeatAllocationTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 64, 128, EventType.INTR1, 2);
    private static final Pattern ISR_ALLOC = Pattern.compile("rfmrt-isr minflt\\+-?\\d+ nivcsw\\+-?\\d+ alloc\\+(-?\\d+)");

    private Path root;
    private RtEnvironment env;

    @BeforeEach
    void setUp()
    {
        root = SimRoot.use("rfmrt-heartbeat-alloc-test-");
        env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")), w -> { });
    }

    @AfterEach
    void tearDown() throws IOException
    {
        env.close();
        SimRoot.remove(root);
    }

    @Test
    void shouldShowAndWarnOnceOfAHandlerThatKeepsAllocatingAfterTheWarmUp() throws Exception
    {
        final List<String> warnings = new ArrayList<>();
        final List<Long> allocated = beats(true, warnings);

        // every beat saw at least the handler's 1,000 arrays of 64 bytes
        assertThat(allocated).hasSize(5).allSatisfy(bytes -> assertThat(bytes).isGreaterThanOrEqualTo(64_000L));
        assertThat(warnings).singleElement().asString().matches("rfmrt-isr allocated \\d+ bytes in the last " +
            "heartbeat period, after the warm-up: code on its hot path allocates \\(its frame handler, or its wait " +
            "for the card's events\\), and the garbage collector will stop it \\(see 'alloc\\+' in the heartbeat\\)");
    }

    @Test
    void shouldShowNoAllocationAndNotWarnOfAHandlerThatAllocatesNothing() throws Exception
    {
        final List<String> warnings = new ArrayList<>();
        final List<Long> allocated = beats(false, warnings);

        assertThat(allocated).hasSize(5);
        // after the warm-up beats the receive path and the handler allocate nothing but, once, what a late compilation
        // may (a few hundred bytes), far below the allocating handler's 1,000 arrays a beat
        assertThat(allocated.subList(Heartbeat.ALLOCATION_WARMUP_BEATS, 5)).as("%s", allocated)
            .allSatisfy(bytes -> assertThat(bytes).isBetween(0L, 4096L));
        assertThat(warnings).as("%s", allocated).isEmpty();
    }

    /**
     * Five beats, each after 1,000 frames handled on the ISR-wake thread (INLINE).
     *
     * @return the ISR thread's {@code alloc+} figure of each beat.
     */
    private List<Long> beats(final boolean allocate, final List<String> warnings) throws Exception
    {
        final AtomicLong handled = new AtomicLong();
        final Object[] escape = new Object[1];
        final List<String> lines = new ArrayList<>();
        final List<Long> allocated = new ArrayList<>();
        try (RfmDevice sender = RfmDevices.open("sim:alloc?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:alloc?node=2&size=1M&dma=auto"))
        {
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), SENSOR.event(), WaitStrategy.inline(),
                (frame, stamps) ->
                {
                    if (allocate)
                    {
                        escape[0] = new byte[64];
                    }
                    handled.incrementAndGet();
                }, null, null, SystemNanoClock.INSTANCE);
            path.start(env, -1, 0, -1, 0);
            final Heartbeat heartbeat = new Heartbeat(receiver, path, lines::add).journal(null, warnings::add);
            final FramePublisher publisher = new FramePublisher(sender, SENSOR);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[16]);
            long sent = 0;
            for (int beat = 0; beat < 5; beat++)
            {
                for (int i = 0; i < 1_000; i++)
                {
                    publisher.publish(payload, 0, payload.capacity(), 0);
                    sent++;
                    // the ring holds 64 frames: wait for the handler to keep up (bounded)
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (handled.get() < sent - 32 && System.nanoTime() < deadline)
                    {
                        Thread.onSpinWait();
                    }
                }
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (handled.get() < sent && System.nanoTime() < deadline)
                {
                    Thread.sleep(1);
                }
                assertThat(handled.get()).isEqualTo(sent);
                heartbeat.beat();
                final Matcher m = ISR_ALLOC.matcher(lines.get(lines.size() - 1));
                assertThat(m.find()).as(lines.get(lines.size() - 1)).isTrue();
                allocated.add(Long.parseLong(m.group(1)));
            }
            path.close();
        }
        return allocated;
    }
}
