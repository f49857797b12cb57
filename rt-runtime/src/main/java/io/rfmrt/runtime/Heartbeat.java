package io.rfmrt.runtime;

import com.sun.management.ThreadMXBean;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmCounter;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.rfm2g.Rfm2gCard;
import io.rfmrt.rfm.rfm2g.Rfm2gEventStats;
import io.rfmrt.runtime.counters.CounterIds;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalStats;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtThread;
import io.rfmrt.runtime.threads.ThreadStats;
import org.HdrHistogram.Histogram;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Once per period, one line: frame rate, p50/p99/p99.9/max of every stage over the period, and every counter of
 * the receive path, the channels and the card (and, on an RFM2g card, the driver's event statistics). Runs on a
 * housekeeping thread; the line goes to a sink (a Log4j2
 * async logger in the node). With the node's {@link NodeCounters} it also sets the card's and the journal's counters
 * in the counters file, and with a journal writer it journals a COUNTERS record each beat (the snapshot laid out as
 * {@link JournalCodes} reads it), so that a replay sees FIFO overflows and journal drops.
 */
public final class Heartbeat
{
    /** Beats whose RT-thread allocation is taken as warm-up (class loading, first compilations): not warned of. */
    public static final int ALLOCATION_WARMUP_BEATS = 2;
    /**
     * Beats in a row after the warm-up in which a thread must have allocated to be warned of: code on the hot path
     * that allocates does so in every beat, while the start's allocation fades (on a loaded machine it was seen to
     * reach into the third and fourth beats, 8,448 then 872 bytes, then 0).
     */
    public static final int ALLOCATION_BEATS_TO_WARN = 3;

    private final RfmDevice device;
    private final ReceivePath path;
    private final Consumer<String> sink;
    private final StringBuilder line = new StringBuilder(1024);
    private final Map<String, ThreadStats> lastStats = new HashMap<>();
    /** Each RT thread's allocated bytes at the last beat. */
    private final Map<String, Long> lastAllocated = new HashMap<>();
    /** Each RT thread's beats in a row, after the warm-up, in which it allocated. */
    private final Map<String, Integer> allocatingBeats = new HashMap<>();
    private final ThreadMXBean allocation = allocationCounter();
    private long beats;
    private boolean allocationWarned;
    private Journal journal;
    private Consumer<String> warn = line -> { };
    private boolean journalWarned;
    private long lastHandled;
    private long lastNanos = System.nanoTime();
    private NodeCounters counters;
    private JournalWriter countersJournal;
    private final long[] snapshot = new long[JournalCodes.COUNTERS_LENGTH];
    private Supplier<String> app = () -> null;

    /**
     * @param device the card.
     * @param path   the receive path, or null for a node that only publishes.
     * @param sink   where lines go.
     */
    public Heartbeat(final RfmDevice device, final ReceivePath path, final Consumer<String> sink)
    {
        this.device = device;
        this.path = path;
        this.sink = sink;
    }

    /**
     * Show the node's journal in every line (records written, ring-full drops, write errors) and warn once, through
     * {@code warn}, the first time it loses a record.
     *
     * @param journal the journal, or null.
     * @param warn    where the one warning goes.
     * @return this.
     */
    public Heartbeat journal(final Journal journal, final Consumer<String> warn)
    {
        this.journal = journal;
        this.warn = warn;
        return this;
    }

    /**
     * Keep the card's and the journal's counters in the node's counters file, and journal a COUNTERS record each
     * beat.
     *
     * @param counters the node's counters, or null.
     * @param writer   the heartbeat's own journal writer (this heartbeat is its one producer), or null.
     * @return this.
     */
    public Heartbeat counters(final NodeCounters counters, final JournalWriter writer)
    {
        this.counters = counters;
        this.countersJournal = writer;
        return this;
    }

    /**
     * Add the node app's segment to every line ({@link NodeApp#heartbeat()}).
     *
     * @param segment asked once per beat; null leaves the segment out.
     * @return this.
     */
    public Heartbeat app(final Supplier<String> segment)
    {
        this.app = segment;
        return this;
    }

    /**
     * Take the interval and emit one line.
     */
    public void beat()
    {
        final long now = System.nanoTime();
        line.setLength(0);
        line.append("node ").append(device.nodeId());
        if (path != null)
        {
            path.latencies().sample();
            final long handled = path.counter(RuntimeCounter.FRAMES_HANDLED);
            final double seconds = Math.max(1e-9, (now - lastNanos) / 1e9);
            line.append(String.format(Locale.ROOT, " | %.0f frames/s", (handled - lastHandled) / seconds));
            lastHandled = handled;
            for (final Stage stage : new Stage[]{Stage.END_TO_END, Stage.TRANSFER, Stage.ISR, Stage.HANDOFF,
                Stage.HANDLER})
            {
                final Histogram h = path.latencies().interval(stage);
                line.append(" | ").append(stage.label());
                if (h.getTotalCount() == 0)
                {
                    line.append(" -");
                }
                else
                {
                    line.append(String.format(Locale.ROOT, " p50 %.1f p99 %.1f p99.9 %.1f max %.1f us",
                        h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3,
                        h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3));
                }
            }
            line.append(" | counters");
            for (final RuntimeCounter c : RuntimeCounter.values())
            {
                line.append(' ').append(c.label().replace(' ', '-')).append('=').append(path.counter(c));
            }
            for (final FrameCounter c : FrameCounter.values())
            {
                line.append(' ').append(c.name().toLowerCase(Locale.ROOT).replace('_', '-')).append('=')
                    .append(path.counter(c));
            }
            // RT hygiene over the period: minor page faults, involuntary context switches and bytes allocated by each
            // RT thread (HotSpot's per-thread allocation counter, read here, off the hot path)
            beats++;
            line.append(" | threads");
            final List<RtThread> threads = path.threads();
            final List<ThreadStats> stats = path.threadStats();
            for (int i = 0; i < threads.size(); i++)
            {
                final String name = threads.get(i).placement().thread();
                final ThreadStats current = stats.get(i);
                final ThreadStats delta = current.minus(lastStats.getOrDefault(name, current));
                lastStats.put(name, current);
                line.append(' ').append(name).append(" minflt+").append(delta.minorFaults()).append(" nivcsw+")
                    .append(delta.involuntarySwitches());
                final long allocated = allocatedBytes(threads.get(i).thread());
                final Long before = lastAllocated.put(name, allocated);
                final long allocatedNow = allocated < 0 || before != null && before < 0 ? -1 :
                    allocated - (before == null ? 0 : before);
                line.append(" alloc+").append(allocatedNow);
                final int inARow = allocatedNow > 0 && before != null && beats > ALLOCATION_WARMUP_BEATS ?
                    allocatingBeats.getOrDefault(name, 0) + 1 : 0;
                allocatingBeats.put(name, inARow);
                if (inARow >= ALLOCATION_BEATS_TO_WARN && !allocationWarned)
                {
                    allocationWarned = true;
                    warn.accept(name + " allocated " + allocatedNow + " bytes in the last heartbeat period, after " +
                        "the warm-up: code on its hot path allocates (its frame handler, or its wait for the card's " +
                        "events), and the garbage collector will stop it (see 'alloc+' in the heartbeat)");
                }
            }
        }
        line.append(" | card");
        for (final RfmCounter c : RfmCounter.values())
        {
            long value = 0;
            if (c.perType())
            {
                for (final EventType t : EventType.values())
                {
                    value += device.counter(c, t);
                }
            }
            else
            {
                value = device.counter(c, null);
            }
            line.append(' ').append(c.name().toLowerCase(Locale.ROOT).replace('_', '-')).append('=').append(value);
            if (counters != null)
            {
                counters.card(c).setRelease(value);
            }
        }
        if (device instanceof Rfm2gCard card)
        {
            appendDriverStats(card);
        }
        if (journal != null)
        {
            final JournalStats js = journal.stats();
            line.append(" | journal written=").append(js.recordsWritten()).append(" drops=")
                .append(js.droppedRingFull()).append(" write-errors=").append(js.writeErrors());
            if (counters != null)
            {
                counters.journal(CounterIds.JOURNAL_WRITTEN).setRelease(js.recordsWritten());
                counters.journal(CounterIds.JOURNAL_DROPPED).setRelease(js.droppedRingFull());
                counters.journal(CounterIds.JOURNAL_WRITE_ERRORS).setRelease(js.writeErrors());
            }
            if (!journalWarned && (js.writeErrors() > 0 || js.droppedRingFull() > 0))
            {
                journalWarned = true;
                warn.accept("journal " + journal.config().dir() + " is losing records (" + js.writeErrors() +
                    " write errors, " + js.droppedRingFull() + " dropped on a full ring so far)" +
                    (js.lastError() == null ? "" : ": " + js.lastError()));
            }
        }
        final String appSegment = app.get();
        if (appSegment != null)
        {
            line.append(" | app ").append(appSegment);
        }
        journalCounters(now);
        lastNanos = now;
        sink.accept(line.toString());
    }

    /**
     * @param thread a thread of this process.
     * @return the bytes it has allocated so far (HotSpot's counter), -1 when it has ended or the JVM does not count.
     */
    private long allocatedBytes(final Thread thread)
    {
        return allocation == null || !thread.isAlive() ? -1 : allocation.getThreadAllocatedBytes(thread.getId());
    }

    private static ThreadMXBean allocationCounter()
    {
        if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean counting &&
            counting.isThreadAllocatedMemorySupported())
        {
            counting.setThreadAllocatedMemoryEnabled(true);
            return counting;
        }
        return null;
    }

    /**
     * One COUNTERS record: runtime counters, frame counters summed over the input channels, then every slot of the
     * card's counter block ({@link JournalCodes#COUNTERS_RUNTIME_BASE} and the bases after it). A record the ring
     * refuses is counted by the journal.
     */
    private void journalCounters(final long nanos)
    {
        if (countersJournal == null)
        {
            return;
        }
        Arrays.fill(snapshot, 0);
        for (final RuntimeCounter c : RuntimeCounter.values())
        {
            snapshot[JournalCodes.COUNTERS_RUNTIME_BASE + c.id()] = path != null ? path.counter(c) :
                counters != null ? counters.runtime(c).get() : 0;
        }
        if (path != null)
        {
            for (final FrameCounter c : FrameCounter.values())
            {
                snapshot[JournalCodes.COUNTERS_FRAME_BASE + c.id()] = path.counter(c);
            }
        }
        for (final RfmCounter c : RfmCounter.values())
        {
            if (c.perType())
            {
                for (final EventType t : EventType.values())
                {
                    snapshot[JournalCodes.COUNTERS_RFM_BASE + c.slot(t)] = device.counter(c, t);
                }
            }
            else
            {
                snapshot[JournalCodes.COUNTERS_RFM_BASE + c.slot(null)] = device.counter(c, null);
            }
        }
        countersJournal.counters(nanos, snapshot, snapshot.length);
    }

    /**
     * The driver's event statistics ({@code RFM2gGetEventStats}) of every type it has seen an event of: count since
     * the statistics were cleared, queued now, queue peak, and whether the software queue overflowed (the driver then
     * disables the interrupt until the next wait). Read here, on the heartbeat thread, never on the receive path.
     */
    private void appendDriverStats(final Rfm2gCard card)
    {
        line.append(" | driver");
        boolean any = false;
        for (final EventType t : EventType.values())
        {
            final Rfm2gEventStats stats = card.eventStats(t);
            if (stats.eventCount() != 0 || stats.eventsQueued() != 0 || stats.overflowed())
            {
                any = true;
                line.append(' ').append(t.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .append(" count=").append(stats.eventCount()).append(" queued=").append(stats.eventsQueued())
                    .append(" peak=").append(stats.queuePeak()).append(stats.overflowed() ? " OVERFLOWED" : "");
            }
        }
        if (!any)
        {
            line.append(" no events");
        }
    }
}
