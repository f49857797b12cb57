package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.Stage;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Tails journals that are still being written: reads what is there, sleeps {@value #POLL_MS} ms when every journal
 * is at its end, reads on; prints one line per second (frames, e2e percentiles of that second, gaps, faults,
 * misses, trips so far) until told to stop, and returns the summary of everything read.
 *
 * <p>Threading: the calling thread does the work; {@code stop} may be flipped by any thread (e.g. a SIGINT hook).
 */
public final class ReplayFollow
{
    /** Sleep between polls at the end of every journal, ms. */
    public static final int POLL_MS = 20;

    private ReplayFollow()
    {
    }

    /**
     * @param dir       folder with journals.
     * @param filter    what to keep.
     * @param listeners told of every record kept.
     * @param out       where the lines go.
     * @param stop      true when it should stop (checked every poll).
     * @return the summary of what was read.
     * @throws ReplayException when no journal is under {@code dir} or none can be opened.
     */
    public static ReplaySummary follow(final Path dir, final ReplayFilter filter, final List<ReplayListener> listeners,
        final PrintWriter out, final BooleanSupplier stop)
    {
        final List<JournalSet.Entry> entries = JournalSet.locate(dir);
        final List<JournalReader> readers = new ArrayList<>();
        final List<NodeAnalysis> nodes = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        try
        {
            for (final JournalSet.Entry entry : entries)
            {
                try
                {
                    readers.add(Replay.open(entry, true));
                }
                catch (final ReplayException ex)
                {
                    out.println(ex.getMessage());
                    continue;
                }
                final NodeAnalysis node = new NodeAnalysis(entry, filter,
                    JournalClock.of(readers.get(readers.size() - 1)), Replay.WORST_FRAMES);
                node.markOpened();
                nodes.add(node);
                names.add(entry.name());
            }
            if (nodes.isEmpty())
            {
                throw new ReplayException("replay: no journal under " + dir + " could be opened");
            }
            final FrameMatcher matcher = nodes.size() > 1 ? new FrameMatcher(names) : null;
            final Histogram interval = SourceStats.newHistogram();
            final long[] frames = {0};
            final List<ReplayListener> all = new ArrayList<>(listeners);
            all.add((node, record) ->
            {
                if (record.kind() == RecordKind.FRAME)
                {
                    frames[0]++;
                    interval.recordValue(Math.max(0, Math.min(SourceStats.HIGHEST_TRACKABLE_NS,
                        record.handlerEndNanos() - record.sendNanos())));
                }
            });
            final ReplayListener[] array = all.toArray(new ReplayListener[0]);
            final JournalRecord record = new JournalRecord();
            final long begin = System.nanoTime();
            long nextLine = begin + 1_000_000_000L;
            // at least one pass: what is there is read even when stop is true from the start
            do
            {
                long read = 0;
                for (int i = 0; i < readers.size(); i++)
                {
                    if (nodes.get(i).problem() == null)
                    {
                        read += Replay.read(readers.get(i), record, nodes.get(i), i, matcher, array);
                    }
                }
                final long now = System.nanoTime();
                if (now >= nextLine)
                {
                    line(out, (now - begin) / 1e9, frames[0], interval, nodes);
                    interval.reset();
                    frames[0] = 0;
                    nextLine += 1_000_000_000L;
                }
                if (read == 0)
                {
                    try
                    {
                        Thread.sleep(POLL_MS);
                    }
                    catch (final InterruptedException ex)
                    {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            while (!stop.getAsBoolean());
            return new ReplaySummary(dir, filter, nodes, matcher);
        }
        finally
        {
            readers.forEach(JournalReader::close);
        }
    }

    private static void line(final PrintWriter out, final double seconds, final long frames, final Histogram e2e,
        final List<NodeAnalysis> nodes)
    {
        long total = 0;
        long gaps = 0;
        long faults = 0;
        long misses = 0;
        long trips = 0;
        for (final NodeAnalysis node : nodes)
        {
            total += node.count(RecordKind.FRAME);
            gaps += node.sources().stream().mapToLong(SourceStats::missing).sum();
            faults += node.count(RecordKind.FAULT);
            misses += node.deadlineMisses();
            trips += node.trips();
        }
        out.println(String.format(Locale.ROOT, "%6.1f s  %,8d frames/s (%,d total)  %s p50 %.1f p99 %.1f max %.1f µs" +
            "  gaps %d  faults %d  misses %d  trips %d", seconds, frames, total, Stage.END_TO_END.label(),
            e2e.getValueAtPercentile(50) / 1e3, e2e.getValueAtPercentile(99) / 1e3, e2e.getMaxValue() / 1e3, gaps,
            faults, misses, trips));
        out.flush();
    }
}
