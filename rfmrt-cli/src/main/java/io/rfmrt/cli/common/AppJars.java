package io.rfmrt.cli.common;

import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * {@code --app-jar JAR}: a user's own jars (a {@code ControlLaw}, a {@code NodeApp}) for one command, as
 * {@code RFMRT_CLASSPATH} does in a checkout and {@code conf/lib/} in a release. The command's classes are looked up
 * through a loader over these jars (the thread context loader, which the node's threads inherit and the app and law
 * lookups use), and every process the command starts ({@link ChildJvm}) gets them on its class path.
 * <p>
 * A picocli mixin: a command that takes it calls {@link #use()} before it looks up any class.
 */
public final class AppJars
{
    private static volatile List<Path> inUse = List.of();

    @Option(names = "--app-jar", paramLabel = "JAR",
        description = "A jar of your own (a ControlLaw, a NodeApp) on the class path of this command and of every " +
            "process it starts, as RFMRT_CLASSPATH does (repeatable).")
    List<Path> jars = new ArrayList<>();

    /**
     * Check the jars and put them in use: the calling thread's context loader looks in them first after the
     * application's own classes, and the class path of every child process ends with them.
     *
     * @throws UsageException one line naming a jar that is missing or is not a jar.
     */
    public void use()
    {
        if (jars.isEmpty())
        {
            return;
        }
        final List<Path> checked = new ArrayList<>();
        final URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++)
        {
            final Path jar = jars.get(i).toAbsolutePath().normalize();
            if (!Files.isRegularFile(jar))
            {
                throw new UsageException("--app-jar " + jars.get(i) + ": no such file");
            }
            try (JarFile ignored = new JarFile(jar.toFile()))
            {
                urls[i] = jar.toUri().toURL();
            }
            catch (final MalformedURLException ex)
            {
                throw new UsageException("--app-jar " + jars.get(i) + ": " + ex.getMessage());
            }
            catch (final IOException | SecurityException ex)
            {
                throw new UsageException("--app-jar " + jars.get(i) + ": not a readable jar (" + ex.getMessage() +
                    ")");
            }
            checked.add(jar);
        }
        Thread.currentThread().setContextClassLoader(new URLClassLoader(urls, AppJars.class.getClassLoader()));
        inUse = List.copyOf(checked);
    }

    /**
     * @return whether {@code --app-jar} was given.
     */
    public boolean jarsGiven()
    {
        return !jars.isEmpty();
    }

    /**
     * @param classPath a class path.
     * @return it, followed by the jars in use (if any).
     */
    static String after(final String classPath)
    {
        final StringBuilder path = new StringBuilder(classPath);
        for (final Path jar : inUse)
        {
            path.append(File.pathSeparatorChar).append(jar);
        }
        return path.toString();
    }

    /**
     * @return where the commands of this process look up a user's classes: the context loader {@link #use()} set,
     * or the application's.
     */
    public static ClassLoader loader()
    {
        final ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : AppJars.class.getClassLoader();
    }
}
