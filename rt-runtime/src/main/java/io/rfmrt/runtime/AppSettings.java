package io.rfmrt.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rfmrt.rfm.Units;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The settings an app is given under {@code app:} in a node's YAML, bound to the app's own record with Jackson.
 * Problems are collected, one line each naming the key ({@code app.rateHz}) and the value, and reported with the
 * rest of the file's problems.
 * <p>
 * Durations carry their unit in the value, as {@code heartbeat: 1s} does: a component whose name ends in a unit
 * ({@code brakeReleaseTimeoutMs}, {@code stallNanos}) is given in the YAML under its name without the unit
 * ({@code brakeReleaseTimeout: 200ms}, {@code stall: 5ms}) and bound in the component's unit. The old key with a
 * bare number still reads, with a deprecation warning naming the key to write instead.
 */
public final class AppSettings
{
    private static final ObjectMapper MAPPER = new ObjectMapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /** Unit suffixes of duration components: the suffix, and nanoseconds per unit. */
    private static final String[][] DURATION_SUFFIXES = {{"Nanos", "1"}, {"Ms", "1000000"}};

    private final String prefix;
    private final ObjectNode settings;
    private final List<String> problems;
    private final List<String> warnings;

    /**
     * @param prefix   the key the settings sit under, for messages ({@code app}).
     * @param settings the settings (the keys besides {@code name}/{@code class}); null = none.
     * @param problems where problems go.
     */
    public AppSettings(final String prefix, final ObjectNode settings, final List<String> problems)
    {
        this(prefix, settings, problems, new ArrayList<>());
    }

    /**
     * @param prefix   the key the settings sit under, for messages ({@code app}).
     * @param settings the settings (the keys besides {@code name}/{@code class}); null = none.
     * @param problems where problems go.
     * @param warnings where deprecation warnings go (an old key that still reads), one line each.
     */
    public AppSettings(final String prefix, final ObjectNode settings, final List<String> problems,
        final List<String> warnings)
    {
        this.prefix = prefix;
        this.settings = settings == null ? JsonNodeFactory.instance.objectNode() : settings;
        this.problems = problems;
        this.warnings = warnings;
    }

    /**
     * @param component a record component's name.
     * @return the YAML key of a duration component ({@code brakeReleaseTimeoutMs}: {@code brakeReleaseTimeout}), or
     *         null when the component is no duration.
     */
    public static String durationKey(final RecordComponent component)
    {
        final String name = component.getName();
        final Class<?> type = component.getType();
        final boolean numeric = type == Long.class || type == long.class || type == Double.class ||
            type == double.class;
        for (final String[] suffix : DURATION_SUFFIXES)
        {
            if (numeric && name.endsWith(suffix[0]) && name.length() > suffix[0].length())
            {
                return name.substring(0, name.length() - suffix[0].length());
            }
        }
        return null;
    }

    /**
     * Put each duration given under its key without the unit into the component's own key, in the component's unit;
     * warn about each given under the old key.
     *
     * @return false when one did not read (reported).
     */
    private boolean bindDurations(final Class<? extends Record> type, final ObjectNode given)
    {
        boolean ok = true;
        for (final RecordComponent c : type.getRecordComponents())
        {
            final String key = durationKey(c);
            if (key == null)
            {
                continue;
            }
            final JsonNode old = given.get(c.getName());
            final JsonNode value = given.remove(key);
            if (old != null && value != null)
            {
                problems.add(key(c.getName()) + " is the old key of " + key(key) + ": give " + key(key) + " alone");
                ok = false;
            }
            else if (old != null)
            {
                warnings.add(key(c.getName()) + ": " + old.asText() + " is deprecated, write " + key(key) + ": " +
                    old.asText() + unitOf(c.getName()));
            }
            else if (value != null)
            {
                final String text = value.asText().strip();
                final long nanos;
                try
                {
                    if (!value.isValueNode() || text.matches("[0-9.]+") && Double.parseDouble(text) != 0)
                    {
                        throw new IllegalArgumentException("no unit");
                    }
                    nanos = Units.parseDuration(text, TimeUnit.NANOSECONDS);
                }
                catch (final IllegalArgumentException ex)
                {
                    problems.add(key(key) + " '" + text + "' is not a duration with its unit (e.g. 200ms, 1s)");
                    ok = false;
                    continue;
                }
                final long perUnit = Long.parseLong(unitNanos(c.getName()));
                if (c.getType() == Double.class || c.getType() == double.class)
                {
                    given.put(c.getName(), (double)nanos / perUnit);
                }
                else
                {
                    given.put(c.getName(), nanos / perUnit);
                }
            }
        }
        return ok;
    }

    private static String unitOf(final String component)
    {
        return component.endsWith("Ms") ? "ms" : "ns";
    }

    private static String unitNanos(final String component)
    {
        for (final String[] suffix : DURATION_SUFFIXES)
        {
            if (component.endsWith(suffix[0]))
            {
                return suffix[1];
            }
        }
        throw new IllegalStateException(component);
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
        final Set<String> accepted = new TreeSet<>();
        for (final RecordComponent c : type.getRecordComponents())
        {
            final String duration = durationKey(c);
            known.add(duration == null ? c.getName() : duration);
            accepted.add(c.getName());
            accepted.add(duration == null ? c.getName() : duration);
        }
        boolean bad = false;
        final ObjectNode given = settings.deepCopy();
        final Iterator<String> names = settings.fieldNames();
        while (names.hasNext())
        {
            final String name = names.next();
            if (!accepted.contains(name))
            {
                problems.add("unknown key '" + key(name) + "'" + (known.isEmpty() ? " (this app takes no settings)" :
                    " (one of " + known + ")"));
                given.remove(name);
                bad = true;
            }
        }
        // each value on its own first, so that every one that does not convert is named, not only the first
        boolean unconverted = !bindDurations(type, given);
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
