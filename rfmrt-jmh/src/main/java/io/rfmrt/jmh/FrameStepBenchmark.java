package io.rfmrt.jmh;

import io.rfmrt.rfm.channel.FrameHeaderDescriptor;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageLatencies;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.FrameStep;
import io.rfmrt.runtime.journal.BenchJournalRing;
import io.rfmrt.runtime.journal.JournalConfig;
import org.agrona.BufferUtil;
import org.agrona.concurrent.SystemNanoClock;
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

import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

/**
 * The consumer's step for a validated frame ({@link FrameStep#handle(FrameView, long, int, long, long, long, long)},
 * every receive mode takes it): the handler (here it reads the payload's first word), the end stamp, the five stage
 * latencies into their histograms, the handled counter and the frame's journal record. A batch of frames per call,
 * the journal's ring emptied between calls (not measured), as the journal thread would.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FrameStepBenchmark
{
    /** Frames per call. */
    public static final int BATCH = 256;

    /** A frame in host memory and the step that takes it. */
    @State(Scope.Thread)
    public static class Step
    {
        final Counters counters = new Counters();
        final FrameView view = new FrameView();
        BenchJournalRing journal;
        FrameStep step;
        long sum;
        long seq;

        /** Writes one valid frame's header and payload, and makes the step. */
        @Setup(Level.Trial)
        public void open()
        {
            final UnsafeBuffer frame = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                FrameHeaderDescriptor.transferLength(BenchNetwork.PAYLOAD_BYTES), 64));
            frame.putLong(FrameHeaderDescriptor.SEQ_OFFSET, 1, ByteOrder.LITTLE_ENDIAN);
            frame.putInt(FrameHeaderDescriptor.LENGTH_OFFSET, BenchNetwork.PAYLOAD_BYTES, ByteOrder.LITTLE_ENDIAN);
            frame.putShort(FrameHeaderDescriptor.SOURCE_OFFSET, (short)1, ByteOrder.LITTLE_ENDIAN);
            frame.putInt(FrameHeaderDescriptor.INCARNATION_OFFSET, 7, ByteOrder.LITTLE_ENDIAN);
            frame.putLong(FrameHeaderDescriptor.HEADER_SIZE, 42, ByteOrder.LITTLE_ENDIAN);
            view.wrap(frame, 0);
            journal = new BenchJournalRing(JournalConfig.RING_CAPACITY_BYTES_DEFAULT);
            final FrameHandler handler = (f, stamps) -> sum += f.buffer().getLong(f.payloadOffset()) + stamps.seq();
            step = new FrameStep(handler, new StageLatencies(), counters, journal.writer(),
                SystemNanoClock.INSTANCE);
        }

        /** Empties the journal's ring, as the journal thread does. */
        @Setup(Level.Invocation)
        public void drain()
        {
            journal.drain();
        }

        /** Fails the trial if a record was dropped: then the drop path was measured, not the write. */
        @TearDown(Level.Trial)
        public void check()
        {
            if (counters.get(RuntimeCounter.JOURNAL_DROPS) != 0)
            {
                throw new IllegalStateException(counters.get(RuntimeCounter.JOURNAL_DROPS) +
                    " journal records dropped in the benchmark");
            }
        }
    }

    /**
     * @param s the step.
     * @return what the handler summed.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long handle(final Step s)
    {
        final FrameStep step = s.step;
        for (int i = 0; i < BATCH; i++)
        {
            final long now = System.nanoTime();
            step.handle(s.view, ++s.seq, 1, now - 20_000, now - 15_000, now - 14_000, now - 1_000);
        }
        return s.sum;
    }
}
