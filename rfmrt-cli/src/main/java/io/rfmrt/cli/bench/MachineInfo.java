package io.rfmrt.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a benchmark ran on, for its report.
 *
 * @param cpu           the cpu model.
 * @param cpus          cpus available to the JVM.
 * @param kernel        the kernel's release.
 * @param kernelVersion the kernel's version line.
 * @param preemptRt     whether the kernel is PREEMPT_RT.
 * @param isolatedCpus  the isolated cpus, as the kernel lists them.
 * @param java          the JVM's name and version.
 */
record MachineInfo(String cpu, int cpus, String kernel, String kernelVersion, boolean preemptRt, String isolatedCpus,
    String java)
{
    /**
     * @return this machine, now.
     */
    static MachineInfo describe()
    {
        return new MachineInfo(cpuModel(), Runtime.getRuntime().availableProcessors(),
            read("/proc/sys/kernel/osrelease"), read("/proc/sys/kernel/version"),
            "1".equals(read("/sys/kernel/realtime")), read("/sys/devices/system/cpu/isolated"),
            System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    private static String cpuModel()
    {
        try
        {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                .filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElse("unknown");
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private static String read(final String file)
    {
        try
        {
            return Files.readString(Path.of(file)).trim();
        }
        catch (final IOException ex)
        {
            return "";
        }
    }
}
