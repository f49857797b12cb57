package io.rfmrt.runtime.threads;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A node's thread setup in a JVM of its own, for what must not leak into the test JVM (mlockall) or needs other
 * privileges (capabilities dropped by the parent). Arguments {@code key=value}: {@code strict}, {@code lock},
 * {@code dma} (booleans), {@code cpus} (comma-separated, empty to discover). Prints {@code WARN <line>},
 * {@code BODY <thread>}, the placement table between {@code TABLE} and {@code END}, {@code VMLCK <kB>},
 * {@code DMA <value read from /dev/cpu_dma_latency>}, then {@code DONE}; in strict mode a refused step prints
 * {@code STRICT <message>} and exits with {@link #EXIT_STRICT}.
 */
public final class RtChild
{
    static final int EXIT_STRICT = 3;

    private RtChild()
    {
    }

    /**
     * @param args {@code key=value} settings.
     */
    public static void main(final String[] args) throws Exception
    {
        boolean strict = false;
        boolean lock = false;
        boolean dma = false;
        final List<Integer> cpus = new ArrayList<>();
        for (final String arg : args)
        {
            final String value = arg.substring(arg.indexOf('=') + 1);
            if (arg.startsWith("strict="))
            {
                strict = Boolean.parseBoolean(value);
            }
            else if (arg.startsWith("lock="))
            {
                lock = Boolean.parseBoolean(value);
            }
            else if (arg.startsWith("dma="))
            {
                dma = Boolean.parseBoolean(value);
            }
            else if (arg.startsWith("cpus=") && !value.isEmpty())
            {
                for (final String cpu : value.split(","))
                {
                    cpus.add(Integer.parseInt(cpu));
                }
            }
        }
        final CountDownLatch stop = new CountDownLatch(1);
        final RtSettings settings = new RtSettings(cpus, strict, lock, dma, Path.of("/"));
        try (RtEnvironment environment = RtEnvironment.prepare(settings, line -> System.out.println("WARN " + line)))
        {
            final List<Integer> rt = environment.rtCpus();
            final List<RtThread> threads = new ArrayList<>();
            threads.add(environment.start("rfmrt-isr", rt.get(0), RtPriorities.ISR_DEFAULT, body("rfmrt-isr", stop)));
            threads.add(environment.start("rfmrt-consumer", rt.get(rt.size() - 1), RtPriorities.CONSUMER_DEFAULT,
                body("rfmrt-consumer", stop)));
            threads.add(environment.start("rfmrt-journal", environment.housekeepingCpu(), 0,
                body("rfmrt-journal", stop)));
            System.out.print("TABLE\n" + environment.placementTable() + "END\n");
            System.out.println("VMLCK " + KernelView.vmLckKb());
            System.out.println("VMRSS " + KernelView.statusField(Path.of("/proc/self/status"), "VmRSS:"));
            if (dma)
            {
                System.out.println("DMA " + readCpuDmaLatency());
            }
            stop.countDown();
            for (final RtThread thread : threads)
            {
                thread.join(0);
            }
        }
        catch (final RtSetupException ex)
        {
            System.out.println("STRICT " + ex.getMessage());
            System.out.flush();
            stop.countDown();
            System.exit(EXIT_STRICT);
        }
        System.out.println("DONE");
    }

    private static Runnable body(final String name, final CountDownLatch stop)
    {
        return () ->
        {
            System.out.println("BODY " + name);
            try
            {
                stop.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        };
    }

    private static int readCpuDmaLatency() throws IOException
    {
        final byte[] value = Files.readAllBytes(Path.of("/dev/cpu_dma_latency"));
        return ByteBuffer.wrap(value).order(ByteOrder.nativeOrder()).getInt();
    }
}
