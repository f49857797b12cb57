package io.rfmrt.cli.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Scratch folders the commands make and remove.
 */
public final class Folders
{
    private Folders()
    {
    }

    /**
     * Remove a folder and everything under it; nothing when it does not exist.
     *
     * @param dir the folder.
     * @throws IOException when it cannot be walked.
     */
    public static void deleteTree(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> files = Files.walk(dir))
        {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
