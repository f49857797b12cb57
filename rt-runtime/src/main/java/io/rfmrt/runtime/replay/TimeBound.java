package io.rfmrt.runtime.replay;

import io.rfmrt.rfm.Units;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.concurrent.TimeUnit;

/**
 * A {@code --from}/{@code --to} bound: either a time relative to the start of a journal ({@code +2.5s},
 * {@code 2.5}, {@code 500ms}, {@code 1.5m}; a bare number is seconds, the {@code +} is optional, units
 * {@code ns us ms s m h}) or an ISO-8601 instant ({@code 2026-12-02T17:13:29.5Z},
 * {@code 2026-12-02T18:13:29+01:00}). The start of a journal is the monotonic time of its first journal header,
 * which also pairs it with the wall clock; an instant is mapped to the journal's {@code System.nanoTime()} through
 * that pairing.
 *
 * @param relative    whether {@link #nanos} is relative to the journal start.
 * @param nanos       relative: nanoseconds after the start; absolute: nanoseconds since the Unix epoch.
 * @param text        what the user wrote, for messages.
 */
public record TimeBound(boolean relative, long nanos, String text)
{
    /**
     * @param text a relative time or an ISO-8601 instant.
     * @return the bound.
     * @throws ReplayException naming the text when it is neither.
     */
    public static TimeBound parse(final String text)
    {
        final String t = text == null ? "" : text.trim();
        if (t.isEmpty())
        {
            throw new ReplayException("time bound is empty; give seconds from the journal start (+2.5s) or an " +
                "ISO-8601 instant (2026-12-02T17:13:29Z)");
        }
        if (t.length() > 10 && Character.isDigit(t.charAt(0)) && t.indexOf('T') > 0)
        {
            return new TimeBound(false, epochNanos(parseInstant(t, text)), text);
        }
        try
        {
            return new TimeBound(true, Units.parseDuration(t.startsWith("+") ? t.substring(1) : t, TimeUnit.SECONDS),
                text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ReplayException("time bound '" + text + "' is neither a time from the journal start (+2.5s, " +
                "500ms, 1.5m) nor an ISO-8601 instant (2026-12-02T17:13:29Z)");
        }
    }

    /**
     * @param startNanos journal start, {@code System.nanoTime()} of the journal's node.
     * @param clock      the journal's wall-clock pairing, or {@code null} when it has none.
     * @return the bound as a {@code System.nanoTime()} value of the journal's node.
     * @throws ReplayException for an instant when the journal has no clock pairing.
     */
    public long resolve(final long startNanos, final JournalClock clock)
    {
        if (relative)
        {
            return startNanos + nanos;
        }
        if (clock == null)
        {
            throw new ReplayException("time bound '" + text + "' is an instant, but the journal has no wall-clock " +
                "header; give seconds from the journal start instead (+2.5s)");
        }
        return clock.toNanos(nanos);
    }

    private static Instant parseInstant(final String t, final String text)
    {
        try
        {
            return Instant.parse(t);
        }
        catch (final DateTimeParseException ex)
        {
            try
            {
                return OffsetDateTime.parse(t).toInstant();
            }
            catch (final DateTimeParseException again)
            {
                throw new ReplayException("time bound '" + text + "' is not an ISO-8601 instant " +
                    "(2026-12-02T17:13:29Z or 2026-12-02T18:13:29+01:00)");
            }
        }
    }

    private static long epochNanos(final Instant instant)
    {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
