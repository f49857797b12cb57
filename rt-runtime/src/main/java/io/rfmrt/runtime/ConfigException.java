package io.rfmrt.runtime;

import java.util.List;

/**
 * A node configuration that cannot be used; the message names the file, each key and its bad value.
 */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String source;
    private final List<String> problems;

    /**
     * @param source   the file.
     * @param problems one line per problem.
     */
    public ConfigException(final String source, final List<String> problems)
    {
        super(source + ": " + String.join("; ", problems));
        this.source = source;
        this.problems = List.copyOf(problems);
    }

    /**
     * @return the file (and what it was checked against), as the message names it.
     */
    public String source()
    {
        return source;
    }

    /**
     * @return the problems without the file name.
     */
    public List<String> problems()
    {
        return problems;
    }
}
