package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.AppJars;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.cli.replay.ReplayLaw;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.RateCheck;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.PlantResult;
import io.rfmrt.control.node.PlantApp;
import io.rfmrt.control.law.ControlLaws;
import io.rfmrt.control.law.GainsFile;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.threads.CpuPlan;
import io.rfmrt.runtime.threads.RtBudget;
import io.rfmrt.runtime.threads.RtSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code rfmrt demo}: the main job. A closed motion-control loop across two processes on a fresh emulated RFM
 * network — the plant node publishes sensor frames on an absolute schedule, the controller node runs the control
 * law on the interrupt path and writes commands back — with a live line per second, a summary table,
 * {@code DIR/summary.json}, journals under {@code DIR/journal/} and plots under {@code DIR/plots/}. Each node is an
 * {@code rfmrt node --child} process run from a configuration it writes first ({@code DIR/controller.yaml},
 * {@code DIR/plant.yaml}, beside the control layout {@code DIR/layout.yaml}): what runs here runs from the same
 * files as a production node.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Closed-loop motion control across two processes over interrupt + DMA on an emulated RFM network.",
    exitCodeListHeading = ExitCodes.HEADING,
    exitCodeList = {ExitCodes.LIST_OK, ExitCodes.LIST_ERROR, ExitCodes.LIST_USAGE, ExitCodes.LIST_SIGINT, ExitCodes.LIST_SIGTERM})
public final class DemoCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "10", paramLabel = "S",
        description = "How long to run (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "1000", paramLabel = "HZ",
        description = "Loop rate in Hz (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--out", defaultValue = "rfmrt-demo", paramLabel = "DIR",
        description = "Where journals, plots and summary.json go (default ./${DEFAULT-VALUE}).")
    Path outDir;

    @Option(names = "--json", description = "Print the summary as one JSON object on stdout.")
    boolean json;

    @Option(names = "--wait", defaultValue = "inline", paramLabel = "MODE",
        description = "How the controller takes sensor frames: inline (the control law on the ISR-wake thread, one " +
            "wake per frame; default) or blocking (a consumer thread, a second wake-up).")
    String wait;

    @Option(names = "--controller-only",
        description = "Run the controller alone on --network, for sensor frames played back onto it " +
            "(rfmrt replay DIR --play); it stops when the playback ends.")
    boolean controllerOnly;

    @Option(names = "--network", paramLabel = "NAME",
        description = "With --controller-only: the emulated network (joined, or made when missing).")
    String network;

    @Option(names = "--gains", paramLabel = "FILE",
        description = "The controller's gains (YAML: ControllerGains settings; default the standard tune).")
    Path gains;

    @Option(names = "--law", paramLabel = "CLASS",
        description = "The controller's law: a ControlLaw class on the class path (--app-jar, RFMRT_CLASSPATH), run " +
            "inside the built-in safety layer; --gains then holds its settings (default the shipped cascaded PID).")
    String law;

    @Mixin
    AppJars appJars;

    @Option(names = "--hosts",
        description = "Run the plant and the controller on two emulated hosts: network namespaces on a veth pair, " +
            "each with its own copy of the network, joined by rfmrt bridge (root; the namespaces are removed after).")
    boolean hosts;

    @Option(names = "--fault", paramLabel = "FAULT",
        description = "Inject a fault mid-run (at 40 %% of the run): sensor-dropout (sensor frames stop for 15 %% of " +
            "the run), latency:Nms (from then on every command acts N ms later than it arrived, 1..100) or " +
            "plant-stall:Nms (the plant's loop is held up once for N ms, 1..1000) or controller-stall:Nms (the " +
            "controller's thread is held up once for N ms after answering a frame, 1..1000).")
    String fault;

    @Option(names = "--plant", defaultValue = PlantApp.MODEL_IDEAL, paramLabel = "MODEL",
        description = "The simulated axis: ideal (exact position and velocity, default) or realistic (encoder counts " +
            "and a differenced velocity, noise, +50 %% inertia, a two-mass resonance, stiction, gravity, one period " +
            "of transport delay).")
    String plantModel;

    @Option(names = "--profile", paramLabel = "PROFILE",
        description = "The trajectory: standard (gentle moves, the default with the ideal plant), fast (about " +
            "60 %% of peak torque or more, the default with the realistic plant) or cruise (a steady 2 rad/s, for " +
            "measurements with --excite).")
    String profileName;

    @Option(names = "--excite", paramLabel = "SPEC",
        description = "Run an excitation in the controller's loop, e.g. chirp:point=torque,f0=5,f1=400,amp=0.1," +
            "seconds=4,start=1 (KIND step|chirp|prbs; keys point, amp, seconds, start, fade, f0, f1, sweep, bit, " +
            "seed; docs/control.md). Journaled as EXCITATION samples for rfmrt replay.")
    String excite;

    /** The realistic plant's transport delay (its default): the rate is checked with it. */
    static final int REALISTIC_DELAY_PERIODS = 1;

    @Override
    public Integer call() throws Exception
    {
        final String profile = checkOptions();
        DemoExcitation.check(excite, rate);
        // the shipped law's gains are checked here; another law's settings go to it as they are (it checks them)
        final ControllerGains controllerGains = gains == null || law != null ? null :
            GainsFile.load(gains, ControllerGains.standard());
        if (controllerOnly)
        {
            return controllerOnly(profile, controllerGains);
        }
        final long cycles = (long)seconds * rate;
        final DemoFault plan = DemoFault.parse(fault, cycles);
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter console = json ? new PrintWriter(System.err, true) : out;
        final String network = "demo-" + ProcessHandle.current().pid();
        final Path journals = prepareOut(console);
        final DemoHosts twoHosts = hosts ? DemoHosts.start(network, outDir, console) : null;
        if (twoHosts == null)
        {
            // the network is as large as the control layout says it must be (a node refuses a smaller one)
            SimNetwork.create(network, ControlFrames.LAYOUT.memorySize()).close();
        }
        // SIGINT/SIGTERM: stop both children cleanly (they flush their journals), then summarise what ran
        final AtomicReference<String> interrupted = new AtomicReference<>();
        final List<Process> children = new CopyOnWriteArrayList<>();
        final SignalHandler stopRun = signal ->
        {
            interrupted.compareAndSet(null, "SIG" + signal.getName());
            children.forEach(child -> child.toHandle().destroy());
        };
        Signal.handle(new Signal("INT"), stopRun);
        Signal.handle(new Signal("TERM"), stopRun);
        try
        {
            console.printf("rfmrt demo: %s plant (node %d) and controller (node %d) in two processes%s, %s profile, " +
                "%d Hz for %d s%s%n", plantModel, ControlFrames.PLANT_NODE, ControlFrames.CONTROLLER_NODE,
                twoHosts == null ? "" : " on two hosts (network namespaces joined by rfmrt bridge)", profile,
                rate, seconds, plan.describe(rate));
            console.println(rtPlanLine());
            DemoExcitation.announce(excite, console);
            console.flush();
            writeConfigs(network, journals, cycles, profile, controllerGains, plan);
            final Results results;
            try (Progress progress = Progress.seconds(spec.commandLine().getErr(), seconds,
                String.format("demo at %d Hz", rate), System::nanoTime).startTicker("rfmrt-demo-progress"))
            {
                results = runNodes(network, twoHosts, console, interrupted, children);
            }
            final DemoSummary.Run run = new DemoSummary.Run(interrupted.get() == null ? "no" : interrupted.get(),
                rate, seconds, plan.name(), plantModel, profile, wait, twoHosts == null ? null : twoHosts.summary(),
                new DemoSummary.Journals(journals.resolve("controller").toString(),
                    journals.resolve("plant").toString()));
            return report(out, console, results.controller(), results.plant(), run);
        }
        finally
        {
            if (twoHosts == null)
            {
                SimNetwork.destroy(network, true);
            }
            else
            {
                twoHosts.close();
            }
            Signal.handle(new Signal("INT"), SignalHandler.SIG_DFL);
            Signal.handle(new Signal("TERM"), SignalHandler.SIG_DFL);
        }
    }

    /** {@code --controller-only}: the controller alone, against a plant started elsewhere. */
    private int controllerOnly(final String profile, final ControllerGains controllerGains) throws Exception
    {
        if (fault != null || hosts)
        {
            throw new UsageException("--fault and --hosts need the plant; --controller-only runs none");
        }
        if (excite != null)
        {
            throw new UsageException("--excite runs with the demo's plant; --controller-only runs none");
        }
        return DemoControllerOnly.run(spec.commandLine().getOut(), json, outDir, network, rate, wait,
            controllerSettings(profile, controllerGains));
    }

    /**
     * Make the output folder, clear a previous run's files from it and reclaim abandoned networks, saying so.
     *
     * @return the folder of the nodes' journals.
     */
    private Path prepareOut(final PrintWriter console) throws IOException
    {
        Files.createDirectories(outDir);
        if (DemoLeftovers.removePreviousRun(outDir))
        {
            console.printf("rfmrt demo: %s held a previous run; its journals, summary and plots were removed%n",
                outDir);
        }
        for (final String reclaimed : DemoLeftovers.reclaimAbandoned(Instant.now()))
        {
            console.printf("rfmrt demo: %s%n", reclaimed);
        }
        return outDir.toAbsolutePath().resolve("journal");
    }

    /**
     * Check the options that do not depend on each other's use.
     *
     * @return the trajectory: {@code --profile}, or the plant model's default.
     * @throws UsageException naming the first option that makes no sense.
     */
    private String checkOptions()
    {
        if (seconds < 1 || seconds > 3600)
        {
            throw new UsageException("--seconds " + seconds + " is not 1..3600");
        }
        if (!PlantApp.MODEL_IDEAL.equals(plantModel) && !PlantApp.MODEL_REALISTIC.equals(plantModel))
        {
            throw new UsageException("--plant '" + plantModel + "' is not " + PlantApp.MODEL_IDEAL + " or " +
                PlantApp.MODEL_REALISTIC);
        }
        final boolean realistic = PlantApp.MODEL_REALISTIC.equals(plantModel);
        final String profile = profileName != null ? profileName : realistic ? DemoProfile.FAST : DemoProfile.STANDARD;
        if (!DemoProfile.isKnown(profile))
        {
            throw new UsageException("--profile '" + profile + "' is not " + DemoProfile.NAMES);
        }
        // one rule for the rate: the tune on the nominal axis and, with the realistic plant, on that axis too
        final List<String> rateProblems = new ArrayList<>(RateCheck.problems(rate));
        if (realistic && rateProblems.isEmpty())
        {
            rateProblems.addAll(RateCheck.realisticProblems(rate, REALISTIC_DELAY_PERIODS));
        }
        if (!rateProblems.isEmpty())
        {
            throw new UsageException("--rate " + rate + ": " + RateCheck.join(rateProblems));
        }
        if (!"blocking".equalsIgnoreCase(wait) && !"inline".equalsIgnoreCase(wait))
        {
            throw new UsageException("--wait '" + wait + "' is not inline or blocking");
        }
        // the plan, the summary and the node YAML take the command line's spelling
        wait = wait.toLowerCase(Locale.ROOT);
        appJars.use();
        if (appJars.jarsGiven() && law == null)
        {
            throw new UsageException("--app-jar needs --law (the class of the law in the jar)");
        }
        if (law != null)
        {
            try
            {
                // looked up here, so that a class that is not there stops the demo before it starts a process
                ControlLaws.create(law, AppJars.loader());
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UsageException("--law: " + ex.getMessage());
            }
        }
        if (controllerOnly != (network != null))
        {
            throw new UsageException(controllerOnly ? "--controller-only needs --network NET (the network the " +
                "sensor frames are played onto)" :
                "--network is for --controller-only (the demo makes its own network)");
        }
        return profile;
    }

    /**
     * @return the RT duty both nodes plan on their RT cpu against the kernel's RT budget, one line: said before they
     *         start, and when it does not fit, the setting that lifts the budget ({@link DemoRtPlan}).
     */
    private String rtPlanLine()
    {
        try
        {
            final int cpu = CpuPlan.choose(RtSettings.defaults()).rtCpus().get(0);
            return DemoRtPlan.plan(rate, wait, cpu, RtBudget.read(Path.of("/"))).line("rfmrt demo");
        }
        catch (final IllegalArgumentException ex)
        {
            return "rfmrt demo: RT duty not planned: " + ex.getMessage();
        }
    }

    /**
     * Write both nodes' configurations and the layout into the demo's folder, the faults placed in the run.
     */
    private void writeConfigs(final String network, final Path journals, final long cycles, final String profile,
        final ControllerGains controllerGains, final DemoFault plan) throws IOException
    {
        DemoConfigs.writePlant(outDir, network, journals, new DemoConfigs.PlantSettings(PlantApp.NAME, rate, cycles,
            plan.dropFrom(), plan.dropTo(), plan.latencyFrom(), plan.latencyNanos(), plantModel,
            plan.plantStallNanos() > 0 ? plan.stallAt() : 0, plan.plantStallNanos()));
        final DemoConfigs.ControllerSettings controller = controllerSettings(profile, controllerGains);
        DemoConfigs.writeController(outDir, network, journals, wait, (plan.controllerStallNanos() > 0 ?
            controller.withStall(plan.stallAt(), plan.controllerStallNanos()) : controller).withExcite(excite));
    }

    /**
     * @return the controller's settings: the shipped law with its gains, or {@code --law} with the settings of
     * {@code --gains}.
     */
    private DemoConfigs.ControllerSettings controllerSettings(final String profile,
        final ControllerGains controllerGains)
    {
        final DemoConfigs.ControllerSettings shipped = DemoConfigs.ControllerSettings.of(rate, profile,
            controllerGains);
        return law == null ? shipped : shipped.withLaw(law, gains == null ? null : ReplayLaw.settings(gains));
    }

    /** What the two nodes reported. */
    private record Results(ControllerResult controller, PlantResult plant)
    {
    }

    /**
     * Start the controller, wait until it is ready, start the plant, and wait for both to end.
     *
     * @return their results.
     * @throws IllegalStateException when either failed (its own line on stderr says why).
     */
    private Results runNodes(final String network, final DemoHosts twoHosts, final PrintWriter console,
        final AtomicReference<String> interrupted, final List<Process> children) throws Exception
    {
        final String controllerYaml = outDir.resolve(DemoConfigs.CONTROLLER_CONFIG).toString();
        final Process controller = twoHosts == null ?
            ChildJvm.start("node", "--child", "--config", controllerYaml) :
            twoHosts.start(DemoHosts.CONTROLLER_HOST, "node", "--child", "--config", controllerYaml);
        children.add(controller);
        final AtomicReference<String> controllerResult = new AtomicReference<>();
        final Thread relay = DemoProcesses.relay(controller, console, controllerResult);
        if (twoHosts == null)
        {
            DemoProcesses.awaitReady(network, controller);
        }
        else
        {
            twoHosts.awaitController(controller);
        }
        final String plantYaml = outDir.resolve(DemoConfigs.PLANT_CONFIG).toString();
        final Process plant = twoHosts == null ? ChildJvm.start("node", "--child", "--config", plantYaml) :
            twoHosts.start(DemoHosts.PLANT_HOST, "node", "--child", "--config", plantYaml);
        children.add(plant);
        if (interrupted.get() != null)
        {
            children.forEach(child -> child.toHandle().destroy());
        }
        final AtomicReference<String> plantResult = new AtomicReference<>();
        final Thread plantRelay = DemoProcesses.relay(plant, console, plantResult);
        final String failed = DemoProcesses.awaitChildren(plant, controller, seconds + 120L, children);
        relay.join(5_000);
        plantRelay.join(5_000);
        if (failed != null && interrupted.get() == null || controllerResult.get() == null || plantResult.get() == null)
        {
            // the process named its failed thread on stderr; the run is a failure, not a count of lost frames
            throw new IllegalStateException("the " + (failed != null ? failed :
                controllerResult.get() == null ? "controller" : "plant") +
                " process failed (exit codes: controller " + controller.exitValue() + ", plant " +
                plant.exitValue() + "); see its line above");
        }
        return new Results(ChildResult.read(controllerResult.get(), ControllerResult.class),
            ChildResult.read(plantResult.get(), PlantResult.class));
    }

    /**
     * Draw the plots, write summary.json, print the summary, and say how the run ended.
     *
     * @return the exit code.
     */
    private int report(final PrintWriter out, final PrintWriter console, final ControllerResult c,
        final PlantResult p, final DemoSummary.Run run) throws IOException
    {
        final long lost = c.journalWriteErrors() + c.journalDrops() + p.journalWriteErrors() + p.journalDrops();
        if (lost > 0)
        {
            console.printf("rfmrt demo: warning: the journals lost %d records (write errors or full rings); " +
                "replay and plots show only what was written%n", lost);
        }
        DemoExcitation.report(excite, Path.of(run.journals().controller()), console);
        List<Path> plots = List.of();
        try
        {
            plots = DemoPlots.write(Path.of(run.journals().controller()), outDir.resolve("plots"), rate,
                c.deadlineUs());
        }
        catch (final RuntimeException | IOException ex)
        {
            // a journal that could not be written (full disk) leaves nothing to plot; the summary still counts
            console.println("rfmrt demo: plots not drawn: " + Failures.describe(ex));
        }
        final DemoSummary summary = DemoSummary.of(c, p, run, plots.stream().map(Path::toString).toList());
        try
        {
            Files.writeString(outDir.resolve("summary.json"),
                ChildResult.pretty(summary) + "\n");
        }
        catch (final IOException ex)
        {
            console.println("rfmrt demo: summary.json not written: " + Failures.describe(ex));
        }
        if (json)
        {
            out.println(ChildResult.json(summary));
        }
        else
        {
            printSummary(out, ChildResult.MAPPER.convertValue(summary, LinkedHashMap.class), c.placement());
        }
        if (c.followingErrorFaults() > 0)
        {
            // the fault reaction ran (quick stop, brake); the run is not a success
            console.printf(Locale.ROOT, "rfmrt demo: the axis faulted on its following error at cycle %d (lag " +
                "%.2f mrad over the limit %.2f mrad for the filter time); quick-stopped and braked; FOLLOWING_ERROR is " +
                "in the controller's journal%n", c.faultCycle(), c.faultLagRad() * 1e3, c.faultLimitRad() * 1e3);
            return ExitCodes.ERROR;
        }
        if (!"no".equals(run.interrupted()))
        {
            console.printf("rfmrt demo: interrupted by %s after %s cycles; the summary above covers them%n",
                run.interrupted(), summary.cycles());
            return ExitCodes.stoppedBy(run.interrupted());
        }
        return ExitCodes.OK;
    }

    private static void printSummary(final PrintWriter out, final Map<?, ?> s, final String placement)
    {
        out.println();
        out.print(placement);
        out.println(!"no".equals(s.get("interrupted")) ?
            "summary (interrupted by " + s.get("interrupted") + ": partial run)" : "summary");
        final String[][] rows = {
            {"cycles", "%s"}, {"lost_frames", "%s"}, {"deadline_misses", "%s"}, {"deadline_us", "%.1f us"},
            {"watchdog_trips", "%s"}, {"watchdog_recoveries", "%s"}, {"misses_matched", "%s"},
            {"misses_late_wake", "%s"}, {"misses_preempted", "%s"}, {"misses_unexplained", "%s"},
            {"trips_matched", "%s"}, {"trips_unexplained", "%s"}, {"stalls", "%s"}, {"longest_stall_us", "%.1f us"},
            {"lost_frame_causes", "%s"}, {"tracking_rms", "%.3e rad"},
            {"tracking_rms_pct_of_move", "%.4f %%"}, {"tracking_max", "%.3e rad"},
            {"tracking_max_counts", "%.1f counts"}, {"tracking_max_at_rest", "%.3e rad"},
            {"move_distance", "%.2f rad"}, {"peak_torque_pct", "%.1f %% of peak"}, {"following_error_faults", "%s"},
            {"peak_lag_rad", "%.3e rad"}, {"skipped_frames", "%s"}, {"plant_missed_ticks", "%s"},
            {"plant_late_commands", "%s"}, {"drive_faults", "%s"}, {"handler_cpu_p50_us", "%.1f us"},
            {"handler_cpu_p99_us", "%.1f us"}, {"handler_cpu_max_us", "%.1f us"}, {"loop", "%s"},
            {"plant_loop", "%s"}, {"plant_tick_interval_us", "%s"},
            {"e2e_p50_us", "%.1f us"}, {"e2e_p99_us", "%.1f us"}, {"e2e_max_us", "%.1f us"},
            {"journal_records", "%s"}, {"journal_drops", "%s"}, {"journal_write_errors", "%s"}};
        for (final String[] row : rows)
        {
            out.printf(Locale.ROOT, "  %-26s " + row[1] + "%n", row[0], s.get(row[0]));
            if ("lost_frame_causes".equals(row[0]))
            {
                final Map<?, ?> lateness = (Map<?, ?>)s.get("lateness");
                for (final Map.Entry<?, ?> e : lateness.entrySet())
                {
                    final Map<?, ?> l = (Map<?, ?>)e.getValue();
                    out.printf(Locale.ROOT, "  %-26s p50 %.1f us  p99 %.1f us  max %.1f us  stalls %s%n",
                        "lateness_" + e.getKey(), l.get("p50_us"), l.get("p99_us"), l.get("max_us"), l.get("stalls"));
                }
            }
        }
        out.printf("  %-26s %s%n", "plant", s.get("plant"));
        if (s.get("hosts") != null)
        {
            out.printf("  %-26s %s%n", "hosts", s.get("hosts"));
        }
        out.printf("  %-26s %s%n", "plots", s.get("plots"));
        out.printf("  %-26s %s%n", "journals", s.get("journals"));
    }
}
