package io.rfmrt.cli.bench;

import io.rfmrt.runtime.ReceiveThreads;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What {@code bench soak} measured, interval by interval, and whether the targets were met: the differences of
 * consecutive {@link SoakSample}s, the table, and the targets line. The first interval is the warm-up; the targets
 * hold for the intervals after it, in the processes that are nodes.
 *
 * @param intervals each interval.
 * @param targets   each target, met or not.
 */
record SoakReport(List<Interval> intervals, List<Target> targets)
{
    /** The threads held to 0 minor faults after the warm-up: the ISR-wake thread (inline: the controller) and the consumer. */
    static final Set<String> FAULT_FREE_THREADS = Set.of(ReceiveThreads.ISR, ReceiveThreads.CONSUMER);
    /**
     * How far the anonymous resident set may move from its size at the end of the warm-up, percent. Pages of mapped
     * files (a journal's chunks) come and go with the kernel's page cache and are not held to it.
     */
    static final double RSS_FLAT_PCT = 1.0;

    /**
     * One interval.
     *
     * @param index          1 for the first (the warm-up).
     * @param startS         its start, seconds since the soak began.
     * @param endS           its end.
     * @param warmUp         whether it is the warm-up.
     * @param sent           frames the soak's sender sent in it, null when the soak has no sender of its own.
     * @param deadlineMisses the controller's deadline misses in it, null without a controller.
     * @param journalBytes   bytes under the journal folder at its end.
     * @param processes      each watched process.
     */
    record Interval(int index, double startS, double endS, boolean warmUp, Long sent, Long deadlineMisses,
        long journalBytes, List<ProcessInterval> processes)
    {
    }

    /**
     * One process over one interval.
     *
     * @param process       its role.
     * @param pid           its process id.
     * @param node          whether the targets hold for it.
     * @param received      frames it handled in the interval, null without counters.
     * @param lost          frames it lost (sequence gaps), null without counters.
     * @param lostCauses    the card's and the path's counts in the interval: torn, dma_dropped, fifo_overflows,
     *                      handoff_full.
     * @param gc            collections in the interval, null when its JVM's counters are unreadable.
     * @param gcPauseMs     their pause time, ms.
     * @param compilations  methods the JIT compiled in the interval.
     * @param lastCompiled  the last one of them, null when none.
     * @param safepoints    safepoints in the interval (each stops every Java thread).
     * @param safepointMs   time at them, ms.
     * @param heapUsedBytes heap in use at the end of the interval.
     * @param rssBytes      resident set at the end of the interval, -1 when unreadable.
     * @param rssAnonBytes  its anonymous part ({@code RssAnon}), -1 when unreadable.
     * @param threads       each named RT thread's faults and preemptions in the interval.
     */
    record ProcessInterval(String process, long pid, boolean node, Long received, Long lost,
        Map<String, Long> lostCauses, Long gc, Double gcPauseMs, Long compilations, String lastCompiled,
        Long safepoints, Double safepointMs, Long heapUsedBytes, long rssBytes, long rssAnonBytes,
        List<ThreadInterval> threads)
    {
    }

    /**
     * One RT thread over one interval.
     *
     * @param thread              its name.
     * @param tid                 its kernel thread id.
     * @param minorFaults         minor page faults in the interval, -1 when unreadable.
     * @param involuntarySwitches involuntary context switches in the interval, -1 when unreadable.
     */
    record ThreadInterval(String thread, int tid, long minorFaults, long involuntarySwitches)
    {
    }

    /**
     * One target after the warm-up.
     *
     * @param name   what it holds to.
     * @param met    whether it held.
     * @param detail what was measured.
     */
    record Target(String name, boolean met, String detail)
    {
    }

    /**
     * @param samples the samples, the soak's start first; at least two.
     * @return the intervals between them, and the targets judged on all but the first.
     */
    static SoakReport of(final List<SoakSample> samples)
    {
        final List<Interval> intervals = new ArrayList<>();
        for (int i = 1; i < samples.size(); i++)
        {
            intervals.add(interval(i, samples.get(i - 1), samples.get(i)));
        }
        return new SoakReport(List.copyOf(intervals), targets(intervals));
    }

    private static Interval interval(final int index, final SoakSample from, final SoakSample to)
    {
        final List<ProcessInterval> processes = new ArrayList<>();
        for (int p = 0; p < to.looks().size(); p++)
        {
            processes.add(process(from.looks().get(p), to.looks().get(p)));
        }
        return new Interval(index, round(from.seconds()), round(to.seconds()), index == 1,
            to.sent() < 0 ? null : to.sent() - Math.max(0, from.sent()),
            to.deadlineMisses() < 0 ? null : to.deadlineMisses() - Math.max(0, from.deadlineMisses()),
            to.journalBytes(), List.copyOf(processes));
    }

    private static ProcessInterval process(final SoakSample.Look from, final SoakSample.Look to)
    {
        final SoakSample.Frames f0 = from.frames();
        final SoakSample.Frames f1 = to.frames();
        final boolean frames = f0 != null && f1 != null;
        Map<String, Long> causes = null;
        if (frames)
        {
            causes = new LinkedHashMap<>();
            causes.put("torn", f1.torn() - f0.torn());
            causes.put("dma_dropped", f1.dmaDropped() - f0.dmaDropped());
            causes.put("fifo_overflows", f1.fifoOverflows() - f0.fifoOverflows());
            causes.put("handoff_full", f1.handoffFull() - f0.handoffFull());
        }
        final JvmPerfData j0 = from.process().jvm();
        final JvmPerfData j1 = to.process().jvm();
        final boolean jvm = j0 != null && j1 != null;
        final long compiled = jvm ? j1.compilations() - j0.compilations() : 0;
        return new ProcessInterval(to.subject().role(), to.subject().pid(), to.subject().node(),
            frames ? f1.received() - f0.received() : null, frames ? f1.gaps() - f0.gaps() : null, causes,
            jvm ? j1.gcCount() - j0.gcCount() : null, jvm ? millis(j1.gcNanos() - j0.gcNanos()) : null,
            jvm ? compiled : null, compiled > 0 ? j1.lastCompiled() : null,
            jvm ? j1.safepoints() - j0.safepoints() : null, jvm ? millis(j1.safepointNanos() - j0.safepointNanos()) : null,
            jvm ? j1.heapUsed() : null, to.process().rssBytes(), to.process().rssAnonBytes(),
            threads(from.process(), to.process()));
    }

    private static List<ThreadInterval> threads(final ProcessProbe.Reading from, final ProcessProbe.Reading to)
    {
        final Map<Integer, ProcessProbe.ThreadReading> before = new HashMap<>();
        for (final ProcessProbe.ThreadReading t : from.threads())
        {
            before.put(t.tid(), t);
        }
        final List<ThreadInterval> threads = new ArrayList<>();
        for (final ProcessProbe.ThreadReading t : to.threads())
        {
            final ProcessProbe.ThreadReading b = before.get(t.tid());
            // a thread that started within the interval counts from 0
            final long faults0 = b == null ? 0 : b.minorFaults();
            final long switches0 = b == null ? 0 : b.involuntarySwitches();
            threads.add(new ThreadInterval(t.thread(), t.tid(),
                t.minorFaults() < 0 || faults0 < 0 ? -1 : t.minorFaults() - faults0,
                t.involuntarySwitches() < 0 || switches0 < 0 ? -1 : t.involuntarySwitches() - switches0));
        }
        return List.copyOf(threads);
    }

    private static List<Target> targets(final List<Interval> intervals)
    {
        final List<Target> targets = new ArrayList<>();
        final List<Interval> after = intervals.subList(Math.min(1, intervals.size()), intervals.size());
        long lost = 0;
        long gc = 0;
        long compiled = 0;
        long faults = 0;
        boolean unreadable = false;
        boolean noJvm = false;
        final Map<String, String> lastCompiled = new LinkedHashMap<>();
        for (final Interval i : after)
        {
            for (final ProcessInterval p : i.processes())
            {
                if (!p.node())
                {
                    continue;
                }
                lost += p.lost() == null ? 0 : p.lost();
                if (p.gc() == null)
                {
                    noJvm = true;
                }
                else
                {
                    gc += p.gc();
                    compiled += p.compilations();
                    if (p.lastCompiled() != null)
                    {
                        lastCompiled.put(p.process(), p.lastCompiled());
                    }
                }
                for (final ThreadInterval t : p.threads())
                {
                    if (FAULT_FREE_THREADS.contains(t.thread()))
                    {
                        unreadable |= t.minorFaults() < 0;
                        faults += Math.max(0, t.minorFaults());
                    }
                }
            }
        }
        final boolean measured = !after.isEmpty();
        targets.add(new Target("0 lost", measured && lost == 0, lost + " lost"));
        targets.add(new Target("0 GC", measured && !noJvm && gc == 0, noJvm ? "not measured" : gc + " collections"));
        targets.add(new Target("0 compilations", measured && !noJvm && compiled == 0, noJvm ? "not measured" :
            compiled + " compiled" + (lastCompiled.isEmpty() ? "" : ", last: " + lastCompiled)));
        targets.add(new Target("0 minor faults on " + String.join("/", FAULT_FREE_THREADS.stream().sorted().toList()),
            measured && !unreadable && faults == 0, unreadable ? "not measured" : faults + " faults"));
        targets.add(rssFlat(intervals));
        return List.copyOf(targets);
    }

    private static Target rssFlat(final List<Interval> intervals)
    {
        final String name = "anonymous RSS flat (±" + RSS_FLAT_PCT + " %)";
        if (intervals.size() < 2)
        {
            return new Target(name, false, "no interval after the warm-up");
        }
        double worst = 0;
        String worstProcess = "";
        final Interval warm = intervals.get(0);
        for (int p = 0; p < warm.processes().size(); p++)
        {
            final ProcessInterval base = warm.processes().get(p);
            if (!base.node())
            {
                continue;
            }
            if (base.rssAnonBytes() <= 0)
            {
                return new Target(name, false, base.process() + ": not measured");
            }
            for (final Interval i : intervals.subList(1, intervals.size()))
            {
                final long rss = i.processes().get(p).rssAnonBytes();
                final double pct = rss <= 0 ? Double.POSITIVE_INFINITY :
                    100.0 * Math.abs(rss - base.rssAnonBytes()) / base.rssAnonBytes();
                if (pct > worst)
                {
                    worst = pct;
                    worstProcess = base.process();
                }
            }
        }
        return new Target(name, worst <= RSS_FLAT_PCT, String.format(Locale.ROOT, "largest move %.2f %%%s", worst,
            worstProcess.isEmpty() ? "" : " (" + worstProcess + ")"));
    }

    /**
     * @return whether every target was met.
     */
    boolean met()
    {
        return targets.stream().allMatch(Target::met);
    }

    /**
     * Print the table: one row per interval and process, then the targets line.
     *
     * @param out where.
     */
    void print(final PrintWriter out)
    {
        out.printf("%4s %7s %-10s %9s %9s %5s %6s %5s %4s %7s %4s %5s %8s %8s %8s %8s %6s  %s%n", "int", "end_s",
            "process", "sent", "received", "lost", "causes", "gc", "gc_ms", "jit", "sp", "sp_ms", "heap_MB", "rss_MB",
            "anon_MB", "jrnl_MB", "misses", "RT threads: minor faults/involuntary switches");
        for (final Interval i : intervals)
        {
            for (final ProcessInterval p : i.processes())
            {
                final StringBuilder threads = new StringBuilder();
                for (final ThreadInterval t : p.threads())
                {
                    threads.append(threads.length() == 0 ? "" : " ").append(t.thread()).append(' ')
                        .append(t.minorFaults()).append('/').append(t.involuntarySwitches());
                }
                long causes = 0;
                if (p.lostCauses() != null)
                {
                    for (final long c : p.lostCauses().values())
                    {
                        causes += c;
                    }
                }
                out.printf(Locale.ROOT,
                    "%4s %7.1f %-10s %9s %9s %5s %6s %5s %4s %7s %4s %5s %8s %8.1f %8.1f %8.1f %6s  %s%n",
                    i.warmUp() ? i.index() + "w" : Integer.toString(i.index()), i.endS(), p.process(),
                    p.node() && i.sent() != null ? i.sent() : "-", orDash(p.received()), orDash(p.lost()),
                    p.lostCauses() == null ? "-" : Long.toString(causes), orDash(p.gc()),
                    p.gcPauseMs() == null ? "-" : String.format(Locale.ROOT, "%.1f", p.gcPauseMs()),
                    orDash(p.compilations()), orDash(p.safepoints()),
                    p.safepointMs() == null ? "-" : String.format(Locale.ROOT, "%.1f", p.safepointMs()),
                    p.heapUsedBytes() == null ? "-" : String.format(Locale.ROOT, "%.1f", p.heapUsedBytes() / 1048576.0),
                    p.rssBytes() / 1048576.0, p.rssAnonBytes() / 1048576.0, i.journalBytes() / 1048576.0,
                    p.node() && i.deadlineMisses() != null ? i.deadlineMisses() : "-",
                    threads.length() == 0 ? "-" : threads);
            }
        }
        out.println("int: interval (w = warm-up, left out of the targets); causes: torn + dma_dropped + " +
            "fifo_overflows + handoff_full (by name in --json); jit: methods compiled; sp: safepoints; " +
            "anon: RssAnon, the resident set without mapped files");
        printTargets(out);
    }

    /**
     * Print the targets line.
     *
     * @param out where.
     */
    void printTargets(final PrintWriter out)
    {
        final StringBuilder line = new StringBuilder();
        for (final Target t : targets)
        {
            line.append(line.length() == 0 ? "" : "; ").append(t.name()).append(": ").append(t.met() ? "met" :
                "MISSED").append(" (").append(t.detail()).append(')');
        }
        out.println("targets after the warm-up: " + line);
    }

    private static String orDash(final Long value)
    {
        return value == null ? "-" : Long.toString(value);
    }

    private static double round(final double seconds)
    {
        return Math.round(seconds * 10) / 10.0;
    }

    private static double millis(final long nanos)
    {
        return Math.round(nanos / 1e4) / 100.0;
    }
}
