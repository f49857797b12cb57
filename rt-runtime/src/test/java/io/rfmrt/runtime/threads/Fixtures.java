package io.rfmrt.runtime.threads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Synthetic sysroot trees: {@code sys/devices/system/cpu/{online,isolated}} and {@code dev/cpu_dma_latency}.
 */
final class Fixtures
{
    private Fixtures()
    {
    }

    /**
     * @param dir      where to build the tree.
     * @param online   content of the online list.
     * @param isolated content of the isolated list, null for no file.
     * @return the sysroot.
     */
    static Path sysroot(final Path dir, final String online, final String isolated) throws IOException
    {
        final Path cpu = Files.createDirectories(dir.resolve("sys/devices/system/cpu"));
        Files.writeString(cpu.resolve("online"), online + "\n", StandardCharsets.US_ASCII);
        if (isolated != null)
        {
            Files.writeString(cpu.resolve("isolated"), isolated + "\n", StandardCharsets.US_ASCII);
        }
        return dir;
    }

    /**
     * @param sysroot a tree from {@link #sysroot}.
     * @return a regular file standing in for {@code /dev/cpu_dma_latency}, holding four 0xff bytes.
     */
    static Path cpuDmaLatency(final Path sysroot) throws IOException
    {
        final Path device = Files.createDirectories(sysroot.resolve("dev")).resolve("cpu_dma_latency");
        Files.write(device, new byte[] {-1, -1, -1, -1});
        return device;
    }
}
