package io.rfmrt.cli.common;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.util.Map;

/**
 * Options renamed when the command line took one vocabulary (docs/cli.md, "One name per idea"): the old name still
 * reads on the commands that had it, hidden from their help, and says on stderr, once, what to write instead. A
 * command declares the old name as a hidden option of its own beside the new one and asks {@link #pick} which value
 * holds.
 * <p>
 * The table below is the whole list: the vocabulary test walks picocli's model and requires every hidden option of
 * every command to be an old name here whose new name the same command shows.
 */
public final class Renamed
{
    /** Old name → new name. An old name is read only where it is hidden; elsewhere it may be a live option. */
    public static final Map<String, String> OPTIONS = Map.of(
        "--modes", "--rows",
        "--transports", "--rows",
        "--steps", "--rates",
        "--rate", "--speed",
        "--threading", "--aeron-threading",
        "--out", "--save");

    private Renamed()
    {
    }

    /**
     * The value of an option that has an old name: the old name's when it was given (saying so on stderr), else the
     * new name's.
     *
     * @param spec     the command.
     * @param oldName  the old name, a key of {@link #OPTIONS}.
     * @param oldValue what the old name was given, null when it was not.
     * @param newValue what the new name holds (given or its default).
     * @param <T>      the option's type.
     * @return the value that holds.
     * @throws UsageException when both names were given.
     */
    public static <T> T pick(final CommandSpec spec, final String oldName, final T oldValue, final T newValue)
    {
        if (oldValue == null)
        {
            return newValue;
        }
        final String newName = OPTIONS.get(oldName);
        final CommandLine cl = spec.commandLine();
        if (cl.getParseResult() != null && cl.getParseResult().hasMatchedOption(newName))
        {
            throw new UsageException(oldName + " is the old name of " + newName + ": give " + newName + " alone");
        }
        cl.getErr().println(spec.qualifiedName() + ": " + oldName + " is deprecated, write " + newName +
            " (it reads the same)");
        return oldValue;
    }
}
