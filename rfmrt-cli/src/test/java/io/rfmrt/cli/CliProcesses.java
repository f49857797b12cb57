package io.rfmrt.cli;

import io.rfmrt.rfm.sim.SimNetwork;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Test helpers: the {@code rfmrt} command line in a child JVM on the test classpath, and folder clean-up.
 */
public final class CliProcesses
{
    private CliProcesses()
    {
    }

    /**
     * @param simRoot  emulator root for the child.
     * @param stderr   where the child's stderr goes.
     * @param args     rfmrt arguments.
     * @return the started child; its stdout is piped.
     */
    public static Process start(final Path simRoot, final ProcessBuilder.Redirect stderr, final String... args)
        throws IOException
    {
        return startMain(simRoot, stderr, Main.class, args);
    }

    /**
     * {@link #start(Path, ProcessBuilder.Redirect, String...)} with the tiered JIT a release runs with, for a test whose
     * subject is what compiled code does (a fault in an unsafe memory access becomes an error at once in code the
     * optimising compiler made; with the client compiler alone the thread can go on faulting for most of a minute).
     *
     * @param simRoot emulator root for the child.
     * @param stderr  where the child's stderr goes.
     * @param args    rfmrt arguments.
     * @return the started child; its stdout is piped.
     */
    public static Process startWithReleaseJit(final Path simRoot, final ProcessBuilder.Redirect stderr,
        final String... args) throws IOException
    {
        return new ProcessBuilder(command(simRoot, false, Main.class, args)).redirectError(stderr).start();
    }

    /**
     * @param simRoot  emulator root for the child.
     * @param stderr   where the child's stderr goes.
     * @param main     the child's main class (of the test classpath).
     * @param args     its arguments.
     * @return the started child; its stdout is piped.
     */
    public static Process startMain(final Path simRoot, final ProcessBuilder.Redirect stderr, final Class<?> main,
        final String... args) throws IOException
    {
        return builder(simRoot, stderr, main, args).start();
    }

    /**
     * @param simRoot emulator root for the child.
     * @param stderr  where the child's stderr goes.
     * @param env     environment variables added to the child's.
     * @param args    rfmrt arguments.
     * @return the started child; its stdout is piped.
     */
    public static Process start(final Path simRoot, final ProcessBuilder.Redirect stderr,
        final java.util.Map<String, String> env, final String... args) throws IOException
    {
        final ProcessBuilder builder = builder(simRoot, stderr, Main.class, args);
        builder.environment().putAll(env);
        return builder.start();
    }

    private static ProcessBuilder builder(final Path simRoot, final ProcessBuilder.Redirect stderr,
        final Class<?> main, final String... args)
    {
        return new ProcessBuilder(command(simRoot, main, args)).redirectError(stderr);
    }

    /**
     * @param simRoot emulator root for the child.
     * @param main    the main class.
     * @param args    its arguments.
     * @return the command line of a child JVM running it, with this build's class path and JVM flags.
     */
    public static List<String> command(final Path simRoot, final Class<?> main, final String... args)
    {
        return command(simRoot, true, main, args);
    }

    /**
     * @return the JVM flags of a test's child: this build's ({@code rfmrt.test.jvm.flags}), then the JIT the tests
     * choose for their children ({@code rfmrt.test.child.jit}: the client compiler alone unless the build says
     * otherwise) and their nodes' warm-up ({@code rfmrt.test.child.warmup}: 5,000 frames a channel; docs/testing.md,
     * "Child JVMs"). A child's own children inherit them.
     */
    public static List<String> childJvmFlags()
    {
        final List<String> flags = new ArrayList<>(words(System.getProperty("rfmrt.test.jvm.flags", "")));
        flags.addAll(words(System.getProperty("rfmrt.test.child.jit", "")));
        flags.addAll(words(System.getProperty("rfmrt.test.child.warmup", "")));
        return flags;
    }

    private static List<String> command(final Path simRoot, final boolean childJit, final Class<?> main,
        final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(childJit ? childJvmFlags() : words(System.getProperty("rfmrt.test.jvm.flags", "")));
        command.add("-Xmx256m");
        command.add("-D" + SimNetwork.ROOT_PROPERTY + "=" + simRoot);
        final String jnaPath = System.getProperty("jna.library.path");
        if (jnaPath != null)
        {
            // where the rfm2g stand-in library is
            command.add("-Djna.library.path=" + jnaPath);
        }
        command.addAll(ChildClassArchive.classpathArgs());
        command.add(main.getName());
        command.addAll(Arrays.asList(args));
        return command;
    }

    private static List<String> words(final String text)
    {
        final String trimmed = text.trim();
        return trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("\\s+"));
    }

    /**
     * @param dir a folder to remove with everything in it; absent is fine.
     */
    public static void removeTree(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * @param process a process.
     * @return its command line, arguments separated by NUL as in {@code /proc/PID/cmdline}; empty once it is gone.
     */
    public static String commandLine(final ProcessHandle process)
    {
        try
        {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                StandardCharsets.UTF_8);
        }
        catch (final IOException gone)
        {
            return "";
        }
    }

    /**
     * @param process a process.
     * @param name    a thread name (the kernel keeps its first 15 characters, which are compared).
     * @return whether one of its threads has that name now.
     */
    public static boolean hasThread(final ProcessHandle process, final String name)
    {
        final String kept = name.length() > 15 ? name.substring(0, 15) : name;
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task")))
        {
            return tasks.anyMatch(t -> threadName(t).equals(kept));
        }
        catch (final IOException | java.io.UncheckedIOException gone)
        {
            // the process or a thread ended between the listing and the read
            return false;
        }
    }

    private static String threadName(final Path task)
    {
        try
        {
            return Files.readString(task.resolve("comm")).trim();
        }
        catch (final IOException gone)
        {
            return "";
        }
    }

    /**
     * Read a child's stdout until a line starting with {@code prefix}, then keep draining it on a daemon thread so
     * that the child never blocks on a full pipe.
     *
     * @param process the child.
     * @param prefix  what the line starts with.
     * @return the line.
     * @throws AssertionError with what it printed when it ends first.
     */
    public static String awaitLine(final Process process, final String prefix) throws IOException
    {
        final BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8));
        final StringBuilder seen = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null)
        {
            seen.append(line).append('\n');
            if (line.startsWith(prefix))
            {
                // keep draining, so that the node never blocks on a full pipe
                final Thread drain = new Thread(() ->
                {
                    try
                    {
                        while (reader.readLine() != null)
                        {
                            // discard
                        }
                    }
                    catch (final IOException ignored)
                    {
                        // the node ended
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return line;
            }
        }
        throw new AssertionError("the process ended before printing '" + prefix + "': " + seen);
    }
}
