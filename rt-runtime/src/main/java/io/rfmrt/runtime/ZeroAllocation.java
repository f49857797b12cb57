package io.rfmrt.runtime;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Proof that hot-path code allocates nothing once warm, for tests (the project's and users' own: docs/extending.md).
 * Runs a workload on the calling thread — a warm-up, then windows of cycles — and reads the thread's allocated bytes
 * around each window (HotSpot's {@code com.sun.management.ThreadMXBean}). Steady state: once the JIT has settled a
 * whole window allocates nothing; on a loaded machine compilation can finish late (a few hundred bytes once), so up
 * to {@code windows} windows are measured, stopping at the first that allocated nothing, and all are reported.
 * <pre>
 * final ZeroAllocation.Result r = ZeroAllocation.measure((first, count) -&gt; loop.cycles(first, count),
 *     50_000, 100_000, 5);
 * assertThat(r.lastWindowBytes()).as(r.toString()).isZero();
 * </pre>
 */
public final class ZeroAllocation
{
    /** The measured code: run cycles {@code first .. first + count - 1}. */
    @FunctionalInterface
    public interface Workload
    {
        /**
         * @param first the first cycle's number.
         * @param count cycles to run.
         */
        void cycles(long first, int count);
    }

    /**
     * What was measured.
     *
     * @param cyclesPerWindow cycles each window ran.
     * @param windowBytes     bytes allocated by each window measured, in order.
     */
    public record Result(int cyclesPerWindow, long[] windowBytes)
    {
        /**
         * @return bytes the last window allocated: 0 when the code is allocation-free once warm.
         */
        public long lastWindowBytes()
        {
            return windowBytes[windowBytes.length - 1];
        }

        /**
         * @return cycles run in the measured windows.
         */
        public long cyclesMeasured()
        {
            return (long)cyclesPerWindow * windowBytes.length;
        }

        @Override
        public String toString()
        {
            return "bytes allocated per window of " + cyclesPerWindow + " cycles: " + Arrays.toString(windowBytes);
        }
    }

    private ZeroAllocation()
    {
    }

    /**
     * @return whether this JVM can count a thread's allocations.
     */
    public static boolean supported()
    {
        return ManagementFactory.getThreadMXBean() instanceof ThreadMXBean t &&
            t.isThreadAllocatedMemorySupported();
    }

    /**
     * @param workload the code under test.
     * @param warmup   cycles run first, not measured.
     * @param cycles   cycles per measured window.
     * @param windows  most windows measured.
     * @return the bytes of each window measured.
     * @throws UnsupportedOperationException when the JVM cannot count allocations.
     */
    public static Result measure(final Workload workload, final int warmup, final int cycles, final int windows)
    {
        if (!supported())
        {
            throw new UnsupportedOperationException("this JVM does not count a thread's allocated bytes");
        }
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);
        workload.cycles(0, warmup);
        final long tid = Thread.currentThread().getId();
        threads.getThreadAllocatedBytes(tid);
        final long[] bytes = new long[windows];
        int measured = 0;
        do
        {
            final long before = threads.getThreadAllocatedBytes(tid);
            workload.cycles(warmup + (long)measured * cycles, cycles);
            bytes[measured] = threads.getThreadAllocatedBytes(tid) - before;
        }
        while (bytes[measured++] != 0 && measured < windows);
        return new Result(cycles, Arrays.copyOf(bytes, measured));
    }
}
