package io.rfmrt.rfm;

import org.agrona.SystemUtil;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The one grammar for durations and byte sizes that users write (URIs, layouts, the command line, replay bounds):
 * Agrona's {@link SystemUtil#parseDuration} and {@link SystemUtil#parseSize}, plus the forms rfmrt's docs promise on
 * top of them.
 * <p>
 * Sizes: what Agrona reads ({@code 4096}, {@code 64k}, {@code 16M}, {@code 1g}), and also {@code KB/MB/GB},
 * {@code KiB/MiB/GiB} (all binary), {@code 0x1000}, {@code _} between digits and white space before the unit.
 * <p>
 * Durations: what Agrona reads ({@code 250ms}, {@code 5s}, {@code 100us}, {@code 7ns}), and also a decimal fraction
 * ({@code 1.5s}), minutes and hours ({@code 2m}, {@code 1h}), {@code µs}, and a bare number in a unit the caller
 * names (Agrona reads it as nanoseconds; rfmrt's options and bounds take seconds).
 * <p>
 * Messages name the value. Stateless and thread-safe; not for the hot path (it allocates).
 */
public final class Units
{
    private static final String[][] DURATION_UNITS = {{"ns", "1"}, {"us", "1000"}, {"µs", "1000"},
        {"ms", "1000000"}, {"s", "1000000000"}, {"m", "60000000000"}, {"h", "3600000000000"}};

    private Units()
    {
    }

    /**
     * @param text a byte size: {@code 4096}, {@code 0x1000}, {@code 64K}, {@code 16M}, {@code 16MiB}, {@code 1G}.
     * @return bytes, 0 or more.
     * @throws IllegalArgumentException naming the value when it is not a size.
     */
    public static long parseSize(final String text)
    {
        final String t = text == null ? "" : text.strip().replace("_", "").toUpperCase(Locale.ROOT);
        try
        {
            if (t.startsWith("0X"))
            {
                final long value = Long.parseUnsignedLong(t.substring(2), 16);
                if (value < 0)
                {
                    throw new NumberFormatException();
                }
                return value;
            }
            String agrona = t;
            for (final String suffix : new String[]{"IB", "B"})
            {
                if (agrona.length() > suffix.length() + 1 && agrona.endsWith(suffix) &&
                    "KMG".indexOf(agrona.charAt(agrona.length() - suffix.length() - 1)) >= 0)
                {
                    agrona = agrona.substring(0, agrona.length() - suffix.length());
                    break;
                }
            }
            final int last = agrona.length() - 1;
            if (last > 0 && "KMG".indexOf(agrona.charAt(last)) >= 0)
            {
                agrona = agrona.substring(0, last).strip() + agrona.charAt(last);
            }
            if (agrona.isEmpty() || !Character.isDigit(agrona.charAt(0)))
            {
                throw new NumberFormatException();
            }
            return SystemUtil.parseSize("size", agrona);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("size '" + text + "' is not a number of bytes (e.g. 4096, 64K, 16M)");
        }
    }

    /**
     * @param text     a duration: {@code 250ms}, {@code 1.5s}, {@code 2m}, {@code 100us}, or a bare number in
     *                 {@code bareUnit}.
     * @param bareUnit the unit of a number without one.
     * @return nanoseconds, 0 or more, rounded to the nearest; {@link Long#MAX_VALUE} when longer than that.
     * @throws IllegalArgumentException naming the value: "duration 'x' is negative" for a negative one, else
     *                                  "'x' is not a duration (e.g. 500ms, 5s, 2m)".
     */
    public static long parseDuration(final String text, final TimeUnit bareUnit)
    {
        final String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.startsWith("-"))
        {
            try
            {
                parseDuration(t.substring(1), bareUnit);
            }
            catch (final IllegalArgumentException ex)
            {
                throw notADuration(text);
            }
            throw new IllegalArgumentException("duration '" + text + "' is negative");
        }
        String number = t;
        long unitNanos = bareUnit.toNanos(1);
        for (final String[] unit : DURATION_UNITS)
        {
            // ns, us and ms come before s and m, so the first suffix that matches is the unit
            if (t.endsWith(unit[0]))
            {
                number = t.substring(0, t.length() - unit[0].length()).strip();
                unitNanos = Long.parseLong(unit[1]);
                break;
            }
        }
        if (number.isEmpty() || !Character.isDigit(number.charAt(0)) && number.charAt(0) != '.')
        {
            throw notADuration(text);
        }
        if (isDigits(number) && (unitNanos == 1 || unitNanos == 1000 || unitNanos == 1_000_000 ||
            unitNanos == 1_000_000_000))
        {
            try
            {
                return SystemUtil.parseDuration("duration", number + agronaSuffix(unitNanos));
            }
            catch (final NumberFormatException ex)
            {
                // more than a long holds: fall through to the decimal reading, which saturates
            }
        }
        try
        {
            final double value = Double.parseDouble(number);
            if (Double.isNaN(value) || Double.isInfinite(value) || number.endsWith("d") || number.endsWith("f"))
            {
                throw notADuration(text);
            }
            // a finite number too large for nanoseconds saturates, so that callers can name it "too long"
            final double nanos = value * unitNanos;
            return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(nanos);
        }
        catch (final NumberFormatException ex)
        {
            throw notADuration(text);
        }
    }

    private static String agronaSuffix(final long unitNanos)
    {
        if (unitNanos == 1)
        {
            return "ns";
        }
        if (unitNanos == 1000)
        {
            return "us";
        }
        return unitNanos == 1_000_000 ? "ms" : "s";
    }

    private static boolean isDigits(final String text)
    {
        for (int i = 0; i < text.length(); i++)
        {
            if (!Character.isDigit(text.charAt(i)) || text.charAt(i) > '9')
            {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException notADuration(final String text)
    {
        return new IllegalArgumentException("'" + text + "' is not a duration (e.g. 500ms, 5s, 2m)");
    }
}
