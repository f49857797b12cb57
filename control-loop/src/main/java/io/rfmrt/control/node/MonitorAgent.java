package io.rfmrt.control.node;

import io.rfmrt.control.AxisState;
import io.rfmrt.control.CycleStatistics;
import io.rfmrt.control.journal.ControlJournal;
import io.rfmrt.runtime.ReceivePath;
import io.rfmrt.runtime.RfmNode;
import io.rfmrt.runtime.RuntimeCounter;
import io.rfmrt.runtime.counters.AppCounter;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.JournalWriter;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.agrona.concurrent.Agent;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import static io.rfmrt.control.node.ControlFrames.PLANT_RATE_OFFSET;
import static io.rfmrt.control.node.ControlFrames.rateMismatch;

/**
 * The controller's housekeeping thread ({@value ControllerApp#MONITOR_THREAD}): once the first sensor frame of the run
 * came, the plant's rate is checked against this side's (a mismatch refuses the run and stops the node); a line per
 * second (cycles, tracking error, end-to-end and loop figures, misses, state); the loop figures to the journal and,
 * as {@link AppCounter}s, to the counters file; and,
 * when the plant says it is done, the node is stopped once its last frames landed.
 * <p>
 * Threading: its own thread.
 */
final class MonitorAgent implements Agent
{
    private final RfmNode node;
    private final int rateHz;
    private final ControllerStatus status;
    private final Supervision supervision;
    private final SingleWriterRecorder latency;
    private final Histogram cumulative;
    private final CycleStatistics cycleStatistics;
    private final JournalWriter monitorJournal;
    private final LongSupplier plantDone;
    private final LongSupplier trips;
    private final long start = System.nanoTime();
    private long nextReport = start + TimeUnit.SECONDS.toNanos(1);
    private long landBy;
    private long landedCycle;
    private Histogram interval;
    private int second;
    private long lastFrames;
    private boolean journalWarned;
    private boolean rateChecked;

    /**
     * @param node            the node.
     * @param rateHz          this side's rate.
     * @param status          what the threads tell each other.
     * @param supervision     the deadline misses.
     * @param latency         the end-to-end latencies the handler records.
     * @param cumulative      receives each second's latencies.
     * @param cycleStatistics the loop's periodicity and execution.
     * @param monitorJournal  the journal writer {@code monitor}.
     * @param plantDone       the cycle the plant says it ended at, 0 while it runs.
     * @param trips           the watchdog's trips so far.
     */
    MonitorAgent(final RfmNode node, final int rateHz, final ControllerStatus status, final Supervision supervision,
        final SingleWriterRecorder latency, final Histogram cumulative, final CycleStatistics cycleStatistics,
        final JournalWriter monitorJournal, final LongSupplier plantDone, final LongSupplier trips)
    {
        this.node = node;
        this.rateHz = rateHz;
        this.status = status;
        this.supervision = supervision;
        this.latency = latency;
        this.cumulative = cumulative;
        this.cycleStatistics = cycleStatistics;
        this.monitorJournal = monitorJournal;
        this.plantDone = plantDone;
        this.trips = trips;
    }

    @Override
    public int doWork()
    {
        final long now = System.nanoTime();
        if (!rateChecked && status.lastCycle.getAcquire() != 0)
        {
            // a frame of this run came: the plant wrote its rate before it (0: it does not say)
            rateChecked = true;
            final long plantHz = node.device().window().getLongAcquire(PLANT_RATE_OFFSET);
            if (plantHz != 0 && plantHz != rateHz)
            {
                status.refusal = rateMismatch("controller", rateHz, "plant", plantHz);
                node.context().appOut().accept("warning: " + status.refusal + "; stopping");
                node.terminate();
                return 0;
            }
        }
        final long done = plantDone.getAsLong();
        if (done != 0)
        {
            // the last frames are in flight or still queued: let them land while they keep coming (a held-up
            // controller, or a bridge from another host, can be seconds behind); a second without one ends it
            final long handled = status.lastCycle.getAcquire();
            if (landBy == 0 || handled != landedCycle)
            {
                landedCycle = handled;
                landBy = now + TimeUnit.SECONDS.toNanos(1);
            }
            if (handled >= done || now > landBy)
            {
                node.terminate();
            }
            return 0;
        }
        if (now < nextReport)
        {
            return 0;
        }
        nextReport += TimeUnit.SECONDS.toNanos(1);
        report(now);
        return 1;
    }

    private void report(final long now)
    {
        final Consumer<String> live = node.context().appOut();
        journalWarned = journalWarned || JournalWarning.warnOnce(node.journal(), live);
        interval = latency.getIntervalHistogram(interval);
        cumulative.add(interval);
        // the loop's periodicity and execution: the last second for the heartbeat, the run so far to the journal
        final CycleStatistics.Figures loop = cycleStatistics.sample();
        status.lastSecond = loop;
        ControlJournal.loop(monitorJournal, now, cycleStatistics.total(), status.skippedFrames.getAcquire(), 0);
        final ReceivePath sensors = node.receivePath();
        final long frames = sensors.counter(RuntimeCounter.FRAMES_HANDLED);
        // the loop's figures in the counters file, for readers outside the process (rfmrt stat, the exporter)
        final NodeCounters counters = node.counters();
        counters.app(AppCounter.LOOP_CYCLES).setRelease(frames);
        counters.app(AppCounter.DEADLINE_MISSES).setRelease(supervision.misses());
        counters.app(AppCounter.E2E_P99_NS).setRelease(interval.getValueAtPercentile(99));
        counters.app(AppCounter.E2E_MAX_NS).setRelease(interval.getMaxValue());
        counters.app(AppCounter.WATCHDOG_TRIPS).setRelease(trips.getAsLong());
        if (frames > lastFrames)
        {
            second++;
            if (second == 1)
            {
                // RT hygiene is counted after the first second of frames (warm-up)
                status.warm = sensors.threadStats();
            }
            live.accept(String.format(Locale.ROOT, "%4d s  cycles %6d  tracking error %+8.1f urad  " +
                "e2e p99 %6.1f us  period p99 %6.1f us  cpu p99 %5.1f us  misses %d  state %s", second, frames,
                status.lastError * 1e6, interval.getValueAtPercentile(99) / 1e3, loop.periodP99Us(),
                loop.executionP99Us(), supervision.misses(), AxisState.fromId(status.axisState.getAcquire())));
            lastFrames = frames;
        }
    }

    @Override
    public String roleName()
    {
        return ControllerApp.MONITOR_THREAD;
    }
}
