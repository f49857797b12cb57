package io.rfmrt.cli.common;

import io.rfmrt.rfm.sim.SimNetwork;
import sun.misc.Signal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts another {@code rfmrt} process on the same JVM, classpath and flags as this one (and the user's jars of
 * {@link AppJars}): how the demo and the benchmarks put their nodes in separate processes.
 */
public final class ChildJvm
{
    /**
     * The {@code rfmrt} command line's main class, which a child runs. Named, not imported: the command families
     * sit below {@code Main}, which names them (ChildJvmTest holds the name to the class).
     */
    public static final String MAIN_CLASS = "io.rfmrt.cli.Main";

    /** The family of the hidden child commands: {@code rfmrt internal NAME ARGS}. */
    public static final String INTERNAL = "internal";

    private ChildJvm()
    {
    }

    /**
     * @param args rfmrt arguments for the child.
     * @return a builder; the caller chooses how to redirect output.
     */
    public static ProcessBuilder builder(final String... args)
    {
        final List<String> command = javaAndFlags();
        command.add("-cp");
        command.add(AppJars.after(System.getProperty("java.class.path")));
        command.add(MAIN_CLASS);
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    /**
     * @return this JVM's java command and its flags (agent and debugger options left out), to which a caller adds a
     * classpath, a main class and arguments.
     */
    public static List<String> javaAndFlags()
    {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            // agent and debugger options belong to this process only
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent") && !arg.startsWith("-Xrunjdwp"))
            {
                command.add(arg);
            }
        }
        return command;
    }

    /**
     * A child on an emulated host: run in a network namespace, with its own emulator root.
     *
     * @param netns the namespaces.
     * @param host  which one.
     * @param root  the child's emulator root ({@code rfmrt.sim.root}).
     * @param args  rfmrt arguments for the child.
     * @return a builder; the caller chooses how to redirect output.
     */
    public static ProcessBuilder builderOn(final Netns netns, final int host, final Path root, final String... args)
    {
        final List<String> java = builder(args).command();
        final List<String> command = new ArrayList<>(netns.exec(host));
        // the root after the JVM's own options (a later -D wins), before -cp and the main class
        final int cp = java.lastIndexOf("-cp");
        command.addAll(java.subList(0, cp));
        command.add("-D" + SimNetwork.ROOT_PROPERTY + "=" + root);
        command.addAll(java.subList(cp, java.size()));
        return new ProcessBuilder(command);
    }

    /**
     * @param args rfmrt arguments for the child.
     * @return the started child, stdout piped to the caller, stderr shared with this process.
     */
    public static Process start(final String... args) throws IOException
    {
        return builder(args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /**
     * @param command the hidden child command, one of the {@link #INTERNAL} family.
     * @param args    its arguments.
     * @return the started child ({@code rfmrt internal COMMAND ARGS}), as {@link #start(String...)} starts one.
     */
    public static Process startInternal(final String command, final String... args) throws IOException
    {
        final List<String> all = new ArrayList<>(List.of(INTERNAL, command));
        all.addAll(List.of(args));
        return start(all.toArray(String[]::new));
    }

    /**
     * In a child: run {@code stop} once when the parent goes away (this process's stdin, a pipe from the parent,
     * reaches its end: the parent exited or was killed) or on SIGINT/SIGTERM, so that the child winds down cleanly
     * instead of running on as an orphan.
     *
     * @param stop what stops the child's work; called at most once, from a watcher or signal thread.
     */
    public static void onParentGoneOrSignal(final Runnable stop)
    {
        final AtomicBoolean done = new AtomicBoolean();
        final Runnable once = () ->
        {
            if (done.compareAndSet(false, true))
            {
                stop.run();
            }
        };
        final Thread watch = new Thread(() ->
        {
            try
            {
                while (System.in.read() >= 0)
                {
                    // the parent never writes; anything it sends is ignored
                }
            }
            catch (final IOException ignore)
            {
                // a broken pipe is a gone parent too
            }
            once.run();
        }, "rfmrt-parent-watch");
        watch.setDaemon(true);
        watch.start();
        Signal.handle(new Signal("INT"), signal -> once.run());
        Signal.handle(new Signal("TERM"), signal -> once.run());
    }

    /**
     * In a measuring child whose figures mean nothing without its parent: end the process at once, with one line on
     * stderr, when the parent goes away or on SIGINT/SIGTERM (see {@link #onParentGoneOrSignal(Runnable)}). The child's
     * RT threads may spin over shared memory: a halt stops them with the process instead of leaving an orphan that
     * holds a CPU until someone kills it.
     *
     * @param who the child's name, for the line.
     */
    public static void haltWhenParentGone(final String who)
    {
        onParentGoneOrSignal(() ->
        {
            System.err.println(who + ": the parent process is gone or asked to stop; ending");
            System.err.flush();
            Runtime.getRuntime().halt(ExitCodes.ERROR);
        });
    }

    /**
     * @param millis delay.
     * @param action run on a daemon thread after it.
     */
    static void later(final long millis, final Runnable action)
    {
        final Thread t = new Thread(() ->
        {
            try
            {
                Thread.sleep(millis);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            action.run();
        }, "rfmrt-stop-later");
        t.setDaemon(true);
        t.start();
    }
}
