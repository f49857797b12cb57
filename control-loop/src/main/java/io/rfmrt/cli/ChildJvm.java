package io.rfmrt.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts another {@code rfmrt} process on the same JVM, classpath and flags as this one: how the demo and the
 * benchmarks put their nodes in separate processes.
 */
final class ChildJvm
{
    private ChildJvm()
    {
    }

    /**
     * @param args rfmrt arguments for the child.
     * @return a builder; the caller chooses how to redirect output.
     */
    static ProcessBuilder builder(final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            // agent and debugger options belong to this process only
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent") && !arg.startsWith("-Xrunjdwp"))
            {
                command.add(arg);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    /**
     * @param args rfmrt arguments for the child.
     * @return the started child, stdout piped to the caller, stderr shared with this process.
     */
    static Process start(final String... args) throws IOException
    {
        return builder(args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
