package io.rfmrt.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Test helper: the {@code rfmrt} command line run in this JVM, with what it printed.
 *
 * @param exit exit code.
 * @param out  standard output.
 * @param err  standard error.
 */
public record CliRun(int exit, String out, String err)
{
    /**
     * @param args rfmrt arguments.
     * @return what the command line did.
     */
    public static CliRun of(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exit, out.toString(), err.toString());
    }
}
