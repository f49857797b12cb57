package io.rfmrt.runtime.threads.internal;

import io.rfmrt.runtime.threads.CpuSet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;

/**
 * The cpu lists under {@code <sysroot>/sys/devices/system/cpu}: online and isolated cpus. The sysroot is {@code /}
 * on a node and a fixture tree in tests.
 */
public final class SysCpus
{
    /** Relative path of the online cpu list. */
    public static final String ONLINE = "sys/devices/system/cpu/online";
    /** Relative path of the isolated cpu list ({@code isolcpus=}). */
    public static final String ISOLATED = "sys/devices/system/cpu/isolated";

    private SysCpus()
    {
    }

    /**
     * @param sysroot the root the kernel's files are read under.
     * @return the online cpus, empty when the list cannot be read or parsed.
     */
    public static Optional<BitSet> online(final Path sysroot)
    {
        return read(sysroot.resolve(ONLINE));
    }

    /**
     * @param sysroot the root the kernel's files are read under.
     * @return the isolated cpus, empty when the list cannot be read or parsed (an empty file is an empty set).
     */
    public static Optional<BitSet> isolated(final Path sysroot)
    {
        return read(sysroot.resolve(ISOLATED));
    }


    private static Optional<BitSet> read(final Path file)
    {
        try
        {
            return Optional.of(CpuSet.parse(Files.readString(file, StandardCharsets.US_ASCII)).toBitSet());
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            return Optional.empty();
        }
    }
}
