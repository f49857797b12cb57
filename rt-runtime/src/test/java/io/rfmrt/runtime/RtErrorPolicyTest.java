package io.rfmrt.runtime;

import io.rfmrt.runtime.counters.NodeCounters;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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

    @Test
    void shouldFailTheNodeAndNameTheFileWhenTheCountersFileWasCutUnderIt(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("node-2.counters");
        try (NodeCounters counters = NodeCounters.create(file, 2, "sim:lab?node=2", List.of()))
        {
            final AtomicInteger woken = new AtomicInteger();
            final RtErrorPolicy policy = new RtErrorPolicy(null, counters).onFailure(woken::incrementAndGet);
            final long length = Files.size(file);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
            {
                channel.truncate(0);
            }

            // before: the policy counted into the cut file, faulted itself, and nobody learned of the failure
            final ConcurrentLinkedQueue<Throwable> uncaught = runOnThread(() -> policy.onError(
                new InternalError("a fault occurred in a recent unsafe memory access operation")));

            assertThat(uncaught).isEmpty();
            assertThat(policy.failed()).isTrue();
            assertThat(woken).hasValue(1);
            assertThat(policy.failure()).isEqualTo("thread rfmrt-test: InternalError: a fault occurred in a recent " +
                "unsafe memory access operation");
            assertThat(policy.recordFailure()).isEqualTo("the counters file " + file + " was cut to 0 of its " +
                length + " bytes under this node");
        }
    }

    @Test
    void shouldReportAFaultThatReachesTheThreadAfterItsBody() throws Exception
    {
        final RtErrorPolicy policy = new RtErrorPolicy(null);
        final InternalError late = new InternalError("a fault occurred in a recent unsafe memory access");

        // as the JVM delivers a fault in a mapping: at its next poll, here after the guarded body returned
        final ConcurrentLinkedQueue<Throwable> uncaught = runOnThread(() ->
        {
            policy.guard(() -> {}).run();
            throw late;
        });

        assertThat(policy.failed()).isTrue();
        assertThat(policy.failure()).isEqualTo("thread rfmrt-test: InternalError: " + late.getMessage());
        assertThat(uncaught).as("the policy is the thread's handler now").isEmpty();
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
