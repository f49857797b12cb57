package io.rfmrt.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a benchmark ran on, for its report.
 */
final class MachineInfo
{
    private MachineInfo()
    {
    }

    /**
     * @return cpu model, cpu count, kernel, whether it is PREEMPT_RT, the JVM.
     */
    static Map<String, Object> describe()
    {
        final Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cpu", cpuModel());
        machine.put("cpus", Runtime.getRuntime().availableProcessors());
        machine.put("kernel", read("/proc/sys/kernel/osrelease"));
        machine.put("kernel_version", read("/proc/sys/kernel/version"));
        machine.put("preempt_rt", "1".equals(read("/sys/kernel/realtime")));
        machine.put("isolated_cpus", read("/sys/devices/system/cpu/isolated"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        return machine;
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
