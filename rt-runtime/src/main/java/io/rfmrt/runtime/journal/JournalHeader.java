package io.rfmrt.runtime.journal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A journal header as {@link JournalReader} read it: the journal thread writes one first in every session, again
 * whenever a writer is added and at the start of every roll cycle.
 *
 * @param version     record layout version of the header (the reader refuses versions it does not know).
 * @param nodeId      the node whose journal it is.
 * @param journalNanos when the journal thread wrote the header, its {@code System.nanoTime()}.
 * @param epochMillis wall clock of the header's clock reading, ms since the Unix epoch.
 * @param nanos       {@code System.nanoTime()} of the same reading.
 * @param writers     the writers' names by writer id (a record's {@link JournalRecord#writerId()}); {@code null}
 *                    for an id the header has no entry for.
 * @param layout      the node's channels as {@code ChannelLayout} YAML (version 3), or {@code null}: a version 2
 *                    header, or a node that gave its journal no layout.
 */
public record JournalHeader(int version, int nodeId, long journalNanos, long epochMillis, long nanos,
    List<String> writers, String layout)
{
    /**
     * @param version      record layout version.
     * @param nodeId       the node.
     * @param journalNanos when it was written.
     * @param epochMillis  wall clock of the clock reading.
     * @param nanos        {@code System.nanoTime()} of the clock reading.
     * @param writers      writer names by id; copied (it may hold {@code null}).
     * @param layout       the node's channel layout YAML, or {@code null}.
     */
    public JournalHeader
    {
        writers = Collections.unmodifiableList(new ArrayList<>(writers));
    }

    /**
     * @return the wall-clock instant of the clock reading, to the millisecond.
     */
    public Instant wallClock()
    {
        return Instant.ofEpochMilli(epochMillis);
    }
}
