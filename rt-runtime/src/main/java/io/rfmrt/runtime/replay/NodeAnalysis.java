package io.rfmrt.runtime.replay;

import io.rfmrt.runtime.journal.JournalCodes;
import io.rfmrt.runtime.journal.JournalHeader;
import io.rfmrt.runtime.journal.JournalReader;
import io.rfmrt.runtime.journal.JournalRecord;
import io.rfmrt.runtime.journal.RecordKind;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a replay learns from one journal (one node) without knowing the application that wrote it, record by record:
 * counts by kind, time span, per-source {@link SourceStats} (frame latency by stage, losses in seq), faults by code,
 * state transitions and sample kinds by id, the latest counter snapshot, the worst frames. What the codes mean is
 * the {@link ReplayVocabulary}'s business, what the application's records add up to its {@link ReplayListener}'s.
 * Records are fed one at a time ({@link #accept}), so the same object serves a one-pass summary and a
 * {@code --follow} tail.
 *
 * <p>Threading: one thread at a time.
 */
public final class NodeAnalysis
{
    private static final long UNSET = Long.MIN_VALUE;

    private final JournalSet.Entry entry;
    private final ReplayFilter filter;
    private final JournalHeader header;
    private final JournalClock clock;
    private final long[] kinds = new long[RecordKind.values().length + 1];
    private final Int2ObjectHashMap<SourceStats> sources = new Int2ObjectHashMap<>();
    private final Map<Integer, long[]> faults = new TreeMap<>();
    private final Map<Integer, long[]> sampleKinds = new TreeMap<>();
    private final Map<Transition, long[]> transitions = new TreeMap<>();
    private final WorstFrames worst;
    private SourceStats lastSource;
    private int nodeId = -1;
    private long recordsRead;
    private long recordsKept;
    private long startNanos = UNSET;
    private long fromNanos = Long.MIN_VALUE;
    private long toNanos = Long.MAX_VALUE;
    private long firstNanos = Long.MAX_VALUE;
    private long lastNanos = Long.MIN_VALUE;
    private long[] counters;
    private int counterCount;
    private String problem;
    private List<String> damage = List.of();
    private long damageCount;
    private boolean opened;

    /**
     * A state transition and how often it was kept.
     *
     * @param from the state id before.
     * @param to   the state id after.
     */
    public record Transition(int from, int to) implements Comparable<Transition>
    {
        @Override
        public int compareTo(final Transition other)
        {
            final int c = Integer.compare(from, other.from);
            return c != 0 ? c : Integer.compare(to, other.to);
        }
    }

    /**
     * @param entry       the journal.
     * @param filter      what to keep.
     * @param header      the journal's first header ({@link JournalReader#header()}), or {@code null}: then the
     *                    journal starts at its first record and has no wall-clock time.
     * @param worstFrames how many worst frames to keep.
     */
    public NodeAnalysis(final JournalSet.Entry entry, final ReplayFilter filter, final JournalHeader header,
        final int worstFrames)
    {
        this.entry = entry;
        this.filter = filter;
        this.header = header;
        this.clock = JournalClock.of(header);
        this.worst = new WorstFrames(worstFrames);
        if (clock != null)
        {
            start(clock.nanos());
        }
    }

    private void start(final long nanos)
    {
        startNanos = nanos;
        if (filter.from() != null)
        {
            fromNanos = filter.from().resolve(nanos, clock);
        }
        if (filter.to() != null)
        {
            toNanos = filter.to().resolve(nanos, clock);
        }
    }

    /**
     * Take one record.
     *
     * @param record the record just read.
     * @return whether it passed the filter (and was counted).
     */
    public boolean accept(final JournalRecord record)
    {
        recordsRead++;
        final RecordKind kind = record.kind();
        if (nodeId < 0)
        {
            nodeId = record.nodeId();
        }
        final long t = kind == RecordKind.FRAME ? record.sendNanos() : record.nanos();
        if (startNanos == UNSET)
        {
            start(t);
        }
        if (t < fromNanos || t > toNanos)
        {
            return false;
        }
        final int wanted = filter.source();
        switch (kind)
        {
            case FRAME ->
            {
                final int source = record.source();
                if (wanted != ReplayFilter.ALL_SOURCES && source != wanted)
                {
                    return false;
                }
                frame(record, source);
            }
            case FAULT ->
            {
                final int code = record.code();
                if (wanted != ReplayFilter.ALL_SOURCES && JournalCodes.isFrameFault(code) && record.value() != wanted)
                {
                    return false;
                }
                fault(code);
            }
            case STATE -> state(record.from(), record.to());
            case COUNTERS -> counters(record);
            case SAMPLE -> sample(record);
            default ->
            {
                return false;
            }
        }
        kinds[kind.id()]++;
        recordsKept++;
        firstNanos = Math.min(firstNanos, t);
        lastNanos = Math.max(lastNanos, t);
        return true;
    }

    private void frame(final JournalRecord record, final int source)
    {
        SourceStats stats = lastSource;
        if (stats == null || stats.source() != source)
        {
            stats = sources.get(source);
            if (stats == null)
            {
                stats = new SourceStats(source);
                sources.put(source, stats);
            }
            lastSource = stats;
        }
        final long seq = record.seq();
        final long send = record.sendNanos();
        final long woke = record.wokeNanos();
        final long validated = record.validatedNanos();
        final long consumerStart = record.consumerStartNanos();
        final long handlerEnd = record.handlerEndNanos();
        stats.frame(seq, send, woke, validated, consumerStart, handlerEnd);
        worst.offer(entry.name(), source, seq, send, woke, validated, consumerStart, handlerEnd);
    }

    private void fault(final int code)
    {
        faults.computeIfAbsent(code, c -> new long[1])[0]++;
    }

    private void state(final int from, final int to)
    {
        transitions.computeIfAbsent(new Transition(from, to), k -> new long[1])[0]++;
    }

    private void counters(final JournalRecord record)
    {
        final int count = record.counterCount();
        if (counters == null || counters.length < count)
        {
            counters = new long[count];
        }
        for (int i = 0; i < count; i++)
        {
            counters[i] = record.counter(i);
        }
        counterCount = count;
    }

    private void sample(final JournalRecord record)
    {
        sampleKinds.computeIfAbsent(record.sampleKind(), k -> new long[1])[0]++;
    }

    /**
     * Note why reading stopped before the end, or why the journal could not be read at all.
     *
     * @param message one line.
     */
    void problem(final String message)
    {
        problem = message;
    }

    /**
     * Take the reader's notes of damaged regions (replacing earlier ones: the reader keeps them all).
     *
     * @param notes one line per region, the first few.
     * @param count regions in all.
     */
    void damage(final List<String> notes, final long count)
    {
        damage = List.copyOf(notes);
        damageCount = count;
    }

    /**
     * @return the first damaged regions met (file, record, byte offset, what, where reading resumed).
     */
    public List<String> damage()
    {
        return damage;
    }

    /**
     * @return damaged regions met in all.
     */
    public long damageCount()
    {
        return damageCount;
    }

    void markOpened()
    {
        opened = true;
    }

    /**
     * @return the journal.
     */
    public JournalSet.Entry entry()
    {
        return entry;
    }

    /**
     * @return the journal's name ({@link JournalSet.Entry#name()}).
     */
    public String name()
    {
        return entry.name();
    }

    /**
     * @return the node id in the records, -1 before the first.
     */
    public int nodeId()
    {
        return nodeId;
    }

    /**
     * @return the journal's first header (node, layout version, writers, clock reading), or {@code null} when the
     *         journal has none readable.
     */
    public JournalHeader header()
    {
        return header;
    }

    /**
     * @return the clock pairing from the journal header, or {@code null}.
     */
    public JournalClock clock()
    {
        return clock;
    }

    /**
     * @return the journal start, ns ({@link Long#MIN_VALUE} before anything was read from a journal without header).
     */
    public long startNanos()
    {
        return startNanos;
    }

    /**
     * @return records read, filtered or not.
     */
    public long recordsRead()
    {
        return recordsRead;
    }

    /**
     * @return records that passed the filter.
     */
    public long recordsKept()
    {
        return recordsKept;
    }

    /**
     * @param kind a kind.
     * @return records of that kind that passed the filter.
     */
    public long count(final RecordKind kind)
    {
        return kinds[kind.id()];
    }

    /**
     * @return earliest event time kept, ns; {@link Long#MAX_VALUE} when none.
     */
    public long firstNanos()
    {
        return firstNanos;
    }

    /**
     * @return latest event time kept, ns; {@link Long#MIN_VALUE} when none.
     */
    public long lastNanos()
    {
        return lastNanos;
    }

    /**
     * @return seconds between the first and last event time kept.
     */
    public double spanSeconds()
    {
        return recordsKept > 1 ? (lastNanos - firstNanos) / 1e9 : 0.0;
    }

    /**
     * @return per-source statistics, by source id.
     */
    public List<SourceStats> sources()
    {
        final List<SourceStats> list = new ArrayList<>(sources.values());
        list.sort((a, b) -> Integer.compare(a.source(), b.source()));
        return list;
    }

    /**
     * @return faults by code.
     */
    public Map<Integer, Long> faults()
    {
        final Map<Integer, Long> map = new TreeMap<>();
        faults.forEach((code, n) -> map.put(code, n[0]));
        return Collections.unmodifiableMap(map);
    }

    /**
     * @param code a fault code.
     * @return how many faults of it were kept.
     */
    public long faults(final int code)
    {
        final long[] n = faults.get(code);
        return n == null ? 0 : n[0];
    }

    /**
     * @return SAMPLE records by sample kind.
     */
    public Map<Integer, Long> sampleKinds()
    {
        final Map<Integer, Long> map = new TreeMap<>();
        sampleKinds.forEach((k, n) -> map.put(k, n[0]));
        return Collections.unmodifiableMap(map);
    }

    /**
     * @return STATE transitions kept, by (from, to) in id order.
     */
    public Map<Transition, Long> transitions()
    {
        final Map<Transition, Long> map = new TreeMap<>();
        transitions.forEach((k, n) -> map.put(k, n[0]));
        return Collections.unmodifiableMap(map);
    }

    /**
     * @return FIFO overflows from the latest counter snapshot, -1 when there is none.
     */
    public long fifoOverflows()
    {
        return counters == null ? -1 : JournalCodes.fifoOverflows(counters, counterCount);
    }

    /**
     * @return journal drops from the latest counter snapshot, -1 when there is none.
     */
    public long journalDrops()
    {
        return counters == null ? -1 : JournalCodes.journalDrops(counters, counterCount);
    }

    /**
     * @return the worst frames by end-to-end latency.
     */
    public WorstFrames worst()
    {
        return worst;
    }

    /**
     * @return why reading stopped early (or never started), or {@code null} when it read to the end.
     */
    public String problem()
    {
        return problem;
    }

    /**
     * @return whether the journal could be opened (it may still have a {@link #problem()} further on).
     */
    public boolean opened()
    {
        return opened;
    }
}
