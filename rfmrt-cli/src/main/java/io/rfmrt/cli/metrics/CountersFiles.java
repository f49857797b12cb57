package io.rfmrt.cli.metrics;

import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.bridge.BridgeStatus;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.counters.CountersFileException;
import io.rfmrt.runtime.counters.CountersSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the counters of a host's nodes and bridges are, found as {@code rfmrt stat} finds them: every folder under the
 * root of networks ({@code --root}, {@code RFMRT_SIM_ROOT}, else /dev/shm/rfmrt), each node's counters file in it, and
 * the bridge of each emulated network that has one. Everything is read, never written: the running processes are not
 * touched.
 */
public final class CountersFiles
{
    private CountersFiles()
    {
    }

    /**
     * @param root the folder holding networks.
     * @return its folders (networks and card folders), sorted by name; none when the root does not exist.
     */
    public static List<Path> folders(final Path root)
    {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS))
        {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(root))
        {
            return dirs.filter(dir -> Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + root, ex);
        }
    }

    /**
     * @param root the folder holding networks.
     * @return the counters file of every node under it, by folder and node id.
     */
    public static List<Path> nodeFiles(final Path root)
    {
        final List<Path> files = new ArrayList<>();
        for (final Path dir : folders(root))
        {
            files.addAll(CountersSnapshot.files(dir));
        }
        return files;
    }

    /**
     * One reading of every node and bridge under the root of networks.
     *
     * @param nodes      every node's counters file that could be read.
     * @param bridges    every bridge, by network.
     * @param unreadable one line for each file that could not be read: its name and what is wrong.
     */
    public record Reading(List<CountersSnapshot> nodes, List<BridgeReading> bridges, List<String> unreadable)
    {
    }

    /**
     * A bridge as its bridge file shows it.
     *
     * @param network the network it bridges.
     * @param status  what its file holds.
     */
    public record BridgeReading(String network, BridgeStatus status)
    {
    }

    /**
     * Read every node's counters file and every network's bridge under the root.
     *
     * @param root the folder holding networks ({@link SimNetwork#root()} for the bridges).
     * @return the reading.
     */
    public static Reading read(final Path root)
    {
        final List<CountersSnapshot> nodes = new ArrayList<>();
        final List<BridgeReading> bridges = new ArrayList<>();
        final List<String> unreadable = new ArrayList<>();
        for (final Path dir : folders(root))
        {
            for (final Path file : CountersSnapshot.files(dir))
            {
                try
                {
                    nodes.add(CountersSnapshot.read(file));
                }
                catch (final CountersFileException ex)
                {
                    unreadable.add(ex.getMessage());
                }
            }
            bridge(dir, bridges, unreadable);
        }
        return new Reading(nodes, bridges, unreadable);
    }

    /**
     * Read the bridge of the network in a folder of the root of networks ({@link SimNetwork#root()}), if it has one.
     *
     * @param dir        a folder of the root: a network's, or a card's (which has no bridge).
     * @param bridges    where its bridge goes.
     * @param unreadable where one line goes when the network cannot be read.
     */
    public static void bridge(final Path dir, final List<BridgeReading> bridges, final List<String> unreadable)
    {
        final String network = dir.getFileName().toString();
        try
        {
            if (SimNetwork.exists(network))
            {
                try (SimNetwork net = SimNetwork.attach(network))
                {
                    final BridgeStatus status = BridgeStatus.of(net);
                    if (status != null)
                    {
                        bridges.add(new BridgeReading(network, status));
                    }
                }
            }
        }
        catch (final RfmException | IllegalArgumentException ex)
        {
            unreadable.add("network " + SimNetwork.quote(network) + ": " + ex.getMessage());
        }
    }
}
