package io.rfmrt.runtime.preflight;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads kernel files under a root folder ({@code /} on a live machine, a fixture tree in tests). Never throws for a
 * missing or unreadable file: it returns empty and {@link #why(String)} says what went wrong. Paths are given as the
 * live machine names them ({@code /proc/swaps}).
 */
final class SysRoot
{
    private static final int READ_SIZE = 64 * 1024;

    private final Path root;

    SysRoot(final Path root)
    {
        this.root = root;
    }

    Path resolve(final String path)
    {
        return root.resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    boolean exists(final String path)
    {
        return Files.exists(resolve(path));
    }

    boolean isDirectory(final String path)
    {
        return Files.isDirectory(resolve(path));
    }

    /**
     * @param path a file.
     * @return its whole text; empty when missing or unreadable.
     */
    Optional<String> read(final String path)
    {
        try (InputStream in = Files.newInputStream(resolve(path)))
        {
            // One large read, not Files.readAllBytes: kernel files report size 0, and sysctl files answer a read
            // that does not start at offset 0 with end of file, so a 1-byte first read would lose the rest.
            final ByteArrayOutputStream text = new ByteArrayOutputStream(READ_SIZE);
            final byte[] buffer = new byte[READ_SIZE];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer))
            {
                text.write(buffer, 0, n);
            }
            return Optional.of(text.toString(StandardCharsets.UTF_8));
        }
        catch (final IOException | SecurityException ex)
        {
            return Optional.empty();
        }
    }

    /**
     * @param path a file.
     * @return its first line without the line end; empty when missing or unreadable.
     */
    Optional<String> firstLine(final String path)
    {
        return read(path).map(text ->
        {
            final int nl = text.indexOf('\n');
            return nl < 0 ? text : text.substring(0, nl);
        });
    }

    /**
     * @param path a file that {@link #read(String)} could not read.
     * @return "missing" or "unreadable", with the path.
     */
    String why(final String path)
    {
        final Path file = resolve(path);
        if (!Files.exists(file))
        {
            return path + " missing";
        }
        if (Files.isDirectory(file))
        {
            return path + " is a folder";
        }
        return path + " unreadable";
    }

    /**
     * @param path a folder.
     * @return the names in it, sorted; empty when it is missing or unreadable.
     */
    List<String> list(final String path)
    {
        final List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(resolve(path)))
        {
            for (final Path entry : dir)
            {
                names.add(entry.getFileName().toString());
            }
        }
        catch (final NoSuchFileException ex)
        {
            return List.of();
        }
        catch (final IOException | SecurityException ex)
        {
            // a partial listing (a process that went away mid-listing) is still useful
        }
        names.sort(null);
        return names;
    }

    /**
     * @param path   a folder.
     * @param prefix what the names start with ({@code "cpu"}, or {@code ""}).
     * @return the numbers of the names that are the prefix and then only digits, in numeric order (pids, IRQ and cpu
     * numbers).
     */
    List<Integer> listNumbers(final String path, final String prefix)
    {
        final List<Integer> numbers = new ArrayList<>();
        for (final String name : list(path))
        {
            if (name.length() > prefix.length() && name.startsWith(prefix) && isDigits(name, prefix.length()))
            {
                try
                {
                    numbers.add(Integer.parseInt(name.substring(prefix.length())));
                }
                catch (final NumberFormatException ex)
                {
                    // more digits than an int holds: not a kernel object number
                }
            }
        }
        numbers.sort(null);
        return numbers;
    }

    private static boolean isDigits(final String name, final int from)
    {
        for (int i = from; i < name.length(); i++)
        {
            final char c = name.charAt(i);
            if (c < '0' || c > '9')
            {
                return false;
            }
        }
        return true;
    }
}
