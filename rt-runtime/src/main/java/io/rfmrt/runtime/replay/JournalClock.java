package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.JournalHeader;
import io.rfmrt.runtime.journal.JournalReader;

import java.time.Instant;

/**
 * One reading of a node's two clocks, from the first journal header of its journal: maps the node's
 * {@code System.nanoTime()} stamps to wall-clock time and back (to the millisecond the header holds).
 *
 * @param epochMillis wall clock at the reading, ms since the Unix epoch.
 * @param nanos       {@code System.nanoTime()} at the same reading; also the journal start of a replay.
 */
public record JournalClock(long epochMillis, long nanos)
{
    /**
     * @param epochNanos ns since the Unix epoch.
     * @return the node's {@code System.nanoTime()} at that instant.
     */
    public long toNanos(final long epochNanos)
    {
        return nanos + (epochNanos - epochMillis * 1_000_000L);
    }

    /**
     * @param monotonicNanos a {@code System.nanoTime()} stamp of the node.
     * @return the instant.
     */
    public Instant toInstant(final long monotonicNanos)
    {
        final long epochNanos = epochMillis * 1_000_000L + (monotonicNanos - nanos);
        return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L),
            Math.floorMod(epochNanos, 1_000_000_000L));
    }

    /**
     * @param header a journal header.
     * @return its clock reading, or {@code null} when {@code header} is {@code null}.
     */
    public static JournalClock of(final JournalHeader header)
    {
        return header == null ? null : new JournalClock(header.epochMillis(), header.nanos());
    }

    /**
     * @param reader an open reader.
     * @return the clock of the first journal header it has read ({@link JournalReader#header()}), or {@code null}
     *         when it has read none.
     */
    public static JournalClock of(final JournalReader reader)
    {
        return of(reader.header());
    }
}
