package io.rfmrt.rfm;

/**
 * Parsing of the sizes and numbers users write in URIs, layouts and on the command line.
 */
public final class Sizes
{
    private Sizes()
    {
    }

    /**
     * The size grammar of {@link Units#parseSize}.
     *
     * @param text {@code 4096}, {@code 0x1000}, {@code 64K}, {@code 16M}, {@code 16MiB}, {@code 1G}.
     * @return bytes.
     * @throws IllegalArgumentException naming the value.
     */
    public static long parseSize(final String text)
    {
        return Units.parseSize(text);
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
