package io.rfmrt.cli.node;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.Converters;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.cli.metrics.CounterMetrics;
import io.rfmrt.cli.metrics.CountersFiles;
import io.rfmrt.cli.rfm.RfmCommand;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.counters.CountersFileException;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.counters.NodeCounters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code rfmrt stat}: the counters and distinct errors of running nodes, read from their counters files by another
 * process, as Aeron's {@code AeronStat} reads a media driver's. A node's file that is missing or fails validation is
 * refused in one line.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
    description = "Show the counters and errors of running nodes, from their counters files.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
public final class StatCommand extends RfmCommand.RootCommand
{
    @Option(names = "--network", paramLabel = "NAME", converter = Converters.NetworkName.class,
        description = "Network (or card folder, e.g. rfm2g0) whose nodes to show (default: every one with counters).")
    String network;

    @Option(names = "--node", paramLabel = "N", converter = Converters.Node.class,
        description = "Show only this node; needs --network.")
    Integer node;

    @Option(names = "--watch", paramLabel = "DURATION", converter = Converters.Duration.class,
        description = "Read again at this interval until stopped, e.g. 1s.")
    Long watchNanos;

    @Option(names = "--json", description = "One JSON object per reading (--format json).")
    boolean json;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
        description = "text, json, openmetrics (OpenMetrics text, with the bridges of the networks shown) or " +
            "prometheus (the same in Prometheus' text format, as node_exporter's textfile collector reads it) " +
            "(default ${DEFAULT-VALUE}).")
    String format;

    @Override
    public Integer call() throws Exception
    {
        if (node != null && network == null)
        {
            throw new UsageException("--node needs --network");
        }
        if (watchNanos != null && (watchNanos <= 0 || watchNanos == RfmDevice.INFINITE_TIMEOUT))
        {
            throw new UsageException("--watch needs a finite interval above zero, e.g. 1s");
        }
        final Format chosen = format();
        final PrintWriter out = out();
        // on a terminal each reading replaces the last, as AeronStat's; on a pipe the readings follow each other
        final boolean redraw = watchNanos != null && chosen == Format.TEXT && System.console() != null;
        Map<String, Long> before = Map.of();
        long beforeNs = 0;
        while (true)
        {
            final List<CountersSnapshot> nodes = new ArrayList<>();
            final List<String> unreadable = new ArrayList<>();
            final List<Path> folders = read(nodes, unreadable);
            final long nowNs = System.nanoTime();
            switch (chosen)
            {
                case JSON -> out.print(json(nodes, unreadable) + "\n");
                case TEXT ->
                {
                    if (redraw)
                    {
                        out.print(CLEAR_SCREEN);
                        out.printf("rfmrt stat at %s, every %d ms; Ctrl-C stops%n",
                            Instant.ofEpochMilli(System.currentTimeMillis()), watchNanos / 1_000_000);
                    }
                    out.print(watchNanos == null ? text(nodes) : text(nodes, before, nowNs - beforeNs));
                    before = values(nodes);
                    beforeNs = nowNs;
                }
                default -> out.print(metrics(chosen, nodes, folders, unreadable));
            }
            out.flush();
            for (final String problem : unreadable)
            {
                spec.commandLine().getErr().println("rfmrt: " + problem);
            }
            spec.commandLine().getErr().flush();
            if (watchNanos == null)
            {
                return unreadable.isEmpty() ? ExitCodes.OK : ExitCodes.ERROR;
            }
            TimeUnit.NANOSECONDS.sleep(watchNanos);
            if (chosen == Format.TEXT && !redraw)
            {
                out.println();
            }
        }
    }

    /** What {@code --format} (or {@code --json}) asks for. */
    enum Format
    {
        TEXT, JSON, OPENMETRICS, PROMETHEUS
    }

    private Format format()
    {
        final Format chosen;
        try
        {
            chosen = Format.valueOf(format.toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException("--format " + SimNetwork.quote(format) + " is not text, json, openmetrics " +
                "or prometheus");
        }
        if (json && chosen != Format.TEXT && chosen != Format.JSON)
        {
            throw new UsageException("--json and --format " + format + " ask for two formats");
        }
        return json ? Format.JSON : chosen;
    }

    /**
     * @return the nodes' metrics, and those of the bridges of the folders read, as OpenMetrics or Prometheus text.
     */
    private static String metrics(final Format format, final List<CountersSnapshot> nodes, final List<Path> folders,
        final List<String> unreadable) throws IOException
    {
        final List<CountersFiles.BridgeReading> bridges = new ArrayList<>();
        for (final Path folder : folders)
        {
            CountersFiles.bridge(folder, bridges, unreadable);
        }
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        (format == Format.OPENMETRICS ? OpenMetricsTextFormatWriter.create() : PrometheusTextFormatWriter.create())
            .write(text, CounterMetrics.of(new CountersFiles.Reading(nodes, bridges, unreadable)),
                EscapingScheme.UNDERSCORE_ESCAPING);
        return text.toString(StandardCharsets.UTF_8);
    }

    /**
     * Read the counters files asked for: every readable one into {@code nodes}, one line for each other one (its
     * name and what is wrong) into {@code unreadable}. Only a single file asked for by {@code --node} that cannot be
     * read, or no file at all, is an error.
     *
     * @return the folders read.
     */
    private List<Path> read(final List<CountersSnapshot> nodes, final List<String> unreadable) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        final List<Path> folders = new ArrayList<>();
        if (node != null)
        {
            folders.add(SimNetwork.checkedDir(network, false));
            files.add(folders.get(0).resolve(NodeCounters.fileName(node)));
        }
        else if (network != null)
        {
            final Path dir = SimNetwork.checkedDir(network, false);
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
            {
                throw new CountersFileException("network '" + network + "' does not exist (no " + dir + ")");
            }
            files.addAll(CountersSnapshot.files(dir));
            folders.add(dir);
            if (files.isEmpty())
            {
                throw new CountersFileException("network '" + network + "' has no counters files in " + dir +
                    " (no node runs)");
            }
        }
        else
        {
            final Path root = SimNetwork.root();
            folders.addAll(CountersFiles.folders(root));
            files.addAll(CountersFiles.nodeFiles(root));
            if (files.isEmpty())
            {
                throw new CountersFileException("no counters files under " + root + " (no node runs)");
            }
        }
        if (node != null)
        {
            nodes.add(CountersSnapshot.read(files.get(0)));
            return folders;
        }
        for (final Path file : files)
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
        return folders;
    }

    /** ANSI: cursor home, then erase the screen (what AeronStat prints before each reading). */
    static final String CLEAR_SCREEN = "\u001b[H\u001b[2J";

    /**
     * @param nodes readings.
     * @return each counter's value by {@link #rateKey}.
     */
    static Map<String, Long> values(final List<CountersSnapshot> nodes)
    {
        final Map<String, Long> values = new HashMap<>();
        for (final CountersSnapshot s : nodes)
        {
            for (final CountersSnapshot.Counter c : s.counters())
            {
                values.put(rateKey(s, c), c.value());
            }
        }
        return values;
    }

    /** A counter of one node process: a node restarted under the same id starts its counters again. */
    private static String rateKey(final CountersSnapshot s, final CountersSnapshot.Counter c)
    {
        return s.file() + "#" + s.pid() + "#" + c.id();
    }

    /**
     * @param nodes     readings.
     * @param before    the values of the reading before, by {@link #rateKey} (empty for the first).
     * @param elapsedNs the time since that reading.
     * @return them as text with each counter's change per second since the reading before beside it ({@code -}
     *         for a counter that reading did not have).
     */
    static String text(final List<CountersSnapshot> nodes, final Map<String, Long> before, final long elapsedNs)
    {
        final StringBuilder text = new StringBuilder();
        for (final CountersSnapshot s : nodes)
        {
            header(text, s);
            int width = 1;
            for (final CountersSnapshot.Counter c : s.counters())
            {
                width = Math.max(width, Long.toString(c.value()).length());
            }
            for (final CountersSnapshot.Counter c : s.counters())
            {
                final Long was = before.get(rateKey(s, c));
                final String rate = was == null || elapsedNs <= 0 || c.value() < was ? "-" :
                    String.format("%.1f", (c.value() - was) * 1e9 / elapsedNs);
                text.append(String.format("  %3d: %" + width + "d %12s/s - %s%n", c.id(), c.value(), rate,
                    c.label()));
            }
            errors(text, s);
        }
        return text.toString();
    }

    private static void header(final StringBuilder text, final CountersSnapshot s)
    {
        text.append(String.format("node %d of %s: pid %d %s, %s, started %s, %d input channel(s)%n", s.node(),
            s.file().getParent().getFileName(), s.pid(), s.alive() ? "running" : "not running (left by a crash)",
            s.device().isEmpty() ? "-" : s.device(), Instant.ofEpochMilli(s.startMs()), s.channels()));
    }

    private static void errors(final StringBuilder text, final CountersSnapshot s)
    {
        text.append("  errors: ").append(s.errors().isEmpty() ? "none" : s.errors().size() + " distinct")
            .append(System.lineSeparator());
        for (final CountersSnapshot.DistinctError e : s.errors())
        {
            text.append(String.format("  %d observation(s), first %s, last %s:%n", e.count(),
                Instant.ofEpochMilli(e.firstMs()), Instant.ofEpochMilli(e.lastMs())));
            for (final String line : e.text().split("\\R"))
            {
                text.append("    ").append(line).append(System.lineSeparator());
            }
        }
    }

    /**
     * @param nodes readings.
     * @return them as text: a line per node, its counters by id, its distinct errors.
     */
    static String text(final List<CountersSnapshot> nodes)
    {
        final StringBuilder text = new StringBuilder();
        for (final CountersSnapshot s : nodes)
        {
            header(text, s);
            int width = 1;
            for (final CountersSnapshot.Counter c : s.counters())
            {
                width = Math.max(width, Long.toString(c.value()).length());
            }
            for (final CountersSnapshot.Counter c : s.counters())
            {
                text.append(String.format("  %3d: %" + width + "d - %s%n", c.id(), c.value(), c.label()));
            }
            errors(text, s);
        }
        return text.toString();
    }

    /**
     * @param nodes      readings.
     * @param unreadable one line for each counters file that could not be read.
     * @return them as one JSON object.
     */
    static String json(final List<CountersSnapshot> nodes, final List<String> unreadable)
    {
        final List<NodeReading> list = new ArrayList<>();
        for (final CountersSnapshot s : nodes)
        {
            list.add(NodeReading.of(s));
        }
        return ChildResult.json(new StatReading(System.currentTimeMillis(), list, unreadable));
    }

    /**
     * What {@code rfmrt stat --json} prints per reading.
     *
     * @param timeMs     when it was read, ms since the epoch.
     * @param nodes      each node's counters file.
     * @param unreadable one line for each counters file that could not be read.
     */
    record StatReading(long timeMs, List<NodeReading> nodes, List<String> unreadable)
    {
    }

    /**
     * One node's counters file, as {@code --json} shows it.
     *
     * @param network  the network (or card folder) the file lies in.
     * @param node     the node id.
     * @param pid      the node's process.
     * @param alive    whether that process is alive.
     * @param device   the node's device URI.
     * @param startMs  when the node made the file, ms since the epoch.
     * @param channels its input channels.
     * @param counters every counter but the placeholders, by id.
     * @param errors   its distinct errors, in the order they first happened.
     */
    record NodeReading(String network, int node, long pid, boolean alive, String device, long startMs, int channels,
        List<CounterValue> counters, List<CountersSnapshot.DistinctError> errors)
    {
        static NodeReading of(final CountersSnapshot s)
        {
            final List<CounterValue> counters = new ArrayList<>();
            for (final CountersSnapshot.Counter c : s.counters())
            {
                counters.add(new CounterValue(c.id(), c.typeId(), c.label(), c.value()));
            }
            return new NodeReading(s.file().getParent().getFileName().toString(), s.node(), s.pid(), s.alive(),
                s.device(), s.startMs(), s.channels(), counters, s.errors());
        }
    }

    /**
     * One counter, as {@code --json} shows it.
     *
     * @param id    its counter id.
     * @param type  its type id.
     * @param label its label.
     * @param value its value.
     */
    record CounterValue(int id, int type, String label, long value)
    {
    }
}
