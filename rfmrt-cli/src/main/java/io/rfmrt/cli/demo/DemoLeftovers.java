package io.rfmrt.cli.demo;

import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.sim.SimNetwork;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What earlier demos left behind: the networks of demos that are gone, and a previous run's files in the folder a
 * new run writes to.
 */
public final class DemoLeftovers
{
    /** A demo's network is named after the demo's pid. */
    private static final Pattern DEMO_NETWORK = Pattern.compile("demo-([0-9]{1,10})");

    /**
     * How much later than its network a process may seem to have started and still be the demo that made it: the
     * kernel gives a process's start in clock ticks after a boot time it states in whole seconds.
     */
    static final Duration START_CLOCK_SLACK = Duration.ofSeconds(2);

    private DemoLeftovers()
    {
    }

    /**
     * Remove the networks of demos that are gone: a {@code demo-PID} network in the networks' folder whose demo no
     * longer runs, that is, no process has that pid, or the one that has it started after the network was made (the
     * pid was reused). A network a live process still holds a node of is left (the sim's own rule, as
     * {@code rfm destroy} without {@code --force}); so is one that cannot be read.
     *
     * @param now the time now, for the age in the lines.
     * @return one line per network removed or left, naming it and why.
     */
    public static List<String> reclaimAbandoned(final Instant now)
    {
        final Path root = SimNetwork.root();
        final List<String> names = new ArrayList<>();
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS))
        {
            return List.of();
        }
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(root))
        {
            for (final Path folder : folders)
            {
                names.add(folder.getFileName().toString());
            }
        }
        catch (final IOException | DirectoryIteratorException ex)
        {
            return List.of();
        }
        final List<String> lines = new ArrayList<>();
        for (final String name : new TreeSet<>(names))
        {
            final Matcher m = DEMO_NETWORK.matcher(name);
            if (!m.matches() || Long.parseLong(m.group(1)) == ProcessHandle.current().pid() ||
                !SimNetwork.exists(name))
            {
                continue;
            }
            final long pid = Long.parseLong(m.group(1));
            try
            {
                final long created;
                try (SimNetwork net = SimNetwork.attach(name))
                {
                    created = net.createdMillis();
                }
                final String gone = ownerGone(pid, Instant.ofEpochMilli(created));
                if (gone != null)
                {
                    SimNetwork.destroy(name, false);
                    lines.add(String.format("removed network %s, made %d s ago by a demo that is gone (%s)", name,
                        Math.max(0, Duration.between(Instant.ofEpochMilli(created), now).toSeconds()),
                        gone));
                }
            }
            catch (final RfmException ex)
            {
                lines.add("left network " + name + ": " + ex.getMessage());
            }
        }
        return lines;
    }

    /**
     * @return why the demo of this pid is gone, or null when it may still run.
     */
    private static String ownerGone(final long pid, final Instant created)
    {
        final Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive())
        {
            return "no process " + pid;
        }
        final Optional<Instant> started = process.get().info().startInstant();
        if (started.isPresent() && started.get().isAfter(created.plus(START_CLOCK_SLACK)))
        {
            return "process " + pid + " started after the network was made: its pid was reused";
        }
        return null;
    }

    /**
     * A second run into the same folder starts clean: the files an earlier demo run wrote there (journal queue
     * files, summary.json, the two plots) are removed by name; anything else stays.
     *
     * @return whether there was anything to remove.
     */
    public static boolean removePreviousRun(final Path out) throws IOException
    {
        boolean any = false;
        for (final String node : List.of("plant", "controller"))
        {
            final Path dir = out.resolve("journal").resolve(node);
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
            {
                try (Stream<Path> files = Files.list(dir))
                {
                    for (final Path f : files.toList())
                    {
                        final String name = f.getFileName().toString();
                        if ((name.endsWith(".cq4") || name.endsWith(".cq4t")) &&
                            Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS))
                        {
                            Files.delete(f);
                            any = true;
                        }
                    }
                }
            }
        }
        for (final String name : List.of("summary.json", "plots/tracking.png", "plots/latency.png"))
        {
            any |= Files.deleteIfExists(out.resolve(name));
        }
        return any;
    }
}
