package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.JournalRecord;

/**
 * Told of every record that passes a replay's filter, in journal order, on the replaying thread (exports, plots,
 * controller re-runs hang off the one pass over the journals).
 */
@FunctionalInterface
public interface ReplayListener
{
    /**
     * A record that passed the filter. The record is a flyweight valid only during the call.
     *
     * @param node   the journal it comes from.
     * @param record the record.
     */
    void record(NodeAnalysis node, JournalRecord record);
}
