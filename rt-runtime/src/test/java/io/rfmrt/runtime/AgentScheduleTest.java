package io.rfmrt.runtime;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.HandoffIdleStrategy;
import io.rfmrt.runtime.internal.HandoffRing;
import io.rfmrt.runtime.internal.PeriodicAgent;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agents' schedules and the error policy, driven by an {@link AgentInvoker} on a {@link CachedNanoClock}: no
 * threads, no sleeps.
 */
class AgentScheduleTest
{
    private static final ChannelSpec SENSOR = new ChannelSpec("sensor", 1, 0x10000, 16, 128, EventType.INTR1, 2);

    private Path root;

    @BeforeEach
    void setUp()
    {
        root = Path.of("/dev/shm", "rfmrt-agent-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterEach
    void tearDown() throws IOException
    {
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
    void shouldPollOncePerPeriodAndRestartTheScheduleWhenFarBehind()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        clock.update(1_000_000_000L);
        try (RfmDevice receiver = RfmDevices.open("sim:poll?node=2&size=1M&dma=on-demand"))
        {
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.polling(1_000_000), (frame, stamps) -> { }, null, null, clock);
            try (AgentInvoker invoker = new AgentInvoker(path.errors(), null, path.pollingAgent()))
            {
                invoker.start();
                clock.advance(999_999);
                invoker.invoke();
                assertThat(path.counter(RuntimeCounter.POLLS)).isZero();
                clock.advance(1);
                invoker.invoke();
                invoker.invoke();
                assertThat(path.counter(RuntimeCounter.POLLS)).isEqualTo(1);
                assertThat(path.pollingAgent().nextDueNanos()).isEqualTo(1_002_000_000L);
                // five periods late: one poll, and the next one a whole period later, not a burst of five
                clock.update(1_007_000_000L);
                invoker.invoke();
                invoker.invoke();
                assertThat(path.counter(RuntimeCounter.POLLS)).isEqualTo(2);
                assertThat(path.pollingAgent().nextDueNanos()).isEqualTo(1_008_000_000L);
            }
        }
    }

    @Test
    void shouldSpinForTheSpinWindowThenBlock()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final HandoffRing handoff = new HandoffRing(4);
        final Counters counters = new Counters();
        final HandoffIdleStrategy idle = new HandoffIdleStrategy(handoff, 20_000, clock, counters);
        idle.idle(1);
        clock.advance(19_999);
        assertThat(idle.wouldBlock()).isFalse();
        idle.idle(0);
        clock.advance(1);
        assertThat(idle.wouldBlock()).isTrue();
        // a frame is waiting: the park returns at once without sleeping
        handoff.offer(0, 0, 0, 1, 1, 0, 0, 0);
        idle.idle(0);
        assertThat(counters.get(RuntimeCounter.CONSUMER_PARKS)).isZero();
        assertThat(new HandoffIdleStrategy(handoff, 0, clock, counters).wouldBlock()).isTrue();
    }

    @Test
    void shouldRunAPeriodicTaskOncePerPeriod()
    {
        final CachedNanoClock clock = new CachedNanoClock();
        final List<Long> runs = new ArrayList<>();
        final PeriodicAgent agent = new PeriodicAgent("rfmrt-heartbeat", 100, clock, (count, nanos) -> runs.add(nanos));
        try (AgentInvoker invoker = new AgentInvoker(Throwable::printStackTrace, null, agent))
        {
            invoker.start();
            for (int t = 0; t <= 350; t += 10)
            {
                clock.update(t);
                invoker.invoke();
            }
        }
        assertThat(runs).containsExactly(100L, 200L, 300L);
    }

    @Test
    void shouldCountLogAndFailOnAThrowingHandler()
    {
        try (RfmDevice sender = RfmDevices.open("sim:err?node=1&size=1M");
            RfmDevice receiver = RfmDevices.open("sim:err?node=2&size=1M&dmaSlots=16&dmaSlotSize=128"))
        {
            final String[] seen = new String[1];
            final RtErrorPolicy errors = new RtErrorPolicy(null).onFailure(() -> seen[0] = "failed");
            final ReceivePath path = new ReceivePath(receiver, List.of(SENSOR), EventType.INTR1,
                WaitStrategy.blocking(), (frame, stamps) ->
                {
                    throw new IllegalArgumentException("bad frame " + frame.seq());
                }, null, null, new CachedNanoClock(), errors);
            receiver.enableEvent(EventType.INTR1);
            new FramePublisher(sender, SENSOR).publish(new UnsafeBuffer(new byte[8]), 0, 8, 0);
            path.isrAgent().doWork(RfmDevice.NO_WAIT);
            try (AgentInvoker invoker = new AgentInvoker(errors, null, path.consumerAgent()))
            {
                invoker.start();
                invoker.invoke();
                // the policy tells the failing thread to stop
                assertThat(Thread.interrupted()).isTrue();
            }
            assertThat(errors.failed()).isTrue();
            assertThat(seen[0]).isEqualTo("failed");
            assertThat(path.counter(RuntimeCounter.ERRORS)).isEqualTo(1);
            assertThat(path.failure()).isEqualTo("thread " + Thread.currentThread().getName() +
                ": IllegalArgumentException: bad frame 1");
            // the descriptor still went back to the card
            assertThat(receiver.dma().freeIndex()).isEqualTo(1);
        }
    }
}
