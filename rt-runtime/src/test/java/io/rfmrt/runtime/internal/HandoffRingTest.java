package io.rfmrt.runtime.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-off's park/wake protocol: the lost-wake-up window driven on one thread (no stall guard, no timing luck),
 * and a consumer really asleep in park woken by an entry or on request.
 */
class HandoffRingTest
{
    private static final long LONG_PARK = TimeUnit.SECONDS.toNanos(10);

    @Test
    void shouldNotSleepWhenAnEntryArrivedBeforeTheConsumerParked()
    {
        final HandoffRing ring = new HandoffRing(4);
        ring.consumer(Thread.currentThread());
        // no permit left over from earlier work on this thread
        LockSupport.parkNanos(1);
        // the producer publishes between the consumer's empty peek and its park: the lost-wake-up window
        assertThat(ring.peek()).isEqualTo(-1);
        assertThat(ring.offer(3, 0, 0, 1, 42, 1, 2, 3)).isTrue();
        final long start = System.nanoTime();
        assertThat(ring.park(LONG_PARK)).as("park sees the entry and returns at once").isFalse();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
        final int e = ring.peek();
        assertThat(e).isNotNegative();
        assertThat(ring.entries().getInt(e + HandoffRing.SLOT_OFFSET)).isEqualTo(3);
        assertThat(ring.entries().getLong(e + HandoffRing.SEQ_OFFSET)).isEqualTo(42);
        ring.advance();
        assertThat(ring.peek()).isEqualTo(-1);
    }

    @Test
    void shouldSleepOnAnEmptyRingUntilItsBound()
    {
        final HandoffRing ring = new HandoffRing(4);
        ring.consumer(Thread.currentThread());
        LockSupport.parkNanos(1);
        assertThat(ring.park(TimeUnit.MILLISECONDS.toNanos(20))).isTrue();
        // a later offer finds no parked consumer and leaves no flag behind: the next park with an entry returns
        assertThat(ring.offer(0, 0, 0, 1, 1, 0, 0, 0)).isTrue();
        assertThat(ring.park(LONG_PARK)).isFalse();
    }

    @Test
    void shouldRefuseAnOfferWhenFullAndTakeOneAgainAfterAdvance()
    {
        final HandoffRing ring = new HandoffRing(2);
        assertThat(ring.offer(0, 0, 0, 1, 1, 0, 0, 0)).isTrue();
        assertThat(ring.offer(1, 0, 0, 1, 2, 0, 0, 0)).isTrue();
        assertThat(ring.offer(2, 0, 0, 1, 3, 0, 0, 0)).isFalse();
        ring.advance();
        assertThat(ring.offer(2, 0, 0, 1, 3, 0, 0, 0)).isTrue();
        assertThat(ring.entries().getLong(ring.peek() + HandoffRing.SEQ_OFFSET)).isEqualTo(2);
    }

    /**
     * Start a consumer thread that parks once on {@code ring} and records whether it slept (1) or not (0); return
     * once it is asleep in the park.
     */
    private static Thread parkedConsumer(final HandoffRing ring, final long maxNanos, final AtomicInteger slept)
    {
        final Thread consumer = new Thread(() -> slept.set(ring.park(maxNanos) ? 1 : 0), "consumer");
        ring.consumer(consumer);
        consumer.start();
        Thread.State state;
        while ((state = consumer.getState()) != Thread.State.WAITING && state != Thread.State.TIMED_WAITING)
        {
            assertThat(state).as("the consumer returned from park on an empty ring").isNotEqualTo(
                Thread.State.TERMINATED);
            Thread.onSpinWait();
        }
        return consumer;
    }

    private static void awaitEnd(final HandoffRing ring, final Thread consumer) throws InterruptedException
    {
        consumer.join(TimeUnit.SECONDS.toMillis(60));
        if (consumer.isAlive())
        {
            ring.wake();
            throw new AssertionError("the parked consumer was not woken");
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 60_000_000_000L})
    void shouldWakeAParkedConsumerWhenAnEntryArrives(final long maxNanos) throws InterruptedException
    {
        final HandoffRing ring = new HandoffRing(4);
        final AtomicInteger slept = new AtomicInteger(-1);
        final Thread consumer = parkedConsumer(ring, maxNanos, slept);
        assertThat(ring.offer(1, 0, 0, 7, 42, 100, 200, 300)).isTrue();
        awaitEnd(ring, consumer);
        assertThat(slept.get()).as("it slept").isEqualTo(1);
        final int e = ring.peek();
        assertThat(ring.entries().getInt(e + HandoffRing.SLOT_OFFSET)).isEqualTo(1);
        assertThat(ring.entries().getInt(e + HandoffRing.SOURCE_OFFSET)).isEqualTo(7);
        assertThat(ring.entries().getLong(e + HandoffRing.SEND_OFFSET)).isEqualTo(100);
        assertThat(ring.entries().getLong(e + HandoffRing.WOKE_OFFSET)).isEqualTo(200);
        assertThat(ring.entries().getLong(e + HandoffRing.VALIDATED_OFFSET)).isEqualTo(300);
    }

    @Test
    void shouldWakeAParkedConsumerOnRequest() throws InterruptedException
    {
        final HandoffRing ring = new HandoffRing(4);
        final AtomicInteger slept = new AtomicInteger(-1);
        final Thread consumer = parkedConsumer(ring, 0, slept);
        ring.wake();
        awaitEnd(ring, consumer);
        assertThat(slept.get()).isEqualTo(1);
        assertThat(ring.peek()).isEqualTo(-1);
        // with no consumer thread named, a wake is harmless
        new HandoffRing(2).wake();
    }
}
