package io.rfmrt.cli.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * The one line a child process ({@link ChildJvm}) hands its parent its figures with: {@code result <json>} on its
 * stdout, the JSON of one record (snake_case names: {@code lostFrameCauses} → {@code lost_frame_causes}) or map,
 * written and read through Jackson. Used by {@code rfmrt node} (an app's result), the demo and the benchmarks'
 * receivers.
 */
public final class ChildResult
{
    /** What starts the line. */
    public static final String PREFIX = "result ";

    /** Records as snake_case JSON; maps keep their keys. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ChildResult()
    {
    }

    /**
     * @param out    the child's stdout.
     * @param result a record or a map.
     */
    public static void write(final PrintStream out, final Object result)
    {
        try
        {
            out.println(PREFIX + MAPPER.writeValueAsString(result));
        }
        catch (final JsonProcessingException ex)
        {
            throw new UncheckedIOException(ex);
        }
        out.flush();
    }

    /**
     * @param out    the child's stdout.
     * @param result a record or a map.
     */
    public static void write(final PrintWriter out, final Object result)
    {
        try
        {
            out.println(PREFIX + MAPPER.writeValueAsString(result));
        }
        catch (final JsonProcessingException ex)
        {
            throw new UncheckedIOException(ex);
        }
        out.flush();
    }

    /**
     * A command's result as {@code --json} prints it: the same names as a result line, on indented lines.
     *
     * @param result a record.
     * @return its JSON.
     */
    public static String pretty(final Object result)
    {
        try
        {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(result);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("cannot write JSON: " + ex.getOriginalMessage(), ex);
        }
    }

    /**
     * A command's result as {@code --json} prints it on one line.
     *
     * @param result a record.
     * @return its JSON.
     */
    public static String json(final Object result)
    {
        try
        {
            return MAPPER.writeValueAsString(result);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("cannot write JSON: " + ex.getOriginalMessage(), ex);
        }
    }

    /**
     * @param line a line of the child's stdout, or null.
     * @return whether it is the result line.
     */
    public static boolean is(final String line)
    {
        return line != null && line.startsWith(PREFIX);
    }

    /**
     * @param line the result line.
     * @return its JSON.
     */
    public static JsonNode tree(final String line)
    {
        try
        {
            return MAPPER.readTree(line.substring(PREFIX.length()));
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("a child's result line is not JSON: " + ex.getOriginalMessage());
        }
    }

    /**
     * @param line the result line.
     * @param type the record it holds.
     * @param <T>  the record.
     * @return the record.
     */
    public static <T> T read(final String line, final Class<T> type)
    {
        try
        {
            return MAPPER.readValue(line.substring(PREFIX.length()), type);
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("a child's result line is not a " + type.getSimpleName() + ": " +
                ex.getOriginalMessage());
        }
    }

    /**
     * @param value a record.
     * @return it as the JSON tree its result line carries (snake_case names), e.g. to put into a summary.
     */
    static JsonNode toTree(final Object value)
    {
        return MAPPER.valueToTree(value);
    }
}
