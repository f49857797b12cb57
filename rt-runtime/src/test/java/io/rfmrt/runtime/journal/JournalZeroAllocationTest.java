package io.rfmrt.runtime.journal;

import com.sun.management.ThreadMXBean;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The writer side allocates nothing, whether its records fit in the ring or are dropped. Measured over rounds of
 * {@value #CALLS} frame() calls (plus a quarter as many of the other records) after a warm-up; a round now and then
 * shows a few hundred bytes from the JIT replacing code under the loop, so the test asks for one clean round in
 * {@value #ROUNDS}: a real per-call allocation would show in every round, by megabytes.
 */
class JournalZeroAllocationTest
{
    private static final int CALLS = 100_000;
    private static final int WARMUP = 100_000;
    private static final int ROUNDS = 3;

    @TempDir
    Path temp;

    @Test
    void shouldNotAllocateOnTheWriterSide()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertThat(threads.isThreadAllocatedMemorySupported()).isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
        final long[] counters = new long[16];
        final long[] result = new long[2];
        try (Journal journal = Journal.start(JournalConfig.of(temp.resolve("journal"), 1)))
        {
            final JournalWriter writer = journal.newWriter("hot");

            produce(writer, WARMUP, payload, counters, result);
            final long[] allocated = measure(threads, writer, payload, counters, result);

            assertThat(allocated).as("bytes allocated per round of %d frame() and %d other calls", CALLS, CALLS / 4)
                .contains(0L);
            // what the calls reported is what happened: every accepted record written, every refused one counted
            assertThat(result[1]).isEqualTo(writer.dropped());
            JournalTestSupport.closeNow(journal);
            assertThat(journal.stats().recordsWritten()).isEqualTo(result[0]).isPositive();
            assertThat(journal.stats().droppedRingFull()).isEqualTo(result[1]);
        }
    }

    @Test
    void shouldNotAllocateWhenTheRingIsFull()
    {
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
        final long[] counters = new long[16];
        final long[] result = new long[2];
        try (Journal journal = Journal.start(JournalConfig.of(temp.resolve("full"), 1).withRingCapacityBytes(4096)))
        {
            final JournalWriter writer = journal.newWriter("hot");
            journal.pauseForTest();

            produce(writer, WARMUP, payload, counters, result);
            final long[] allocated = measure(threads, writer, payload, counters, result);

            assertThat(result[1]).isEqualTo(writer.dropped()).isGreaterThan((long)CALLS);
            assertThat(allocated).as("bytes allocated per round of %d dropped calls", CALLS).contains(0L);
        }
    }

    private static long[] measure(
        final ThreadMXBean threads, final JournalWriter writer, final UnsafeBuffer payload, final long[] counters,
        final long[] result)
    {
        final long tid = Thread.currentThread().getId();
        final long[] allocated = new long[ROUNDS];
        for (int round = 0; round < ROUNDS; round++)
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            produce(writer, CALLS, payload, counters, result);
            allocated[round] = threads.getThreadAllocatedBytes(tid) - before;
        }
        return allocated;
    }

    /**
     * No AssertJ in here: result[0] counts accepted records, result[1] dropped ones.
     */
    private static void produce(
        final JournalWriter writer, final int frames, final UnsafeBuffer payload, final long[] counters,
        final long[] result)
    {
        long accepted = 0;
        long calls = 0;
        for (int i = 0; i < frames; i++)
        {
            final long now = System.nanoTime();
            accepted += writer.frame(i, 2, 0, i, now, now + 1, now + 2, now + 3, now + 4, payload, 0, i & 63) ? 1 : 0;
            calls++;
            if ((i & 15) == 0)
            {
                accepted += writer.fault(3, i, i, now) ? 1 : 0;
                accepted += writer.state(1, 2, now) ? 1 : 0;
                accepted += writer.counters(now, counters, i & 15) ? 1 : 0;
                accepted += writer.sample(1, now, i, 2, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5) ? 1 : 0;
                calls += 4;
            }
            if ((i & 1023) == 0)
            {
                // give the journal thread the core now and then: this machine may have only two
                Thread.yield();
            }
        }
        final long dropped = calls - accepted;
        result[0] += accepted;
        result[1] += dropped;
    }
}
