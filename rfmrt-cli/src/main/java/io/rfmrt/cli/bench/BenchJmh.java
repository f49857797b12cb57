package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code rfmrt bench jmh}: the JMH microbenchmarks of the hot path (module {@code rfmrt-jmh}: frame publish, drain and
 * validate, the consumer's frame step, the hand-off, the journal writer, the control law), run by JMH's own runner in
 * a JVM of its own (JMH forks more for the measurements) with the GC profiler, then one table: time per operation and
 * bytes allocated per operation ({@code gc.alloc.rate.norm}). The target is 0 B/op on every benchmark; JMH's own
 * bookkeeping shows as a few thousandths of a byte, so under 1 B/op counts as none. Exits 1 when a benchmark
 * allocates. The benchmarks are built in a source tree only (they are not part of a release).
 */
@Command(name = "jmh", mixinStandardHelpOptions = true,
    description = "JMH microbenchmarks of the hot path with the GC profiler: ns/op and B/op per benchmark.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE})
final class BenchJmh implements Callable<Integer>
{
    /** The module that holds the benchmarks, beside rfmrt-cli in the source tree. */
    static final String MODULE = "rfmrt-jmh";
    /** The package of the benchmarks, left off their names in the table. */
    static final String PACKAGE = "io.rfmrt.jmh.";
    /** Below this many bytes per operation a benchmark counts as allocation-free (JMH's noise is far below it). */
    static final double ALLOCATION_LIMIT_BYTES = 1.0;
    private static final String NORM = "gc.alloc.rate.norm";
    private static final String GC_COUNT = "gc.count";
    private static final int LOG_LINES_KEPT = 40;
    /** JMH's line before each fork: how far the run is and its estimate of the time left (days only when any). */
    private static final Pattern RUN_PROGRESS =
        Pattern.compile("# Run progress: [0-9.]+% complete, ETA (?:(\\d{1,6}) days?, )?(\\d{1,9}):(\\d{2}):(\\d{2})");

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "One fork, 2 x 0.5 s of warm-up and 3 x 0.5 s measured per benchmark " +
        "(about a minute); without it 2 forks of 5 x 1 s warm-up and 5 x 1 s measured (about four minutes).")
    boolean quick;

    @Option(names = "--include", paramLabel = "REGEX", defaultValue = ".*",
        description = "Only the benchmarks whose name (Class.method) this regular expression finds " +
            "(default: all).")
    String include;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception
    {
        try
        {
            Pattern.compile(include);
        }
        catch (final PatternSyntaxException ex)
        {
            throw new UsageException("--include '" + include + "' is not a regular expression: " +
                ex.getDescription());
        }
        final Path jar = benchmarksJar(codeSource());
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final Path results = Files.createTempFile("rfmrt-jmh-", ".json");
        try
        {
            final int exit = runJmh(command(jar, results), Progress.estimates(err, System::nanoTime), err);
            if (exit != 0)
            {
                return ExitCodes.ERROR;
            }
            final JsonNode parsed = new ObjectMapper().readTree(results.toFile());
            final List<Row> rows = rows(parsed);
            final List<Row> allocating = rows.stream().filter(r -> !(r.bytesPerOp < ALLOCATION_LIMIT_BYTES)).toList();
            if (json)
            {
                out.println(ChildResult.json(report(rows, allocating)));
            }
            else
            {
                print(out, parsed.get(0), rows, allocating);
            }
            return allocating.isEmpty() ? ExitCodes.OK : ExitCodes.ERROR;
        }
        finally
        {
            Files.deleteIfExists(results);
        }
    }

    /**
     * @param line a line of JMH's output.
     * @return the seconds left that a {@code # Run progress: 12.50% complete, ETA 00:01:40} line says (days too),
     * or -1 for any other line.
     */
    static long etaSeconds(final String line)
    {
        final Matcher m = RUN_PROGRESS.matcher(line);
        if (!m.matches())
        {
            return -1;
        }
        final long days = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
        return ((days * 24 + Long.parseLong(m.group(2))) * 60 + Long.parseLong(m.group(3))) * 60 +
            Long.parseLong(m.group(4));
    }

    /** One benchmark's result. */
    record Row(String name, double nsPerOp, double errorNs, double bytesPerOp, double gcCount)
    {
    }

    /**
     * @param jar     the benchmarks' jar (its dependencies in {@code lib/} beside it).
     * @param results where JMH writes its JSON results.
     * @return the command line of the JMH runner's JVM.
     */
    List<String> command(final Path jar, final Path results)
    {
        final Path lib = jar.resolveSibling("lib");
        final List<String> command = ChildJvm.javaAndFlags();
        command.add("-cp");
        command.add(jar + ":" + lib.resolve("*"));
        command.add("org.openjdk.jmh.Main");
        command.add(include);
        command.addAll(quick ?
            List.of("-f", "1", "-wi", "2", "-w", "500ms", "-i", "3", "-r", "500ms") :
            List.of("-f", "2", "-wi", "5", "-w", "1s", "-i", "5", "-r", "1s"));
        // a benchmark that fails (its state's checks included) ends the run instead of leaving a hole in the table
        command.addAll(List.of("-prof", "gc", "-foe", "true", "-rf", "json", "-rff", results.toString()));
        return command;
    }

    /**
     * Run JMH, showing which benchmark runs; its own output is kept only to explain a failure.
     *
     * @return JMH's exit code.
     */
    private int runJmh(final List<String> command, final Progress progress, final PrintWriter err)
        throws IOException, InterruptedException
    {
        final Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        // on Ctrl-C: JMH's forks first, then its runner, so that no measuring JVM is left behind
        final Thread stop = new Thread(() ->
        {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        }, "rfmrt-jmh-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        final Deque<String> last = new ArrayDeque<>();
        String running = "starting ...";
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = lines.readLine()) != null)
            {
                if (last.size() == LOG_LINES_KEPT)
                {
                    last.removeFirst();
                }
                last.addLast(line);
                if (line.startsWith("# Benchmark: "))
                {
                    running = String.format("running %s ...", shortName(line.substring("# Benchmark: ".length())));
                }
                final long eta = etaSeconds(line);
                if (eta >= 0)
                {
                    progress.estimate(running, eta);
                }
            }
        }
        final int exit = child.waitFor();
        Runtime.getRuntime().removeShutdownHook(stop);
        if (exit != 0 && last.stream().anyMatch(l -> l.startsWith("No matching benchmarks")))
        {
            throw new UsageException("--include '" + include + "' matches no benchmark");
        }
        if (exit != 0)
        {
            err.println("rfmrt: bench jmh: the JMH run failed (exit " + exit + "); its last lines:");
            last.forEach(l -> err.println("  " + l));
        }
        return exit;
    }

    /**
     * @param results JMH's JSON results: one object per benchmark.
     * @return the rows, in JMH's order.
     */
    static List<Row> rows(final JsonNode results)
    {
        final List<Row> rows = new ArrayList<>();
        for (final JsonNode r : results)
        {
            final JsonNode primary = r.path("primaryMetric");
            final JsonNode secondary = r.path("secondaryMetrics");
            if (!"ns/op".equals(primary.path("scoreUnit").asText()))
            {
                throw new IllegalStateException("benchmark " + r.path("benchmark").asText() + " reports " +
                    primary.path("scoreUnit").asText() + ", not ns/op");
            }
            if (!secondary.has(NORM))
            {
                throw new IllegalStateException("benchmark " + r.path("benchmark").asText() + " has no " + NORM +
                    " (the GC profiler did not run)");
            }
            rows.add(new Row(shortName(r.path("benchmark").asText()), primary.path("score").asDouble(),
                primary.path("scoreError").asDouble(Double.NaN), secondary.path(NORM).path("score").asDouble(),
                secondary.path(GC_COUNT).path("score").asDouble()));
        }
        return rows;
    }

    private static String shortName(final String benchmark)
    {
        return benchmark.startsWith(PACKAGE) ? benchmark.substring(PACKAGE.length()) : benchmark;
    }

    private static void print(final PrintWriter out, final JsonNode first, final List<Row> rows,
        final List<Row> allocating)
    {
        out.printf("%nJMH %s, %s: %s forks x %s x %s measured after %s x %s of warm-up, -prof gc%n",
            first.path("jmhVersion").asText(), first.path("vmVersion").asText(), first.path("forks").asText(),
            first.path("measurementIterations").asText(), first.path("measurementTime").asText().replace(" ", ""),
            first.path("warmupIterations").asText(), first.path("warmupTime").asText().replace(" ", ""));
        out.printf("%-40s %10s %10s %10s %8s%n", "benchmark", "ns/op", "error", "B/op", "gc-count");
        for (final Row r : rows)
        {
            out.printf("%-40s %10.1f %10.1f %10.3f %8.0f%n", r.name(), r.nsPerOp(), r.errorNs(), r.bytesPerOp(),
                r.gcCount());
        }
        out.println("error = half the 99.9 % confidence interval; B/op = gc.alloc.rate.norm; gc-count = " +
            "collections during the measurement");
        if (allocating.isEmpty())
        {
            out.printf("target 0 B/op (under %.0f B/op): met by all %d benchmarks%n", ALLOCATION_LIMIT_BYTES,
                rows.size());
        }
        else
        {
            out.printf("target 0 B/op (under %.0f B/op): missed by %d of %d: %s%n", ALLOCATION_LIMIT_BYTES,
                allocating.size(), rows.size(), String.join(", ", allocating.stream().map(Row::name).toList()));
        }
    }

    private static JmhReport report(final List<Row> rows, final List<Row> allocating)
    {
        final List<JmhFigures> results = new ArrayList<>();
        for (final Row r : rows)
        {
            results.add(new JmhFigures(r.name(), r.nsPerOp(), Double.isNaN(r.errorNs()) ? null : r.errorNs(),
                r.bytesPerOp(), r.gcCount()));
        }
        return new JmhReport("jmh", MachineInfo.describe(), ZonedDateTime.now().toString(), results,
            allocating.stream().map(Row::name).toList());
    }

    /**
     * What {@code bench jmh --json} prints.
     *
     * @param benchmark  "jmh".
     * @param machine    the machine it ran on.
     * @param date       when.
     * @param results    each benchmark's figures.
     * @param allocating the benchmarks that allocate.
     */
    record JmhReport(String benchmark, MachineInfo machine, String date, List<JmhFigures> results,
        List<String> allocating)
    {
    }

    /**
     * One benchmark's figures.
     *
     * @param name       the benchmark.
     * @param nsPerOp    ns per operation.
     * @param errorNs    its error, or null when JMH gave none.
     * @param bytesPerOp bytes allocated per operation.
     * @param gcCount    collections during the measurement.
     */
    record JmhFigures(String name, double nsPerOp, Double errorNs, double bytesPerOp, double gcCount)
    {
    }

    private static Path codeSource() throws URISyntaxException
    {
        return Path.of(BenchJmh.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * Find the benchmarks' jar in the source tree this command runs from: {@code rfmrt-jmh/target/rfmrt-jmh-*.jar}
     * beside the folder of rfmrt-cli's jar or classes.
     *
     * @param from where this command's classes are (rfmrt-cli's jar or classes folder).
     * @return the jar.
     * @throws UsageException naming where it looked, when there is none (a release, or a tree not built).
     */
    static Path benchmarksJar(final Path from) throws IOException
    {
        Path dir = from;
        for (int up = 0; up < 4 && dir != null; up++, dir = dir.getParent())
        {
            final Path target = dir.resolve(MODULE).resolve("target");
            if (Files.isDirectory(target))
            {
                try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, MODULE + "-*.jar"))
                {
                    for (final Path jar : jars)
                    {
                        if (Files.isDirectory(target.resolve("lib")))
                        {
                            return jar;
                        }
                    }
                }
                throw new UsageException("the JMH benchmarks are not built (no " + MODULE + "-*.jar and lib/ in " +
                    target + "): build the source tree (./rfmrt builds it, or mvn package)");
            }
        }
        throw new UsageException("the JMH benchmarks are built and run in a source tree only (no " + MODULE +
            "/target above " + from + "): run ./rfmrt bench jmh in a checkout");
    }
}
