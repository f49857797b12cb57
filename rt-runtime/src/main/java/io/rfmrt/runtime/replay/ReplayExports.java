package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.JournalRecord;
import org.HdrHistogram.Histogram;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Exports of a replay: frames as CSV, stage histograms as {@code .hgrm} text.
 */
public final class ReplayExports
{
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
     * Write the stage histograms of every journal and source kept as HdrHistogram percentile distributions
     * ({@link Histogram#outputPercentileDistribution}, values in µs, 5 ticks per half): one section per stage, e2e
     * first, each preceded by a {@code # stage NAME} comment line.
     *
     * @param summary the replay.
     * @param file    where to write; replaced.
     * @throws ReplayException naming the file when it cannot be written.
     */
    public static void writeHgrm(final ReplaySummary summary, final Path file)
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
                for (final Stage stage : ReplaySummary.STAGE_ORDER)
                {
                    final Histogram h = summary.histogram(stage);
                    out.println("# stage " + stage.label() + ": " + h.getTotalCount() + " frames, values in " +
                        "microseconds");
                    h.outputPercentileDistribution(out, 5, 1000.0);
                    out.println();
                }
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
