package io.rfmrt.runtime.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the journals under a folder: every folder (the folder itself included, up to
 * {@value #MAX_DEPTH} levels down) that holds a {@code .cq4} queue file, e.g. {@code DIR/journal/node-1} and
 * {@code DIR/journal/node-2} of a demo run, or {@code DIR} itself.
 */
public final class JournalSet
{
    /** How deep below the folder journals are looked for. */
    public static final int MAX_DEPTH = 6;

    private JournalSet()
    {
    }

    /**
     * One journal folder.
     *
     * @param name its path relative to the folder given ({@code journal/node-2}, or {@code .} for the folder itself).
     * @param dir  the journal folder.
     */
    public record Entry(String name, Path dir)
    {
    }

    /**
     * @param dir the folder given on the command line.
     * @return its journals, sorted by name; never empty.
     * @throws ReplayException when the folder is missing, is not a folder, cannot be listed, or holds no journal.
     */
    public static List<Entry> locate(final Path dir)
    {
        if (!Files.exists(dir))
        {
            throw new ReplayException("replay: " + dir + " does not exist");
        }
        if (!Files.isDirectory(dir))
        {
            throw new ReplayException("replay: " + dir + " is not a folder");
        }
        final List<Entry> found = new ArrayList<>();
        try (Stream<Path> tree = Files.walk(dir, MAX_DEPTH))
        {
            tree.filter(Files::isDirectory).filter(JournalSet::holdsQueue).sorted().forEach(folder ->
            {
                final String name = dir.equals(folder) ? "." : dir.relativize(folder).toString();
                found.add(new Entry(name, folder));
            });
        }
        catch (final IOException | java.io.UncheckedIOException ex)
        {
            throw new ReplayException("replay: cannot list " + dir + ": " + ex.getMessage(), ex);
        }
        if (found.isEmpty())
        {
            throw new ReplayException("replay: no journal under " + dir + " (no folder holds a .cq4 queue file)");
        }
        return found;
    }

    private static boolean holdsQueue(final Path folder)
    {
        try (Stream<Path> files = Files.list(folder))
        {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".cq4") && Files.isRegularFile(file));
        }
        catch (final IOException | java.io.UncheckedIOException ex)
        {
            return false;
        }
    }
}
