package io.rfmrt.cli.demo;

import com.fasterxml.jackson.databind.SerializationFeature;
import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.control.node.NodeResults.ControllerResult;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code rfmrt demo --controller-only --network NET}: the demo's controller node alone, on a network the caller
 * names, for sensor frames played back onto it ({@code rfmrt replay DIR --play --network NET --source 1}). It runs
 * from {@code DIR/controller.yaml} as in the demo, journals into {@code DIR/journal/controller}, and stops when the
 * playback has ended (the playback sets the layout's {@code plant.done} word, as the plant does) or on SIGINT/SIGTERM;
 * then it prints the controller's part of the demo summary and writes it to {@code DIR/summary.json}.
 */
final class DemoControllerOnly
{
    private DemoControllerOnly()
    {
    }

    static int run(final PrintWriter out, final boolean json, final Path outDir, final String network, final int rate,
        final String wait, final String profile, final String gainsYaml) throws Exception
    {
        final PrintWriter console = json ? new PrintWriter(System.err, true) : out;
        io.rfmrt.rfm.sim.SimNetwork.checkName(network);
        Files.createDirectories(outDir);
        if (DemoCommand.removePreviousRun(outDir))
        {
            console.printf("rfmrt demo: %s held a previous run; its journals, summary and plots were removed%n",
                outDir);
        }
        final Path journals = outDir.toAbsolutePath().resolve("journal");
        final Path config = DemoCommand.writeControllerConfig(outDir, network, journals, rate, wait, profile,
            gainsYaml);
        // the network the frames are played onto: made here when missing (and removed at the end if nobody else is
        // on it then), joined when it exists
        boolean made = false;
        if (!io.rfmrt.rfm.sim.SimNetwork.exists(network))
        {
            try
            {
                io.rfmrt.rfm.sim.SimNetwork.create(network, ControlFrames.LAYOUT.memorySize()).close();
                made = true;
            }
            catch (final io.rfmrt.rfm.RfmException ex)
            {
                // made by someone else meanwhile: joined below
            }
        }
        final AtomicReference<String> interrupted = new AtomicReference<>();
        final AtomicReference<Process> child = new AtomicReference<>();
        final sun.misc.SignalHandler stop = signal ->
        {
            interrupted.compareAndSet(null, "SIG" + signal.getName());
            final Process p = child.get();
            if (p != null)
            {
                p.toHandle().destroy();
            }
        };
        final sun.misc.SignalHandler oldInt = sun.misc.Signal.handle(new sun.misc.Signal("INT"), stop);
        final sun.misc.SignalHandler oldTerm = sun.misc.Signal.handle(new sun.misc.Signal("TERM"), stop);
        try
        {
            console.printf("rfmrt demo --controller-only: the controller (node %d) on network '%s', %d Hz%s; it " +
                "takes the sensor frames of node %d (rfmrt replay DIR --play --network %s --source %d)%n",
                ControlFrames.CONTROLLER_NODE, network, rate, gainsYaml == null ? "" : ", gains " + gainsYaml,
                ControlFrames.PLANT_NODE, network, ControlFrames.PLANT_NODE);
            console.flush();
            final Process controller = ChildJvm.start("node", "--child", "--config", config.toString());
            child.set(controller);
            if (interrupted.get() != null)
            {
                controller.toHandle().destroy();
            }
            final AtomicReference<String> result = new AtomicReference<>();
            final Thread relay = DemoCommand.relay(controller, console, result);
            DemoCommand.awaitReady(network, controller);
            console.println("rfmrt demo --controller-only: ready");
            console.flush();
            controller.waitFor();
            relay.join(5_000);
            if (controller.exitValue() != 0 && interrupted.get() == null || result.get() == null)
            {
                throw new IllegalStateException("the controller process failed (exit code " + controller.exitValue() +
                    "); see its line above");
            }
            final ControllerResult c = ChildResult.read(result.get(), ControllerResult.class);
            final Map<String, Object> summary = summary(c, rate, interrupted.get(), journals);
            try
            {
                Files.writeString(outDir.resolve("summary.json"), ChildResult.MAPPER.copy()
                    .enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(summary) + "\n");
            }
            catch (final java.io.IOException ex)
            {
                console.println("rfmrt demo: summary.json not written: " + Failures.describe(ex));
            }
            if (json)
            {
                out.println(ChildResult.MAPPER.writeValueAsString(summary));
            }
            else
            {
                out.println();
                out.print(c.placement());
                out.println(interrupted.get() == null ? "summary (controller only)" :
                    "summary (controller only, interrupted by " + interrupted.get() + ")");
                for (final Map.Entry<String, Object> e : summary.entrySet())
                {
                    out.printf(Locale.ROOT, "  %-26s %s%n", e.getKey(), e.getValue() instanceof Double d ?
                        String.format(Locale.ROOT, "%.4g", d) : e.getValue());
                }
            }
            out.flush();
            if (interrupted.get() != null)
            {
                return "SIGTERM".equals(interrupted.get()) ? DemoCommand.EXIT_SIGTERM : DemoCommand.EXIT_SIGINT;
            }
            return c.followingErrorFaults() > 0 ? ExitCodes.ERROR : ExitCodes.OK;
        }
        finally
        {
            final Process p = child.get();
            if (p != null && p.isAlive())
            {
                p.toHandle().destroy();
                if (!p.waitFor(30, TimeUnit.SECONDS))
                {
                    p.destroyForcibly();
                }
            }
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), oldInt);
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), oldTerm);
            if (made)
            {
                try
                {
                    io.rfmrt.rfm.sim.SimNetwork.destroy(network, false);
                }
                catch (final io.rfmrt.rfm.RfmException ex)
                {
                    console.println("rfmrt demo: network '" + network + "' left in place: " + ex.getMessage());
                }
            }
        }
    }

    /**
     * The controller's figures, named as in the demo's summary.
     */
    static Map<String, Object> summary(final ControllerResult c, final int rate, final String interrupted,
        final Path journals)
    {
        final Map<String, Object> s = new LinkedHashMap<>();
        s.put("cycles", c.cycles());
        s.put("lost_frames", c.lostFrames());
        s.put("torn_frames", c.tornFrames());
        s.put("skipped_frames", c.skippedFrames());
        s.put("deadline_misses", c.deadlineMisses());
        s.put("deadline_us", c.deadlineUs());
        s.put("watchdog_trips", c.watchdogTrips());
        s.put("watchdog_recoveries", c.watchdogRecoveries());
        s.put("following_error_faults", c.followingErrorFaults());
        s.put("tracking_rms", c.trackingRmsMoves());
        s.put("tracking_max", c.trackingMaxMoves());
        s.put("tracking_rms_all_running", c.trackingRms());
        s.put("move_distance", c.moveDistance());
        s.put("e2e_p50_us", c.e2eP50Us());
        s.put("e2e_p99_us", c.e2eP99Us());
        s.put("e2e_max_us", c.e2eMaxUs());
        s.put("journal_records", c.journalRecords());
        s.put("journal_drops", c.journalDrops());
        s.put("journal_write_errors", c.journalWriteErrors());
        s.put("rate_hz", rate);
        s.put("interrupted", interrupted == null ? "no" : interrupted);
        s.put("journals", List.of(journals.resolve("controller").toString()));
        return s;
    }
}
