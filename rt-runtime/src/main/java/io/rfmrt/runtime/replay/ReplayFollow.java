package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Tails journals that are still being written: reads what is there, sleeps {@value #POLL_MS} ms when every journal
 * is at its end, reads on; tells a {@link Progress} once per second (frames and e2e latency of that second, the
 * analyses so far) until told to stop, and returns the summary of everything read.
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
     * What a tail reports as it goes (a terminal line per second, say).
     */
    public interface Progress
    {
        /**
         * A journal could not be opened; the others are tailed.
         *
         * @param message one line.
         */
        void unreadable(String message);

        /**
         * One second went by.
         *
         * @param seconds since the tail started.
         * @param frames  FRAME records kept in that second.
         * @param e2e     their end-to-end latency, ns; reset after the call.
         * @param nodes   the analyses so far, one per journal tailed.
         */
        void second(double seconds, long frames, Histogram e2e, List<NodeAnalysis> nodes);
    }

    /**
     * @param dir        folder with journals.
     * @param filter     what to keep.
     * @param vocabulary what the codes in the records mean.
     * @param listeners  told of every record kept.
     * @param progress   told of unreadable journals and of every second.
     * @param stop       true when it should stop (checked every poll).
     * @return the summary of what was read.
     * @throws ReplayException when no journal is under {@code dir} or none can be opened.
     */
    public static ReplaySummary follow(final Path dir, final ReplayFilter filter, final ReplayVocabulary vocabulary,
        final List<ReplayListener> listeners, final Progress progress, final BooleanSupplier stop)
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
                    progress.unreadable(ex.getMessage());
                    continue;
                }
                final NodeAnalysis node = new NodeAnalysis(entry, filter, readers.get(readers.size() - 1).header(),
                    Replay.WORST_FRAMES);
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
            all.add(new ReplayListener()
            {
                @Override
                public void frame(final NodeAnalysis node, final JournalRecord record)
                {
                    frames[0]++;
                    interval.recordValue(Math.max(0, Math.min(SourceStats.HIGHEST_TRACKABLE_NS,
                        record.handlerEndNanos() - record.sendNanos())));
                }
            });
            final ReplayListener[] array = all.toArray(new ReplayListener[0]);
            nodes.forEach(node -> Replay.opened(node, array));
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
                    progress.second((now - begin) / 1e9, frames[0], interval, List.copyOf(nodes));
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
            return new ReplaySummary(dir, filter, vocabulary, nodes, matcher);
        }
        finally
        {
            readers.forEach(JournalReader::close);
        }
    }
}
