package io.rfmrt.cli.bench;

import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine's wake-up floor, measured by {@code cyclictest} (Debian package rt-tests) in the same run as a
 * benchmark: one SCHED_FIFO 90 thread on a 1 ms period with locked memory; its latency histogram (1 µs buckets)
 * becomes a {@link Histogram} in nanoseconds.
 */
final class Cyclictest
{
    private static final Pattern BUCKET = Pattern.compile("^(\\d+)\\s+(\\d+)\\s*$");
    private static final Pattern MAX = Pattern.compile("^# Max Latencies:\\s+(\\d+)");
    private static final int HISTOGRAM_US = 10_000;
    /** The Debian package that holds cyclictest. */
    static final String PACKAGE = "rt-tests";
    static final List<Path> SEARCH_DIRS = List.of(Path.of("/usr/bin"), Path.of("/usr/sbin"), Path.of("/usr/local/bin"));

    private Cyclictest()
    {
    }

    /**
     * @return the cyclictest binary from the usual folders.
     * @throws IllegalStateException naming the package when it is not installed: nothing is installed at run time.
     */
    static String binary()
    {
        return binary(SEARCH_DIRS);
    }

    /**
     * @param dirs the folders to look in, in order.
     * @return the first executable {@code cyclictest} in them.
     * @throws IllegalStateException naming the package when there is none.
     */
    static String binary(final List<Path> dirs)
    {
        for (final Path dir : dirs)
        {
            final Path candidate = dir.resolve("cyclictest");
            if (Files.isExecutable(candidate))
            {
                return candidate.toString();
            }
        }
        throw new IllegalStateException("cyclictest not found in " + dirs + ": it is in Debian's package " +
            PACKAGE + " (as root: apt-get install " + PACKAGE + ")");
    }

    /**
     * Start cyclictest for a duration; read its result with {@link #result}.
     *
     * @param seconds how long.
     * @return the running process.
     */
    static Process start(final int seconds) throws IOException
    {
        return new ProcessBuilder(binary(), "-m", "-q", "-p", "90", "-t", "1", "-i", "1000", "-D", seconds + "s",
            "-h", Integer.toString(HISTOGRAM_US)).redirectErrorStream(true).start();
    }

    /**
     * @param process from {@link #start}.
     * @return the latency distribution in nanoseconds.
     */
    static Histogram result(final Process process) throws IOException, InterruptedException
    {
        final Histogram histogram = new Histogram(1, 10_000_000_000L, 3);
        long max = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = out.readLine()) != null)
            {
                final Matcher bucket = BUCKET.matcher(line);
                final Matcher maxLine = MAX.matcher(line);
                if (bucket.matches())
                {
                    final long count = Long.parseLong(bucket.group(2));
                    if (count > 0)
                    {
                        histogram.recordValueWithCount(Math.max(1, Long.parseLong(bucket.group(1)) * 1000), count);
                    }
                }
                else if (maxLine.find())
                {
                    max = Long.parseLong(maxLine.group(1)) * 1000;
                }
            }
        }
        if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0 || histogram.getTotalCount() == 0)
        {
            throw new IllegalStateException("cyclictest failed (exit " + (process.isAlive() ? "none" :
                process.exitValue()) + ")");
        }
        if (max > histogram.getMaxValue())
        {
            // samples beyond the histogram's last bucket: keep the true maximum
            histogram.recordValue(max);
        }
        return histogram;
    }
}
