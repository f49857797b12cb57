package io.rfmrt.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A class-data-sharing archive for the test's child JVMs: every class of the children's class path (test frameworks
 * left out) parsed, verified and laid out once, then mapped by each child instead of loaded again. A 1-s demo's three
 * JVMs used about a fifth less user CPU (docs/testing.md, "Child JVMs"), and the module's process tests start a few
 * hundred JVMs.
 * <p>
 * Java 17 archives classes of jar files only and refuses to dump at all while a non-empty folder is on the class
 * path, so every folder of the test class path (this module's classes, a sibling's when Maven did not package it) is
 * packed into a jar first; a child then runs on those jars. The archive and the jars live in
 * {@code target/child-cds/STAMP/}, STAMP a digest of the class path's files (names, sizes, times), the JVM and its
 * flags: the first test JVM to need them makes them under a file lock, the other waits and reuses them, and a
 * changed build makes a new one. Any failure (the dump, a check that a child can map it) leaves a line on stderr and
 * the children on the plain class path: slower, not wrong. The failure is written beside the build's stamp, so the
 * other test JVM says it too and does not spend the dump's seconds again.
 */
public final class ChildClassArchive
{
    /** Jar names of test frameworks: a child never runs them. */
    private static final List<String> LEFT_OUT = List.of(
        "junit-", "assertj-", "byte-buddy", "opentest4j-", "apiguardian-", "test-classes");

    /** In a stamp's folder when its archive could not be made: the message, so the other test JVM does not retry. */
    static final String FAILED = "failed";

    private static final Object LOCK = new Object();
    private static List<String> args;

    private ChildClassArchive()
    {
    }

    /**
     * @return the JVM arguments that give a child the test class path: {@code -XX:SharedArchiveFile=ARCHIVE -cp JARS}
     * once the archive is made and checked, else {@code -cp} and the plain test class path.
     */
    public static List<String> classpathArgs()
    {
        synchronized (LOCK)
        {
            if (args == null)
            {
                args = make();
            }
            return args;
        }
    }

    private static List<String> make()
    {
        return make(System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path")), System.err);
    }

    /**
     * @param classpath the children's class path, its first entry a module's {@code target/test-classes}.
     * @param err       where a failure is said, in one line.
     * @return the children's class path arguments: on the archive, or on {@code classpath} when it cannot be made.
     */
    static List<String> make(final String classpath, final PrintStream err)
    {
        final List<String> plain = List.of("-cp", classpath);
        final List<Path> entries = new ArrayList<>();
        for (final String entry : classpath.split(File.pathSeparator))
        {
            if (!entry.isBlank())
            {
                entries.add(Path.of(entry));
            }
        }
        if (entries.isEmpty() || !Files.isDirectory(entries.get(0)))
        {
            return plain;
        }
        // the first entry is this module's target/test-classes
        final Path home = entries.get(0).toAbsolutePath().getParent().resolve("child-cds");
        try
        {
            Files.createDirectories(home);
            try (FileChannel lockFile = FileChannel.open(home.resolve(".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
                FileLock ignored = lockFile.lock())
            {
                final Path dir = home.resolve(stamp(entries));
                final Path archive = dir.resolve("child.jsa");
                final Path jarList = dir.resolve("classpath");
                final Path failed = dir.resolve(FAILED);
                if (Files.isRegularFile(failed))
                {
                    // the other test JVM tried this build's archive and failed: not tried again
                    throw new IOException(readFailure(failed) + " (an earlier try, " + failed + ")");
                }
                if (!Files.isRegularFile(archive) || !Files.isRegularFile(jarList))
                {
                    clear(home);
                    Files.createDirectories(dir);
                    try
                    {
                        final String jars = jars(entries, dir);
                        dump(dir, archive, jars);
                        Files.writeString(jarList, jars);
                    }
                    catch (final IOException | RuntimeException ex)
                    {
                        Files.writeString(failed, String.valueOf(ex.getMessage()));
                        throw ex;
                    }
                }
                final String jars = Files.readString(jarList);
                return List.of("-XX:SharedArchiveFile=" + archive, "-cp", jars);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            err.println("child JVMs without a class-data-sharing archive: " + ex.getMessage());
            return plain;
        }
    }

    /** The first line of a failure file, at most 200 characters: it was written by this class, but read as found. */
    private static String readFailure(final Path failed) throws IOException
    {
        final String text = Files.readString(failed).lines().findFirst().orElse("").strip();
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    /** Every folder of the class path packed into a jar of {@code dir}; jars stay where they are. */
    private static String jars(final List<Path> entries, final Path dir) throws IOException
    {
        final List<String> jars = new ArrayList<>();
        int n = 0;
        for (final Path entry : entries)
        {
            if (Files.isDirectory(entry))
            {
                // e.g. 0-rfmrt-cli-test-classes.jar: the module's folder, then target/'s child
                final Path jar = dir.resolve(n++ + "-" + entry.toAbsolutePath().getParent().getParent().getFileName() +
                    "-" + entry.getFileName() + ".jar");
                pack(entry, jar);
                jars.add(jar.toString());
            }
            else if (Files.exists(entry))
            {
                jars.add(entry.toString());
            }
        }
        return String.join(File.pathSeparator, jars);
    }

    private static void pack(final Path folder, final Path jar) throws IOException
    {
        try (OutputStream out = Files.newOutputStream(jar);
            JarOutputStream zip = new JarOutputStream(out);
            Stream<Path> files = Files.walk(folder))
        {
            zip.setLevel(1);
            for (final Path file : (Iterable<Path>)files.sorted()::iterator)
            {
                if (Files.isRegularFile(file))
                {
                    zip.putNextEntry(new JarEntry(folder.relativize(file).toString().replace(File.separatorChar, '/')));
                    Files.copy(file, zip);
                    zip.closeEntry();
                }
            }
        }
    }

    /** A training JVM loads every class and dumps them at its exit; a second maps the archive or fails. */
    private static void dump(final Path dir, final Path archive, final String jars) throws IOException
    {
        final Path part = dir.resolve("child.jsa.part");
        final Path log = dir.resolve("dump.log");
        final List<String> train = java();
        train.add("-XX:ArchiveClassesAtExit=" + part);
        train.addAll(List.of("-cp", jars, LoadEveryClass.class.getName()));
        run(train, log, "the dump");
        if (!Files.isRegularFile(part))
        {
            throw new IOException("the dump wrote no archive (" + log + ")");
        }
        final List<String> check = java();
        check.addAll(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + part, "-cp", jars, Main.class.getName(),
            "--version"));
        run(check, dir.resolve("check.log"), "a child on the archive");
        Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<String> java()
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CliProcesses.childJvmFlags());
        command.add("-Xmx256m");
        return command;
    }

    private static void run(final List<String> command, final Path log, final String what) throws IOException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        try
        {
            if (!process.waitFor(120, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IOException(what + " took more than 120 s (" + log + ")");
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(what + " was interrupted");
        }
        if (process.exitValue() != 0)
        {
            throw new IOException(what + " exited " + process.exitValue() + " (" + log + ")");
        }
    }

    /** Names, sizes and times of every file of the class path, the JVM and the children's flags. */
    private static String stamp(final List<Path> entries) throws IOException
    {
        final MessageDigest digest;
        try
        {
            digest = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
        final StringBuilder text = new StringBuilder(System.getProperty("java.home"))
            .append('\n').append(System.getProperty("java.vm.version"))
            .append('\n').append(String.join(" ", CliProcesses.childJvmFlags())).append('\n');
        for (final Path entry : entries)
        {
            if (!Files.exists(entry))
            {
                continue;
            }
            try (Stream<Path> files = Files.walk(entry))
            {
                for (final Path file : (Iterable<Path>)files.sorted()::iterator)
                {
                    final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                    if (attributes.isRegularFile())
                    {
                        text.append(file).append(' ').append(attributes.size()).append(' ')
                            .append(attributes.lastModifiedTime().toMillis()).append('\n');
                    }
                }
            }
        }
        return HexFormat.of().formatHex(digest.digest(text.toString().getBytes(StandardCharsets.UTF_8)), 0, 8);
    }

    /** Earlier stamps' folders: a changed build made them useless. */
    private static void clear(final Path home) throws IOException
    {
        try (Stream<Path> old = Files.list(home))
        {
            for (final Path dir : (Iterable<Path>)old.filter(Files::isDirectory)::iterator)
            {
                CliProcesses.removeTree(dir);
            }
        }
    }

    /**
     * The training JVM's main: loads (without initialising) every class of every jar on its class path but the test
     * frameworks'; the JVM archives them at its exit ({@code -XX:ArchiveClassesAtExit}). A class that cannot be
     * loaded (an optional dependency missing) is left out.
     */
    public static final class LoadEveryClass
    {
        private LoadEveryClass()
        {
        }

        /**
         * @param args none.
         * @throws IOException when a jar cannot be read.
         */
        public static void main(final String[] args) throws IOException
        {
            final ClassLoader loader = LoadEveryClass.class.getClassLoader();
            int loaded = 0;
            int failed = 0;
            for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator))
            {
                final String name = Path.of(entry).getFileName().toString();
                if (!name.endsWith(".jar") || name.endsWith("-tests.jar") || LEFT_OUT.stream().anyMatch(name::contains))
                {
                    continue;
                }
                try (JarFile jar = new JarFile(entry))
                {
                    for (final Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); )
                    {
                        final String file = e.nextElement().getName();
                        if (!file.endsWith(".class") || file.startsWith("META-INF/") || file.endsWith("module-info.class"))
                        {
                            continue;
                        }
                        try
                        {
                            Class.forName(file.substring(0, file.length() - 6).replace('/', '.'), false, loader);
                            loaded++;
                        }
                        catch (final Throwable ex)
                        {
                            failed++;
                        }
                    }
                }
            }
            System.out.println("loaded " + loaded + " classes, " + failed + " could not be loaded");
        }
    }
}
