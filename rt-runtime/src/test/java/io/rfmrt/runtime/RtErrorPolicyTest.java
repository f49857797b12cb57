package io.rfmrt.runtime;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What ends a thread under the error policy: the policy's one report, never a second trace from the JVM.
 */
class RtErrorPolicyTest
{
    @Test
    void shouldEndTheThreadQuietlyWhenTheRunnerThrowsAnErrorThePolicyAlreadyReported() throws Exception
    {
        final RtErrorPolicy policy = new RtErrorPolicy(null);
        final InternalError fault = new InternalError("a fault occurred in a recent unsafe memory access");
        final AgentRunner runner = new AgentRunner(NoOpIdleStrategy.INSTANCE, policy, null, new Agent()
        {
            @Override
            public int doWork()
            {
                throw fault;
            }

            @Override
            public String roleName()
            {
                return "failing";
            }
        });

        final ConcurrentLinkedQueue<Throwable> uncaught = runOnThread(policy.guard(runner));

        assertThat(policy.errors()).isEqualTo(1);
        assertThat(policy.failure()).isEqualTo("thread rfmrt-test: InternalError: " + fault.getMessage());
        assertThat(uncaught).as("the runner threw the error again; the guard ends the thread quietly").isEmpty();
        runner.close();
    }

    @Test
    void shouldReportAFailureThatEscapesTheBodyOutsideTheDutyCycle() throws Exception
    {
        final RtErrorPolicy policy = new RtErrorPolicy(null);
        final IllegalStateException outside = new IllegalStateException("set-up failed");

        final ConcurrentLinkedQueue<Throwable> uncaught = runOnThread(policy.guard(() ->
        {
            throw outside;
        }));

        assertThat(policy.failed()).isTrue();
        assertThat(policy.errors()).isEqualTo(1);
        assertThat(policy.failure()).isEqualTo("thread rfmrt-test: IllegalStateException: set-up failed");
        assertThat(uncaught).isEmpty();
    }

    @Test
    void shouldReportTheSameKindOfErrorAgainWhenItIsANewOne() throws Exception
    {
        final RtErrorPolicy policy = new RtErrorPolicy(null);
        runOnThread(() -> policy.onError(new InternalError("first")));

        runOnThread(policy.guard(() ->
        {
            throw new InternalError("second");
        }));

        assertThat(policy.errors()).as("another throwable is not the one already reported").isEqualTo(2);
    }

    private static ConcurrentLinkedQueue<Throwable> runOnThread(final Runnable body) throws InterruptedException
    {
        final ConcurrentLinkedQueue<Throwable> uncaught = new ConcurrentLinkedQueue<>();
        final Thread thread = new Thread(body, "rfmrt-test");
        thread.setUncaughtExceptionHandler((t, ex) -> uncaught.add(ex));
        thread.start();
        thread.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(thread.isAlive()).isFalse();
        return uncaught;
    }
}
