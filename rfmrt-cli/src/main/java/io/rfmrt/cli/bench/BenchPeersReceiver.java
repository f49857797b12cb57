package io.rfmrt.cli.bench;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.rfmrt.cli.bench.peer.BridgePeer;
import io.rfmrt.cli.bench.peer.PeerTransport;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.rfm.SharedMemoryFile;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The receiving process of one {@code bench peers} or {@code bench hosts} row ({@code rfmrt internal
 * bench-peer-receiver KIND VARIANT DIR WARMUP}): one line "ready", then its {@link Result} line.
 */
@Command(name = "bench-peer-receiver", hidden = true,
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class BenchPeersReceiver implements Callable<Integer>
{
    @Mixin
    BenchRows.ChildParameters row;

    @Parameters(index = "3")
    long warmupFrames;

    /** Frames the receive loop is warmed up with before it opens ({@link BridgePeer#warmUp}); 0: none. */
    @Parameters(index = "4", arity = "0..1", defaultValue = "0")
    int loopWarmUpFrames;

    @Override
    public Integer call() throws Exception
    {
        final PeerTransport transport = row.transport("bench-peer-receiver");
        final SharedMemoryFile map = row.openControl();
        try (PeerTransport.Receiver receiver = transport.receiver(row.dir, row.variant);
            RtEnvironment env = RtEnvironment.prepare(new RtSettings(List.of(), false, true, true, Path.of("/")),
                warning -> System.err.println("bench-peer-receiver: " + warning)))
        {
            final UnsafeBuffer control = map.buffer();
            final String words = receiver.open();
            final Histogram histogram = Histograms.create();
            final AtomicLong frames = new AtomicLong();
            final AtomicReference<String> failure = new AtomicReference<>();
            final long warmup = warmupFrames;
            final SequenceSkips skips = new SequenceSkips(warmup);
            if (transport instanceof BridgePeer && loopWarmUpFrames > 0)
            {
                // the receive loop's code optimised before the traffic, not while it runs (BridgePeer.warmUp)
                final String warm = BridgePeer.warmUp(row.variant, handler(new SequenceSkips(0), Histograms.create(),
                    new AtomicLong(), 0), loopWarmUpFrames);
                System.err.println("bench-peer-receiver: warmed up with " + warm);
            }
            final PeerTransport.Handler handler = handler(skips, histogram, frames, warmup);
            final int cpu = env.rtCpus().isEmpty() ? -1 : env.rtCpus().get(0);
            final RtThread thread = env.start("rfmrt-peer-rx", cpu, BenchPeers.RECEIVER_PRIORITY, () ->
            {
                try
                {
                    receiver.run(handler);
                }
                catch (final Throwable ex)
                {
                    failure.set("the receive thread died: " + ex);
                }
            });
            System.out.println(words.isEmpty() ? "ready" : "ready " + words);
            System.out.flush();

            final Window sending = watch(control, frames, failure, thread, receiver);
            final Result r = new Result(frames.get(), Math.round(histogram.getMean() / 100.0) / 10.0,
                Histograms.Percentiles.of(histogram), failure.get() != null ? null : sending.cpuPct(),
                failure.get(), receiver.lossCauses(), skips.figures(), Histograms.encode(histogram));
            ChildResult.write(System.out, r);
            if (failure.get() != null)
            {
                System.err.println("bench-peer-receiver: " + failure.get());
                return ExitCodes.ERROR;
            }
        }
        finally
        {
            map.close();
        }
        return ExitCodes.OK;
    }

    /**
     * The handler every frame runs: its latency (after the warm-up frames), its number's skips, the count.
     */
    private static PeerTransport.Handler handler(final SequenceSkips skips, final Histogram histogram,
        final AtomicLong frames, final long warmup)
    {
        return (buffer, offset) ->
        {
            final long now = System.nanoTime();
            final long sequence = buffer.getLong(offset + PeerTransport.SEQ_OFFSET);
            skips.onFrame(sequence, now);
            if (sequence > warmup)
            {
                Histograms.record(histogram, now - buffer.getLong(offset + PeerTransport.STAMP_OFFSET));
            }
            frames.lazySet(frames.get() + 1);
        };
    }

    /**
     * The receiver's result line.
     *
     * @param frames      frames handled.
     * @param meanUs      mean latency after the warm-up, µs.
     * @param percentiles its percentiles.
     * @param cpuPct      the process's CPU while the sender sent, % of one core; {@code null} for a failed run or
     *                    a window too short to time.
     * @param failure     why the run failed, or {@code null}.
     * @param lossCauses  the transport's own loss counters.
     * @param skips       the frames missing by number, and when.
     * @param histogram   the latency histogram ({@link Histograms#encode}).
     */
    record Result(long frames, double meanUs, @JsonUnwrapped Histograms.Percentiles percentiles, Double cpuPct,
        String failure, Map<String, Long> lossCauses, SequenceSkips.Figures skips, String histogram)
    {
    }

    /**
     * Watch the markers until the sender is done (or the run fails), then stop the receive thread.
     *
     * @return the process's CPU time and the wall clock while the sender sent.
     */
    private Window watch(final UnsafeBuffer control, final AtomicLong frames,
        final AtomicReference<String> failure, final RtThread thread, final PeerTransport.Receiver receiver)
        throws InterruptedException
    {
        final ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        // this thread only watches the markers: 10 ms naps keep its own CPU use out of the figures
        while (frames.get() < warmupFrames && control.getLongAcquire(BenchPeers.TOTAL_OFFSET) == 0 &&
            failure.get() == null && thread.isAlive() && alive(parent, failure))
        {
            Thread.sleep(10);
        }
        final long cpu0 = BenchRun.processCpuNanos();
        final long wall0 = System.nanoTime();
        long total;
        while ((total = control.getLongAcquire(BenchPeers.TOTAL_OFFSET)) == 0 && failure.get() == null &&
            thread.isAlive() && alive(parent, failure))
        {
            Thread.sleep(10);
        }
        final long cpu1 = BenchRun.processCpuNanos();
        final long wall1 = System.nanoTime();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (frames.get() < total && System.nanoTime() < deadline && failure.get() == null)
        {
            Thread.sleep(1);
        }
        for (int i = 0; i < 500 && thread.isAlive(); i++)
        {
            receiver.stop();
            thread.join(10);
        }
        if (thread.isAlive())
        {
            failure.compareAndSet(null, "the receive thread did not stop in 5 s");
        }
        return new Window(cpu0, wall0, cpu1, wall1);
    }

    /**
     * The process's CPU time and the wall clock at the start and at the end of the sending, ns.
     */
    private record Window(long cpu0, long wall0, long cpu1, long wall1)
    {
        /**
         * @return the CPU used in % of one core; {@code null} for a window too short to time.
         */
        Double cpuPct()
        {
            final long wall = wall1 - wall0;
            return wall < TimeUnit.MILLISECONDS.toNanos(100) ? null :
                Math.round(1000.0 * (cpu1 - cpu0) / wall) / 10.0;
        }
    }

    private static boolean alive(final ProcessHandle parent, final AtomicReference<String> failure)
    {
        if (parent != null && !parent.isAlive())
        {
            failure.compareAndSet(null, "the bench process is gone");
            return false;
        }
        return true;
    }
}
