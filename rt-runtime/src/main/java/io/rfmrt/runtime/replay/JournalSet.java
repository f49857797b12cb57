package io.rfmrt.runtime.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
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
     * @param name       its path relative to the folder given ({@code journal/node-2}, or {@code .} for the folder
     *                   itself).
     * @param dir        the journal folder.
     * @param unreadable why the folder could not be listed ({@code permission denied}), or {@code null}: such a
     *                   folder is reported as a journal that cannot be read, and the others are still read.
     */
    public record Entry(String name, Path dir, String unreadable)
    {
        /**
         * @param name its path relative to the folder given.
         * @param dir  the journal folder.
         */
        public Entry(final String name, final Path dir)
        {
            this(name, dir, null);
        }
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
        try
        {
            Files.walkFileTree(dir, EnumSet.noneOf(FileVisitOption.class), MAX_DEPTH,
                new SimpleFileVisitor<>()
                {
                    @Override
                    public FileVisitResult preVisitDirectory(final Path folder, final BasicFileAttributes attrs)
                    {
                        if (holdsQueue(folder))
                        {
                            found.add(new Entry(name(dir, folder), folder));
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs)
                    {
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(final Path file, final IOException ex)
                    {
                        if (dir.equals(file))
                        {
                            throw new ReplayException("replay: cannot list " + dir + ": " + reason(ex), ex);
                        }
                        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS))
                        {
                            found.add(new Entry(name(dir, file), file, "cannot be listed: " + reason(ex)));
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(final Path folder, final IOException ex)
                    {
                        if (ex != null)
                        {
                            found.add(new Entry(name(dir, folder), folder, "cannot be listed: " + reason(ex)));
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
        }
        catch (final IOException | UncheckedIOException ex)
        {
            throw new ReplayException("replay: cannot list " + dir + ": " + ex.getMessage(), ex);
        }
        found.sort(Comparator.comparing(Entry::dir));
        if (found.isEmpty())
        {
            throw new ReplayException("replay: no journal under " + dir + " (no folder holds a .cq4 queue file)");
        }
        return found;
    }

    private static String name(final Path dir, final Path folder)
    {
        return dir.equals(folder) ? "." : dir.relativize(folder).toString();
    }

    private static String reason(final IOException ex)
    {
        return ex instanceof AccessDeniedException ? "permission denied" :
            ex instanceof FileSystemException fs && fs.getReason() != null ? fs.getReason() :
            String.valueOf(ex.getMessage());
    }

    private static boolean holdsQueue(final Path folder)
    {
        try (Stream<Path> files = Files.list(folder))
        {
            return files.anyMatch(file -> file.getFileName().toString().endsWith(".cq4") && Files.isRegularFile(file));
        }
        catch (final IOException | UncheckedIOException ex)
        {
            return false;
        }
    }
}
