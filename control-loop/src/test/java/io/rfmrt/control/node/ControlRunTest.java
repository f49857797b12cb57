package io.rfmrt.control.node;

import io.rfmrt.control.Cia402Drive;
import io.rfmrt.control.ControlLaw;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.control.law.PdFeedForwardLaw;
import io.rfmrt.control.node.NodeResults.ControllerResult;
import io.rfmrt.control.node.NodeResults.PlantResult;
import io.rfmrt.control.replay.ControlRerun;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameView;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.FrameHandler;
import io.rfmrt.runtime.NodeApp;
import io.rfmrt.runtime.NodeContext;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.StageStamps;
import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.counters.AppCounter;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.CountersSnapshot;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plant and the controller as nodes in this JVM on an emulated network, each run to its end: nothing fails
 * silently. A second run on the same network works; commands the drive ignores are counted and warned of once, by
 * why; a controller that never comes or goes away is warned of and makes the run unsound; the two sides' rates are
 * checked against each other. A test law ({@link TestLaw}) stands in for a user's controller where the built-in one
 * would not send the frames under test.
 */
@Tag("nodes")
class ControlRunTest
{
    private static final long WAIT_SECONDS = 60;

    private Path root;
    private String previousRoot;
    private final String network = "run-" + UUID.randomUUID().toString().substring(0, 8);
    @TempDir
    Path dir;

    @BeforeEach
    void setUp() throws IOException
    {
        previousRoot = System.getProperty(SimNetwork.ROOT_PROPERTY);
        root = Path.of("/dev/shm", "rfmrt-control-run-test-" + UUID.randomUUID());
        System.setProperty(SimNetwork.ROOT_PROPERTY, root.toString());
        Files.writeString(dir.resolve("layout.yaml"), ControlFrames.layoutText());
    }

    @AfterEach
    void tearDown() throws IOException
    {
        if (previousRoot == null)
        {
            System.clearProperty(SimNetwork.ROOT_PROPERTY);
        }
        else
        {
            System.setProperty(SimNetwork.ROOT_PROPERTY, previousRoot);
        }
        if (Files.exists(root))
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                for (final Path p : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Test
    void shouldRunASecondTimeOnTheSameNetworkAfterACleanEnd() throws Exception
    {
        // the second run longer than the first: the first plant's done word (its last cycle, 100) must not end it
        final long[] cycles = {100, 400};
        for (int run = 1; run <= 2; run++)
        {
            // the controller first, as the demo starts them: on the second run the word the first plant left set,
            // and the first plant's frames in the sensor ring, are there before the new plant starts
            final Node controller = Node.start(controllerYaml(run, 1000), null);
            final Node plant = Node.start(plantYaml(run, 1000, cycles[run - 1]), null);
            plant.await();
            controller.await();
            final ControllerResult c = (ControllerResult)controller.app.result();
            final PlantResult p = (PlantResult)plant.app.result();

            assertThat(p.cycles()).as("run %d: plant", run).isGreaterThanOrEqualTo(cycles[run - 1]);
            // the controller ran until the plant's last frame: it handled every frame the plant published
            assertThat(c.cycles() + c.lostFrames()).as("run %d: controller cycles; %s", run, controller.lines)
                .isEqualTo(p.sensorFrames());
            assertThat(controller.app.problem()).as("run %d", run).isNull();
            assertThat(String.valueOf(plant.app.problem())).as("run %d", run).doesNotStartWith("plant: no command");
        }
    }

    @Test
    void shouldKeepTheLoopsFiguresInEachNodesCountersFileForReadersOutsideTheProcess() throws Exception
    {
        final Node controller = Node.start(controllerYaml(1, 1000), null);
        final Node plant = Node.start(plantYaml(1, 1000, 3000), null);
        // the monitor's line of the second second: it has set the figures at least once with frames, and the plant's
        // housekeeping thread, a second after its start, too
        controller.awaitLines(1, "   2 s");
        final CountersSnapshot c = CountersSnapshot.read(NodeCounters.fileFor(
            ControlFrames.deviceUri(network, ControlFrames.CONTROLLER_NODE), ControlFrames.CONTROLLER_NODE));
        final CountersSnapshot p = CountersSnapshot.read(NodeCounters.fileFor(
            ControlFrames.deviceUri(network, ControlFrames.PLANT_NODE), ControlFrames.PLANT_NODE));
        assertThat(c.value(CounterIds.app(AppCounter.LOOP_CYCLES))).as("controller cycles").isPositive()
            .isLessThanOrEqualTo(c.value(CounterIds.runtime(RuntimeCounter.FRAMES_HANDLED)));
        assertThat(c.value(CounterIds.app(AppCounter.E2E_P99_NS))).as("e2e p99").isPositive();
        assertThat(c.value(CounterIds.app(AppCounter.E2E_MAX_NS))).as("e2e max")
            .isGreaterThanOrEqualTo(c.value(CounterIds.app(AppCounter.E2E_P99_NS)));
        assertThat(c.value(CounterIds.app(AppCounter.MISSED_TICKS))).as("a plant's figure").isZero();
        assertThat(p.value(CounterIds.app(AppCounter.LOOP_CYCLES))).as("plant ticks").isPositive();
        assertThat(p.value(CounterIds.app(AppCounter.E2E_P99_NS))).as("a controller's figure").isZero();
        plant.await();
        controller.await();
        // counts only grow: what a reader saw is at most what the run ended with
        final ControllerResult cr = (ControllerResult)controller.app.result();
        final PlantResult pr = (PlantResult)plant.app.result();
        assertThat(c.value(CounterIds.app(AppCounter.DEADLINE_MISSES))).isLessThanOrEqualTo(cr.deadlineMisses());
        assertThat(c.value(CounterIds.app(AppCounter.WATCHDOG_TRIPS))).isLessThanOrEqualTo(cr.watchdogTrips());
        assertThat(c.value(CounterIds.app(AppCounter.E2E_MAX_NS)) / 1e3).isLessThanOrEqualTo(cr.e2eMaxUs());
        assertThat(p.value(CounterIds.app(AppCounter.LOOP_CYCLES))).isLessThanOrEqualTo(pr.ticksTaken());
        assertThat(p.value(CounterIds.app(AppCounter.MISSED_TICKS))).isLessThanOrEqualTo(pr.missedTicks());
        assertThat(p.value(CounterIds.app(AppCounter.LATE_COMMANDS))).isLessThanOrEqualTo(pr.lateCommands());
        assertThat(p.value(CounterIds.app(AppCounter.DRIVE_FAULTS))).isLessThanOrEqualTo(pr.driveFaults());
    }

    @Test
    void shouldHostALawGivenByClassInsideTheSafetyLayerAndReRunItBitForBit() throws Exception
    {
        final Node controller = Node.start(controllerYaml(1, 1000, ", law: " + PdFeedForwardLaw.class.getName() +
            ", gains: {kpNmPerRad: 8.0}"), null);
        final Node plant = Node.start(plantYaml(1, 1000, 3000), null);
        plant.await();
        controller.await();
        final ControllerResult c = (ControllerResult)controller.app.result();
        final ControlLaw law = ((ControllerApp)controller.app).law();

        assertThat(law).isInstanceOf(PdFeedForwardLaw.class);
        assertThat(controller.app.problem()).as(controller.lines.toString()).isNull();
        // the safety layer brought the drive up and handed the axis to the law (how far it then moved, and how well,
        // depends on how often a busy machine made the watchdog trip: ControlLawTest judges the tracking)
        assertThat(c.trackedCycles()).as(controller.lines.toString()).isPositive();
        assertThat(c.trackingRms()).isFinite();
        assertThat(c.torqueLimitNm()).isEqualTo(law.torqueLimitNm()).isEqualTo(0.5);

        // its journal re-runs bit for bit with the same law, however the run went
        final ControlRerun rerun = new ControlRerun();
        Replay.run(dir.resolve("journal-controller-1"), ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(rerun));
        final ControlRerun.Comparison same = rerun.compare(law, 1e-3);
        assertThat(same.running()).isPositive().isLessThanOrEqualTo(c.trackedCycles());
        assertThat(same.divergences()).as("first at %d", same.firstCycle()).isZero();
    }

    @Test
    void shouldRunAnExcitationInTheLoopAndJournalEachCycleAndItsEnd() throws Exception
    {
        final Node controller = Node.start(controllerYaml(1, 1000,
            ", excite: 'chirp:point=torque,f0=5,f1=100,amp=0.05,seconds=0.5,start=0.3'"), null);
        final Node plant = Node.start(plantYaml(1, 1000, 1200), null);
        plant.await();
        controller.await();
        final ControllerResult c = (ControllerResult)controller.app.result();
        final Excited journal = Excited.read(dir.resolve("journal-controller-1"));

        assertThat(controller.app.problem()).as(controller.lines.toString()).isNull();
        assertThat(journal.stops).as("one EXCITATION_STOPPED").hasSize(1);
        final long reason = journal.stops.get(0);
        if (reason == ControlJournal.EXCITATION_DONE)
        {
            assertThat(journal.samples).as("500 cycles of chirp, 20 of fade").isEqualTo(520);
        }
        else if (reason == ControlJournal.EXCITATION_DEADLINE_MISSES)
        {
            // a loaded machine may hold the loop up for 3 deadlines in 100 cycles: the excitation fades out; the
            // misses are there
            assertThat(c.deadlineMisses()).as(controller.lines.toString()).isGreaterThanOrEqualTo(3);
        }
        else
        {
            // a loaded machine may trip the watchdog before the sweep (refused: the axis was not driven when it was
            // due) or during it (stopped at once); the trip is there
            assertThat(reason).isIn((long)ControlJournal.EXCITATION_FAULT, (long)ControlJournal.EXCITATION_REFUSED);
            assertThat(c.watchdogTrips() + c.followingErrorFaults()).as(controller.lines.toString()).isPositive();
        }
        assertThat(journal.unpaired).as("each EXCITATION sample stamped as its cycle's CONTROL sample").isZero();
        assertThat(journal.notAdded).as("the command is the law's torque plus the injection").isZero();
        assertThat(journal.otherSignal).as("torque point, chirp, 0.05 N·m").isZero();

        // the excited journal re-runs bit for bit: with a torque injection the law's own torque is compared
        final ControlRerun rerun = new ControlRerun();
        Replay.run(dir.resolve("journal-controller-1"), ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(rerun));
        final ControlRerun.Comparison same = rerun.compare(((ControllerApp)controller.app).law(), 1e-3);
        assertThat(same.running()).isPositive();
        assertThat(same.divergences()).as("first at %d", same.firstCycle()).isZero();
    }

    @Test
    void shouldRefuseAnExcitationDueBeforeTheDriveIsEnabled() throws Exception
    {
        // due on the controller's first frame: the axis is still STARTING, the drive not operation-enabled
        final Node controller = Node.start(controllerYaml(1, 1000, ", excite: 'step:point=torque,amp=0.05,start=0'"),
            null);
        final Node plant = Node.start(plantYaml(1, 1000, 300), null);
        plant.await();
        controller.await();
        final Excited journal = Excited.read(dir.resolve("journal-controller-1"));

        assertThat(journal.stops).as(controller.lines.toString()).containsExactly(
            (long)ControlJournal.EXCITATION_REFUSED);
        assertThat(journal.samples).isZero();
    }

    /** The excitation's records in a controller journal, checked against the cycles' CONTROL samples. */
    private static final class Excited implements io.rfmrt.runtime.replay.ReplayListener
    {
        final List<Long> stops = new ArrayList<>();
        final java.util.Map<Long, double[]> control = new java.util.HashMap<>();
        final java.util.Map<Long, double[]> excitation = new java.util.HashMap<>();
        final java.util.Map<Long, Long> controlNanos = new java.util.HashMap<>();
        final java.util.Map<Long, Long> excitationNanos = new java.util.HashMap<>();
        long samples;
        long unpaired;
        long notAdded;
        long otherSignal;

        static Excited read(final Path journal)
        {
            final Excited e = new Excited();
            Replay.run(journal, ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(e));
            for (final java.util.Map.Entry<Long, double[]> x : e.excitation.entrySet())
            {
                final double[] cs = e.control.get(x.getKey());
                final double[] es = x.getValue();
                final Long controlNanos = e.controlNanos.get(x.getKey());
                e.unpaired += controlNanos == null || !controlNanos.equals(e.excitationNanos.get(x.getKey())) ? 1 : 0;
                // the drive's peak torque (0.5 N·m) bounds the excited command
                e.notAdded += cs == null || cs[1] != Math.max(-0.5, Math.min(0.5, es[4] + es[1])) ? 1 : 0;
                e.otherSignal += es[5] == 1 && es[2] == 2 && es[3] == 0.05 ? 0 : 1;
            }
            return e;
        }

        @Override
        public void fault(final io.rfmrt.runtime.replay.NodeAnalysis node,
            final io.rfmrt.runtime.journal.JournalRecord record)
        {
            if (record.code() == ControlJournal.FAULT_EXCITATION_STOPPED)
            {
                stops.add(record.value());
            }
        }

        @Override
        public void sample(final io.rfmrt.runtime.replay.NodeAnalysis node,
            final io.rfmrt.runtime.journal.JournalRecord record)
        {
            if (record.sampleKind() == ControlJournal.SAMPLE_CONTROL)
            {
                control.put(record.cycle(), new double[] {0, record.value(3)});
                controlNanos.put(record.cycle(), record.nanos());
            }
            else if (record.sampleKind() == ControlJournal.SAMPLE_EXCITATION)
            {
                samples++;
                // [-, injected, kind, amplitude, before, point]
                excitation.put(record.cycle(), new double[] {0, record.value(0), record.value(2), record.value(3),
                    record.value(4), record.state()});
                excitationNanos.put(record.cycle(), record.nanos());
            }
        }
    }

    @Test
    void shouldWarnOnceAndFailTheRunWhenTheControllerNeverComes() throws Exception
    {
        final Node plant = Node.start(plantYaml(1, 1000, 200), null);
        plant.await();
        final PlantResult p = (PlantResult)plant.app.result();

        assertThat(p.ticksTaken()).isPositive();
        assertThat(p.uncommandedCycles()).as("every tick taken ran without a command").isEqualTo(p.ticksTaken());
        assertThat(plant.warnings()).as(plant.lines.toString()).singleElement().asString()
            .startsWith("warning: plant: no command from the controller after ");
        // the last tick: 200 or, on a loaded machine, later (ticks missed on the way)
        assertThat(plant.app.problem()).matches("plant: no command from the controller in \\d+ periods: the axis " +
            "was never driven");
    }

    @Test
    void shouldCountAndWarnOnceOfCommandsOfAnotherVersionAndOfTorqueWithoutTheControlWord() throws Exception
    {
        // a law that writes torque only: no CiA 402 control word, and its first frames of another payload version
        final TestLaw law = new TestLaw(0, cycle -> cycle < 50 ? TestLaw.answer(99, 0, 0.5) :
            TestLaw.answer(ControlFrames.PAYLOAD_VERSION, 0, 0.5));
        final Node controller = Node.start(controllerYaml(1, 1000), law);
        final Node plant = Node.start(plantYaml(1, 1000, 0), null);
        plant.awaitLines(2, "warning: plant: command");
        plant.close();
        controller.close();
        final PlantResult p = (PlantResult)plant.app.result();

        assertThat(p.ignoredCommands().wrongVersion()).as(plant.lines.toString()).isPositive();
        assertThat(p.ignoredCommands().driveNotEnabled()).as(plant.lines.toString()).isPositive();
        assertThat(p.ignoredCommands().noFaultReset()).isZero();
        assertThat(plant.warnings()).as(plant.lines.toString())
            .filteredOn(w -> w.startsWith("warning: plant: command")).hasSize(2)
            .anySatisfy(w -> assertThat(w).startsWith("warning: plant: command frames of payload version 99 ignored"))
            .anySatisfy(w -> assertThat(w).startsWith("warning: plant: commanded torque ignored: the drive is not " +
                "enabled (control word 0x0000, status word 0x4040)"));
    }

    @Test
    void shouldCountAndWarnOnceOfTorqueToAFaultedDriveWithoutAResetEdge()
        throws Exception
    {
        // enables the drive, falls silent for 30 periods (the drive times out and faults), then commands torque again
        // without a fault-reset edge
        final TestLaw law = new TestLaw(0, cycle -> cycle < 10 ? TestLaw.answer(ControlFrames.PAYLOAD_VERSION,
            Cia402Drive.CW_SHUTDOWN, 0.0) : cycle >= 100 && cycle < 130 ? null :
            TestLaw.answer(ControlFrames.PAYLOAD_VERSION, Cia402Drive.CW_OPERATE, 0.01));
        final Node controller = Node.start(controllerYaml(1, 1000), law);
        final Node plant = Node.start(plantYaml(1, 1000, 0), null);
        plant.awaitLines(1, "warning: plant: commanded torque ignored: the drive is in FAULT");
        plant.close();
        controller.close();
        final PlantResult p = (PlantResult)plant.app.result();

        assertThat(p.driveFaults()).as(plant.lines.toString()).isPositive();
        assertThat(p.ignoredCommands().noFaultReset()).isPositive();
        assertThat(p.ignoredCommands().wrongVersion()).isZero();
        assertThat(p.uncommandedCycles()).isGreaterThanOrEqualTo(p.staleCommandCycles());
        // once, however often it happened (the silence times the drive out on a tick taken, or on one a loaded
        // machine made the plant miss, which is not counted as a stale command cycle)
        assertThat(plant.warnings()).as(plant.lines.toString())
            .filteredOn(w -> w.startsWith("warning: plant: the controller's commands stopped at cycle "))
            .hasSizeLessThanOrEqualTo(1);
        assertThat(plant.warnings()).as(plant.lines.toString())
            .filteredOn(w -> w.startsWith("warning: plant: commanded torque ignored: the drive is in FAULT"))
            .hasSize(1);
    }

    @Test
    void shouldFailTheRunWhenTheControllerGoesAwayForGood() throws Exception
    {
        final TestLaw law = new TestLaw(0, cycle -> cycle >= 100 ? null :
            TestLaw.answer(ControlFrames.PAYLOAD_VERSION, Cia402Drive.CW_SHUTDOWN, 0.0));
        final Node controller = Node.start(controllerYaml(1, 1000), law);
        final Node plant = Node.start(plantYaml(1, 1000, 0), null);
        // the law has seen the plant run well past its last answer, longer than PlantApp.GONE_MILLIS
        law.awaitCycle(100 + 2 * PlantApp.GONE_MILLIS);
        plant.close();
        controller.close();
        final PlantResult p = (PlantResult)plant.app.result();

        assertThat(plant.warnings()).as(plant.lines.toString())
            .filteredOn(w -> w.startsWith("warning: plant: the controller's commands stopped at cycle ")).hasSize(1);
        assertThat(plant.app.problem()).as(plant.lines.toString())
            .matches("plant: the controller's commands stopped at cycle \\d+ and did not come back \\(the run ended " +
                "at cycle \\d+\\)");
        assertThat(p.staleCommandCycles()).isPositive();
        assertThat(p.uncommandedCycles()).isGreaterThanOrEqualTo(p.staleCommandCycles());
    }

    @Test
    void shouldRefuseInTheControllerAPlantAtAnotherRate() throws Exception
    {
        final Node controller = Node.start(controllerYaml(1, 1000), null);
        final Node plant = Node.start(plantYaml(1, 500, 5000), null);
        controller.await();
        plant.await();

        final String refusal = "controller app.rateHz 1000 differs from the plant's 500 (layout word plant.rateHz): " +
            "give both nodes the same rate";
        assertThat(controller.app.problem()).isEqualTo(refusal);
        assertThat(controller.lines).contains("warning: " + refusal + "; stopping");
        // the plant learns it too (the refused controller leaves its word), long before its 10 s of cycles
        assertThat(plant.app.problem()).as(plant.lines.toString()).isEqualTo("plant app.rateHz 500 differs from " +
            "the controller's 1000 (layout word controller.rateHz): give both nodes the same rate");
        assertThat(((PlantResult)plant.app.result()).cycles()).isLessThan(5000);
    }

    @Test
    void shouldRefuseInThePlantAControllerThatSaysAnotherRate() throws Exception
    {
        final TestLaw law = new TestLaw(2000, cycle -> TestLaw.answer(ControlFrames.PAYLOAD_VERSION,
            Cia402Drive.CW_SHUTDOWN, 0.0));
        final Node controller = Node.start(controllerYaml(1, 1000), law);
        final Node plant = Node.start(plantYaml(1, 1000, 20_000), null);
        plant.await();
        controller.close();

        assertThat(plant.app.problem()).isEqualTo("plant app.rateHz 1000 differs from the controller's 2000 " +
            "(layout word controller.rateHz): give both nodes the same rate");
        assertThat(((PlantResult)plant.app.result()).cycles()).isLessThan(20_000);
    }

    // ---------------------------------------------------------------------------------------------------------------

    private Path plantYaml(final int run, final int rateHz, final long cycles) throws IOException
    {
        return write("plant-" + run + ".yaml", """
            device: %s
            layout: layout.yaml
            receive: {channels: [axis.command], wait: blocking}
            threads: {cpus: [], isr: {priority: 0}, consumer: {priority: 0}, lockMemory: false, cpuDmaLatency: false}
            strict: false
            journal: {enabled: true, dir: %s}
            heartbeat: 0
            app: {name: plant, rateHz: %d, cycles: %d, priority: 0}
            """.formatted(ControlFrames.deviceUri(network, ControlFrames.PLANT_NODE), dir.resolve("journal-plant-" + run),
            rateHz, cycles));
    }

    private Path controllerYaml(final int run, final int rateHz) throws IOException
    {
        return controllerYaml(run, rateHz, "");
    }

    private Path controllerYaml(final int run, final int rateHz, final String app) throws IOException
    {
        return write("controller-" + run + ".yaml", """
            device: %s
            layout: layout.yaml
            receive: {channels: [axis.sensor], wait: inline}
            threads: {cpus: [], isr: {priority: 0}, consumer: {priority: 0}, lockMemory: false, cpuDmaLatency: false}
            strict: false
            journal: {enabled: true, dir: %s}
            heartbeat: 0
            app: {name: controller, rateHz: %d, watchdogPriority: 0%s}
            """.formatted(ControlFrames.deviceUri(network, ControlFrames.CONTROLLER_NODE),
            dir.resolve("journal-controller-" + run), rateHz, app));
    }

    private Path write(final String name, final String text) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    /**
     * A node of this JVM, its lines kept; closed as {@code rfmrt node} closes it, by another thread as soon as it asks
     * to stop (its app is done, or a thread failed).
     */
    private static final class Node
    {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch stop = new CountDownLatch(1);
        final RfmNode node;
        final NodeApp app;
        final Thread closer;

        private Node(final Path yaml, final NodeApp law)
        {
            final NodeContext ctx = NodeConfig.load(yaml).out(lines::add).appOut(lines::add)
                .onFailure(stop::countDown).terminationHook(stop::countDown);
            if (law != null)
            {
                ctx.app(law);
            }
            app = ctx.app();
            node = new RfmNode(ctx);
            closer = new Thread(() ->
            {
                try
                {
                    stop.await();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
                node.close();
            }, "test-node-closer");
        }

        static Node start(final Path yaml, final NodeApp law)
        {
            final Node n = new Node(yaml, law);
            n.node.start();
            n.closer.start();
            return n;
        }

        /** Until the node asked to stop by itself (its app is done) and was stopped. */
        void await() throws InterruptedException
        {
            final boolean stopped = stop.await(WAIT_SECONDS, TimeUnit.SECONDS);
            close();
            assertThat(stopped).as("the node ended by itself: %s", lines).isTrue();
            assertThat(node.failure()).as(lines.toString()).isNull();
        }

        /** Until {@code count} lines starting so have come (bounded), the node running on. */
        void awaitLines(final int count, final String start) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (lines(start) < count && System.nanoTime() < deadline && node.failure() == null)
            {
                Thread.sleep(10);
            }
            assertThat(lines(start)).as("lines '%s': %s", start, lines).isGreaterThanOrEqualTo(count);
        }

        private long lines(final String start)
        {
            synchronized (lines)
            {
                return lines.stream().filter(l -> l.startsWith(start)).count();
            }
        }

        void close() throws InterruptedException
        {
            stop.countDown();
            closer.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            assertThat(closer.isAlive()).as("the node closed").isFalse();
        }

        List<String> warnings()
        {
            synchronized (lines)
            {
                return lines.stream().filter(l -> l.startsWith("warning: plant") ||
                    l.startsWith("warning: controller")).toList();
            }
        }
    }

    /**
     * A user's law in brief: answers each sensor frame with the command {@code answers} gives for its cycle (null:
     * none), and says its rate in the layout's {@code controller.rateHz} word when {@code rateHz} is not 0.
     */
    private static final class TestLaw implements NodeApp
    {
        private final long rateHz;
        private final java.util.function.LongFunction<double[]> answers;
        private final UnsafeBuffer payload = new UnsafeBuffer(new byte[ControlFrames.COMMAND_LENGTH]);
        private FramePublisher publisher;
        private final java.util.concurrent.atomic.AtomicLong lastCycle = new java.util.concurrent.atomic.AtomicLong();

        TestLaw(final long rateHz, final java.util.function.LongFunction<double[]> answers)
        {
            this.rateHz = rateHz;
            this.answers = answers;
        }

        /** Until a sensor frame of {@code cycle} or later came (bounded). */
        void awaitCycle(final long cycle) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (lastCycle.getAcquire() < cycle && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(lastCycle.getAcquire()).as("sensor cycle").isGreaterThanOrEqualTo(cycle);
        }

        static double[] answer(final int version, final int controlWord, final double torque)
        {
            return new double[] {version, controlWord, torque};
        }

        @Override
        public void onStart(final RfmNode node)
        {
            publisher = new FramePublisher(node.device(), ControlFrames.COMMAND);
            node.device().window().putLongRelease(ControlFrames.CONTROLLER_RATE_OFFSET, rateHz);
        }

        @Override
        public FrameHandler handler()
        {
            return this::onSensor;
        }

        private void onSensor(final FrameView frame, final StageStamps stamps)
        {
            final long cycle = frame.buffer().getLong(frame.payloadOffset() + ControlFrames.SENSOR_CYCLE_OFFSET);
            lastCycle.setRelease(cycle);
            final double[] a = answers.apply(cycle);
            if (a == null)
            {
                return;
            }
            payload.putDouble(ControlFrames.COMMAND_TORQUE_OFFSET, a[2]);
            payload.putLong(ControlFrames.COMMAND_CYCLE_OFFSET, cycle);
            payload.putInt(ControlFrames.COMMAND_CONTROL_WORD_OFFSET, (int)a[1]);
            payload.putInt(ControlFrames.COMMAND_VERSION_OFFSET, (int)a[0]);
            publisher.publish(payload, 0, ControlFrames.COMMAND_LENGTH, 0);
        }
    }
}
