package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.threads.internal.Errno;
import io.rfmrt.runtime.threads.internal.ProcessSteps;
import io.rfmrt.runtime.threads.internal.Refusal;
import io.rfmrt.runtime.threads.internal.RefusalLog;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The process-wide part of an RT environment: {@code mlockall(MCL_CURRENT|MCL_FUTURE)} and the hold of
 * {@code /dev/cpu_dma_latency} at 0, as the settings ask; what the kernel refused goes to the refusal policy.
 * Thread-safe.
 */
public final class ProcessSetup implements AutoCloseable
{
    private String memoryStatus = "off";
    private String latencyStatus = "off";
    private FileChannel cpuDmaLatency;

    private ProcessSetup()
    {
    }

    static ProcessSetup apply(final RtSettings settings, final RefusalLog refusals)
    {
        final ProcessSetup setup = new ProcessSetup();
        try
        {
            setup.lockMemory(settings, refusals);
            setup.holdCpuDmaLatency(settings, refusals);
        }
        catch (final RuntimeException ex)
        {
            setup.close();
            throw ex;
        }
        return setup;
    }

    private void lockMemory(final RtSettings settings, final RefusalLog refusals)
    {
        if (!settings.lockMemory())
        {
            return;
        }
        final String refused = ProcessSteps.lockAllMemory();
        if (refused == null)
        {
            memoryStatus = "locked";
            return;
        }
        memoryStatus = "refused";
        refusals.refuse(Refusal.ofProcess(ProcessSteps.STEP_MLOCKALL,
            "mlockall(MCL_CURRENT|MCL_FUTURE) refused (" + refused + ")",
            "memory may be paged out (allow it: LimitMEMLOCK=infinity or CAP_IPC_LOCK)"));
    }

    private void holdCpuDmaLatency(final RtSettings settings, final RefusalLog refusals)
    {
        if (!settings.holdCpuDmaLatency())
        {
            return;
        }
        final Path device = settings.sysroot().resolve(ProcessSteps.CPU_DMA_LATENCY);
        try
        {
            cpuDmaLatency = ProcessSteps.holdCpuDmaLatency(device);
            latencyStatus = "held at 0";
        }
        catch (final IOException | RuntimeException ex)
        {
            latencyStatus = "refused";
            refusals.refuse(Refusal.ofProcess(ProcessSteps.STEP_CPU_DMA_LATENCY,
                "cpu_dma_latency hold refused (" + Errno.reasonOf(ex) + ": " + device + ")",
                "cpus may enter deep idle states and wake up late"));
        }
    }

    /**
     * @return {@code off}, {@code locked} or {@code refused}.
     */
    public synchronized String memoryStatus()
    {
        return memoryStatus;
    }

    /**
     * @return {@code off}, {@code held at 0}, {@code refused} or {@code released}.
     */
    public synchronized String latencyStatus()
    {
        return latencyStatus;
    }

    /**
     * Drop the {@code cpu_dma_latency} hold (memory stays locked). Idempotent.
     */
    @Override
    public synchronized void close()
    {
        if (cpuDmaLatency != null)
        {
            try
            {
                cpuDmaLatency.close();
            }
            catch (final IOException ignored)
            {
                // the hold ends with the descriptor either way
            }
            cpuDmaLatency = null;
            latencyStatus = "released";
        }
    }
}
