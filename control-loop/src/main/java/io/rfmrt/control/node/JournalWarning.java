package io.rfmrt.control.node;

import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalStats;

import java.util.function.Consumer;

/**
 * The one warning a demo node gives when its journal starts losing records (write errors, a full disk, a full ring).
 */
final class JournalWarning
{
    private JournalWarning()
    {
    }

    /**
     * @param journal the node's journal.
     * @param warn    where the line goes.
     * @return whether it has lost records (and the line was given): call again only while this is false.
     */
    static boolean warnOnce(final Journal journal, final Consumer<String> warn)
    {
        final JournalStats stats = journal.stats();
        if (stats.writeErrors() == 0 && stats.droppedRingFull() == 0)
        {
            return false;
        }
        warn.accept("warning: journal " + journal.config().dir() + " is losing records (" + stats.writeErrors() +
            " write errors, " + stats.droppedRingFull() + " dropped on a full ring so far)" +
            (stats.lastError() == null ? "" : ": " + stats.lastError()));
        return true;
    }
}
