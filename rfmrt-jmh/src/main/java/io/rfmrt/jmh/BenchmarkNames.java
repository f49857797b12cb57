package io.rfmrt.jmh;

/**
 * Names shared by the benchmarks and what runs them.
 */
public final class BenchmarkNames
{
    /** The package of every benchmark, the prefix of its JMH name. */
    public static final String PACKAGE = "io.rfmrt.jmh.";

    private BenchmarkNames()
    {
    }
}
