package io.rfmrt.runtime.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rfmrt.runtime.AppSettings;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.NodeAppFactory;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.RfmNode;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Reads a node YAML's {@code app:} key: {@code none}, the name of an app a module ships ({@link NodeAppFactory}),
 * {@code {name: NAME, ...settings}} or {@code {class: com.example.MyLaw, ...settings}} (a user's class from a jar on
 * the node's classpath — the release's {@code conf/lib/}). Every refusal is one line naming the key and the value.
 */
public final class NodeApps
{
    /** Where the release looks for users' jars (relative to its folder), for the refusal of a missing class. */
    public static final String USER_LIB = "conf/lib/";

    private NodeApps()
    {
    }

    /**
     * The app a node runs.
     *
     * @param name     {@code none}, a factory's name, or the class name.
     * @param instance the configured app, null for none.
     */
    public record App(String name, NodeApp instance)
    {
        /** No app: frames are only journaled (today's plain node). */
        public static final App NONE = new App(NodeContext.APP_NONE, null);
    }

    /**
     * @return the apps modules on the classpath ship, by name.
     */
    public static TreeMap<String, NodeAppFactory> factories()
    {
        final TreeMap<String, NodeAppFactory> byName = new TreeMap<>();
        for (final NodeAppFactory f : ServiceLoader.load(NodeAppFactory.class, loader()))
        {
            byName.put(f.name(), f);
        }
        return byName;
    }

    /**
     * @param node     the {@code app:} value, or null.
     * @param problems where problems go.
     * @return the configured app ({@link App#NONE} when none or on a problem).
     */
    public static App resolve(final JsonNode node, final List<String> problems)
    {
        return resolve(node, problems, new ArrayList<>());
    }

    /**
     * @param node     the {@code app:} value, or null.
     * @param problems where problems go.
     * @param warnings where deprecation warnings go (an old key of the app's settings that still reads).
     * @return the configured app ({@link App#NONE} when none or on a problem).
     */
    public static App resolve(final JsonNode node, final List<String> problems, final List<String> warnings)
    {
        if (node == null || node.isNull() || node.isValueNode() && "none".equals(node.asText().trim()))
        {
            return App.NONE;
        }
        if (node.isValueNode())
        {
            return named(node.asText().trim(), null, problems, warnings);
        }
        if (!node.isObject())
        {
            problems.add("app " + node + " is not none, an app's name or a mapping with 'name' or 'class'");
            return App.NONE;
        }
        final ObjectNode settings = ((ObjectNode)node).deepCopy();
        final JsonNode name = settings.remove("name");
        final JsonNode type = settings.remove("class");
        if ((name == null) == (type == null))
        {
            problems.add("app: give either 'name' (" + String.join(", ", factories().keySet()) + ") or 'class' " +
                "(a FrameHandler or NodeApp class), not " + (name == null ? "neither" : "both"));
            return App.NONE;
        }
        if (name != null)
        {
            return "none".equals(name.asText().trim()) && settings.isEmpty() ? App.NONE :
                named(name.asText().trim(), settings, problems, warnings);
        }
        return ofClass(type.asText().trim(), settings, problems, warnings);
    }

    private static App named(final String name, final ObjectNode settings, final List<String> problems,
        final List<String> warnings)
    {
        final TreeMap<String, NodeAppFactory> factories = factories();
        final NodeAppFactory factory = factories.get(name);
        if (factory == null)
        {
            problems.add("app '" + name + "' is not none" + (factories.isEmpty() ? "" : ", " +
                String.join(", ", factories.keySet())) + " or a mapping {class: ...}");
            return App.NONE;
        }
        final NodeApp app = factory.create();
        app.configure(new AppSettings("app", settings, problems, warnings));
        return new App(name, app);
    }

    private static App ofClass(final String name, final ObjectNode settings, final List<String> problems,
        final List<String> warnings)
    {
        final Class<?> type;
        try
        {
            type = Class.forName(name, true, loader());
        }
        catch (final ClassNotFoundException | LinkageError ex)
        {
            problems.add("app.class '" + name + "' is not on the node's classpath (give its jar: --app-jar JAR, " +
                "RFMRT_CLASSPATH in a checkout, " + USER_LIB + " in a release)" +
                (ex instanceof LinkageError ? ": " + ex : ""));
            return App.NONE;
        }
        if (!NodeApp.class.isAssignableFrom(type) && !FrameHandler.class.isAssignableFrom(type))
        {
            problems.add("app.class '" + name + "' implements neither " + NodeApp.class.getName() + " nor " +
                FrameHandler.class.getName());
            return App.NONE;
        }
        final Object instance;
        try
        {
            final Constructor<?> constructor = type.getConstructor();
            if (!Modifier.isPublic(type.getModifiers()) || Modifier.isAbstract(type.getModifiers()))
            {
                throw new NoSuchMethodException();
            }
            instance = constructor.newInstance();
        }
        catch (final NoSuchMethodException | IllegalAccessException | InstantiationException ex)
        {
            problems.add("app.class '" + name + "' is not a public class with a public no-argument constructor");
            return App.NONE;
        }
        catch (final InvocationTargetException ex)
        {
            problems.add("app.class '" + name + "': its constructor failed: " + ex.getCause());
            return App.NONE;
        }
        final NodeApp app = instance instanceof NodeApp a ? a : new HandlerApp((FrameHandler)instance);
        app.configure(new AppSettings("app", settings, problems, warnings));
        return new App(name, app);
    }

    private static ClassLoader loader()
    {
        final ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : NodeApps.class.getClassLoader();
    }

    /** A plain frame handler as an app: no settings, no agents. */
    private record HandlerApp(FrameHandler handler) implements NodeApp
    {
        @Override
        public void onStart(final RfmNode node)
        {
        }
    }
}
