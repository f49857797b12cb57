package io.rfmrt.cli;

import io.rfmrt.cli.bench.BenchCommand;
import io.rfmrt.cli.bench.BenchCompare;
import io.rfmrt.cli.bench.BenchHosts;
import io.rfmrt.cli.bench.BenchPeers;
import io.rfmrt.cli.bridge.BridgeCommand;
import io.rfmrt.cli.demo.DemoCommand;
import io.rfmrt.cli.node.CheckCommand;
import io.rfmrt.cli.node.NodeCommand;
import io.rfmrt.cli.node.StatCommand;
import io.rfmrt.cli.replay.ReplayBench;
import io.rfmrt.cli.replay.ReplayCommand;
import io.rfmrt.cli.rfm.RfmCommand;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.channel.LayoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The {@code rfmrt} command line.
 * <p>
 * Exit codes: 0 ok, 1 error, 2 usage, 3 time-out, 4 a node whose app found its run unsound. Every failure is one
 * line on stderr naming the problem; set {@code RFMRT_DEBUG=1} to get stack traces instead.
 */
@Command(
    name = "rfmrt",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Real-time runtime for reflective-memory networks.",
    subcommands = {RfmCommand.class, BridgeCommand.class, DemoCommand.class, NodeCommand.class, StatCommand.class,
        ReplayCommand.class,
        BenchCommand.class,
        CheckCommand.class, CompletionCommand.class, ReplayBench.class,
        BenchCommand.Peer.class, BenchCompare.Receiver.class, BenchPeers.Receiver.class, BenchHosts.Sender.class,
        CommandLine.HelpCommand.class})
public final class Main
{
    /** Success. */
    public static final int EXIT_OK = 0;
    /** The operation failed. */
    public static final int EXIT_ERROR = 1;
    /** The command line was wrong. */
    public static final int EXIT_USAGE = 2;
    /** A wait ran out of time. */
    public static final int EXIT_TIMEOUT = 3;
    /** A node ran, but its app says the run was not sound (a plant whose controller never came or went away). */
    public static final int EXIT_APP = 4;

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
                (ex.getMessage() == null ? "" : ": " + firstLine(ex.getMessage())));
            code = EXIT_ERROR;
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
        final CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, arguments) ->
        {
            err.println("rfmrt: " + ex.getMessage().replace(System.lineSeparator(), " ") + " (see '" +
                qualifiedName(ex.getCommandLine()) + " --help')");
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) ->
        {
            if (debug)
            {
                ex.printStackTrace(err);
            }
            err.println("rfmrt: " + describe(ex));
            return ex instanceof UsageException ? EXIT_USAGE : EXIT_ERROR;
        });
        return cli.execute(args);
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
     * @param ex a failure.
     * @return one line for the user.
     */
    public static String describe(final Throwable ex)
    {
        if (ex instanceof RfmException || ex instanceof LayoutException || ex instanceof UsageException ||
            ex instanceof IllegalArgumentException || ex instanceof IllegalStateException ||
            ex instanceof RuntimeException && ex.getClass().getName().startsWith("io.rfmrt.") && ex.getMessage() != null)
        {
            return firstLine(ex.getMessage());
        }
        if (ex instanceof java.nio.file.FileSystemException fs)
        {
            final String why = fs instanceof java.nio.file.NoSuchFileException ? "no such file or folder" :
                fs instanceof java.nio.file.NotDirectoryException ? "not a folder" :
                fs instanceof java.nio.file.AccessDeniedException ? "permission denied" :
                fs instanceof java.nio.file.FileAlreadyExistsException ? "already exists" :
                fs.getReason() != null ? fs.getReason() : fs.getClass().getSimpleName();
            return fs.getFile() + ": " + why;
        }
        if (ex instanceof java.io.UncheckedIOException u)
        {
            return describe(u.getCause());
        }
        if (ex instanceof java.io.IOException)
        {
            return "I/O error: " + firstLine(String.valueOf(ex.getMessage()));
        }
        return "internal error: " + firstLine(ex.toString()) + " (RFMRT_DEBUG=1 shows where)";
    }

    /**
     * Refuse an output file that cannot be written, before any work is done: a folder, an existing file that cannot be
     * opened for writing, or a path whose nearest existing folder takes no new file. Leaves nothing behind: the probe
     * file it writes is removed, and missing folders are not made here (the writer makes them).
     *
     * @param option the option that named the file, for the message.
     * @param file   the output file.
     * @throws UsageException naming the option, the file and why.
     */
    public static void checkOutputFile(final String option, final Path file)
    {
        final Path absolute = file.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute))
        {
            throw new UsageException(option + " " + file + ": is a folder; give a file name");
        }
        try
        {
            if (Files.exists(absolute, LinkOption.NOFOLLOW_LINKS))
            {
                if (!Files.isRegularFile(absolute))
                {
                    throw new UsageException(option + " " + file + ": not a regular file");
                }
                Files.newOutputStream(absolute, StandardOpenOption.WRITE, StandardOpenOption.APPEND).close();
                return;
            }
            Path folder = absolute.getParent();
            while (folder != null && !Files.exists(folder))
            {
                folder = folder.getParent();
            }
            if (folder == null || !Files.isDirectory(folder))
            {
                throw new UsageException(option + " " + file + ": " + folder + " is not a folder");
            }
            Files.delete(Files.createTempFile(folder, ".rfmrt-write-check-", ".tmp"));
        }
        catch (final java.io.IOException ex)
        {
            throw new UsageException(option + " " + file + ": cannot be written (" + describe(ex) + ")");
        }
    }

    private static String firstLine(final String text)
    {
        final String t = text == null ? "" : text;
        final int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }

    /**
     * A command line that parsed but makes no sense; exit code 2.
     */
    public static final class UsageException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        public UsageException(final String message)
        {
            super(message);
        }
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
