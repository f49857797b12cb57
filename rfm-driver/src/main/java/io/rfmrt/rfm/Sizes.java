package io.rfmrt.rfm;

import java.util.Locale;

/**
 * Parsing of the sizes and numbers users write in URIs, layouts and on the command line.
 */
public final class Sizes
{
    private Sizes()
    {
    }

    /**
     * @param text {@code 4096}, {@code 0x1000}, {@code 64K}, {@code 16M}, {@code 16MiB}, {@code 1G}.
     * @return bytes.
     * @throws IllegalArgumentException naming the value.
     */
    public static long parseSize(final String text)
    {
        final String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        String digits = t;
        long unit = 1;
        final String[][] suffixes = {{"KIB", "1024"}, {"MIB", "1048576"}, {"GIB", "1073741824"}, {"KB", "1024"},
            {"MB", "1048576"}, {"GB", "1073741824"}, {"K", "1024"}, {"M", "1048576"}, {"G", "1073741824"}};
        if (!t.startsWith("0X"))
        {
            for (final String[] suffix : suffixes)
            {
                if (t.endsWith(suffix[0]))
                {
                    digits = t.substring(0, t.length() - suffix[0].length()).trim();
                    unit = Long.parseLong(suffix[1]);
                    break;
                }
            }
        }
        try
        {
            final long value = parseNumber(digits);
            if (value < 0 || value > Long.MAX_VALUE / unit)
            {
                throw new NumberFormatException();
            }
            return value * unit;
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("size '" + text + "' is not a number of bytes (e.g. 4096, 64K, 16M)");
        }
    }

    /**
     * @param text decimal, or hexadecimal with {@code 0x}.
     * @return the value.
     * @throws NumberFormatException if neither.
     */
    public static long parseNumber(final String text)
    {
        final String t = text.trim();
        if (t.startsWith("0x") || t.startsWith("0X"))
        {
            return Long.parseUnsignedLong(t.substring(2).replace("_", ""), 16);
        }
        return Long.parseLong(t.replace("_", ""));
    }

    /**
     * @param text hexadecimal with or without {@code 0x}.
     * @return the value.
     * @throws IllegalArgumentException naming the value.
     */
    public static long parseHex(final String text)
    {
        final String t = text == null ? "" : text.trim();
        final String digits = t.startsWith("0x") || t.startsWith("0X") ? t.substring(2) : t;
        try
        {
            if (digits.isEmpty() || digits.length() > 16)
            {
                throw new NumberFormatException();
            }
            return Long.parseUnsignedLong(digits, 16);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a hexadecimal number");
        }
    }
}
