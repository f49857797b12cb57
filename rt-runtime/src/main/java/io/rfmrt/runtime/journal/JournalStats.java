package io.rfmrt.runtime.journal;

import java.util.Map;

/**
 * A snapshot of a {@link Journal}'s accounting, from {@link Journal#stats()}. Every record offered to a writer ends
 * in exactly one of {@code recordsWritten}, {@code droppedRingFull} or {@code writeErrors} once the journal has
 * drained it (after {@link Journal#close()}: all of them).
 *
 * @param recordsWritten   records written to Chronicle Queue (the internal journal header records not counted).
 * @param bytesWritten     bytes of those records, record headers included.
 * @param droppedRingFull  records that writers dropped because their ring was full (also: too big for the ring,
 *                         or offered after close); the sum of {@code droppedByWriter}.
 * @param droppedByWriter  the same, per writer name, in writer creation order; unmodifiable.
 * @param writeErrors      records the journal thread took from a ring but could not write: Chronicle failed, or
 *                         the disk was below the free-space floor. They are not retried.
 * @param lastError        the latest write failure in one line (with the folder), or {@code null} if none.
 * @param cpu              cpu the journal thread runs on alone, or -1 (not asked for, or not placed there).
 * @param affinityError    why pinning to the configured cpu failed, or {@code null}.
 */
public record JournalStats(
    long recordsWritten,
    long bytesWritten,
    long droppedRingFull,
    Map<String, Long> droppedByWriter,
    long writeErrors,
    String lastError,
    int cpu,
    String affinityError)
{
}
