package io.rfmrt.cli.node;

import io.rfmrt.cli.common.AppJars;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.ServiceNotifier;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.runtime.ConfigException;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.config.NodeConfig;
import org.apache.logging.log4j.LogManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import sun.misc.Signal;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code rfmrt node --config FILE}: run one node until SIGTERM or SIGINT (or until its app is done, e.g. the plant
 * after its cycles), then stop its threads, flush its journal, release its node id and exit 0; an app's figures go
 * out as one {@code result <json>} line ({@link ChildResult}), a failed run's too. When one of its threads fails, the
 * node stops in the same order, names the thread on stderr and exits 1 (the systemd unit restarts it); when its app
 * says the run was not sound ({@link NodeApp#problem()}: a plant whose controller never came), it says why on stderr
 * and exits 4. What the systemd unit runs, and
 * what {@code rfmrt demo} starts twice.
 */
@Command(name = "node", mixinStandardHelpOptions = true,
    description = "Run one node from a configuration file until SIGTERM/SIGINT.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE, ExitCodes.LIST_APP})
public final class NodeCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    AppJars appJars;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "Node configuration (YAML).")
    Path config;

    @Option(names = "--seconds", defaultValue = "0", paramLabel = "S",
        description = "Stop by itself after S seconds (0: run until a signal).")
    int seconds;

    @Option(names = "--check-config",
        description = "Check the configuration as the start does (its layout, the network it joins, cpus, journal " +
            "folder, both files against their JSON Schemas), print one line, exit 0; make and start nothing.")
    boolean checkConfig;

    @Option(names = "--json",
        description = "With --check-config: print one JSON object (valid, device, app, problems) instead of the line.")
    boolean json;

    @Option(names = "--child",
        description = "Run as another rfmrt process's child: stop when its stdin closes (the parent went away), " +
            "print only the app's own lines and its result line on stdout, warnings on stderr.")
    boolean child;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        if (json && !checkConfig)
        {
            throw new UsageException("--json is for --check-config (a running node's figures: rfmrt stat --json)");
        }
        final NodeContext ctx = load(out);
        for (final String warning : ctx.yamlWarnings())
        {
            err.println("rfmrt node: " + config + ": " + warning);
        }
        err.flush();
        if (checkConfig)
        {
            return check(out, ctx);
        }
        refuseIfAny(out, ctx, new ConfigException(config.toString(), List.of()));
        final Consumer<String> console = line ->
        {
            out.println(line);
            out.flush();
        };
        final String name = ctx.appName();
        // a child's parent shows its own start-up lines: only warnings, on stderr, named by the app
        final Consumer<String> nodeLines = !child ? console : line ->
        {
            if (line.startsWith("warning: "))
            {
                err.println(name + ": " + line);
                err.flush();
            }
        };
        final CountDownLatch stop = stopLatch();
        ctx.out(nodeLines)
            .appOut(console)
            .onFailure(stop::countDown)
            .terminationHook(stop::countDown);
        final String failure;
        final NodeApp app = ctx.app();
        final RfmNode node = new RfmNode(ctx);
        try (node; ServiceNotifier systemd = ServiceNotifier.fromEnvironment())
        {
            try
            {
                node.start();
            }
            catch (final ConfigException ex)
            {
                // the configuration does not fit the network it joined: nothing was started
                throw new UsageException(ex.getMessage());
            }
            systemd.ready("armed: " + name + " on " + ctx.deviceUri(),
                () -> node.failure() == null && !node.terminated());
            if (seconds > 0)
            {
                stop.await(seconds, TimeUnit.SECONDS);
            }
            else
            {
                stop.await();
            }
            failure = node.failure();
            if (failure != null)
            {
                // one line: what failed, and what the error path could not record (the damaged file itself)
                final String unrecorded = node.errors().recordFailure();
                err.println("rfmrt node: " + failure + (unrecorded == null ? "" : "; not recorded: " + unrecorded) +
                    "; stopping the node");
                err.flush();
            }
            systemd.stopping(failure == null ? "stopping" : "stopping: " + failure);
            if (!child)
            {
                out.println("stopping: closing threads, flushing the journal, releasing the node");
                out.flush();
            }
        }
        finally
        {
            LogManager.shutdown();
        }
        return ending(out, err, node, app, failure);
    }

    /**
     * @param out where {@code --check-config --json} prints the refusal.
     * @return the configuration file, bound and concluded.
     * @throws UsageException for a bad {@code --seconds} or a file that does not bind.
     */
    private NodeContext load(final PrintWriter out)
    {
        if (seconds < 0)
        {
            throw new UsageException("--seconds " + seconds + " is negative (0: run until a signal)");
        }
        appJars.use();
        try
        {
            return NodeConfig.load(config);
        }
        catch (final ConfigException ex)
        {
            refuseIfAny(out, null, ex);
            throw new IllegalStateException("a refusal without problems", ex);
        }
    }

    /**
     * {@code rfmrt node --check-config --json}: the verdict on one file.
     *
     * @param config   the file as given.
     * @param valid    whether the start would take it.
     * @param device   its device URI, null when it did not bind.
     * @param app      its app's name, null for none or when it did not bind.
     * @param problems one line per problem, each naming its key and value (empty when valid).
     */
    record CheckResult(String config, boolean valid, String device, String app, List<String> problems)
    {
    }

    /**
     * Refuse the file when the node's own reading or check, or the JSON Schemas of docs/schema, found a problem
     * ({@link ConfigSchema}: the schema's problems that the node's do not name come after them).
     *
     * @param ctx  the bound file, null when it did not bind.
     * @param node what the node's own reading or check found (no problems: nothing).
     * @throws UsageException naming every problem, when there is one.
     */
    private void refuseIfAny(final PrintWriter out, final NodeContext ctx, final ConfigException node)
    {
        final List<String> schema = ConfigSchema.problems(config, node.problems());
        if (schema.isEmpty() && node.problems().isEmpty())
        {
            return;
        }
        final List<String> problems = new ArrayList<>(node.problems());
        problems.addAll(schema);
        throw refused(out, ctx, new ConfigException(node.source(), problems));
    }

    private UsageException refused(final PrintWriter out, final NodeContext ctx, final ConfigException ex)
    {
        if (checkConfig && json)
        {
            out.println(ChildResult.json(new CheckResult(config.toString(), false,
                ctx == null ? null : ctx.deviceUri(), ctx == null || ctx.app() == null ? null : ctx.appName(),
                ex.problems())));
            out.flush();
        }
        return new UsageException(ex.getMessage());
    }

    /**
     * {@code --check-config}: check the configuration as the start does, print one line, start nothing.
     *
     * @return the exit code.
     */
    private int check(final PrintWriter out, final NodeContext ctx)
    {
        try
        {
            // the start's own check (NodeContext.check): what the start would refuse, this refuses
            ctx.check();
        }
        catch (final ConfigException ex)
        {
            refuseIfAny(out, ctx, ex);
        }
        refuseIfAny(out, ctx, new ConfigException(config.toString(), List.of()));
        if (json)
        {
            out.println(ChildResult.json(new CheckResult(config.toString(), true, ctx.deviceUri(),
                ctx.app() == null ? null : ctx.appName(), List.of())));
            return ExitCodes.OK;
        }
        out.println("rfmrt node: " + config + " is valid (device " + ctx.deviceUri() + ")" +
            (ctx.app() == null ? "" : ", app " + ctx.appName()));
        return ExitCodes.OK;
    }

    /**
     * Say how the node's run ended: a failed shutdown step, the app's result line, the exit code.
     *
     * @param failure the thread failure that stopped the node, or {@code null}.
     * @return the exit code.
     */
    private int ending(final PrintWriter out, final PrintWriter err, final RfmNode node, final NodeApp app,
        final String failure)
    {
        final String closeFailure = node.closeFailure();
        if (closeFailure != null)
        {
            // the rest of the shutdown ran: the journal is flushed, and the claim released unless that was the step
            err.println("rfmrt node: stopping: " + closeFailure);
            err.flush();
        }
        // the figures of what ran, a failed run's too (the app's onStop ran in the same order)
        if (app != null && app.result() != null)
        {
            ChildResult.write(out, app.result());
        }
        if (failure != null || closeFailure != null)
        {
            if (!child)
            {
                out.println(failure != null ? "stopped after a thread failed" : "stopped after a failed shutdown step");
            }
            return ExitCodes.ERROR;
        }
        final String problem = app == null ? null : app.problem();
        if (problem != null)
        {
            err.println("rfmrt node: " + problem);
            err.flush();
            if (!child)
            {
                out.println("stopped; the run was not sound");
            }
            return ExitCodes.APP;
        }
        if (!child)
        {
            out.println("stopped");
        }
        return ExitCodes.OK;
    }

    /**
     * @return a latch counted down by SIGTERM or SIGINT, or for a child, also when its parent goes away.
     */
    private CountDownLatch stopLatch()
    {
        final CountDownLatch stop = new CountDownLatch(1);
        if (child)
        {
            ChildJvm.onParentGoneOrSignal(stop::countDown);
        }
        else
        {
            Signal.handle(new Signal("TERM"), signal -> stop.countDown());
            Signal.handle(new Signal("INT"), signal -> stop.countDown());
        }
        return stop;
    }
}
