package io.rfmrt.runtime.internal;

import io.rfmrt.runtime.ThreadNotStoppedException;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Closing an agent's thread: a slow thread is waited for, an unreachable one (its wake keeps failing) is given up on
 * and left running, and so is one past the bound.
 */
class BoundedCloseTest
{
    @Test
    void shouldWaitForAThreadThatIsOnlySlowToLeaveItsWait() throws Exception
    {
        // the duty cycle ignores the wake and leaves its wait only after 2.5 s, past the unreachable bound
        final CountDownLatch release = new CountDownLatch(1);
        final AgentRunner runner = start(() -> await(release, 2_500));
        final Thread thread = awaitThread(runner);

        // no exception: waited for, not given up on
        BoundedClose.close(runner, () -> { }, 10_000);

        assertThat(thread.isAlive()).isFalse();
        assertThat(runner.isClosed()).isTrue();
    }

    @Test
    void shouldGiveUpOnAThreadWhoseWakeKeepsFailingAndLeaveItRunning() throws Exception
    {
        final CountDownLatch release = new CountDownLatch(1);
        final AgentRunner runner = start(() -> await(release, 60_000));
        final Thread thread = awaitThread(runner);

        assertThatThrownBy(() -> BoundedClose.close(runner, () ->
        {
            throw new IllegalStateException("its page is gone");
        }, 30_000))
            .isInstanceOf(ThreadNotStoppedException.class)
            .hasMessageStartingWith("thread bounded-close-test did not stop within ")
            .hasMessageEndingWith(" ms (waking it failed: java.lang.IllegalStateException: its page is gone)");
        assertThat(thread.isAlive()).as("left running").isTrue();

        release.countDown();
        thread.join(10_000);
    }

    @Test
    void shouldGiveUpAtTheBoundWhenTheWakeWorksButTheThreadDoesNotEnd() throws Exception
    {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean woken = new AtomicBoolean();
        final AgentRunner runner = start(() -> await(release, 60_000));
        final Thread thread = awaitThread(runner);

        assertThatThrownBy(() -> BoundedClose.close(runner, () -> woken.set(true), 300))
            .isInstanceOf(ThreadNotStoppedException.class)
            .hasMessageStartingWith("thread bounded-close-test did not stop within ")
            .hasMessageNotContaining("waking it failed");
        assertThat(woken).isTrue();
        assertThat(thread.isAlive()).isTrue();

        release.countDown();
        thread.join(10_000);
    }

    private static AgentRunner start(final Runnable duty)
    {
        final AgentRunner runner = new AgentRunner(NoOpIdleStrategy.INSTANCE, Throwable::printStackTrace, null,
            new Agent()
            {
                @Override
                public int doWork()
                {
                    duty.run();
                    return 1;
                }

                @Override
                public String roleName()
                {
                    return "bounded-close-test";
                }
            });
        AgentRunner.startOnThread(runner);
        return runner;
    }

    private static Thread awaitThread(final AgentRunner runner) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (runner.thread() == null && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        return runner.thread();
    }

    private static void await(final CountDownLatch latch, final long ms)
    {
        // a wait that interrupts do not end (as a thread in a futex wait is not ended by Thread.interrupt)
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (latch.getCount() > 0 && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
            try
            {
                Thread.sleep(5);
            }
            catch (final InterruptedException ex)
            {
                // ignored on purpose
            }
        }
    }
}
