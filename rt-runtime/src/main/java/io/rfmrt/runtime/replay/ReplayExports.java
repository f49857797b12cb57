package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.JournalRecord;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Exports of a replay: frames as CSV; stage histograms as one {@code .hgrm} percentile file per stage, or as one
 * tagged HdrHistogram interval log ({@code .hlog}).
 */
public final class ReplayExports
{
    private static final double NS_PER_US = 1000.0;

    /**
     * The CSV header line. One row per frame kept, in journal order; stamps are the node's {@code System.nanoTime()}
     * values in ns, stages are differences of them in ns ({@code transfer = woke - send},
     * {@code isr = validated - woke}, {@code handoff = consumer_start - validated},
     * {@code handler = handler_end - consumer_start}, {@code e2e = handler_end - send}); {@code crc32c} in hex.
     */
    public static final String CSV_HEADER = "journal,node,source,seq,flags,crc32c,payload_length,send_ns,woke_ns," +
        "validated_ns,consumer_start_ns,handler_end_ns,transfer_ns,isr_ns,handoff_ns,handler_ns,e2e_ns";

    private ReplayExports()
    {
    }

    /**
     * A listener that writes one CSV row per frame; close it to flush.
     */
    public static final class Csv implements ReplayListener, AutoCloseable
    {
        private final Path file;
        private final BufferedWriter writer;
        private final StringBuilder row = new StringBuilder(256);
        private long rows;

        /**
         * @param file where to write; replaced.
         * @throws ReplayException naming the file when it cannot be created.
         */
        public Csv(final Path file)
        {
            this.file = file;
            try
            {
                final Path parent = file.toAbsolutePath().getParent();
                if (parent != null)
                {
                    Files.createDirectories(parent);
                }
                writer = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
                writer.write(CSV_HEADER);
                writer.write('\n');
            }
            catch (final IOException ex)
            {
                throw new ReplayException("cannot write CSV " + file + ": " + ex.getMessage(), ex);
            }
        }

        @Override
        public void frame(final NodeAnalysis node, final JournalRecord r)
        {
            final long send = r.sendNanos();
            final long woke = r.wokeNanos();
            final long validated = r.validatedNanos();
            final long start = r.consumerStartNanos();
            final long end = r.handlerEndNanos();
            final StringBuilder b = row;
            b.setLength(0);
            b.append(node.name()).append(',').append(r.nodeId()).append(',').append(r.source()).append(',')
                .append(r.seq()).append(',').append(r.flags()).append(',').append(Integer.toHexString(r.crc32c()))
                .append(',').append(r.payloadLength()).append(',').append(send).append(',').append(woke).append(',')
                .append(validated).append(',').append(start).append(',').append(end).append(',')
                .append(woke - send).append(',').append(validated - woke).append(',').append(start - validated)
                .append(',').append(end - start).append(',').append(end - send).append('\n');
            try
            {
                writer.append(b);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot write CSV " + file + ": " + ex.getMessage(), ex);
            }
            rows++;
        }

        /**
         * @return rows written, header not counted.
         */
        public long rows()
        {
            return rows;
        }

        @Override
        public void close()
        {
            try
            {
                writer.close();
            }
            catch (final IOException ex)
            {
                throw new ReplayException("cannot write CSV " + file + ": " + ex.getMessage(), ex);
            }
        }
    }

    /**
     * @param stage a stage.
     * @return the name of its file in a {@link #writeHgrm} folder: the stage's label and {@code .hgrm}.
     */
    public static String hgrmFileName(final Stage stage)
    {
        return stage.label() + ".hgrm";
    }

    /**
     * Write one HdrHistogram percentile distribution file per stage ({@link Histogram#outputPercentileDistribution},
     * values in µs, 5 ticks per half) over every journal and source kept: {@code e2e.hgrm}, {@code transfer.hgrm},
     * {@code isr.hgrm}, {@code handoff.hgrm}, {@code handler.hgrm} ({@link #hgrmFileName}), each as HdrHistogram's
     * own tools write and plot it.
     *
     * @param summary the replay.
     * @param dir     the folder; made when missing, files of the same names replaced.
     * @return the files written, in {@link ReplaySummary#STAGE_ORDER}.
     * @throws ReplayException naming the file when it cannot be written.
     */
    public static List<Path> writeHgrm(final ReplaySummary summary, final Path dir)
    {
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot make folder " + dir + ": " + ex.getMessage(), ex);
        }
        final List<Path> files = new ArrayList<>();
        for (final Stage stage : ReplaySummary.STAGE_ORDER)
        {
            final Path file = dir.resolve(hgrmFileName(stage));
            final Histogram histogram = summary.histogram(stage);
            write(file, out -> histogram.outputPercentileDistribution(out, 5, NS_PER_US));
            files.add(file);
        }
        return files;
    }

    /**
     * Write the stage histograms of every journal and source kept as one HdrHistogram interval log
     * ({@link HistogramLogWriter}): one interval per stage, tagged with the stage's label ({@code Tag=e2e}, ...),
     * in {@link ReplaySummary#STAGE_ORDER}, each spanning 0 to the longest journal's span in seconds; values in ns.
     * {@code HistogramLogReader} reads it back, and {@code HistogramLogProcessor -tag e2e -outputValueUnitRatio 1000}
     * prints one stage's distribution in µs.
     *
     * @param summary the replay.
     * @param file    where to write; replaced.
     * @throws ReplayException naming the file when it cannot be written.
     */
    public static void writeHlog(final ReplaySummary summary, final Path file)
    {
        final double spanSeconds = summary.nodes().stream().mapToDouble(NodeAnalysis::spanSeconds)
            .filter(Double::isFinite).max().orElse(0.0);
        write(file, out ->
        {
            final HistogramLogWriter log = new HistogramLogWriter(out);
            log.outputComment("rfmrt replay " + summary.dir() + ": one interval per stage, tagged with its name, " +
                "values in ns");
            log.outputLogFormatVersion();
            log.outputBaseTime(0);
            log.outputLegend();
            for (final Stage stage : ReplaySummary.STAGE_ORDER)
            {
                final Histogram histogram = summary.histogram(stage);
                histogram.setTag(stage.label());
                log.outputIntervalHistogram(0.0, Math.max(0.0, spanSeconds), histogram, NS_PER_US);
            }
        });
    }

    private interface Body
    {
        void write(PrintStream out) throws IOException;
    }

    private static void write(final Path file, final Body body)
    {
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.US_ASCII))
            {
                body.write(out);
                if (out.checkError())
                {
                    throw new IOException("write failed");
                }
            }
        }
        catch (final IOException ex)
        {
            throw new ReplayException("cannot write " + file + ": " + ex.getMessage(), ex);
        }
    }
}
