package io.rfmrt.cli.bench;

import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.rfm.EventInfo;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.SharedMemoryFile;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The receiving side of {@code bench events}, in its own process.
 */
@Command(name = "bench-peer", hidden = true,
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE, ExitCodes.LIST_TIMEOUT})
public final class BenchEventsPeer implements Callable<Integer>
{
    @Parameters(index = "0")
    String mode;

    @Parameters(index = "1")
    String where;

    @Parameters(index = "2")
    int count;

    @Override
    public Integer call()
    {
        ChildJvm.haltWhenParentGone("bench-peer");
        final Histogram histogram = Histograms.create();
        if ("rfm".equals(mode))
        {
            try (RfmDevice receiver = RfmDevices.open("sim:" + where + "?node=2"))
            {
                receiver.enableEvent(EventType.INTR1);
                ready();
                final EventInfo info = new EventInfo();
                for (int i = 0; i < count; i++)
                {
                    if (receiver.awaitEvent(EventType.INTR1, TimeUnit.SECONDS.toNanos(10), info) !=
                        RfmStatus.SUCCESS)
                    {
                        return ExitCodes.TIMEOUT;
                    }
                    final long now = System.nanoTime();
                    Histograms.record(histogram, now - receiver.window().getLongAcquire(BenchEvents.STAMP_OFFSET));
                    receiver.sendEvent(1, EventType.INTR2, info.data());
                }
            }
        }
        else
        {
            final SharedMemoryFile map = SharedMemoryFile.open(Path.of(where), "futex benchmark file");
            try
            {
                final UnsafeBuffer shared = map.buffer();
                ready();
                for (int i = 1; i <= count; i++)
                {
                    int seen;
                    while ((seen = shared.getIntVolatile(0)) != i)
                    {
                        map.await(0, seen);
                    }
                    final long now = System.nanoTime();
                    Histograms.record(histogram, now - shared.getLongAcquire(BenchEvents.STAMP_OFFSET));
                    shared.putIntVolatile(64, i);
                    map.wake(64, 1);
                }
            }
            finally
            {
                map.close();
            }
        }
        System.out.println("histogram " + Histograms.encode(histogram));
        System.out.flush();
        return ExitCodes.OK;
    }

    private static void ready()
    {
        System.out.println("ready");
        System.out.flush();
    }
}
