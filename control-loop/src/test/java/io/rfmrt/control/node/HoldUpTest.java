package io.rfmrt.control.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

class HoldUpTest
{
    @Test
    void shouldHoldUpForTheWholeTimeThoughAnUnparkIsLeftOver()
    {
        // as the hand-off ring's producer leaves one when its wake races the consumer's own look at the ring
        LockSupport.unpark(Thread.currentThread());
        final long start = System.nanoTime();

        HoldUp.atLeast(20_000_000L);

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(20_000_000L);
    }

    @Test
    void shouldHoldUpForTheWholeTimeThoughUnparkedMeanwhile() throws InterruptedException
    {
        final Thread held = Thread.currentThread();
        final Thread waker = new Thread(() ->
        {
            for (int i = 0; i < 20; i++)
            {
                LockSupport.unpark(held);
                LockSupport.parkNanos(1_000_000L);
            }
        });
        final long start = System.nanoTime();
        waker.start();

        HoldUp.atLeast(30_000_000L);

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(30_000_000L);
        waker.join();
    }
}
