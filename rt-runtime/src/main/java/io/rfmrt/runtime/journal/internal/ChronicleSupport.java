package io.rfmrt.runtime.journal.internal;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The one place that touches Chronicle first: it turns Chronicle's analytics off (unless the property is already
 * set) before any Chronicle class initialises, and maps roll cycle names onto Chronicle's roll cycles.
 */
public final class ChronicleSupport
{
    /** System property that keeps Chronicle from reporting usage to its vendor. */
    public static final String ANALYTICS_DISABLE_PROP_NAME = "chronicle.analytics.disable";

    static
    {
        if (System.getProperty(ANALYTICS_DISABLE_PROP_NAME) == null)
        {
            System.setProperty(ANALYTICS_DISABLE_PROP_NAME, "true");
        }
    }

    private ChronicleSupport()
    {
    }

    /**
     * Make sure the static initialiser above has run. Call before touching any Chronicle class.
     */
    public static void init()
    {
        // the work is in the static initialiser
    }

    /**
     * @param name a Chronicle roll cycle name ({@code HOURLY}, {@code FAST_HOURLY}, {@code MINUTELY}, {@code DAILY},
     *             {@code LARGE_HOURLY}, ...), any case.
     * @return the roll cycle, or {@code null} when Chronicle has none of that name.
     */
    public static RollCycle rollCycle(final String name)
    {
        if (name == null)
        {
            return null;
        }
        for (final RollCycle cycle : RollCycles.all())
        {
            if (cycle instanceof Enum && ((Enum<?>)cycle).name().equalsIgnoreCase(name))
            {
                return cycle;
            }
        }
        return null;
    }

    /**
     * @return every roll cycle name Chronicle knows, in Chronicle's order.
     */
    public static List<String> rollCycleNames()
    {
        final List<String> names = new ArrayList<>();
        for (final RollCycle cycle : RollCycles.all())
        {
            if (cycle instanceof Enum)
            {
                names.add(((Enum<?>)cycle).name());
            }
        }
        return Collections.unmodifiableList(names);
    }
}
