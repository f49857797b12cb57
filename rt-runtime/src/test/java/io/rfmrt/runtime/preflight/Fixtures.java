package io.rfmrt.runtime.preflight;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The preflight fixture trees of the test resources, and editable copies of them.
 */
final class Fixtures
{
    static final String RT_NODE = "rt-node-8cpu";
    static final String VM = "vm-2cpu";

    private Fixtures()
    {
    }

    static Path tree(final String name)
    {
        final URL url = Fixtures.class.getResource("/preflight/" + name);
        if (url == null)
        {
            throw new IllegalStateException("no fixture " + name + " on the test class path");
        }
        try
        {
            return Paths.get(url.toURI());
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * @return a copy of the fixture under dir, to edit.
     */
    static Path copy(final String name, final Path dir)
    {
        final Path to = dir.resolve(name);
        copyTree(tree(name), to);
        return to;
    }

    private static void copyTree(final Path from, final Path to)
    {
        try (Stream<Path> files = Files.walk(from))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                final Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    // a single file restored into a folder that a test deleted
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * A copy of a fixture that tests edit and {@link #restore()} after each test: cheaper than a fresh copy.
     */
    static final class Editable
    {
        private final Path original;
        private final Path root;
        private final Set<String> touched = new LinkedHashSet<>();

        Editable(final String name, final Path dir)
        {
            original = tree(name);
            root = copy(name, dir);
        }

        Path root()
        {
            return root;
        }

        void write(final String path, final String text)
        {
            touched.add(path);
            Fixtures.write(root, path, text);
        }

        void delete(final String path)
        {
            touched.add(path);
            Fixtures.delete(root, path);
        }

        /**
         * Put every path written or deleted since the last restore back as the fixture has it.
         */
        void restore()
        {
            for (final String path : touched)
            {
                if (Files.exists(root.resolve(path)))
                {
                    Fixtures.delete(root, path);
                }
                if (Files.exists(original.resolve(path)))
                {
                    copyTree(original.resolve(path), root.resolve(path));
                }
            }
            touched.clear();
        }

        /**
         * @return path to content of every file of the copy; equal to {@link #originalFiles()} after a restore.
         */
        Map<String, String> files()
        {
            return contents(root);
        }

        Map<String, String> originalFiles()
        {
            return contents(original);
        }

        private static Map<String, String> contents(final Path tree)
        {
            final Map<String, String> contents = new TreeMap<>();
            try (Stream<Path> files = Files.walk(tree))
            {
                for (final Path file : (Iterable<Path>)files.filter(Files::isRegularFile)::iterator)
                {
                    contents.put(tree.relativize(file).toString(), Files.readString(file, StandardCharsets.UTF_8));
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
            return contents;
        }
    }

    static void write(final Path root, final String path, final String text)
    {
        final Path file = root.resolve(path);
        try
        {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static void delete(final Path root, final String path)
    {
        final Path target = root.resolve(path);
        if (!Files.exists(target))
        {
            throw new IllegalStateException("fixture has no " + path);
        }
        try (Stream<Path> files = Files.walk(target))
        {
            for (final Path file : (Iterable<Path>)files.sorted(Comparator.reverseOrder())::iterator)
            {
                Files.delete(file);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
