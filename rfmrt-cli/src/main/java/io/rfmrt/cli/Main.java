package io.rfmrt.cli;

import io.rfmrt.cli.bench.BenchCommand;
import io.rfmrt.cli.bridge.BridgeCommand;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.cli.demo.DemoCommand;
import io.rfmrt.cli.law.NewLawCommand;
import io.rfmrt.cli.metrics.ExporterCommand;
import io.rfmrt.cli.node.CheckCommand;
import io.rfmrt.cli.node.NodeCommand;
import io.rfmrt.cli.node.StatCommand;
import io.rfmrt.cli.replay.ReplayBench;
import io.rfmrt.cli.replay.ReplayCommand;
import io.rfmrt.cli.rfm.RfmCommand;
import io.rfmrt.cli.tune.TuneCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code rfmrt} command line.
 * <p>
 * Exit codes ({@link ExitCodes}): 0 ok, 1 error, 2 usage, 3 time-out, 4 a node whose app found its run unsound. Every
 * failure is one line on stderr naming the problem; set {@code RFMRT_DEBUG=1} to get stack traces instead.
 */
@Command(
    name = "rfmrt",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Real-time runtime for reflective-memory networks.",
    subcommands = {RfmCommand.class, BridgeCommand.class, DemoCommand.class, NodeCommand.class, StatCommand.class,
        ReplayCommand.class, TuneCommand.class, BenchCommand.class, CheckCommand.class, CompletionCommand.class,
        ReplayBench.class, InternalCommand.class, NewLawCommand.class, ExporterCommand.class,
        CommandLine.HelpCommand.class},
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE, ExitCodes.LIST_TIMEOUT,
        ExitCodes.LIST_APP, ExitCodes.LIST_SIGINT, ExitCodes.LIST_SIGTERM})
public final class Main
{
    private Main()
    {
    }

    /**
     * @param args command line.
     */
    public static void main(final String[] args)
    {
        int code;
        try
        {
            code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        }
        catch (final Throwable ex)
        {
            // an Error passes picocli's handler; still one line and an exit, even when threads are left running
            if (System.getenv("RFMRT_DEBUG") != null)
            {
                ex.printStackTrace();
            }
            System.err.println("rfmrt: " + ex.getClass().getSimpleName() +
                (ex.getMessage() == null ? "" : ": " + Failures.firstLine(ex.getMessage())));
            code = ExitCodes.ERROR;
        }
        System.exit(code);
    }

    /**
     * Run the command line without exiting.
     *
     * @param args command line.
     * @param out  standard output.
     * @param err  standard error.
     * @return the exit code.
     */
    public static int run(final String[] args, final PrintWriter out, final PrintWriter err)
    {
        final boolean debug = System.getenv("RFMRT_DEBUG") != null;
        final CommandLine cli = commandLine();
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, arguments) ->
        {
            err.println("rfmrt: " + ex.getMessage().replace(System.lineSeparator(), " ") + " (see '" +
                qualifiedName(ex.getCommandLine()) + " --help')");
            return ExitCodes.USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) ->
        {
            if (debug)
            {
                ex.printStackTrace(err);
            }
            err.println("rfmrt: " + Failures.describe(ex));
            return ex instanceof UsageException ? ExitCodes.USAGE : ExitCodes.ERROR;
        });
        return cli.execute(args);
    }

    /**
     * @return the whole command tree, as {@link #run} parses with it; picocli's own {@code help} gets the exit codes
     *         every command lists.
     */
    static CommandLine commandLine()
    {
        final CommandLine cli = new CommandLine(new Main());
        final Map<String, String> help = new LinkedHashMap<>();
        for (final String line : new String[]{ExitCodes.LIST_OK, ExitCodes.LIST_USAGE})
        {
            help.put(line.substring(0, line.indexOf(':')), line.substring(line.indexOf(':') + 1));
        }
        cli.getSubcommands().get("help").getCommandSpec().usageMessage().exitCodeListHeading(ExitCodes.HEADING)
            .exitCodeList(help);
        return cli;
    }

    private static String qualifiedName(final CommandLine commandLine)
    {
        final StringBuilder name = new StringBuilder(commandLine.getCommandName());
        for (CommandLine parent = commandLine.getParent(); parent != null; parent = parent.getParent())
        {
            name.insert(0, parent.getCommandName() + " ");
        }
        return name.toString();
    }

    /**
     * Version from the jar manifest.
     */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String version = Main.class.getPackage().getImplementationVersion();
            return new String[]{"rfmrt " + (version == null ? "development build" : version)};
        }
    }
}
