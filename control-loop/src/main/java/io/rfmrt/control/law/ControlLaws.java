package io.rfmrt.control.law;

import io.rfmrt.control.ControlLaw;

import java.lang.reflect.InvocationTargetException;

/**
 * Finds a {@link ControlLaw} by the name a node's {@code app: law:} gives: {@value CascadedPidLaw#NAME} (the shipped
 * law, the default), or a class name on the class path (a user's jar), made with its public no-argument constructor.
 */
public final class ControlLaws
{
    private ControlLaws()
    {
    }

    /**
     * @param name   {@value CascadedPidLaw#NAME}, or the law's class name; null means the shipped law.
     * @param loader where to look for the class.
     * @return a new, unconfigured instance.
     * @throws IllegalArgumentException one line naming the class and what is wrong with it.
     */
    public static ControlLaw create(final String name, final ClassLoader loader)
    {
        if (name == null || CascadedPidLaw.NAME.equals(name))
        {
            return new CascadedPidLaw();
        }
        final Class<?> type;
        try
        {
            type = Class.forName(name, false, loader);
        }
        catch (final ClassNotFoundException | LinkageError ex)
        {
            throw new IllegalArgumentException("law '" + name + "': no such class on the class path (give its jar: " +
                "--app-jar JAR, RFMRT_CLASSPATH in a checkout, conf/lib/ in a release)");
        }
        if (!ControlLaw.class.isAssignableFrom(type))
        {
            throw new IllegalArgumentException("law '" + name + "' does not implement " + ControlLaw.class.getName());
        }
        try
        {
            return (ControlLaw)type.getConstructor().newInstance();
        }
        catch (final NoSuchMethodException | IllegalAccessException | InstantiationException ex)
        {
            throw new IllegalArgumentException("law '" + name + "' has no public no-argument constructor");
        }
        catch (final InvocationTargetException ex)
        {
            throw new IllegalArgumentException("law '" + name + "': its constructor threw " + ex.getCause());
        }
    }

    /**
     * @param law a law.
     * @return the name {@code law:} gives it.
     */
    public static String nameOf(final ControlLaw law)
    {
        return law instanceof CascadedPidLaw ? CascadedPidLaw.NAME : law.getClass().getName();
    }
}
