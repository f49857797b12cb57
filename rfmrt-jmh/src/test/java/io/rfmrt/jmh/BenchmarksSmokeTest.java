package io.rfmrt.jmh;

import io.rfmrt.rfm.sim.SimNetwork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every benchmark of the module runs (in this JVM, no fork: 100 ms of warm-up and 100 ms measured each), its state's
 * own checks pass (every frame taken as valid, no journal record dropped: a failed check fails the run) and it
 * reports a time and the GC profiler's bytes per operation. The 0 B/op target is not held here: in a shared JVM the
 * profiler counts every thread's allocations, and what the test JVM's other threads allocate in 100 ms, divided by
 * the operations of a benchmark of a microsecond, is from a few hundredths to tens of bytes per operation, run to run.
 * {@code rfmrt bench jmh} holds it, in forked JVMs (exit 1 when a benchmark allocates); the hot-path classes' own
 * ZeroAllocation tests hold it per thread.
 */
class BenchmarksSmokeTest
{
    private static final String[] BENCHMARKS = {
        "ControlBenchmark.closedLoopCycle", "ControlBenchmark.lawUpdate", "FramePathBenchmark.drainValidate",
        "FramePathBenchmark.publish", "FramePathBenchmark.publishAndReceive", "FrameStepBenchmark.handle",
        "HandoffBenchmark.offerPoll", "JournalBenchmark.frame", "JournalBenchmark.sample"};

    private static Path root;
    private static String rootBefore;

    @BeforeAll
    static void freshRoot() throws IOException
    {
        final Path shm = Path.of("/dev/shm");
        root = Files.isDirectory(shm) ? Files.createTempDirectory(shm, "rfmrt-jmh-test-") :
            Files.createTempDirectory("rfmrt-jmh-test-");
        rootBefore = System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
    }

    @AfterAll
    static void removeRoot() throws IOException
    {
        if (rootBefore == null)
        {
            System.clearProperty(SimNetwork.ROOT_PROPERTY);
        }
        else
        {
            System.setProperty(SimNetwork.ROOT_PROPERTY, rootBefore);
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    void shouldRunEveryBenchmarkAndReportBytesPerOperation() throws RunnerException
    {
        final Options options = new OptionsBuilder()
            .include(BenchmarkNames.PACKAGE.replace(".", "\\.") + ".*")
            .forks(0)
            .warmupIterations(1)
            .warmupTime(TimeValue.milliseconds(100))
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(100))
            .addProfiler(GCProfiler.class)
            .shouldFailOnError(true)
            .verbosity(VerboseMode.SILENT)
            .build();
        final Collection<RunResult> results = new Runner(options).run();

        final Map<String, RunResult> byName = new TreeMap<>();
        results.forEach(r -> byName.put(r.getParams().getBenchmark().substring(BenchmarkNames.PACKAGE.length()), r));
        assertThat(byName.keySet()).containsExactlyInAnyOrder(BENCHMARKS);
        byName.forEach((name, r) ->
        {
            assertThat(r.getPrimaryResult().getScoreUnit()).as(name).isEqualTo("ns/op");
            assertThat(r.getPrimaryResult().getScore()).as(name).isPositive();
            final Result<?> norm = r.getSecondaryResults().get("gc.alloc.rate.norm");
            assertThat(norm).as(name + ": gc.alloc.rate.norm").isNotNull();
            assertThat(norm.getScoreUnit()).as(name).isEqualTo("B/op");
            assertThat(norm.getScore()).as(name).isGreaterThanOrEqualTo(0.0);
        });
    }
}
