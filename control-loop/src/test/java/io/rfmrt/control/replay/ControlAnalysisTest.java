package io.rfmrt.control.replay;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.replay.NodeAnalysis;
import io.rfmrt.runtime.replay.Replay;
import io.rfmrt.runtime.replay.ReplayFilter;
import io.rfmrt.runtime.replay.ReplaySummary;
import io.rfmrt.runtime.replay.TimeBound;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ControlAnalysis adds up the control loop's records per journal in the replay's one pass: deadline misses, stale
 * commands, stalls, watchdog trips and recoveries, tracking.
 */
class ControlAnalysisTest
{
    private static final int STARTING = ControlJournal.stateId(AxisState.STARTING);
    private static final int RUNNING = ControlJournal.stateId(AxisState.RUNNING);
    private static final int SAFE = ControlJournal.stateId(AxisState.SAFE);
    private static final int RECOVERING = ControlJournal.stateId(AxisState.RECOVERING);

    @TempDir
    Path temp;

    private static void retry(final BooleanSupplier write)
    {
        while (!write.getAsBoolean())
        {
            Thread.onSpinWait();
        }
    }

    /**
     * A controller journal with known figures: errors 0.3, -0.4 in RUNNING, 5.0 in SAFE (not tracked), latencies
     * 40, 900, 60 µs; misses 120 µs and 80 µs late; stalls of 2 ms and 7 ms; RUNNING → SAFE → RECOVERING → SAFE →
     * RECOVERING → RUNNING (two trips, one recovery), STARTING → RUNNING first; one fault the analysis ignores.
     */
    private static void writeJournal(final Path dir)
    {
        try (Journal journal = Journal.start(JournalConfig.of(dir, 2)))
        {
            final JournalWriter w = journal.newWriter("controller");
            // after the journal header's clock reading, which is where the journal starts
            final long base = System.nanoTime();
            retry(() -> w.state(STARTING, RUNNING, base));
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, base + 1_000_000, 1, RUNNING, 1, 0.7, 0, 0, 0.3, 40));
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, base + 2_000_000, 2, RUNNING, 1, 1.4, 0, 0, -0.4,
                900));
            retry(() -> w.fault(ControlJournal.FAULT_DEADLINE_MISS, 2, 120_000, base + 2_000_000));
            retry(() -> w.fault(ControlJournal.FAULT_STALL, 2, 2_000_000, base + 2_100_000));
            retry(() -> w.state(RUNNING, SAFE, base + 3_000_000));
            retry(() -> w.sample(ControlJournal.SAMPLE_CONTROL, base + 3_000_000, 3, SAFE, 5, 0, 0, 0, 5.0, 60));
            retry(() -> w.fault(ControlJournal.FAULT_DEADLINE_MISS, 3, 80_000, base + 3_000_000));
            retry(() -> w.fault(ControlJournal.FAULT_STALL, 3, 7_000_000, base + 3_100_000));
            retry(() -> w.fault(ControlJournal.FAULT_COMMAND_STALE, 3, 4, base + 3_200_000));
            retry(() -> w.fault(1, 3, 1, base + 3_300_000));
            retry(() -> w.state(SAFE, RECOVERING, base + 4_000_000));
            retry(() -> w.state(RECOVERING, SAFE, base + 5_000_000));
            retry(() -> w.state(SAFE, RECOVERING, base + 6_000_000));
            retry(() -> w.state(RECOVERING, RUNNING, base + 7_000_000));
        }
    }

    @Test
    void shouldAddUpTheControlRecordsOfEachJournal()
    {
        writeJournal(temp.resolve("run").resolve("controller"));
        ControlRerunTest.writeControlJournal(temp.resolve("run").resolve("other"));
        final ControlAnalysis analysis = new ControlAnalysis();
        final ReplaySummary summary = Replay.run(temp.resolve("run"), ReplayFilter.ALL, ControlJournal.vocabulary(),
            List.of(analysis));
        assertThat(summary.nodes()).hasSize(2);
        final NodeAnalysis controller = summary.nodes().get(0);
        assertThat(controller.name()).isEqualTo("controller");
        final ControlAnalysis.ControlFigures f = analysis.of(controller);
        assertThat(f.deadlineMisses()).isEqualTo(2);
        assertThat(f.maxLatenessNanos()).isEqualTo(120_000);
        assertThat(f.commandStale()).isEqualTo(1);
        assertThat(f.stalls()).isEqualTo(2);
        assertThat(f.longestStallNanos()).isEqualTo(7_000_000);
        assertThat(f.trips()).isEqualTo(2);
        assertThat(f.recoveries()).isEqualTo(1);
        assertThat(f.controlCycles()).isEqualTo(3);
        assertThat(f.trackedCycles()).isEqualTo(2);
        assertThat(f.trackingRms()).isCloseTo(Math.sqrt((0.3 * 0.3 + 0.4 * 0.4) / 2), within(1e-15));
        assertThat(f.trackingMax()).isEqualTo(0.4);
        assertThat(f.maxCycleLatencyMicros()).isEqualTo(900.0);
        // the generic analysis still counts every fault by code, the control ones included
        assertThat(controller.faults(ControlJournal.FAULT_STALL)).isEqualTo(2);
        assertThat(controller.faults(1)).isEqualTo(1);

        // the closed-loop journal: tracking over its RUNNING cycles (20 onwards), as the recorded errors say
        final NodeAnalysis other = summary.nodes().get(1);
        final ControlAnalysis.ControlFigures g = analysis.of(other);
        final ControlRerun rerun = new ControlRerun();
        Replay.run(temp.resolve("run").resolve("other"), ReplayFilter.ALL, ControlJournal.vocabulary(),
            List.of(rerun));
        final double[] errors = rerun.tracking()[2];
        double squares = 0;
        double max = 0;
        for (int i = 20; i < errors.length; i++)
        {
            squares += errors[i] * errors[i];
            max = Math.max(max, Math.abs(errors[i]));
        }
        assertThat(g.controlCycles()).isEqualTo(ControlRerunTest.CYCLES);
        assertThat(g.trackedCycles()).isEqualTo(ControlRerunTest.CYCLES - 20);
        assertThat(g.trackingRms()).isCloseTo(Math.sqrt(squares / (ControlRerunTest.CYCLES - 20)), within(1e-15));
        assertThat(g.trackingMax()).isEqualTo(max).isPositive();
        assertThat(g.maxCycleLatencyMicros()).isEqualTo(40.0);
        assertThat(g.deadlineMisses()).isZero();
        assertThat(g.trips()).isZero();

        assertThat(analysis.deadlineMisses()).isEqualTo(2);
        assertThat(analysis.trips()).isEqualTo(2);
        assertThat(analysis.stalls()).isEqualTo(2);
        assertThat(analysis.longestStallNanos()).isEqualTo(7_000_000);
    }

    @Test
    void shouldCountOnlyWhatTheFilterKeeps()
    {
        final Path dir = temp.resolve("controller");
        writeJournal(dir);
        final ControlAnalysis all = new ControlAnalysis();
        final NodeAnalysis node = Replay.run(dir, ReplayFilter.ALL, ControlJournal.vocabulary(), List.of(all))
            .nodes().get(0);
        // keep the records from 2.5 ms after the first one
        final long from = node.firstNanos() + 2_500_000 - node.startNanos();
        final ControlAnalysis late = new ControlAnalysis();
        final NodeAnalysis kept = Replay.run(dir, new ReplayFilter(TimeBound.parse("+" + from + "ns"), null,
            ReplayFilter.ALL_SOURCES), ControlJournal.vocabulary(), List.of(late)).nodes().get(0);
        final ControlAnalysis.ControlFigures f = late.of(kept);
        assertThat(f.deadlineMisses()).isEqualTo(1);
        assertThat(f.maxLatenessNanos()).isEqualTo(80_000);
        assertThat(f.stalls()).isEqualTo(1);
        assertThat(f.longestStallNanos()).isEqualTo(7_000_000);
        assertThat(f.trips()).isEqualTo(2);
        assertThat(f.controlCycles()).isEqualTo(1);
        assertThat(f.trackedCycles()).isZero();
        assertThat(f.trackingRms()).isZero();
        // a journal the analysis was not told of reads as no control records
        assertThat(late.of(node)).isEqualTo(ControlAnalysis.ControlFigures.NONE);
    }

    private static org.assertj.core.data.Offset<Double> within(final double offset)
    {
        return org.assertj.core.data.Offset.offset(offset);
    }
}
