package io.rfmrt.cli.demo;

import io.rfmrt.cli.common.ChildJvm;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Failures;
import io.rfmrt.control.node.ControlFrames;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.rfm.RfmException;
import io.rfmrt.rfm.sim.SimNetwork;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.IOException;
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
        final String wait, final DemoConfigs.ControllerSettings settings) throws Exception
    {
        final PrintWriter console = json ? new PrintWriter(System.err, true) : out;
        SimNetwork.checkName(network);
        Files.createDirectories(outDir);
        if (DemoLeftovers.removePreviousRun(outDir))
        {
            console.printf("rfmrt demo: %s held a previous run; its journals, summary and plots were removed%n",
                outDir);
        }
        final Path journals = outDir.toAbsolutePath().resolve("journal");
        final Path config = DemoConfigs.writeController(outDir, network, journals, wait, settings);
        // the network the frames are played onto: made here when missing (and removed at the end if nobody else is
        // on it then), joined when it exists
        boolean made = false;
        if (!SimNetwork.exists(network))
        {
            try
            {
                SimNetwork.create(network, ControlFrames.LAYOUT.memorySize()).close();
                made = true;
            }
            catch (final RfmException ex)
            {
                // made by someone else meanwhile: joined below
            }
        }
        final AtomicReference<String> interrupted = new AtomicReference<>();
        final AtomicReference<Process> child = new AtomicReference<>();
        final SignalHandler stop = signal ->
        {
            interrupted.compareAndSet(null, "SIG" + signal.getName());
            final Process p = child.get();
            if (p != null)
            {
                p.toHandle().destroy();
            }
        };
        final SignalHandler oldInt = Signal.handle(new Signal("INT"), stop);
        final SignalHandler oldTerm = Signal.handle(new Signal("TERM"), stop);
        try
        {
            console.printf("rfmrt demo --controller-only: the controller (node %d) on network '%s', %d Hz%s; it " +
                "takes the sensor frames of node %d (rfmrt replay DIR --play --network %s --source %d)%n",
                ControlFrames.CONTROLLER_NODE, network, rate, (settings.law() == null ? "" : ", law " + settings.law()) +
                    (settings.gains() == null ? "" : ", gains " + DemoConfigs.text(settings.gains())),
                ControlFrames.PLANT_NODE, network, ControlFrames.PLANT_NODE);
            console.flush();
            final Process controller = ChildJvm.start("node", "--child", "--config", config.toString());
            child.set(controller);
            if (interrupted.get() != null)
            {
                controller.toHandle().destroy();
            }
            final AtomicReference<String> result = new AtomicReference<>();
            final Thread relay = DemoProcesses.relay(controller, console, result);
            DemoProcesses.awaitReady(network, controller);
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
            final Summary summary = Summary.of(c, rate, interrupted.get(), journals);
            try
            {
                Files.writeString(outDir.resolve("summary.json"), ChildResult.pretty(summary) + "\n");
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
                out.println();
                out.print(c.placement());
                out.println(interrupted.get() == null ? "summary (controller only)" :
                    "summary (controller only, interrupted by " + interrupted.get() + ")");
                final Map<?, ?> figures = ChildResult.MAPPER.convertValue(summary, LinkedHashMap.class);
                for (final String[] row : TABLE)
                {
                    out.printf(Locale.ROOT, "  %-26s %s%n", row[0],
                        String.format(Locale.ROOT, row[1], figures.get(row[0])));
                }
            }
            out.flush();
            if (interrupted.get() != null)
            {
                return ExitCodes.stoppedBy(interrupted.get());
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
            Signal.handle(new Signal("INT"), oldInt);
            Signal.handle(new Signal("TERM"), oldTerm);
            if (made)
            {
                try
                {
                    SimNetwork.destroy(network, false);
                }
                catch (final RfmException ex)
                {
                    console.println("rfmrt demo: network '" + network + "' left in place: " + ex.getMessage());
                }
            }
        }
    }

    /** The summary table's rows: every figure of {@link Summary}, by its JSON name, and its format. */
    static final String[][] TABLE = {
        {"cycles", "%s"}, {"lost_frames", "%s"}, {"torn_frames", "%s"}, {"skipped_frames", "%s"},
        {"deadline_misses", "%s"}, {"deadline_us", "%.4g"}, {"watchdog_trips", "%s"}, {"watchdog_recoveries", "%s"},
        {"following_error_faults", "%s"}, {"tracking_rms", "%.4g"}, {"tracking_max", "%.4g"},
        {"tracking_rms_all_running", "%.4g"}, {"move_distance", "%.4g"}, {"e2e_p50_us", "%.4g"},
        {"e2e_p99_us", "%.4g"}, {"e2e_max_us", "%.4g"}, {"journal_records", "%s"}, {"journal_drops", "%s"},
        {"journal_write_errors", "%s"}, {"rate_hz", "%s"}, {"interrupted", "%s"}, {"journals", "%s"}};

    /**
     * The controller's figures, named as in the demo's summary ({@link DemoSummary}): {@code DIR/summary.json}, the
     * {@code --json} line and the summary table of a {@code --controller-only} run.
     *
     * @param cycles                the controller's cycles.
     * @param lostFrames            sensor frames lost.
     * @param tornFrames            torn frames.
     * @param skippedFrames         sensor frames skipped for a newer one.
     * @param deadlineMisses        cycles answered after the deadline.
     * @param deadlineUs            the deadline, µs.
     * @param watchdogTrips         times the watchdog drove the axis to SAFE.
     * @param watchdogRecoveries    times it came back.
     * @param followingErrorFaults  times the axis faulted on its following error.
     * @param trackingRms           tracking error while moving, rms, rad.
     * @param trackingMax           its largest, rad.
     * @param trackingRmsAllRunning tracking error over every running cycle, rms, rad.
     * @param moveDistance          the distance the profile moves, rad.
     * @param e2eP50Us              sensor stamp to command, median, µs.
     * @param e2eP99Us              its 99th percentile, µs.
     * @param e2eMaxUs              its largest, µs.
     * @param journalRecords        journal records written.
     * @param journalDrops          journal records dropped.
     * @param journalWriteErrors    journal write errors.
     * @param rateHz                the loop rate.
     * @param interrupted           "no", or the signal that stopped the run.
     * @param journals              the controller's journal folder.
     */
    record Summary(long cycles, long lostFrames, long tornFrames, long skippedFrames, long deadlineMisses,
        double deadlineUs, long watchdogTrips, long watchdogRecoveries, long followingErrorFaults, double trackingRms,
        double trackingMax, double trackingRmsAllRunning, double moveDistance, double e2eP50Us, double e2eP99Us,
        double e2eMaxUs, long journalRecords, long journalDrops, long journalWriteErrors, int rateHz,
        String interrupted, List<String> journals)
    {
        static Summary of(final ControllerResult c, final int rate, final String interrupted, final Path journals)
        {
            return new Summary(c.cycles(), c.lostFrames(), c.tornFrames(), c.skippedFrames(), c.deadlineMisses(),
                c.deadlineUs(), c.watchdogTrips(), c.watchdogRecoveries(), c.followingErrorFaults(),
                c.trackingRmsMoves(), c.trackingMaxMoves(), c.trackingRms(), c.moveDistance(), c.e2eP50Us(),
                c.e2eP99Us(), c.e2eMaxUs(), c.journalRecords(), c.journalDrops(), c.journalWriteErrors(), rate,
                interrupted == null ? "no" : interrupted, List.of(journals.resolve("controller").toString()));
        }
    }
}
