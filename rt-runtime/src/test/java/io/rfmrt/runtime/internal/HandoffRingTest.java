package io.rfmrt.runtime.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-off's park/wake protocol, driven on one thread: no stall guard, no timing luck.
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
}
