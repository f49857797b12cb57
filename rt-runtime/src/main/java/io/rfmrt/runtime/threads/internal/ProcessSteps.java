package io.rfmrt.runtime.threads.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The process-wide steps of an RT environment: {@code mlockall} and the {@code /dev/cpu_dma_latency} hold.
 */
public final class ProcessSteps
{
    /** Step name: locking all current and future pages. */
    public static final String STEP_MLOCKALL = "mlockall";
    /** Step name: holding the PM QoS cpu latency request at 0. */
    public static final String STEP_CPU_DMA_LATENCY = "cpu_dma_latency";
    /** Step name: finding isolated cpus for the RT threads. */
    public static final String STEP_ISOLATED_CPUS = "isolated-cpus";
    /** Relative path of the PM QoS device. */
    public static final String CPU_DMA_LATENCY = "dev/cpu_dma_latency";

    private static final int INT32_BYTES = 4;

    private ProcessSteps()
    {
    }

    /**
     * {@code mlockall(MCL_CURRENT | MCL_FUTURE)}.
     *
     * @return null on success, else the reason ({@code EPERM}, {@code ENOMEM}, ...).
     */
    public static String lockAllMemory()
    {
        if (SchedLib.loadFailure() != null)
        {
            return "libc not bound: " + SchedLib.loadFailure();
        }
        if (SchedLib.mlockall(SchedLib.MCL_CURRENT | SchedLib.MCL_FUTURE) != 0)
        {
            final int errno = SchedLib.errno();
            final String name = Errno.name(errno);
            if (errno == Errno.ENOMEM)
            {
                return name + ": RLIMIT_MEMLOCK too low";
            }
            if (errno == Errno.EPERM)
            {
                return name + ": no CAP_IPC_LOCK and RLIMIT_MEMLOCK is 0";
            }
            return name;
        }
        return null;
    }

    /**
     * Open the PM QoS device and write a 32-bit 0 (native byte order): no cpu may enter an idle state with an exit
     * latency above 0 µs while the returned channel stays open.
     *
     * @param device the device, normally {@code /dev/cpu_dma_latency}.
     * @return the open channel; closing it drops the request.
     * @throws IOException when the device cannot be opened or written.
     */
    public static FileChannel holdCpuDmaLatency(final Path device) throws IOException
    {
        final FileChannel channel = FileChannel.open(device, StandardOpenOption.WRITE);
        try
        {
            final ByteBuffer zero = ByteBuffer.allocate(INT32_BYTES).order(ByteOrder.nativeOrder());
            zero.putInt(0, 0);
            while (zero.hasRemaining())
            {
                channel.write(zero);
            }
            return channel;
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }
}
