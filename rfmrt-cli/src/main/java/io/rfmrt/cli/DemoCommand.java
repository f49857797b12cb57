package io.rfmrt.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rfmrt.control.DemoProfile;
import io.rfmrt.control.RateCheck;
import io.rfmrt.control.StallMatcher;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.control.node.ControllerApp;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.Lateness;
import io.rfmrt.control.node.NodeResults.PlantResult;
import io.rfmrt.control.node.PlantApp;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.sim.SimNetwork;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
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
    description = "Closed-loop motion control across two processes over interrupt + DMA on an emulated RFM network.")
final class DemoCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", defaultValue = "10", description = "How long to run (default ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--rate", defaultValue = "1000", description = "Loop rate in Hz (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--out", defaultValue = "rfmrt-demo", paramLabel = "DIR",
        description = "Where journals, plots and summary.json go (default ./${DEFAULT-VALUE}).")
    Path outDir;

    @Option(names = "--json", description = "Print the summary as one JSON object on stdout.")
    boolean json;

    @Option(names = "--wait", defaultValue = "INLINE", paramLabel = "MODE",
        description = "How the controller takes sensor frames: INLINE (the control law on the ISR-wake thread, one " +
            "wake per frame; default) or BLOCKING (a consumer thread, a second wake-up).")
    String wait;

    @Option(names = "--controller-only",
        description = "Run the controller alone on --network, for sensor frames played back onto it " +
            "(rfmrt replay DIR --play); it stops when the playback ends.")
    boolean controllerOnly;

    @Option(names = "--network", paramLabel = "NET",
        description = "With --controller-only: the emulated network (joined, or made when missing).")
    String network;

    @Option(names = "--gains", paramLabel = "FILE",
        description = "The controller's gains (YAML: ControllerGains settings; default the standard tune).")
    Path gains;

    @Option(names = "--law", paramLabel = "CLASS",
        description = "The controller's law: a ControlLaw class on the class path (RFMRT_CLASSPATH), run inside the " +
            "built-in safety layer; --gains then holds its settings (default the shipped cascaded PID).")
    String law;

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
        description = "The trajectory: standard (gentle moves, the default with the ideal plant) or fast (about " +
            "60 %% of peak torque or more, the default with the realistic plant).")
    String profileName;

    @Override
    public Integer call() throws Exception
    {
        if (seconds < 1 || seconds > 3600)
        {
            throw new Main.UsageException("--seconds " + seconds + " is not 1..3600");
        }
        if (!PlantApp.MODEL_IDEAL.equals(plantModel) && !PlantApp.MODEL_REALISTIC.equals(plantModel))
        {
            throw new Main.UsageException("--plant '" + plantModel + "' is not " + PlantApp.MODEL_IDEAL + " or " +
                PlantApp.MODEL_REALISTIC);
        }
        final boolean realistic = PlantApp.MODEL_REALISTIC.equals(plantModel);
        final String profile = profileName != null ? profileName : realistic ? DemoProfile.FAST : DemoProfile.STANDARD;
        if (!DemoProfile.STANDARD.equals(profile) && !DemoProfile.FAST.equals(profile))
        {
            throw new Main.UsageException("--profile '" + profile + "' is not " + DemoProfile.STANDARD + " or " +
                DemoProfile.FAST);
        }
        // one rule for the rate: the tune on the nominal axis and, with the realistic plant, on that axis too
        final List<String> rateProblems = new java.util.ArrayList<>(RateCheck.problems(rate));
        if (realistic && rateProblems.isEmpty())
        {
            rateProblems.addAll(RateCheck.realisticProblems(rate, REALISTIC_DELAY_PERIODS));
        }
        if (!rateProblems.isEmpty())
        {
            throw new Main.UsageException("--rate " + rate + ": " + RateCheck.join(rateProblems));
        }
        if (!"BLOCKING".equals(wait) && !"INLINE".equals(wait))
        {
            throw new Main.UsageException("--wait '" + wait + "' is not BLOCKING or INLINE");
        }
        if (controllerOnly != (network != null))
        {
            throw new Main.UsageException(controllerOnly ? "--controller-only needs --network NET (the network the " +
                "sensor frames are played onto)" :
                "--network is for --controller-only (the demo makes its own network)");
        }
        // the shipped law's gains are checked here; another law's settings go to it as they are (it checks them)
        final String gainsYaml = gains == null ? null : law != null ? ReplayLaw.settingsYaml(gains) :
            gainsYaml(io.rfmrt.control.law.GainsFile.load(gains, io.rfmrt.control.ControllerGains.standard()));
        if (controllerOnly)
        {
            if (fault != null || hosts)
            {
                throw new Main.UsageException("--fault and --hosts need the plant; --controller-only runs none");
            }
            if (law != null)
            {
                throw new Main.UsageException("--law runs with the demo's plant; --controller-only runs the shipped " +
                    "law");
            }
            return DemoControllerOnly.run(spec.commandLine().getOut(), json, outDir, network, rate, wait, profile,
                gainsYaml);
        }
        final long latencyNanos = latencyNanos(fault);
        final long stallNanos = stallNanos(fault, "plant");
        final long controllerStallNanos = stallNanos(fault, "controller");
        if (fault != null && !"sensor-dropout".equals(fault) && latencyNanos == 0 && stallNanos == 0 &&
            controllerStallNanos == 0)
        {
            throw new Main.UsageException("--fault '" + fault + "' is not sensor-dropout, latency:Nms (N 1..100), " +
                "plant-stall:Nms or controller-stall:Nms (N 1..1000)");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter console = json ? new PrintWriter(System.err, true) : out;
        final long cycles = (long)seconds * rate;
        final boolean dropout = "sensor-dropout".equals(fault);
        final long dropFrom = dropout ? Math.max(1, cycles * 40 / 100) : 0;
        final long dropTo = dropout ? cycles * 55 / 100 : 0;
        final long latencyFrom = latencyNanos > 0 ? Math.max(1, cycles * 40 / 100) : 0;
        final long stallAt = stallNanos > 0 || controllerStallNanos > 0 ? Math.max(1, cycles * 40 / 100) : 0;
        final String network = "demo-" + ProcessHandle.current().pid();
        Files.createDirectories(outDir);
        final Path journals = outDir.toAbsolutePath().resolve("journal");
        if (removePreviousRun(outDir))
        {
            console.printf("rfmrt demo: %s held a previous run; its journals, summary and plots were removed%n",
                outDir);
        }
        for (final String reclaimed : reclaimAbandoned(Instant.now()))
        {
            console.printf("rfmrt demo: %s%n", reclaimed);
        }
        final DemoHosts twoHosts = hosts ? DemoHosts.start(network, outDir, console) : null;
        if (twoHosts == null)
        {
            // the network is as large as the control layout says it must be (a node refuses a smaller one)
            SimNetwork.create(network, ControlFrames.LAYOUT.memorySize()).close();
        }
        // SIGINT/SIGTERM: stop both children cleanly (they flush their journals), then summarise what ran
        final AtomicReference<String> interrupted = new AtomicReference<>();
        final List<Process> children = new java.util.concurrent.CopyOnWriteArrayList<>();
        final sun.misc.SignalHandler stopRun = signal ->
        {
            interrupted.compareAndSet(null, "SIG" + signal.getName());
            children.forEach(child -> child.toHandle().destroy());
        };
        sun.misc.Signal.handle(new sun.misc.Signal("INT"), stopRun);
        sun.misc.Signal.handle(new sun.misc.Signal("TERM"), stopRun);
        try
        {
            console.printf("rfmrt demo: %s plant (node %d) and controller (node %d) in two processes%s, %s profile, " +
                "%d Hz for %d s%s%n", plantModel, ControlFrames.PLANT_NODE, ControlFrames.CONTROLLER_NODE,
                twoHosts == null ? "" : " on two hosts (network namespaces joined by rfmrt bridge)", profile,
                rate, seconds,
                fault == null ? "" : dropout ? String.format(", sensor dropout at %.1f-%.1f s", dropFrom / (double)rate,
                    dropTo / (double)rate) : stallNanos + controllerStallNanos > 0 ? String.format(
                    ", the %s held up for %d ms at %.1f s", stallNanos > 0 ? "plant" : "controller",
                    (stallNanos + controllerStallNanos) / 1_000_000, stallAt / (double)rate) :
                    String.format(", commands %d ms late from %.1f s",
                    latencyNanos / 1_000_000, latencyFrom / (double)rate));
            console.flush();
            final Path controllerYaml = writeConfigs(outDir, network, journals, rate, cycles, dropFrom, dropTo, wait,
                latencyFrom, latencyNanos, plantModel, profile, stallNanos > 0 ? stallAt : 0, stallNanos, gainsYaml);
            if (law != null)
            {
                Files.writeString(controllerYaml, "  law: " + yamlString(law) + "\n",
                    java.nio.file.StandardOpenOption.APPEND);
            }
            if (controllerStallNanos > 0)
            {
                // the controller's app: section ends its file
                Files.writeString(controllerYaml, "  stallAt: %d%n  stallNanos: %d%n".formatted(stallAt,
                    controllerStallNanos), java.nio.file.StandardOpenOption.APPEND);
            }
            final Process controller = twoHosts == null ?
                ChildJvm.start("node", "--child", "--config", controllerYaml.toString()) :
                twoHosts.start(DemoHosts.CONTROLLER_HOST, "node", "--child", "--config", controllerYaml.toString());
            children.add(controller);
            final AtomicReference<String> controllerResult = new AtomicReference<>();
            final Thread relay = relay(controller, console, controllerResult);
            if (twoHosts == null)
            {
                awaitReady(network, controller);
            }
            else
            {
                twoHosts.awaitController(controller);
            }
            final Process plant = twoHosts == null ? ChildJvm.start("node", "--child", "--config",
                outDir.resolve(PLANT_CONFIG).toString()) : twoHosts.start(DemoHosts.PLANT_HOST, "node", "--child",
                "--config", outDir.resolve(PLANT_CONFIG).toString());
            children.add(plant);
            if (interrupted.get() != null)
            {
                children.forEach(child -> child.toHandle().destroy());
            }
            final AtomicReference<String> plantResult = new AtomicReference<>();
            final Thread plantRelay = relay(plant, console, plantResult);
            final String failed = awaitChildren(plant, controller, seconds + 120L, children);
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
            final ObjectMapper mapper = ChildResult.MAPPER;
            final ControllerResult c = ChildResult.read(controllerResult.get(), ControllerResult.class);
            final PlantResult p = ChildResult.read(plantResult.get(), PlantResult.class);
            final Map<String, Object> stalls = matchStalls(c, p, TimeUnit.SECONDS.toNanos(1) / rate);
            final Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("cycles", c.cycles());
            summary.put("lost_frames", c.lostFrames());
            summary.put("deadline_misses", c.deadlineMisses());
            summary.put("watchdog_trips", c.watchdogTrips());
            summary.put("watchdog_recoveries", c.watchdogRecoveries());
            summary.putAll(stalls);
            summary.put("lost_frame_causes", mapper.convertValue(c.lostFrameCauses(), Map.class));
            summary.put("tracking_rms", c.trackingRmsMoves());
            summary.put("tracking_max", c.trackingMaxMoves());
            summary.put("tracking_max_at_rest", c.trackingMaxAtRest());
            summary.put("tracking_rms_all_running", c.trackingRms());
            summary.put("moving_cycles", c.movingCycles());
            summary.put("following_error_faults", c.followingErrorFaults());
            summary.put("fault_cycle", c.faultCycle());
            summary.put("fault_lag_rad", c.faultLagRad());
            summary.put("fault_limit_rad", c.faultLimitRad());
            summary.put("peak_lag_rad", c.peakLagRad());
            summary.put("skipped_frames", c.skippedFrames());
            summary.put("tracking_max_counts", c.trackingMaxMovesCounts());
            summary.put("encoder_bits", c.encoderBits());
            summary.put("peak_torque_pct", c.torqueLimitNm() > 0 ? 100.0 * c.peakTorqueNm() / c.torqueLimitNm() : 0.0);
            summary.put("handler_cpu_p50_us", c.loop().executionP50Us());
            summary.put("handler_cpu_p99_us", c.loop().executionP99Us());
            summary.put("handler_cpu_max_us", c.loop().executionMaxUs());
            summary.put("loop", mapper.convertValue(c.loop(), LinkedHashMap.class));
            summary.put("plant_loop", mapper.convertValue(p.loop(), LinkedHashMap.class));
            summary.put("drive_faults", p.driveFaults());
            summary.put("drive_fault_resets", p.driveFaultResets());
            final Map<String, Object> ticks = new LinkedHashMap<>();
            ticks.put("min", p.tickIntervalMinUs());
            ticks.put("p50", p.tickIntervalP50Us());
            ticks.put("p99", p.tickIntervalP99Us());
            ticks.put("max", p.tickIntervalMaxUs());
            summary.put("plant_tick_interval_us", ticks);
            summary.put("plant_missed_ticks", p.missedTicks());
            summary.put("plant_late_commands", p.lateCommands());
            summary.put("move_distance", c.moveDistance());
            summary.put("e2e_p50_us", c.e2eP50Us());
            summary.put("e2e_p99_us", c.e2eP99Us());
            summary.put("e2e_max_us", c.e2eMaxUs());
            summary.put("deadline_us", c.deadlineUs());
            summary.put("tracked_cycles", c.trackedCycles());
            summary.put("torn_frames", c.tornFrames());
            summary.put("journal_drops", c.journalDrops());
            summary.put("journal_write_errors", c.journalWriteErrors());
            summary.put("journal_records", c.journalRecords());
            summary.put("threads_after_warmup", mapper.convertValue(c.threadsAfterWarmup(), List.class));
            // a run too short to leave the first dwell commanded no move: no error relative to one (and no NaN)
            final double moved = c.moveDistance();
            summary.put("tracking_rms_pct_of_move", moved > 0 ? 100.0 * c.trackingRmsMoves() / moved : 0.0);
            summary.put("interrupted", interrupted.get() == null ? "no" : interrupted.get());
            summary.put("rate_hz", rate);
            summary.put("seconds", seconds);
            summary.put("fault", fault == null ? "none" : fault);
            summary.put("plant_model", plantModel);
            summary.put("profile", profile);
            summary.put("wait", wait);
            if (twoHosts != null)
            {
                summary.put("hosts", twoHosts.summary());
            }
            final Map<?, ?> plantFigures = mapper.convertValue(p, LinkedHashMap.class);
            // the stall times went into the matching above; the summary keeps the plant's counts
            plantFigures.remove("stall_start");
            plantFigures.remove("stall_end");
            plantFigures.remove("loop");
            summary.put("plant", plantFigures);
            summary.put("journals", Map.of("controller", journals.resolve("controller").toString(),
                "plant", journals.resolve("plant").toString()));
            final long lost = c.journalWriteErrors() + c.journalDrops() + p.journalWriteErrors() + p.journalDrops();
            if (lost > 0)
            {
                console.printf("rfmrt demo: warning: the journals lost %d records (write errors or full rings); " +
                    "replay and plots show only what was written%n", lost);
            }
            List<Path> plots = List.of();
            try
            {
                plots = DemoPlots.write(journals.resolve("controller"), outDir.resolve("plots"), rate,
                    c.deadlineUs());
            }
            catch (final RuntimeException | java.io.IOException ex)
            {
                // a journal that could not be written (full disk) leaves nothing to plot; the summary still counts
                console.println("rfmrt demo: plots not drawn: " + Main.describe(ex));
            }
            summary.put("plots", plots.stream().map(Path::toString).toList());
            try
            {
                Files.writeString(outDir.resolve("summary.json"),
                    mapper.enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(summary) + "\n");
            }
            catch (final java.io.IOException ex)
            {
                console.println("rfmrt demo: summary.json not written: " + Main.describe(ex));
            }
            if (json)
            {
                out.println(new ObjectMapper().writeValueAsString(summary));
            }
            else
            {
                printSummary(out, summary, c.placement());
            }
            if (c.followingErrorFaults() > 0)
            {
                // the fault reaction ran (quick stop, brake); the run is not a success
                console.printf(Locale.ROOT, "rfmrt demo: the axis faulted on its following error at cycle %d (lag " +
                    "%.2f mrad over the limit %.2f mrad for the filter time); quick-stopped and braked; FOLLOWING_ERROR is " +
                    "in the controller's journal%n", c.faultCycle(), c.faultLagRad() * 1e3, c.faultLimitRad() * 1e3);
                return Main.EXIT_ERROR;
            }
            if (interrupted.get() != null)
            {
                console.printf("rfmrt demo: interrupted by %s after %s cycles; the summary above covers them%n",
                    interrupted.get(), summary.get("cycles"));
                return "SIGTERM".equals(interrupted.get()) ? EXIT_SIGTERM : EXIT_SIGINT;
            }
            return Main.EXIT_OK;
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
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_DFL);
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), sun.misc.SignalHandler.SIG_DFL);
        }
    }

    private static void printSummary(final PrintWriter out, final Map<String, Object> s, final String placement)
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

    /**
     * Match the controller's deadline misses and watchdog trips against the stalls both nodes measured (the rule is
     * {@link StallMatcher}'s, with one period of slack; docs/control.md, "Stalls").
     *
     * @param c           the controller's result.
     * @param p           the plant's result.
     * @param periodNanos the loop period.
     * @return the summary's stall figures, in order.
     */
    static Map<String, Object> matchStalls(final ControllerResult c, final PlantResult p, final long periodNanos)
    {
        final long[] starts = concat(c.stallStart(), p.stallStart());
        final long[] ends = concat(c.stallEnd(), p.stallEnd());
        final StallMatcher matcher = new StallMatcher(starts, ends, starts.length, periodNanos);
        final StallMatcher.Misses misses = matcher.classify(c.missFrom(), c.missTo(), c.missWake(),
            c.missOffCpu(), c.missFrom().length, Math.round(c.deadlineUs() * 1_000));
        final long tripsMatched = matcher.matched(c.tripFrom(), c.tripTo(), c.tripFrom().length);
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("misses_matched", misses.matched());
        m.put("misses_late_wake", misses.lateWake());
        m.put("misses_preempted", misses.preempted());
        m.put("misses_unexplained", misses.unexplained());
        // beyond what the controller kept with times (very long runs): neither matched nor unexplained
        m.put("misses_unchecked", c.missesNotKept());
        m.put("trips_matched", tripsMatched);
        m.put("trips_unexplained", c.tripFrom().length - tripsMatched);
        m.put("trips_unchecked", c.tripsNotKept());
        final Map<String, Lateness> threads = new LinkedHashMap<>();
        threads.put("plant", p.lateness());
        threads.put("controller", c.lateness());
        threads.put("watchdog_timer", c.watchdogTimerLateness());
        final Map<String, Object> lateness = new LinkedHashMap<>();
        long count = 0;
        double longest = 0;
        for (final Map.Entry<String, Lateness> e : threads.entrySet())
        {
            count += e.getValue().stalls();
            longest = Math.max(longest, e.getValue().longestStallUs());
            lateness.put(e.getKey(), ChildResult.MAPPER.convertValue(e.getValue(), LinkedHashMap.class));
        }
        m.put("stalls", count);
        m.put("longest_stall_us", longest);
        m.put("lateness", lateness);
        return m;
    }

    private static long[] concat(final long[] a, final long[] b)
    {
        final long[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Exit code of a run stopped by SIGINT (128 + 2). */
    static final int EXIT_SIGINT = 130;
    /** Exit code of a run stopped by SIGTERM (128 + 15). */
    static final int EXIT_SIGTERM = 143;

    /**
     * Wait for both children: the plant ends the run, the controller stops after it. When one of them exits with a
     * failure first, the other is stopped at once (SIGTERM: it closes in order and flushes its journal) instead of
     * waiting for a plant or a "done" that will not come.
     *
     * @return "plant" or "controller", whichever failed first, or null when neither failed.
     */
    private static String awaitChildren(final Process plant, final Process controller, final long plantSeconds,
        final List<Process> children) throws InterruptedException
    {
        final long plantDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(plantSeconds);
        long controllerDeadline = Long.MAX_VALUE;
        String failed = null;
        while (plant.isAlive() || controller.isAlive())
        {
            if (failed == null)
            {
                if (!plant.isAlive() && plant.exitValue() != 0)
                {
                    failed = "plant";
                }
                else if (!controller.isAlive() && controller.exitValue() != 0)
                {
                    failed = "controller";
                }
                if (failed != null)
                {
                    children.forEach(child -> child.toHandle().destroy());
                    controllerDeadline = Math.min(controllerDeadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
                }
            }
            if (!plant.isAlive() && controllerDeadline == Long.MAX_VALUE)
            {
                controllerDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            }
            final long now = System.nanoTime();
            if (plant.isAlive() && now > plantDeadline || now > controllerDeadline)
            {
                plant.destroyForcibly();
                controller.destroyForcibly();
                throw new IllegalStateException("the demo processes did not finish");
            }
            (plant.isAlive() ? plant : controller).waitFor(50, TimeUnit.MILLISECONDS);
        }
        if (failed == null)
        {
            failed = plant.exitValue() != 0 ? "plant" : controller.exitValue() != 0 ? "controller" : null;
        }
        return failed;
    }

    /** A demo's network is named after the demo's pid. */
    private static final java.util.regex.Pattern DEMO_NETWORK = java.util.regex.Pattern.compile("demo-([0-9]{1,10})");

    /**
     * How much later than its network a process may seem to have started and still be the demo that made it: the
     * kernel gives a process's start in clock ticks after a boot time it states in whole seconds.
     */
    static final java.time.Duration START_CLOCK_SLACK = java.time.Duration.ofSeconds(2);

    /**
     * Remove the networks of demos that are gone: a {@code demo-PID} network in the networks' folder whose demo no
     * longer runs, that is, no process has that pid, or the one that has it started after the network was made (the
     * pid was reused). A network a live process still holds a node of is left (the sim's own rule, as
     * {@code rfm destroy} without {@code --force}); so is one that cannot be read.
     *
     * @param now the time now, for the age in the lines.
     * @return one line per network removed or left, naming it and why.
     */
    static List<String> reclaimAbandoned(final Instant now)
    {
        final Path root = SimNetwork.root();
        final List<String> names = new java.util.ArrayList<>();
        if (!Files.isDirectory(root, java.nio.file.LinkOption.NOFOLLOW_LINKS))
        {
            return List.of();
        }
        try (java.nio.file.DirectoryStream<Path> folders = Files.newDirectoryStream(root))
        {
            for (final Path folder : folders)
            {
                names.add(folder.getFileName().toString());
            }
        }
        catch (final java.io.IOException | java.nio.file.DirectoryIteratorException ex)
        {
            return List.of();
        }
        final List<String> lines = new java.util.ArrayList<>();
        for (final String name : new java.util.TreeSet<>(names))
        {
            final java.util.regex.Matcher m = DEMO_NETWORK.matcher(name);
            if (!m.matches() || Long.parseLong(m.group(1)) == ProcessHandle.current().pid() ||
                !SimNetwork.exists(name))
            {
                continue;
            }
            final long pid = Long.parseLong(m.group(1));
            try
            {
                final long created;
                try (SimNetwork net = SimNetwork.attach(name))
                {
                    created = net.createdMillis();
                }
                final String gone = ownerGone(pid, Instant.ofEpochMilli(created));
                if (gone != null)
                {
                    SimNetwork.destroy(name, false);
                    lines.add(String.format("removed network %s, made %d s ago by a demo that is gone (%s)", name,
                        Math.max(0, java.time.Duration.between(Instant.ofEpochMilli(created), now).toSeconds()),
                        gone));
                }
            }
            catch (final io.rfmrt.rfm.RfmException ex)
            {
                lines.add("left network " + name + ": " + ex.getMessage());
            }
        }
        return lines;
    }

    /**
     * @return why the demo of this pid is gone, or null when it may still run.
     */
    private static String ownerGone(final long pid, final Instant created)
    {
        final java.util.Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive())
        {
            return "no process " + pid;
        }
        final java.util.Optional<Instant> started = process.get().info().startInstant();
        if (started.isPresent() && started.get().isAfter(created.plus(START_CLOCK_SLACK)))
        {
            return "process " + pid + " started after the network was made: its pid was reused";
        }
        return null;
    }

    /**
     * A second run into the same folder starts clean: the files an earlier demo run wrote there (journal queue
     * files, summary.json, the two plots) are removed by name; anything else stays.
     *
     * @return whether there was anything to remove.
     */
    static boolean removePreviousRun(final Path out) throws java.io.IOException
    {
        boolean any = false;
        for (final String node : List.of("plant", "controller"))
        {
            final Path dir = out.resolve("journal").resolve(node);
            if (Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS))
            {
                try (java.util.stream.Stream<Path> files = Files.list(dir))
                {
                    for (final Path f : files.toList())
                    {
                        final String name = f.getFileName().toString();
                        if ((name.endsWith(".cq4") || name.endsWith(".cq4t")) &&
                            Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        {
                            Files.delete(f);
                            any = true;
                        }
                    }
                }
            }
        }
        for (final String name : List.of("summary.json", "plots/tracking.png", "plots/latency.png"))
        {
            any |= Files.deleteIfExists(out.resolve(name));
        }
        return any;
    }

    static void awaitReady(final String network, final Process controller) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true)
        {
            try (SimNetwork net = SimNetwork.attach(network))
            {
                if (net.cards().stream().anyMatch(c -> c.node() == ControlFrames.CONTROLLER_NODE && c.ownerAlive() &&
                    (c.enabledMask() & EventType.INTR1.mask()) != 0))
                {
                    return;
                }
            }
            if (System.nanoTime() > deadline || !controller.isAlive())
            {
                throw new IllegalStateException("the controller process did not come up");
            }
            Thread.sleep(10);
        }
    }

    static Thread relay(final Process process, final PrintWriter console, final AtomicReference<String> result)
    {
        final Thread t = new Thread(() ->
        {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = lines.readLine()) != null)
                {
                    if (ChildResult.is(line))
                    {
                        result.set(line);
                    }
                    else
                    {
                        console.println(line);
                        console.flush();
                    }
                }
            }
            catch (final java.io.IOException ignore)
            {
                // the process ended
            }
        }, "rfmrt-demo-relay");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The realistic plant's transport delay (its default): the rate is checked with it. */
    static final int REALISTIC_DELAY_PERIODS = 1;

    /** The controller's configuration, written into the demo's folder. */
    static final String CONTROLLER_CONFIG = "controller.yaml";
    /** The plant's configuration, written into the demo's folder. */
    static final String PLANT_CONFIG = "plant.yaml";
    /** The control layout, written beside them. */
    static final String LAYOUT_CONFIG = "layout.yaml";

    /**
     * @param fault the --fault value, or {@code null}.
     * @param node  {@code plant} or {@code controller}.
     * @return the hold-up of a {@code NODE-stall:Nms} fault (N 1..1000), ns; 0 for anything else.
     */
    static long stallNanos(final String fault, final String node)
    {
        final String prefix = node + "-stall:";
        if (fault == null || !fault.matches(prefix + "[0-9]{1,4}ms"))
        {
            return 0;
        }
        final int ms = Integer.parseInt(fault.substring(prefix.length(), fault.length() - 2));
        return ms >= 1 && ms <= 1000 ? TimeUnit.MILLISECONDS.toNanos(ms) : 0;
    }

    /**
     * @param fault the --fault value, or {@code null}.
     * @return the latency of a {@code latency:Nms} fault (N 1..100), ns; 0 for anything else.
     */
    static long latencyNanos(final String fault)
    {
        if (fault == null || !fault.matches("latency:[0-9]{1,3}ms"))
        {
            return 0;
        }
        final int ms = Integer.parseInt(fault.substring("latency:".length(), fault.length() - 2));
        return ms >= 1 && ms <= 100 ? TimeUnit.MILLISECONDS.toNanos(ms) : 0;
    }

    /**
     * Write the two nodes' configurations and the control layout into the demo's folder: the demo runs what a
     * production deployment would run from deploy/conf/controller.yaml and plant.yaml, on its own network.
     *
     * @return the controller's configuration.
     */
    static Path writeConfigs(final Path out, final String network, final Path journals, final int rate,
        final long cycles, final long dropFrom, final long dropTo, final String wait, final long latencyFrom,
        final long latencyNanos, final String model, final String profile, final long stallAt, final long stallNanos)
        throws java.io.IOException
    {
        return writeConfigs(out, network, journals, rate, cycles, dropFrom, dropTo, wait, latencyFrom, latencyNanos,
            model, profile, stallAt, stallNanos, null);
    }

    /**
     * As above, the controller with the gains given.
     *
     * @param gainsYaml the controller's {@code gains:} mapping (one line of flow YAML), or {@code null} for the
     *                  standard tune.
     * @return the controller's configuration.
     */
    static Path writeConfigs(final Path out, final String network, final Path journals, final int rate,
        final long cycles, final long dropFrom, final long dropTo, final String wait, final long latencyFrom,
        final long latencyNanos, final String model, final String profile, final long stallAt, final long stallNanos,
        final String gainsYaml) throws java.io.IOException
    {
        final Path controller = writeControllerConfig(out, network, journals, rate, wait, profile, gainsYaml);
        final String threads = THREADS;
        Files.writeString(out.resolve(PLANT_CONFIG), """
            # written by rfmrt demo: the plant node (deploy/conf/plant.yaml, on the demo's network)
            device: %s
            layout: %s
            receive:
              channels: [axis.command]
              wait: BLOCKING
            %sjournal:
              enabled: true
              dir: %s
            app:
              name: %s
              rateHz: %d
              cycles: %d
              dropoutFrom: %d
              dropoutTo: %d
              latencyFrom: %d
              latencyNanos: %d
              model: %s
              stallAt: %d
              stallNanos: %d
            """.formatted(ControlFrames.deviceUri(network, ControlFrames.PLANT_NODE), LAYOUT_CONFIG, threads,
            yamlString(journals.resolve("plant").toString()), PlantApp.NAME, rate, cycles, dropFrom, dropTo,
            latencyFrom, latencyNanos, model, stallAt, stallNanos));
        return controller;
    }

    /** The threads section of both nodes' configurations. */
    private static final String THREADS = """
            threads:
              cpus: []                  # the isolated cores, else best effort
              isr:       {priority: 80}
              consumer:  {priority: 70}
              lockMemory: true
              cpuDmaLatency: true
            strict: false
            heartbeat: 0
            """;

    /**
     * Write the controller's configuration and the control layout into a folder.
     *
     * @param gainsYaml the app's {@code gains:} mapping (one line of flow YAML), or {@code null} for the standard tune.
     * @return the controller's configuration.
     */
    static Path writeControllerConfig(final Path out, final String network, final Path journals, final int rate,
        final String wait, final String profile, final String gainsYaml) throws java.io.IOException
    {
        Files.writeString(out.resolve(LAYOUT_CONFIG), ControlFrames.layoutText());
        final Path controller = out.resolve(CONTROLLER_CONFIG);
        Files.writeString(controller, """
            # written by rfmrt demo: the controller node (deploy/conf/controller.yaml, on the demo's network)
            device: %s
            layout: %s
            receive:
              channels: [axis.sensor]
              wait: %s
            %sjournal:
              enabled: true
              dir: %s
            app:
              name: %s
              rateHz: %d
              profile: %s
            """.formatted(ControlFrames.deviceUri(network, ControlFrames.CONTROLLER_NODE), LAYOUT_CONFIG, wait,
            THREADS, yamlString(journals.resolve("controller").toString()), ControllerApp.NAME, rate, profile) +
            (gainsYaml == null ? "" : "  gains: " + gainsYaml + "\n"));
        return controller;
    }

    /**
     * @param gains controller gains.
     * @return them as a one-line YAML mapping of every setting but the period (the node sets it from its rate).
     */
    static String gainsYaml(final io.rfmrt.control.ControllerGains gains)
    {
        final StringBuilder yaml = new StringBuilder("{");
        for (final java.lang.reflect.RecordComponent c : io.rfmrt.control.ControllerGains.class.getRecordComponents())
        {
            if ("periodSeconds".equals(c.getName()))
            {
                continue;
            }
            try
            {
                yaml.append(yaml.length() > 1 ? ", " : "").append(c.getName()).append(": ")
                    .append(c.getAccessor().invoke(gains));
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new IllegalStateException("cannot read ControllerGains." + c.getName(), ex);
            }
        }
        return yaml.append('}').toString();
    }

    private static String yamlString(final String text)
    {
        return "'" + text.replace("'", "''") + "'";
    }
}
