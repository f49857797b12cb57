package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.JournalException;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass over every journal under a folder: each record that passes the {@link ReplayFilter} is counted in its
 * journal's {@link NodeAnalysis}, matched across journals by (source, seq) when there are several, and handed to
 * the {@link ReplayListener}s by kind (exports, plots, an application's analyses, controller re-runs). What fault
 * codes, state ids and sample kinds mean comes from a {@link ReplayVocabulary} the caller registers them in.
 * <pre>{@code
 * final ReplayVocabulary vocabulary = ReplayVocabulary.runtime();   // plus the application's codes
 * final ReplaySummary summary = Replay.run(Path.of("rfmrt-demo"), ReplayFilter.ALL, vocabulary, List.of(listener));
 * summary.nodes().forEach(node -> System.out.println(node.name() + ": " + node.recordsKept() + " records"));
 * }</pre>
 * A journal that cannot be opened, or whose reading stops on a record the reader does not understand (a newer
 * layout version, a damaged file), is reported in {@link NodeAnalysis#problem()} and the others are still read:
 * what was read before the problem counts.
 *
 * <p>Threading: the calling thread does all the work.
 */
public final class Replay
{
    /** Worst frames kept per journal and in the summary. */
    public static final int WORST_FRAMES = 10;

    private Replay()
    {
    }

    /**
     * A replay with the runtime's vocabulary only ({@link ReplayVocabulary#runtime()}).
     *
     * @param dir       a journal folder, or a folder with journals below it.
     * @param filter    what to keep.
     * @param listeners told of every record kept.
     * @return the summary.
     * @throws ReplayException when there is no journal under {@code dir}, or a time bound cannot be resolved.
     */
    public static ReplaySummary run(final Path dir, final ReplayFilter filter, final List<ReplayListener> listeners)
    {
        return run(dir, filter, ReplayVocabulary.runtime(), listeners);
    }

    /**
     * @param dir        a journal folder, or a folder with journals below it.
     * @param filter     what to keep.
     * @param vocabulary what the codes in the records mean.
     * @param listeners  told of every record kept.
     * @return the summary.
     * @throws ReplayException when there is no journal under {@code dir}, or a time bound cannot be resolved.
     */
    public static ReplaySummary run(final Path dir, final ReplayFilter filter, final ReplayVocabulary vocabulary,
        final List<ReplayListener> listeners)
    {
        return run(dir, JournalSet.locate(dir), filter, vocabulary, listeners);
    }

    /**
     * @param dir        the folder the journals were found under (for the report).
     * @param entries    the journals.
     * @param filter     what to keep.
     * @param vocabulary what the codes in the records mean.
     * @param listeners  told of every record kept.
     * @return the summary.
     * @throws ReplayException when a time bound cannot be resolved.
     */
    public static ReplaySummary run(final Path dir, final List<JournalSet.Entry> entries, final ReplayFilter filter,
        final ReplayVocabulary vocabulary, final List<ReplayListener> listeners)
    {
        final List<NodeAnalysis> nodes = new ArrayList<>(entries.size());
        final List<String> names = new ArrayList<>();
        entries.forEach(entry -> names.add(entry.name()));
        final FrameMatcher matcher = entries.size() > 1 ? new FrameMatcher(names) : null;
        final ReplayListener[] all = listeners.toArray(new ReplayListener[0]);
        final JournalRecord record = new JournalRecord();
        for (int i = 0; i < entries.size(); i++)
        {
            final JournalSet.Entry entry = entries.get(i);
            final JournalReader reader;
            try
            {
                reader = open(entry);
            }
            catch (final ReplayException ex)
            {
                final NodeAnalysis failed = new NodeAnalysis(entry, ReplayFilter.ALL, null, WORST_FRAMES);
                failed.problem(ex.getMessage());
                nodes.add(failed);
                continue;
            }
            final NodeAnalysis node;
            try
            {
                node = new NodeAnalysis(entry, filter, reader.header(), WORST_FRAMES);
            }
            catch (final ReplayException ex)
            {
                reader.close();
                throw ex;
            }
            node.markOpened();
            nodes.add(node);
            opened(node, all);
            try (reader)
            {
                read(reader, record, node, i, matcher, all);
            }
        }
        return new ReplaySummary(dir, filter, vocabulary, nodes, matcher);
    }

    /**
     * @param entry a journal.
     * @return its reader.
     * @throws ReplayException with one line when it cannot be opened.
     */
    static JournalReader open(final JournalSet.Entry entry)
    {
        return open(entry, false);
    }

    /**
     * @param entry a journal.
     * @param live  whether it may still be written.
     * @return its reader.
     * @throws ReplayException with one line when it cannot be opened.
     */
    static JournalReader open(final JournalSet.Entry entry, final boolean live)
    {
        if (entry.unreadable() != null)
        {
            throw new ReplayException("journal dir " + entry.dir() + ": " + entry.unreadable());
        }
        try
        {
            return JournalReader.open(entry.dir(), live);
        }
        catch (final JournalException ex)
        {
            throw new ReplayException(ex.getMessage(), ex);
        }
        catch (final Exception | Error ex)
        {
            // Chronicle throws some checked exceptions (StreamCorruptedException) without declaring them
            throw new ReplayException("cannot open journal dir " + entry.dir() + ": " + oneLine(ex), ex);
        }
    }

    /**
     * Read what the journal holds now, into {@code node}; note a problem there when reading stops early.
     *
     * @return records read.
     */
    static long read(final JournalReader reader, final JournalRecord record, final NodeAnalysis node,
        final int index, final FrameMatcher matcher, final ReplayListener[] listeners)
    {
        long read = 0;
        try
        {
            while (reader.next(record))
            {
                read++;
                if (node.accept(record))
                {
                    if (matcher != null && record.kind() == RecordKind.FRAME)
                    {
                        matcher.frame(index, record.source(), record.seq(), record.handlerEndNanos());
                    }
                    dispatch(listeners, node, record);
                }
            }
        }
        catch (final JournalException ex)
        {
            node.problem("stopped after " + node.recordsRead() + " records: " + ex.getMessage());
        }
        catch (final ReplayException | UncheckedIOException ex)
        {
            throw ex;
        }
        catch (final Exception | InternalError ex)
        {
            node.problem("journal dir " + node.entry().dir() + ": stopped after " + node.recordsRead() +
                " records: damaged record (" + oneLine(ex) + ")");
        }
        node.damage(reader.damage(), reader.damageCount());
        if (node.recordsRead() == 0 && reader.damageCount() > 0 && node.problem() == null)
        {
            node.problem("journal dir " + node.entry().dir() + ": no readable record (" + reader.damageCount() +
                " damaged region" + (reader.damageCount() == 1 ? "" : "s") + "; first: " + reader.damage().get(0) +
                ")");
        }
        return read;
    }

    static void opened(final NodeAnalysis node, final ReplayListener[] listeners)
    {
        for (final ReplayListener listener : listeners)
        {
            listener.journal(node);
        }
    }

    /**
     * Hand a kept record to every listener, by kind.
     */
    static void dispatch(final ReplayListener[] listeners, final NodeAnalysis node, final JournalRecord record)
    {
        switch (record.kind())
        {
            case FRAME ->
            {
                for (final ReplayListener listener : listeners)
                {
                    listener.frame(node, record);
                }
            }
            case FAULT ->
            {
                for (final ReplayListener listener : listeners)
                {
                    listener.fault(node, record);
                }
            }
            case STATE ->
            {
                for (final ReplayListener listener : listeners)
                {
                    listener.state(node, record);
                }
            }
            case SAMPLE ->
            {
                for (final ReplayListener listener : listeners)
                {
                    listener.sample(node, record);
                }
            }
            case COUNTERS ->
            {
                for (final ReplayListener listener : listeners)
                {
                    listener.counters(node, record);
                }
            }
            default ->
            {
                // NodeAnalysis keeps no other kind
            }
        }
    }

    static String oneLine(final Throwable ex)
    {
        final String message = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        final int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
