package io.rfmrt.runtime.threads;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import io.rfmrt.runtime.threads.internal.SysCpus;

/**
 * How {@link RtEnvironment#prepare} sets up the process and places RT threads. Immutable. The names in validation
 * messages are the settings' dotted property names ({@code rfmrt.rt.cpus}, {@code rfmrt.rt.strict},
 * {@code rfmrt.rt.lockMemory}, {@code rfmrt.rt.holdCpuDmaLatency}, {@code rfmrt.rt.sysroot}).
 *
 * @param cpus              cores for the RT threads; empty to discover them ({@code isolated}, else best effort).
 * @param strict            true: the first refused step throws {@link RtSetupException}; false (default): each
 *                          refused step warns once and setup continues.
 * @param lockMemory        {@code mlockall(MCL_CURRENT|MCL_FUTURE)}; default true.
 * @param holdCpuDmaLatency hold {@code /dev/cpu_dma_latency} at 0 until {@link RtEnvironment#close()}; default false.
 * @param sysroot           the root under which {@code sys/devices/system/cpu} and {@code dev/cpu_dma_latency} are
 *                          found: {@code /} on a node, a fixture tree in tests.
 */
public record RtSettings(List<Integer> cpus, boolean strict, boolean lockMemory, boolean holdCpuDmaLatency,
                         Path sysroot)
{
    private static final boolean STRICT_DEFAULT = false;
    private static final boolean LOCK_MEMORY_DEFAULT = true;
    private static final boolean HOLD_CPU_DMA_LATENCY_DEFAULT = false;

    private static final Path ROOT = Path.of("/");

    /**
     * Copies the cpu list; a null list is empty, a null sysroot is {@code /}.
     *
     * @param cpus              RT cores, empty to discover.
     * @param strict            fail fast on the first refused step.
     * @param lockMemory        mlockall.
     * @param holdCpuDmaLatency hold cpu_dma_latency at 0.
     * @param sysroot           root of the kernel's files.
     */
    public RtSettings
    {
        cpus = cpus == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(cpus));
        sysroot = sysroot == null ? ROOT : sysroot;
    }

    /**
     * @return discover cpus, permissive, mlockall, no cpu_dma_latency hold, sysroot {@code /}.
     */
    public static RtSettings defaults()
    {
        return new RtSettings(List.of(), STRICT_DEFAULT, LOCK_MEMORY_DEFAULT, HOLD_CPU_DMA_LATENCY_DEFAULT, ROOT);
    }

    /**
     * Check the settings against each other and the machine (the online cpus under {@link #sysroot()}).
     *
     * @return this.
     * @throws IllegalArgumentException naming the setting and the bad value: a missing or negative cpu, a cpu listed
     *                                  twice or not online, a sysroot that is not a directory.
     */
    public RtSettings validate()
    {
        return validate("rfmrt.rt.cpus");
    }

    /**
     * As {@link #validate()}, the cpu list named as the caller knows it (a node's YAML says {@code threads.cpus}).
     *
     * @param cpusKey the cpu list's name in messages.
     * @return this.
     * @throws IllegalArgumentException naming the setting and the bad value.
     */
    public RtSettings validate(final String cpusKey)
    {
        if (!Files.isDirectory(sysroot))
        {
            throw new IllegalArgumentException("rfmrt.rt.sysroot: " + sysroot + " is not a directory");
        }
        final Optional<BitSet> online = SysCpus.online(sysroot);
        final BitSet seen = new BitSet();
        for (final Integer cpu : cpus)
        {
            if (cpu == null)
            {
                throw new IllegalArgumentException(cpusKey + ": " + cpus + " has an empty entry");
            }
            if (cpu < 0)
            {
                throw new IllegalArgumentException(cpusKey + ": cpu " + cpu + " is negative");
            }
            if (seen.get(cpu))
            {
                throw new IllegalArgumentException(cpusKey + ": cpu " + cpu + " is listed twice in " + cpus);
            }
            seen.set(cpu);
            if (online.isPresent() && !online.get().get(cpu))
            {
                throw new IllegalArgumentException(cpusKey + ": cpu " + cpu + " is not online (online: " +
                    CpuSet.of(online.get()).toString() + ")");
            }
        }
        return this;
    }
}
