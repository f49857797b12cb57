package io.rfmrt.jmh;

import io.rfmrt.runtime.journal.BenchJournalRing;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * The journal's hot end: {@link JournalWriter} puts a record into its SPSC ring ({@code tryClaim}, the stores, then
 * {@code commit}). {@code frame} is the record every handled frame gets (64-byte payload), {@code sample} the one
 * every control cycle gets. A batch of records per call, the ring emptied between calls (not measured), so that
 * every record is written and none is dropped; the default ring of {@link JournalConfig#RING_CAPACITY_BYTES_DEFAULT}
 * bytes.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JournalBenchmark
{
    /** Records per call. */
    public static final int BATCH = 256;

    /** A writer over an empty ring before each call. */
    @State(Scope.Thread)
    public static class Ring
    {
        BenchJournalRing ring;
        JournalWriter writer;
        final UnsafeBuffer payload = new UnsafeBuffer(BufferUtil.allocateDirectAligned(BenchNetwork.PAYLOAD_BYTES, 64));
        long seq;

        /** Makes the ring. */
        @Setup(Level.Trial)
        public void open()
        {
            ring = new BenchJournalRing(JournalConfig.RING_CAPACITY_BYTES_DEFAULT);
            writer = ring.writer();
        }

        /** Empties the ring, as the journal thread does. */
        @Setup(Level.Invocation)
        public void drain()
        {
            ring.drain();
        }

        /** Fails the trial if a record was dropped: then the drop path was measured, not the write. */
        @TearDown(Level.Trial)
        public void check()
        {
            if (writer.dropped() != 0)
            {
                throw new IllegalStateException(writer.dropped() + " journal records dropped in the benchmark");
            }
        }
    }

    /**
     * @param s the writer.
     * @return records written.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int frame(final Ring s)
    {
        final JournalWriter writer = s.writer;
        int written = 0;
        for (int i = 0; i < BATCH; i++)
        {
            final long seq = ++s.seq;
            written += writer.frame(seq, 1, 0, (int)seq, seq, seq + 1, seq + 2, seq + 3, seq + 4, s.payload, 0,
                BenchNetwork.PAYLOAD_BYTES) ? 1 : 0;
        }
        return written;
    }

    /**
     * @param s the writer.
     * @return records written.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int sample(final Ring s)
    {
        final JournalWriter writer = s.writer;
        int written = 0;
        for (int i = 0; i < BATCH; i++)
        {
            final long cycle = ++s.seq;
            written += writer.sample(1, cycle, cycle, 2, cycle * 1e-3, 0.5, 0.25, 1.5, 1e-4, 2e-5) ? 1 : 0;
        }
        return written;
    }
}
