package io.rfmrt.cli.bench;

import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;

/**
 * Latency histograms in nanoseconds: passing them between processes as one text line, and their percentiles in
 * microseconds.
 */
final class Histograms
{
    /** Highest value tracked: 10 s. */
    static final long HIGHEST_NS = 10_000_000_000L;

    private Histograms()
    {
    }

    /**
     * @return an empty histogram, 3 significant digits, 1 ns .. 10 s.
     */
    static Histogram create()
    {
        return new Histogram(1, HIGHEST_NS, 3);
    }

    /**
     * @param histogram values to record (clamped to the range).
     * @param nanos     the value.
     */
    static void record(final Histogram histogram, final long nanos)
    {
        histogram.recordValue(Math.max(1, Math.min(HIGHEST_NS, nanos)));
    }

    /**
     * @param histogram a histogram.
     * @return it as one base64 line.
     */
    static String encode(final Histogram histogram)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        final int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    /**
     * @param line from {@link #encode}.
     * @return the histogram.
     */
    static Histogram decode(final String line)
    {
        try
        {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(line.trim())),
                0);
        }
        catch (final DataFormatException ex)
        {
            throw new IllegalStateException("cannot decode a histogram from the peer process", ex);
        }
    }

    /**
     * A histogram's percentiles, as the bench results carry them (snake_case in JSON: {@code p50_us} ...).
     *
     * @param count  values recorded.
     * @param p50Us  median, µs.
     * @param p90Us  90th percentile, µs.
     * @param p99Us  99th percentile, µs.
     * @param p999Us 99.9th percentile, µs.
     * @param maxUs  largest, µs.
     */
    record Percentiles(long count, double p50Us, double p90Us, double p99Us, double p999Us, double maxUs)
    {
        /**
         * @param histogram nanoseconds.
         * @return its percentiles in microseconds.
         */
        static Percentiles of(final Histogram histogram)
        {
            return new Percentiles(histogram.getTotalCount(), micros(histogram.getValueAtPercentile(50)),
                micros(histogram.getValueAtPercentile(90)), micros(histogram.getValueAtPercentile(99)),
                micros(histogram.getValueAtPercentile(99.9)), micros(histogram.getMaxValue()));
        }
    }

    /**
     * @param nanos nanoseconds.
     * @return microseconds rounded to 0.1.
     */
    static double micros(final long nanos)
    {
        return Math.round(nanos / 100.0) / 10.0;
    }
}
