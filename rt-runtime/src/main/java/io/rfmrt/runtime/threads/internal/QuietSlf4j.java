package io.rfmrt.runtime.threads.internal;

import java.io.IOException;

/**
 * OpenHFT affinity logs through SLF4J. Without any SLF4J provider on the class path SLF4J falls back to its no-op
 * logger and prints a three-line notice about it on stderr; this class silences that notice (SLF4J's
 * {@code slf4j.internal.verbosity}) and nothing else. With a provider present, or the property already set, it changes
 * nothing.
 */
public final class QuietSlf4j
{
    /** SLF4J's property for its own diagnostics. */
    public static final String VERBOSITY_PROPERTY = "slf4j.internal.verbosity";

    private static final String PROVIDER_SERVICE = "META-INF/services/org.slf4j.spi.SLF4JServiceProvider";
    private static final String LEGACY_BINDER = "org/slf4j/impl/StaticLoggerBinder.class";

    private QuietSlf4j()
    {
    }

    /**
     * Call before the first use of OpenHFT affinity.
     */
    public static void apply()
    {
        if (System.getProperty(VERBOSITY_PROPERTY) != null)
        {
            return;
        }
        final ClassLoader loader = QuietSlf4j.class.getClassLoader();
        try
        {
            if (!loader.getResources(PROVIDER_SERVICE).hasMoreElements() && loader.getResource(LEGACY_BINDER) == null)
            {
                System.setProperty(VERBOSITY_PROPERTY, "ERROR");
            }
        }
        catch (final IOException | SecurityException ignored)
        {
            // leave SLF4J as it is
        }
    }
}
