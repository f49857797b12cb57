package io.rfmrt.rfm.channel;

import java.util.List;

/**
 * A layout that cannot be used; the message names the file and every bad entry.
 */
public final class LayoutException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * @param source   file name or other origin of the layout.
     * @param problems one line per problem.
     */
    public LayoutException(final String source, final List<String> problems)
    {
        super(source + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * @return one line per problem, without the source.
     */
    public List<String> problems()
    {
        return problems;
    }
}
