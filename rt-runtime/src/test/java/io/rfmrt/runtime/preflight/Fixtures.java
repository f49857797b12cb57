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
        final Path from = tree(name);
        final Path to = dir.resolve(name);
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
                    Files.copy(file, target);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return to;
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
