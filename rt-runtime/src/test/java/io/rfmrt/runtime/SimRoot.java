package io.rfmrt.runtime;

import io.rfmrt.rfm.sim.SimNetwork;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A private folder of emulated networks for one test, under /dev/shm (or the folder the system property
 * {@code rfmrt.test.shm} names), removed afterwards.
 */
final class SimRoot
{
    private SimRoot()
    {
    }

    /**
     * @param prefix folder name prefix.
     * @return the new root, already set as the sim root of this JVM.
     */
    static Path use(final String prefix)
    {
        // a run that may leave networks behind (PIT kills test JVMs) names a folder of its own to remove afterwards
        final Path root = Path.of(System.getProperty("rfmrt.test.shm", "/dev/shm"), prefix + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
        return root;
    }

    /**
     * @param root a root from {@link #use}; removed with everything in it.
     */
    static void remove(final Path root) throws IOException
    {
        if (Files.exists(root))
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
