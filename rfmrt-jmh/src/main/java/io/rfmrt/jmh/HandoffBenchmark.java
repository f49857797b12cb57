package io.rfmrt.jmh;

import io.rfmrt.runtime.internal.HandoffRing;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * The hand-off from the ISR-wake thread to the consumer thread ({@link HandoffRing}, interrupt mode): one entry
 * offered, then peeked, read and advanced past, as the consumer does, on one thread. The consumer never parks here,
 * so {@code offer} finds the parked flag clear and makes no system call: the cost of the ring itself, without the
 * cache-line transfers two cores add.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HandoffBenchmark
{
    /** A ring as large as the receive path's DMA ring. */
    @State(Scope.Thread)
    public static class Ring
    {
        HandoffRing ring;
        UnsafeBuffer entries;
        long seq;

        /** Makes the ring. */
        @Setup(Level.Trial)
        public void open()
        {
            ring = new HandoffRing(BenchNetwork.DMA_SLOTS);
            ring.consumer(Thread.currentThread());
            entries = ring.entries();
        }
    }

    /**
     * @param s the ring.
     * @return the entry's sequence number as the consumer read it, -1 when none was there.
     */
    @Benchmark
    public long offerPoll(final Ring s)
    {
        final long seq = ++s.seq;
        s.ring.offer((int)seq & (BenchNetwork.DMA_SLOTS - 1), 0, 0, 1, seq, seq, seq + 1, seq + 2);
        final int e = s.ring.peek();
        if (e < 0)
        {
            return -1;
        }
        final long read = s.entries.getLong(e + HandoffRing.SEQ_OFFSET) + s.entries.getInt(e + HandoffRing.SLOT_OFFSET);
        s.ring.advance();
        return read;
    }
}
