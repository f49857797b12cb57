package io.rfmrt.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settings an app is given under {@code app:} in a node's YAML, bound to the app's own record with Jackson.
 * Problems are collected, one line each naming the key ({@code app.rateHz}) and the value, and reported with the
 * rest of the file's problems.
 */
public final class AppSettings
{
    private static final ObjectMapper MAPPER = new ObjectMapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private final String prefix;
    private final ObjectNode settings;
    private final List<String> problems;

    /**
     * @param prefix   the key the settings sit under, for messages ({@code app}).
     * @param settings the settings (the keys besides {@code name}/{@code class}); null = none.
     * @param problems where problems go.
     */
    public AppSettings(final String prefix, final ObjectNode settings, final List<String> problems)
    {
        this.prefix = prefix;
        this.settings = settings == null ? JsonNodeFactory.instance.objectNode() : settings;
        this.problems = problems;
    }

    /**
     * @return the settings as given.
     */
    public ObjectNode tree()
    {
        return settings;
    }

    /**
     * @param problem one more problem, without the file name.
     */
    public void problem(final String problem)
    {
        problems.add(problem);
    }

    /**
     * @param key a settings key.
     * @return the key as messages name it ({@code app.key}).
     */
    public String key(final String key)
    {
        return prefix + "." + key;
    }

    /**
     * Bind the settings to a record: every key must be one of its components (others are reported, each), every
     * value must convert (each that does not is reported), and the record's compact constructor must accept them (its
     * {@code IllegalArgumentException} is reported); every problem is reported at once. A key that is not given keeps
     * the component's default of a compact constructor that fills it (Jackson passes null/0 for it).
     *
     * @param type the record type.
     * @param <R>  the record.
     * @return the bound record, or null when there were problems.
     */
    public <R extends Record> R bind(final Class<R> type)
    {
        final Set<String> known = new TreeSet<>();
        for (final RecordComponent c : type.getRecordComponents())
        {
            known.add(c.getName());
        }
        boolean bad = false;
        final ObjectNode given = settings.deepCopy();
        final Iterator<String> names = settings.fieldNames();
        while (names.hasNext())
        {
            final String name = names.next();
            if (!known.contains(name))
            {
                problems.add("unknown key '" + key(name) + "'" + (known.isEmpty() ? " (this app takes no settings)" :
                    " (one of " + known + ")"));
                given.remove(name);
                bad = true;
            }
        }
        // each value on its own first, so that every one that does not convert is named, not only the first
        boolean unconverted = false;
        for (final RecordComponent c : type.getRecordComponents())
        {
            final JsonNode value = given.get(c.getName());
            if (value == null)
            {
                continue;
            }
            try
            {
                MAPPER.readerFor(MAPPER.constructType(c.getGenericType())).readValue(value);
            }
            catch (final JsonMappingException ex)
            {
                problems.add(describe(ex, List.of(c.getName()), given));
                unconverted = true;
            }
            catch (final IOException ex)
            {
                problems.add(key(c.getName()) + ": " + String.valueOf(ex.getMessage()).lines().findFirst().orElse(""));
                unconverted = true;
            }
        }
        if (unconverted)
        {
            return null;
        }
        // then the record itself, whose compact constructor checks the values together (with unknown keys left out)
        try
        {
            final R bound = MAPPER.treeToValue(given, type);
            return bad ? null : bound;
        }
        catch (final JsonMappingException ex)
        {
            problems.add(describe(ex, List.of(), given));
            return null;
        }
        catch (final IllegalArgumentException | JsonProcessingException ex)
        {
            problems.add(prefix + ": " + String.valueOf(ex.getMessage()).lines().findFirst().orElse(""));
            return null;
        }
    }

    /**
     * @param ex    a binding failure.
     * @param above the keys above where it happened ({@code ex}'s path is relative to them).
     * @param given the settings bound.
     * @return the one line naming the key and the value.
     */
    private String describe(final JsonMappingException ex, final List<String> above, final ObjectNode given)
    {
        final List<String> path = new ArrayList<>(above);
        ex.getPath().forEach(ref -> path.add(ref.getFieldName() != null ? ref.getFieldName() :
            Integer.toString(ref.getIndex())));
        final String field = path.isEmpty() ? prefix : key(String.join(".", path));
        final JsonNode value = path.isEmpty() ? given : given.at("/" + String.join("/", path));
        final Throwable cause = ex.getCause() instanceof IllegalArgumentException ? ex.getCause() : null;
        return cause != null ? field + ": " + cause.getMessage() :
            field + " '" + (value.isValueNode() ? value.asText() : value.toString()) + "' is not a " +
                expected(ex.getOriginalMessage());
    }

    private static String expected(final String message)
    {
        final String m = String.valueOf(message);
        if (m.contains("`int`") || m.contains("`long`") || m.contains("Integer") || m.contains("Long"))
        {
            return "whole number";
        }
        if (m.contains("`double`") || m.contains("Double"))
        {
            return "number";
        }
        if (m.contains("`boolean`") || m.contains("Boolean"))
        {
            return "true or false";
        }
        return "valid value";
    }
}
