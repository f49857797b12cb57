package io.rfmrt.runtime.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placement on this machine's real kernel: what the kernel reports for the threads, read from {@code /proc}.
 */
class RtEnvironmentTest
{
    private static final long JOIN_MS = 5_000;
    private static final int RT_CPU = 1;
    private static final int FIFO_PRIORITY = 10;

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final List<RtThread> started = new ArrayList<>();
    private final CountDownLatch stop = new CountDownLatch(1);
    private RtEnvironment environment;

    @AfterEach
    void stopEverything() throws InterruptedException
    {
        stop.countDown();
        for (final RtThread thread : started)
        {
            thread.join(JOIN_MS);
            assertThat(thread.isAlive()).as(thread.placement().thread() + " stopped").isFalse();
        }
        if (environment != null)
        {
            environment.close();
        }
    }

    @Test
    void shouldPinToCpuWithSchedFifoAsTheKernelReports()
    {
        assumeTrue(KernelView.isRoot(), "SCHED_FIFO needs root here");
        assumeTrue(KernelView.cpuOnline(RT_CPU), "needs cpu " + RT_CPU);
        environment = prepare(false);

        final RtThread thread = start("rfmrt-t-fifo", RT_CPU, FIFO_PRIORITY);
        final int tid = thread.placement().tid();

        assertThat(tid).isPositive();
        assertThat(KernelView.policy(tid)).as("policy (stat field 41)").isEqualTo(1);
        assertThat(KernelView.rtPriority(tid)).as("rt_priority (stat field 40)").isEqualTo(FIFO_PRIORITY);
        assertThat(KernelView.cpusAllowedList(tid)).isEqualTo(Integer.toString(RT_CPU));
        assertThat(KernelView.comm(tid)).isEqualTo("rfmrt-t-fifo");
        assertThat(thread.thread().getName()).isEqualTo("rfmrt-t-fifo");
        final Placement placement = thread.placement();
        assertThat(placement.thread()).isEqualTo("rfmrt-t-fifo");
        assertThat(placement.requestedCpu()).isEqualTo(RT_CPU);
        assertThat(placement.actualCpu()).isEqualTo(RT_CPU);
        assertThat(placement.policy()).isEqualTo("SCHED_FIFO");
        assertThat(placement.priority()).isEqualTo(FIFO_PRIORITY);
        // another process may hold OpenHFT's lock on the cpu (affinity-lock); pinning and policy must be granted
        assertThat(placement.refused()).doesNotContain("affinity", "SCHED_FIFO");
    }

    @Test
    void shouldRunSchedOtherEvenWhenStartedFromAFifoThread() throws InterruptedException
    {
        assumeTrue(KernelView.isRoot(), "SCHED_FIFO needs root here");
        environment = prepare(false);
        final AtomicReference<RtThread> child = new AtomicReference<>();
        final CountDownLatch childStarted = new CountDownLatch(1);

        final RtThread parent = start("rfmrt-t-parent", -1, FIFO_PRIORITY, () ->
        {
            child.set(environment.start("rfmrt-t-other", -1, 0, this::awaitStop));
            childStarted.countDown();
        });
        assertThat(childStarted.await(JOIN_MS, TimeUnit.MILLISECONDS)).isTrue();
        started.add(child.get());

        final int tid = child.get().placement().tid();
        assertThat(KernelView.policy(tid)).as("policy (stat field 41)").isEqualTo(0);
        assertThat(KernelView.rtPriority(tid)).as("rt_priority (stat field 40)").isEqualTo(0);
        assertThat(child.get().placement().policy()).isEqualTo("SCHED_OTHER");
        assertThat(child.get().placement().priority()).isZero();
        assertThat(child.get().placement().refused()).isEmpty();
        assertThat(child.get().placement().requestedCpu()).isEqualTo(-1);
        final String allowed = KernelView.cpusAllowedList(tid);
        assertThat(child.get().placement().actualCpu())
            .isEqualTo(allowed.matches("\\d+") ? Integer.parseInt(allowed) : -1);
        assertThat(parent.placement().policy()).isEqualTo("SCHED_FIFO");
    }

    @Test
    void shouldRejectPriorityCpuAndNameOutOfRange()
    {
        environment = prepare(false);

        assertThatThrownBy(() -> environment.start("rfmrt-t-bad", -1, 100, () -> { }))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority 100");
        assertThatThrownBy(() -> environment.start("rfmrt-t-bad", -1, -1, () -> { }))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority -1");
        assertThatThrownBy(() -> environment.start("rfmrt-t-bad", -2, 0, () -> { }))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cpu -2");
        assertThatThrownBy(() -> environment.start(" ", -1, 0, () -> { }))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        assertThat(environment.placements()).isEmpty();
    }

    @Test
    void shouldRefuseCpuThatDoesNotExistAndWarnOnce() throws InterruptedException
    {
        environment = prepare(false);
        final AtomicBoolean ran = new AtomicBoolean();

        final RtThread first = start("rfmrt-t-nocpu", 4095, 0, () -> ran.set(true));
        first.join(JOIN_MS);
        final RtThread again = start("rfmrt-t-nocpu", 4095, 0, () -> { });

        assertThat(ran).isTrue();
        assertThat(first.placement().refused()).containsExactly("affinity");
        assertThat(first.placement().requestedCpu()).isEqualTo(4095);
        assertThat(again.placement().refused()).containsExactly("affinity");
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("rfmrt-t-nocpu", "cpu 4095", "not online").doesNotContain("\n");
        assertThat(environment.refusals()).containsExactlyElementsOf(warnings);
    }

    @Test
    void shouldFailFastOnCpuThatDoesNotExistInStrictMode()
    {
        environment = RtEnvironment.prepare(new RtSettings(List.of(0), true, false, false, Path.of("/")),
            warnings::add);
        final AtomicBoolean ran = new AtomicBoolean();

        assertThatThrownBy(() -> environment.start("rfmrt-t-strict", 4095, 0, () -> ran.set(true)))
            .isInstanceOf(RtSetupException.class)
            .hasMessageStartingWith("strict: ")
            .hasMessageContaining("rfmrt-t-strict", "cpu 4095", "not online")
            .hasMessageNotContaining("\n");
        assertThat(ran).isFalse();
        assertThat(warnings).isEmpty();
        assertThat(environment.refusals()).hasSize(1);
    }

    @Test
    void shouldReportTheKernelsRefusalToPinWhenTheSysrootClaimsMoreCpus(@TempDir final Path dir) throws Exception
    {
        assumeTrue(!KernelView.cpuOnline(5), "needs a machine without cpu 5");
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "2-7");
        environment = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, sysroot), warnings::add);

        final RtThread thread = start("rfmrt-t-ghost", 5, 0);

        assertThat(thread.placement().refused()).containsExactly("affinity");
        assertThat(thread.placement().actualCpu()).isNotEqualTo(5);
        assertThat(warnings).singleElement().asString().contains("rfmrt-t-ghost", "cpu 5", "EINVAL");
    }

    @Test
    void shouldShowEveryThreadInOneTable()
    {
        assumeTrue(KernelView.isRoot(), "SCHED_FIFO needs root here");
        assumeTrue(KernelView.cpuOnline(RT_CPU), "needs cpu " + RT_CPU);
        environment = prepare(false);

        final RtThread isr = start("rfmrt-t-isr", RT_CPU, RtPriorities.ISR_DEFAULT);
        final RtThread consumer = start("rfmrt-t-consumer", RT_CPU, RtPriorities.CONSUMER_DEFAULT);
        final RtThread journal = start("rfmrt-t-journal", environment.housekeepingCpu(), 0);
        final String table = environment.placementTable();

        final String[] lines = table.split("\n");
        assertThat(lines).hasSize(5);
        assertThat(lines[0]).startsWith("thread").contains("tid", "cpu (req/actual)", "policy", "priority", "refused");
        assertThat(lines[1]).startsWith("rfmrt-t-isr ").contains(Integer.toString(isr.placement().tid()), "1/1",
            "SCHED_FIFO", " 80 ");
        assertThat(lines[2]).startsWith("rfmrt-t-consumer ").contains("1/1", "SCHED_FIFO", " 70 ");
        assertThat(lines[3]).startsWith("rfmrt-t-journal ").contains("0/0", "SCHED_OTHER");
        assertThat(lines[4]).startsWith("process: rt cpus 1 (configured), housekeeping cpu 0");
        assertThat(environment.placements()).extracting(Placement::thread)
            .containsExactly("rfmrt-t-isr", "rfmrt-t-consumer", "rfmrt-t-journal");
        // sharing the cpu with another thread of the same environment is not a refusal: where the isr holds the
        // cpu's OpenHFT reservation the consumer does not ask for it and is refused nothing. Where the isr was refused
        // the reservation (another process held it: the other test JVM's nodes reserve this cpu too), the consumer
        // asks in turn, and is given it if that process has let it go meanwhile (seen in a full run), or refused it
        // too; the reservation is all either may be refused, and the table says what each was
        assertThat(isr.placement().refused()).isSubsetOf("affinity-lock");
        assertThat(consumer.placement().refused()).isSubsetOf("affinity-lock");
        if (isr.placement().refused().isEmpty())
        {
            assertThat(consumer.placement().refused()).as("sharing the isr's reserved cpu").isEmpty();
        }
        assertThat(lines[1]).endsWith(refusedColumn(isr));
        assertThat(lines[2]).endsWith(refusedColumn(consumer));
        assertThat(journal.placement().refused()).isEmpty();
    }

    @Test
    void shouldReleaseTheReservationWhenTheThreadEnds() throws InterruptedException
    {
        // cpu 0: the one no rfmrt process reserves for its RT threads on a two-cpu host, so no other node or bench
        // running beside this test holds its lock (cpu 1's would decide the test, not this process's release)
        environment = prepare(false);

        final RtThread first = environment.start("rfmrt-t-first", 0, 0, () -> { });
        first.join(JOIN_MS);
        final RtThread second = start("rfmrt-t-second", 0, 0);

        assertThat(first.placement().refused()).as("cpu 0 reserved by the first thread").isEmpty();
        assertThat(second.placement().refused()).doesNotContain("affinity", "SCHED_OTHER");
        assertThat(environment.refusals()).noneMatch(line -> line.contains("in this process"));
    }

    @Test
    void shouldNotStartThreadsOnceClosedAndCloseTwice()
    {
        environment = prepare(false);
        environment.close();
        environment.close();

        assertThatThrownBy(() -> environment.start("rfmrt-t-late", -1, 0, () -> { }))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void shouldRejectDuplicateRunningName()
    {
        environment = prepare(false);
        start("rfmrt-t-twin", -1, 0);

        assertThatThrownBy(() -> environment.start("rfmrt-t-twin", -1, 0, () -> { }))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already running");
    }

    private static String refusedColumn(final RtThread thread)
    {
        return thread.placement().refused().isEmpty() ? " -" : " " + String.join(",", thread.placement().refused());
    }

    private RtEnvironment prepare(final boolean strict)
    {
        return RtEnvironment.prepare(new RtSettings(List.of(RT_CPU), strict, false, false, Path.of("/")),
            warnings::add);
    }

    private RtThread start(final String name, final int cpu, final int priority)
    {
        return start(name, cpu, priority, this::awaitStop);
    }

    private RtThread start(final String name, final int cpu, final int priority, final Runnable body)
    {
        final RtThread thread = environment.start(name, cpu, priority, body);
        started.add(thread);
        return thread;
    }

    private void awaitStop()
    {
        try
        {
            stop.await(JOIN_MS * 2, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
