package io.rfmrt.cli.common;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * How far a long command has come, on stderr, so that stdout holds only the result (the table, or with
 * {@code --json} one JSON object) and a run left in a pipe or a log still says where it is. Two kinds:
 * <ul>
 *     <li><b>steps</b> (a row, a rate, a mode, a benchmark): one line as each step starts, then one when all are
 *     done. Time left is the mean of the steps run so far times the steps still to run (before the first step
 *     ends, the planned seconds per step); a step that will not run (a ramp that stopped) is {@link #skip}ped.</li>
 *     <li><b>seconds</b> (a soak, the demo): a line at the start and then one every {@link #secondsLineInterval}
 *     seconds, from a daemon thread of its own ({@link #startTicker}), never from a thread that measures; or, where
 *     another program estimates the time left (JMH), a line as it says so ({@link #estimate}).</li>
 * </ul>
 * <pre>
 * [3/27, elapsed 0:24, left ~3:00] interrupt at 5000 Hz for 10 s ...
 * [27/27, elapsed 4:52, left 0:00] done
 * [120/600 s, elapsed 2:00, left 8:00] soaking interrupt-inline at 10000 Hz
 * [40/125 s, elapsed 0:40, left ~1:25] running WriterBench.frame ...
 * </pre>
 * Plain lines, on a terminal as in a pipe: the children of a bench share the same stderr, and a line redrawn in
 * place would be overwritten by theirs. A {@code ~} marks an estimate. Time comes from an injected clock, so a test
 * steps it. Not thread-safe: one thread drives the steps; the ticker alone calls {@link #doWork}.
 */
public final class Progress implements AutoCloseable
{
    /** A line of this class, to tell it from others (a parent relaying a child's stderr drops them). */
    public static final Pattern LINE = Pattern.compile("^\\[\\d+/\\d+( s)?, elapsed [0-9:]+, left [~?0-9:]+] ");

    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final String STEP_LINE = "[%d/%d, elapsed %s, left %s] %s%n";
    private static final String SECONDS_LINE = "[%d/%d s, elapsed %s, left %s] %s%n";

    private final PrintWriter err;
    private final LongSupplier nanoClock;
    private final long startNs;
    private final int total;
    private final boolean seconds;
    private final long plannedStepNs;
    private final String label;
    private final long lineIntervalNs;
    private int started;
    private int skipped;
    private long lastLineNs;
    private volatile Thread ticker;

    private Progress(final PrintWriter err, final LongSupplier nanoClock, final int total, final boolean seconds,
        final long plannedStepNs, final String label)
    {
        this.err = err;
        this.nanoClock = nanoClock;
        this.total = total;
        this.seconds = seconds;
        this.plannedStepNs = plannedStepNs;
        this.label = label;
        this.lineIntervalNs = secondsLineInterval(total) * SECOND_NS;
        this.startNs = nanoClock.getAsLong();
    }

    /**
     * A run of {@code total} steps, timed from now.
     *
     * @param err              where the lines go (the command's stderr).
     * @param total            how many steps at most.
     * @param plannedStepSeconds the seconds a step is planned to take, for the time left before one has ended (0:
     *                         unknown).
     * @param nanoClock        the clock, ns ({@code System::nanoTime} but in tests).
     * @return the reporter; nothing is printed until the first {@link #step}.
     */
    public static Progress steps(final PrintWriter err, final int total, final long plannedStepSeconds,
        final LongSupplier nanoClock)
    {
        return new Progress(err, nanoClock, total, false, TimeUnit.SECONDS.toNanos(plannedStepSeconds), null);
    }

    /**
     * {@link #steps(PrintWriter, int, long, LongSupplier)} on the system's clock.
     */
    public static Progress steps(final PrintWriter err, final int total, final long plannedStepSeconds)
    {
        return steps(err, total, plannedStepSeconds, System::nanoTime);
    }

    /**
     * A run of {@code totalSeconds}, timed from now; prints its first line at once.
     *
     * @param err          where the lines go (the command's stderr).
     * @param totalSeconds how long the run is planned to take.
     * @param label        what runs, ending each line.
     * @param nanoClock    the clock, ns.
     * @return the reporter; {@link #doWork} prints the next lines, or {@link #startTicker} has a thread call it.
     */
    public static Progress seconds(final PrintWriter err, final int totalSeconds, final String label,
        final LongSupplier nanoClock)
    {
        final Progress p = new Progress(err, nanoClock, totalSeconds, true, 0, label);
        p.print(p.startNs);
        return p;
    }

    /**
     * A run whose length another program estimates as it goes (JMH's ETA): lines come from {@link #estimate}.
     *
     * @param err       where the lines go (the command's stderr).
     * @param nanoClock the clock, ns.
     * @return the reporter; nothing is printed until the first {@link #estimate}.
     */
    public static Progress estimates(final PrintWriter err, final LongSupplier nanoClock)
    {
        return new Progress(err, nanoClock, 0, true, 0, null);
    }

    /**
     * Print a line of a run said to end in {@code leftSeconds}: n/N are the seconds run and the seconds run plus
     * those left.
     *
     * @param what        what runs now, ending the line.
     * @param leftSeconds the time left as estimated, s.
     */
    public void estimate(final String what, final long leftSeconds)
    {
        final long elapsed = nanoClock.getAsLong() - startNs;
        final long elapsedS = elapsed / SECOND_NS;
        final long left = Math.max(0, leftSeconds);
        err.printf(Locale.ROOT, SECONDS_LINE, elapsedS, elapsedS + left, clock(elapsed), "~" + clock(left * SECOND_NS),
            what);
        err.flush();
    }

    /**
     * The seconds between two lines of a run of {@code totalSeconds}: 10, or more for long runs, so that a run
     * prints about 60 lines at most.
     *
     * @param totalSeconds the run's length.
     * @return the interval, s.
     */
    public static long secondsLineInterval(final long totalSeconds)
    {
        return Math.max(10, (totalSeconds + 59) / 60);
    }

    /**
     * The next step starts: print its line.
     *
     * @param what the step, ending the line (as {@code interrupt at 5000 Hz for 10 s ...}).
     */
    public void step(final String what)
    {
        final long now = nanoClock.getAsLong();
        final int ran = started;
        started++;
        final long elapsed = now - startNs;
        final int toRun = Math.max(0, total - ran - skipped);
        final String left;
        if (ran > 0)
        {
            left = "~" + clock(elapsed / ran * toRun);
        }
        else
        {
            left = plannedStepNs > 0 ? "~" + clock(plannedStepNs * toRun) : "?";
        }
        err.printf(Locale.ROOT, STEP_LINE, Math.min(total, started + skipped), total, clock(elapsed), left, what);
        err.flush();
    }

    /**
     * Steps that will not run after all (a ramp stopped early): they count as done, and take no time.
     *
     * @param count how many.
     */
    public void skip(final int count)
    {
        skipped += Math.max(0, count);
    }

    /**
     * All steps ran (or were skipped): print the last line.
     */
    public void finish()
    {
        final long elapsed = nanoClock.getAsLong() - startNs;
        err.printf(Locale.ROOT, STEP_LINE, Math.min(total, started + skipped), total, clock(elapsed), clock(0),
            "done");
        err.flush();
    }

    /**
     * A run in seconds: print its line when one is due.
     *
     * @return 1 when a line was printed, else 0.
     */
    public int doWork()
    {
        final long now = nanoClock.getAsLong();
        if (now - lastLineNs < lineIntervalNs)
        {
            return 0;
        }
        print(now);
        return 1;
    }

    /**
     * A run in seconds: a daemon thread calls {@link #doWork} every second until {@link #close}.
     *
     * @param name the thread's name.
     * @return this.
     */
    public Progress startTicker(final String name)
    {
        final Thread t = new Thread(() ->
        {
            try
            {
                while (!Thread.currentThread().isInterrupted())
                {
                    LockSupport.parkNanos(SECOND_NS);
                    doWork();
                }
            }
            catch (final RuntimeException | Error ex)
            {
                System.err.println("rfmrt: progress lines stopped: " + Failures.describe(ex));
            }
        }, name);
        t.setDaemon(true);
        ticker = t;
        t.start();
        return this;
    }

    /**
     * Stop the ticker, if one runs, and wait for it.
     */
    @Override
    public void close()
    {
        final Thread t = ticker;
        if (t != null)
        {
            t.interrupt();
            try
            {
                t.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void print(final long now)
    {
        lastLineNs = now;
        final long elapsedS = (now - startNs) / SECOND_NS;
        err.printf(Locale.ROOT, SECONDS_LINE, Math.min(total, elapsedS), total, clock(now - startNs),
            clock(Math.max(0, (total - elapsedS) * SECOND_NS)), label);
        err.flush();
    }

    /**
     * @param nanos a duration, ns.
     * @return it as m:ss, or h:mm:ss from an hour.
     */
    public static String clock(final long nanos)
    {
        final long s = Math.max(0, nanos) / SECOND_NS;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) :
            String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
