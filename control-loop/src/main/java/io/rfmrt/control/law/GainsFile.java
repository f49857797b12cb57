package io.rfmrt.control.law;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rfmrt.control.ControllerGains;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What-if gains from a YAML file: a mapping of {@link ControllerGains} component names to values, at the top level
 * or under {@code controller:}, e.g.
 * <pre>
 * positionGainPerS: 60
 * velocityGainNmSPerRad: 0.05
 * antiWindup: BACK_CALCULATION
 * </pre>
 * Settings not given keep the base gains' values.
 */
public final class GainsFile
{
    private GainsFile()
    {
    }

    /**
     * @param file the YAML file.
     * @param base the gains that settings not in the file keep.
     * @return the gains.
     * @throws IllegalArgumentException one line naming the file and every bad key or value.
     */
    public static ControllerGains load(final Path file, final ControllerGains base)
    {
        final Map<?, ?> yaml;
        try
        {
            final Object root = new ObjectMapper(new YAMLFactory()).readValue(Files.readAllBytes(file), Object.class);
            if (!(root instanceof Map<?, ?> map))
            {
                throw new IllegalArgumentException("gains " + file + ": expected a mapping of ControllerGains " +
                    "settings (positionGainPerS: 60, ...)");
            }
            yaml = map.get("controller") instanceof Map<?, ?> inner && map.size() == 1 ? inner : map;
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("gains " + file + ": " + firstLine(ex.getMessage()), ex);
        }
        return apply(yaml, base, "gains " + file);
    }

    /**
     * The same settings given as a mapping (a node's {@code app: gains:} section).
     *
     * @param yaml {@link ControllerGains} component names to values.
     * @param base the gains that settings not in the mapping keep.
     * @param what what the mapping is, for the message ({@code app.gains}).
     * @return the gains.
     * @throws IllegalArgumentException one line starting with {@code what}, naming every bad key or value.
     */
    public static ControllerGains apply(final Map<?, ?> yaml, final ControllerGains base, final String what)
    {
        final RecordComponent[] components = ControllerGains.class.getRecordComponents();
        final Map<String, Object> values = new LinkedHashMap<>();
        final List<String> names = new ArrayList<>();
        try
        {
            for (final RecordComponent component : components)
            {
                names.add(component.getName());
                values.put(component.getName(), component.getAccessor().invoke(base));
            }
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException("cannot read ControllerGains", ex);
        }
        final List<String> problems = new ArrayList<>();
        for (final Map.Entry<?, ?> entry : yaml.entrySet())
        {
            final String key = String.valueOf(entry.getKey());
            final Object value = entry.getValue();
            if (!values.containsKey(key))
            {
                problems.add("unknown key '" + key + "'");
            }
            else if ("antiWindup".equals(key))
            {
                try
                {
                    values.put(key, ControllerGains.AntiWindup.valueOf(String.valueOf(value).toUpperCase(Locale.ROOT)));
                }
                catch (final IllegalArgumentException ex)
                {
                    problems.add("antiWindup '" + value + "' is not one of NONE, CLAMPING, BACK_CALCULATION");
                }
            }
            else if (value instanceof Number number)
            {
                values.put(key, number.doubleValue());
            }
            else
            {
                problems.add(key + " '" + value + "' is not a number");
            }
        }
        if (problems.isEmpty())
        {
            final Object[] args = values.values().toArray();
            try
            {
                final ControllerGains gains = (ControllerGains)ControllerGains.class.getDeclaredConstructors()[0]
                    .newInstance(args);
                problems.addAll(gains.problems());
                if (problems.isEmpty())
                {
                    return gains;
                }
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new IllegalStateException("cannot make ControllerGains", ex);
            }
        }
        throw new IllegalArgumentException(what + ": " + String.join("; ", problems) + " (settings: " +
            String.join(", ", names) + ")");
    }

    private static String firstLine(final String text)
    {
        final String t = text == null ? "" : text;
        final int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }
}
