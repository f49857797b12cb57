package io.rfmrt.cli;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.Sizes;
import io.rfmrt.rfm.sim.SimNetwork;
import picocli.CommandLine;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Option value converters with messages that name the bad value.
 */
final class Converters
{
    private Converters()
    {
    }

    /**
     * Hexadecimal with or without 0x.
     */
    static final class Hex implements CommandLine.ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            try
            {
                return Sizes.parseHex(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    /**
     * Byte sizes: 4096, 64K, 16M.
     */
    static final class Size implements CommandLine.ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            try
            {
                return Sizes.parseSize(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    /**
     * A network name (not a path).
     */
    static final class NetworkName implements CommandLine.ITypeConverter<String>
    {
        @Override
        public String convert(final String value)
        {
            try
            {
                SimNetwork.checkName(value);
                return value;
            }
            catch (final RfmException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    /**
     * A node id 0..255.
     */
    static final class Node implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String value)
        {
            final long node;
            try
            {
                node = Sizes.parseNumber(value);
            }
            catch (final NumberFormatException ex)
            {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a node id (0-255)");
            }
            if (node < 0 || node > RfmDevice.MAX_NODE_ID)
            {
                throw new CommandLine.TypeConversionException("node " + node + " is outside 0-255");
            }
            return (int)node;
        }
    }

    /**
     * A destination: a node id or {@code all}.
     */
    static final class Destination implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String value)
        {
            return "all".equalsIgnoreCase(value.trim()) ? RfmDevice.ALL_NODES : new Node().convert(value);
        }
    }

    /**
     * An event type by name.
     */
    static final class Event implements CommandLine.ITypeConverter<EventType>
    {
        @Override
        public EventType convert(final String value)
        {
            try
            {
                return EventType.parse(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }

    /**
     * A duration in nanoseconds: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 100us}, {@code inf}; a bare number
     * is seconds.
     */
    static final class Duration implements CommandLine.ITypeConverter<Long>
    {
        private static final double MAX_NANOS = 100 * 365.25 * 86_400 * 1e9;

        @Override
        public Long convert(final String value)
        {
            final String v = value.trim().toLowerCase(Locale.ROOT);
            if (v.equals("inf") || v.equals("infinite") || v.equals("forever"))
            {
                return RfmDevice.INFINITE_TIMEOUT;
            }
            final String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"},
                {"m", "60000000000"}, {"h", "3600000000000"}};
            try
            {
                for (final String[] unit : units)
                {
                    // ns, us and ms are tried before s and m, so the first suffix that matches is the unit
                    if (v.endsWith(unit[0]))
                    {
                        final double amount = Double.parseDouble(v.substring(0, v.length() - unit[0].length()));
                        return check(value, amount * Long.parseLong(unit[1]));
                    }
                }
                return check(value, (double)TimeUnit.SECONDS.toNanos(1) * Long.parseLong(v));
            }
            catch (final NumberFormatException ex)
            {
                throw new CommandLine.TypeConversionException("'" + value +
                    "' is not a duration (e.g. 500ms, 5s, 2m, inf)");
            }
        }

        private static long check(final String value, final double nanos)
        {
            if (Double.isNaN(nanos))
            {
                throw new NumberFormatException(value);
            }
            if (nanos < 0)
            {
                throw new CommandLine.TypeConversionException("duration '" + value + "' is negative");
            }
            if (nanos > MAX_NANOS)
            {
                throw new CommandLine.TypeConversionException("duration '" + value +
                    "' is longer than 100 years (use inf to wait forever)");
            }
            return (long)nanos;
        }
    }
}
