package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalRecord;

/**
 * Told of the records of a replay's one pass over a set of journals, journal by journal in journal order, on the
 * replaying thread: every record that passes the {@link ReplayFilter}, by kind. Exports, plots, analyses of an
 * application's own records and controller re-runs all hang off this one pass; implement the kinds you need.
 * <p>
 * A record is a flyweight valid only during the call. {@code node} is the journal's generic analysis, already
 * updated with the record; its {@link NodeAnalysis#entry()} identifies the journal (one object per journal for the
 * whole pass, so listeners may key per-journal state on it).
 */
public interface ReplayListener
{
    /**
     * A journal was opened; its records follow. Not called for a journal that cannot be opened.
     *
     * @param node the journal.
     */
    default void journal(final NodeAnalysis node)
    {
    }

    /**
     * @param node   the journal.
     * @param record a FRAME record.
     */
    default void frame(final NodeAnalysis node, final JournalRecord record)
    {
    }

    /**
     * @param node   the journal.
     * @param record a FAULT record: {@link JournalRecord#code()} names it in the replay's {@link ReplayVocabulary}.
     */
    default void fault(final NodeAnalysis node, final JournalRecord record)
    {
    }

    /**
     * @param node   the journal.
     * @param record a STATE record: a transition {@link JournalRecord#from()} → {@link JournalRecord#to()}.
     */
    default void state(final NodeAnalysis node, final JournalRecord record)
    {
    }

    /**
     * @param node   the journal.
     * @param record a SAMPLE record: its {@link JournalRecord#sampleKind()} names its values in the vocabulary.
     */
    default void sample(final NodeAnalysis node, final JournalRecord record)
    {
    }

    /**
     * @param node   the journal.
     * @param record a COUNTERS record: a snapshot of cumulative counter values ({@link JournalCodes} lays them out).
     */
    default void counters(final NodeAnalysis node, final JournalRecord record)
    {
    }
}
