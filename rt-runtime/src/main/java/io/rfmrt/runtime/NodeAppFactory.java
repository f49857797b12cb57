package io.rfmrt.runtime;

/**
 * A named {@link NodeApp} ({@code app: NAME}), found with {@link java.util.ServiceLoader}: a module that ships apps
 * lists its factories in {@code META-INF/services/io.rfmrt.runtime.NodeAppFactory}.
 */
public interface NodeAppFactory
{
    /**
     * @return the name {@code app:} gives.
     */
    String name();

    /**
     * @return a new app, not yet configured.
     */
    NodeApp create();
}
