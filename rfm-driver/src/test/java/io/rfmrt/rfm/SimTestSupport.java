package io.rfmrt.rfm;

import io.rfmrt.rfm.sim.SimNetwork;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Test helpers: a private network root in /dev/shm (or the folder {@link #SHM_PROPERTY} names) per test class, and
 * child JVMs for cross-process tests.
 */
public final class SimTestSupport
{
    /** System property: the folder test networks are made in, /dev/shm by default. */
    public static final String SHM_PROPERTY = "rfmrt.test.shm";

    private SimTestSupport()
    {
    }

    /**
     * Point the emulator at a fresh root folder for this JVM.
     *
     * @return the root.
     */
    public static Path freshRoot()
    {
        // a run that may leave networks behind (PIT kills test JVMs) names a folder of its own to remove afterwards
        final Path shm = Path.of(System.getProperty(SHM_PROPERTY, "/dev/shm"));
        final Path base = Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        final Path root = base.resolve("rfmrt-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
        return root;
    }

    /**
     * @param root a root from {@link #freshRoot()}, removed with everything under it.
     */
    public static void removeRoot(final Path root)
    {
        if (root == null || !Files.exists(root))
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Start a child JVM running {@code main} with the test classpath and the same emulator root.
     *
     * @param root the emulator root.
     * @param main class with a main method.
     * @param args its arguments.
     * @return the process; its stdout is readable line by line.
     */
    public static Process startJvm(final Path root, final Class<?> main, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final String flags = System.getProperty("rfmrt.test.jvm.flags", "");
        if (!flags.isBlank())
        {
            command.addAll(Arrays.asList(flags.trim().split("\\s+")));
        }
        command.add("-D" + SimNetwork.ROOT_PROPERTY + "=" + root);
        command.add("-cp");
        command.add(System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path")));
        command.add(main.getName());
        command.addAll(Arrays.asList(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /**
     * @param process a child.
     * @return a reader over its stdout.
     */
    public static BufferedReader stdout(final Process process)
    {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Read lines until one equals {@code expected}.
     *
     * @param reader the child's stdout.
     * @param expected the line.
     */
    public static void awaitLine(final BufferedReader reader, final String expected) throws IOException
    {
        String line;
        while ((line = reader.readLine()) != null)
        {
            if (line.equals(expected))
            {
                return;
            }
        }
        throw new IllegalStateException("child ended before printing '" + expected + "'");
    }

    /**
     * Wait for a child to end, killing it after the time-out.
     *
     * @param process the child.
     * @param seconds how long to wait.
     * @return its exit code.
     */
    public static int finish(final Process process, final long seconds) throws InterruptedException
    {
        if (!process.waitFor(seconds, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("child did not end within " + seconds + " s");
        }
        return process.exitValue();
    }
}
