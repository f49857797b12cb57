package io.rfmrt.cli.common;

import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.Sizes;
import io.rfmrt.rfm.Units;
import io.rfmrt.rfm.sim.SimNetwork;
import picocli.CommandLine;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Option value converters with messages that name the bad value.
 */
public final class Converters
{
    private Converters()
    {
    }

    /**
     * Hexadecimal with or without 0x.
     */
    public static final class Hex implements CommandLine.ITypeConverter<Long>
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
    public static final class Size implements CommandLine.ITypeConverter<Long>
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
    public static final class NetworkName implements CommandLine.ITypeConverter<String>
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
    public static final class Node implements CommandLine.ITypeConverter<Integer>
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
    public static final class Destination implements CommandLine.ITypeConverter<Integer>
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
    public static final class Event implements CommandLine.ITypeConverter<EventType>
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
     * is seconds (the grammar of {@link Units#parseDuration}).
     */
    public static final class Duration implements CommandLine.ITypeConverter<Long>
    {
        private static final long MAX_NANOS = (long)(100 * 365.25 * 86_400 * 1e9);

        @Override
        public Long convert(final String value)
        {
            final String v = value.trim().toLowerCase(Locale.ROOT);
            if (v.equals("inf") || v.equals("infinite") || v.equals("forever"))
            {
                return RfmDevice.INFINITE_TIMEOUT;
            }
            final long nanos;
            try
            {
                nanos = Units.parseDuration(value, TimeUnit.SECONDS);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage().endsWith("is negative") ?
                    ex.getMessage() : "'" + value + "' is not a duration (e.g. 500ms, 5s, 2m, inf)");
            }
            if (nanos > MAX_NANOS)
            {
                throw new CommandLine.TypeConversionException("duration '" + value +
                    "' is longer than 100 years (use inf to wait forever)");
            }
            return nanos;
        }
    }
}
