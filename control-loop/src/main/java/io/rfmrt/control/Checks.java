package io.rfmrt.control;

import java.util.List;

/**
 * The range checks the parameter records share; each adds one line naming the setting and its value.
 */
final class Checks
{
    private Checks()
    {
    }

    /**
     * @param problems where a problem goes.
     * @param name     the setting.
     * @param value    must be finite and &gt; 0.
     */
    static void positive(final List<String> problems, final String name, final double value)
    {
        if (!(value > 0.0) || !Double.isFinite(value))
        {
            problems.add(name + " must be > 0, was " + value);
        }
    }

    /**
     * @param problems where a problem goes.
     * @param name     the setting.
     * @param value    must be finite and &gt;= 0.
     */
    static void notNegative(final List<String> problems, final String name, final double value)
    {
        if (!(value >= 0.0) || !Double.isFinite(value))
        {
            problems.add(name + " must be >= 0, was " + value);
        }
    }
}
