package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.Main;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.UsageException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code rfmrt bench jmh} without running JMH: where it finds the benchmarks, what it tells when they are not there,
 * the JMH command line it starts, and how it reads JMH's JSON results.
 */
class BenchJmhTest
{
    private Path tree;

    @BeforeEach
    void setUp() throws Exception
    {
        tree = Files.createTempDirectory("rfmrt-bench-jmh-test");
        Files.createDirectories(tree.resolve("rfmrt-cli/target/classes"));
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(tree);
    }

    @Test
    void shouldFindTheBenchmarksBesideTheCliModule() throws Exception
    {
        final Path target = Files.createDirectories(tree.resolve("rfmrt-jmh/target/lib"));
        final Path jar = Files.writeString(target.resolveSibling("rfmrt-jmh-1.0.jar"), "");

        assertThat(BenchJmh.benchmarksJar(tree.resolve("rfmrt-cli/target/classes"))).isEqualTo(jar);
        assertThat(BenchJmh.benchmarksJar(tree.resolve("rfmrt-cli/target/rfmrt-cli-1.0.jar"))).isEqualTo(jar);
    }

    @Test
    void shouldSayTheBenchmarksAreNotBuilt() throws Exception
    {
        final Path target = Files.createDirectories(tree.resolve("rfmrt-jmh/target"));
        Files.writeString(target.resolve("rfmrt-jmh-1.0.jar"), "");

        assertThatThrownBy(() -> BenchJmh.benchmarksJar(tree.resolve("rfmrt-cli/target/classes")))
            .isInstanceOf(UsageException.class)
            .hasMessage("the JMH benchmarks are not built (no rfmrt-jmh-*.jar and lib/ in " + target +
                "): build the source tree (./rfmrt builds it, or mvn package)");
    }

    @Test
    void shouldSayTheBenchmarksBelongToASourceTree() throws Exception
    {
        final Path release = Files.createDirectories(tree.resolve("opt/rfmrt/lib"));

        assertThatThrownBy(() -> BenchJmh.benchmarksJar(release.resolve("rfmrt-cli-1.0.jar")))
            .isInstanceOf(UsageException.class)
            .hasMessageStartingWith("the JMH benchmarks are built and run in a source tree only");
    }

    @Test
    void shouldRunJmhWithTheGcProfilerAndFailOnError()
    {
        final BenchJmh jmh = parse("--quick", "--include", "Handoff");
        final Path jar = tree.resolve("rfmrt-jmh/target/rfmrt-jmh-1.0.jar");

        final List<String> command = jmh.command(jar, tree.resolve("out.json"));

        final int main = command.indexOf("org.openjdk.jmh.Main");
        assertThat(command.get(command.indexOf("-cp") + 1)).isEqualTo(jar + ":" + jar.resolveSibling("lib") + "/*");
        assertThat(command.subList(main + 1, command.size())).containsExactly("Handoff",
            "-f", "1", "-wi", "2", "-w", "500ms", "-i", "3", "-r", "500ms",
            "-prof", "gc", "-foe", "true", "-rf", "json", "-rff", tree.resolve("out.json").toString());
        assertThat(parse().command(jar, tree.resolve("out.json"))).containsSequence("-f", "2", "-wi", "5", "-w", "1s",
            "-i", "5", "-r", "1s");
    }

    @Test
    void shouldReadTimeAndBytesPerOperationFromJmhResults() throws Exception
    {
        final String json = """
            [{"benchmark": "io.rfmrt.jmh.HandoffBenchmark.offerPoll", "mode": "avgt",
              "primaryMetric": {"score": 12.5, "scoreError": 0.25, "scoreUnit": "ns/op"},
              "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 0.001, "scoreUnit": "B/op"},
                                   "gc.count": {"score": 0.0, "scoreUnit": "counts"}}},
             {"benchmark": "other.Bench.run", "mode": "avgt",
              "primaryMetric": {"score": 900.0, "scoreError": "NaN", "scoreUnit": "ns/op"},
              "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 24.0, "scoreUnit": "B/op"},
                                   "gc.count": {"score": 2.0, "scoreUnit": "counts"}}}]
            """;

        final List<BenchJmh.Row> rows = BenchJmh.rows(new ObjectMapper().readTree(json));

        assertThat(rows).containsExactly(new BenchJmh.Row("HandoffBenchmark.offerPoll", 12.5, 0.25, 0.001, 0.0),
            new BenchJmh.Row("other.Bench.run", 900.0, Double.NaN, 24.0, 2.0));
    }

    @Test
    void shouldReadTheTimeLeftFromJmhsRunProgressLines()
    {
        assertThat(BenchJmh.etaSeconds("# Run progress: 0.00% complete, ETA 00:02:40")).isEqualTo(160);
        assertThat(BenchJmh.etaSeconds("# Run progress: 37.50% complete, ETA 12:00:05")).isEqualTo(43_205);
        assertThat(BenchJmh.etaSeconds("# Run progress: 1.04% complete, ETA 1 days, 01:00:00")).isEqualTo(90_000);
        assertThat(BenchJmh.etaSeconds("# Benchmark: io.rfmrt.jmh.WriterBench.frame")).isEqualTo(-1);
        assertThat(BenchJmh.etaSeconds("# Run progress: done")).isEqualTo(-1);
    }

    @Test
    void shouldRefuseResultsWithoutTheGcProfiler()
    {
        final String json = """
            [{"benchmark": "io.rfmrt.jmh.HandoffBenchmark.offerPoll",
              "primaryMetric": {"score": 12.5, "scoreError": 0.25, "scoreUnit": "ns/op"}, "secondaryMetrics": {}}]
            """;

        assertThatThrownBy(() -> BenchJmh.rows(new ObjectMapper().readTree(json)))
            .hasMessage("benchmark io.rfmrt.jmh.HandoffBenchmark.offerPoll has no gc.alloc.rate.norm " +
                "(the GC profiler did not run)");
    }

    @Test
    void shouldRefuseAnIncludeThatIsNoRegularExpression()
    {
        final StringWriter err = new StringWriter();

        final int exit = Main.run(new String[]{"bench", "jmh", "--include", "("}, new PrintWriter(new StringWriter()),
            new PrintWriter(err, true));

        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).isEqualTo("rfmrt: --include '(' is not a regular expression: Unclosed group\n");
    }

    private static BenchJmh parse(final String... args)
    {
        final BenchJmh jmh = new BenchJmh();
        new CommandLine(jmh).parseArgs(args);
        return jmh;
    }
}
