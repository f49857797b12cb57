package io.rfmrt.cli.replay;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.rfmrt.cli.common.ChildResult;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Progress;
import io.rfmrt.cli.common.UsageException;
import io.rfmrt.control.replay.ControlPlayback;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.runtime.replay.Playback;
import io.rfmrt.runtime.replay.PlaybackRecording;
import io.rfmrt.runtime.replay.Player;
import io.rfmrt.runtime.replay.TimeBound;
import org.HdrHistogram.Histogram;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code rfmrt replay DIR --play --network NET}: the recorded frames published again onto a network in time (the
 * {@link Playback}), with a progress line per second, SIGUSR1 to pause and resume, SIGINT/SIGTERM to stop, and a
 * summary (frames, duration, timing error against the schedule). Renders only; the playing is the runtime's. See
 * docs/replay.md, "Playback".
 */
final class ReplayPlay
{
    private final Path dir;
    private final TimeBound from;
    private final TimeBound to;
    private final Set<Integer> sources;
    private final Playback.Options options;
    private final boolean json;

    ReplayPlay(final Path dir, final TimeBound from, final TimeBound to, final Set<Integer> sources,
        final Playback.Options options, final boolean json)
    {
        this.dir = dir;
        this.from = from;
        this.to = to;
        this.sources = sources;
        this.options = options;
        this.json = json;
    }

    /**
     * @param rate {@code max} or a positive number.
     * @return the rate for {@link Playback.Options}.
     * @throws UsageException for anything else.
     */
    static double rate(final String rate)
    {
        if ("max".equalsIgnoreCase(rate))
        {
            return Player.RATE_MAX;
        }
        try
        {
            final double r = Double.parseDouble(rate);
            if (r > 0 && r <= 1000)
            {
                return r;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // below
        }
        throw new UsageException("--speed '" + rate + "' is not a speed from 0 to 1000 (1.0 = as recorded) or max");
    }

    /**
     * @param loops {@code forever} or a whole number from 1.
     * @return the loops for {@link Playback.Options}.
     * @throws UsageException for anything else.
     */
    static long loops(final String loops)
    {
        if ("forever".equalsIgnoreCase(loops))
        {
            return Player.FOREVER;
        }
        try
        {
            final long n = Long.parseLong(loops);
            if (n >= 1)
            {
                return n;
            }
        }
        catch (final NumberFormatException ignore)
        {
            // below
        }
        throw new UsageException("--loop '" + loops + "' is not a number of times from 1 or forever");
    }

    int run(final PrintWriter out, final PrintWriter err) throws InterruptedException
    {
        final PrintWriter console = json ? err : out;
        final PlaybackRecording recording = PlaybackRecording.load(dir, from, to, sources);
        final Playback.Options opts = options.withListener(new ControlPlayback());
        final List<ChannelSpec> channels = Playback.channels(recording, opts);
        console.printf(Locale.ROOT, "rfmrt replay %s --play: %,d frames over %.3f s recorded, onto network '%s' at %s" +
            ", %s%n", dir, recording.frames(), recording.spanNanos() / 1e9, opts.network(), rateText(opts.rate()),
            loopsText(opts.loops()) + (opts.renumber() ? ", renumbered" : ", numbers as recorded"));
        for (int i = 0; i < channels.size(); i++)
        {
            final PlaybackRecording.Source s = recording.sources().get(i);
            final ChannelSpec c = channels.get(i);
            console.printf(Locale.ROOT,
                "  source %d: %,d frames from %s, channel '%s' (%s to %s), published as node %d%n",
                s.node(), s.frames(), s.journal(), c.name(), c.event(),
                c.target() == RfmDevice.ALL_NODES ? "all" : "node " + c.target(), c.node());
        }
        console.flush();
        // loading made garbage: collect it now, not in a pause while playing (the player allocates nothing)
        System.gc();
        final AtomicReference<String> interrupted = new AtomicReference<>();
        final Object wake = new Object();
        final AtomicReference<Playback> running = new AtomicReference<>();
        final SignalHandler stop = signal ->
        {
            interrupted.compareAndSet(null, "SIG" + signal.getName());
            synchronized (wake)
            {
                wake.notifyAll();
            }
        };
        final SignalHandler oldInt = Signal.handle(new Signal("INT"), stop);
        final SignalHandler oldTerm = Signal.handle(new Signal("TERM"), stop);
        final SignalHandler oldUsr1 = Signal.handle(new Signal("USR1"), signal ->
        {
            final Playback p = running.get();
            if (p != null)
            {
                p.player().pause(!p.player().pauseRequested());
                synchronized (wake)
                {
                    wake.notifyAll();
                }
            }
        });
        try (Playback playback = Playback.start(recording, opts, line ->
        {
            console.println(line);
            console.flush();
        }))
        {
            running.set(playback);
            console.print(playback.placementTable());
            if (opts.startPaused())
            {
                console.println("paused (send SIGUSR1 to start: kill -USR1 " + ProcessHandle.current().pid() + ")");
            }
            else
            {
                console.println("playing (SIGUSR1 pauses and resumes: kill -USR1 " + ProcessHandle.current().pid() +
                    ")");
            }
            console.flush();
            final Player player = playback.player();
            final Histogram total = new Histogram(1, Player.HIGHEST_ERROR_NS, 3);
            Histogram interval = null;
            final long begin = System.nanoTime();
            long nextLine = begin + TimeUnit.SECONDS.toNanos(1);
            int second = 0;
            boolean wasPaused = player.pauseRequested();
            long lastSent = 0;
            while (!player.done() && playback.failure() == null && interrupted.get() == null)
            {
                synchronized (wake)
                {
                    final long wait = TimeUnit.NANOSECONDS.toMillis(nextLine - System.nanoTime());
                    if (wait > 0)
                    {
                        wake.wait(Math.min(wait, 20));
                    }
                }
                if (player.pauseRequested() != wasPaused)
                {
                    wasPaused = player.pauseRequested();
                    console.printf(Locale.ROOT, "%s at %.3f s of the recording (loop %d)%n",
                        wasPaused ? "paused" : "resumed", player.positionNanos() / 1e9, player.loop() + 1);
                    console.flush();
                }
                if (System.nanoTime() - nextLine >= 0)
                {
                    nextLine += TimeUnit.SECONDS.toNanos(1);
                    second++;
                    interval = playback.timing(interval);
                    total.add(interval);
                    final long sent = player.framesSent();
                    console.println(progress(second, recording, player, interval, sent - lastSent, opts));
                    console.flush();
                    lastSent = sent;
                }
            }
            interval = playback.timing(interval);
            total.add(interval);
            final String failure = playback.failure();
            final PlaySummary summary = summary(recording, playback, total, opts, interrupted.get());
            if (json)
            {
                out.println(ChildResult.pretty(summary));
            }
            else
            {
                printSummary(out, summary);
            }
            out.flush();
            if (failure != null)
            {
                err.println("rfmrt: playback: " + failure);
                return ExitCodes.ERROR;
            }
            if (player.stalled())
            {
                err.println("rfmrt: playback stopped: the receiving node" + (playback.receivers().size() == 1 ? " " :
                    "s ") + playback.receivers() + " took no frame for " +
                    TimeUnit.NANOSECONDS.toSeconds(Player.STALL_NS) + " s (is it still running?)");
                return ExitCodes.ERROR;
            }
            if (interrupted.get() != null)
            {
                return ExitCodes.stoppedBy(interrupted.get());
            }
            return ExitCodes.OK;
        }
        finally
        {
            Signal.handle(new Signal("INT"), oldInt);
            Signal.handle(new Signal("TERM"), oldTerm);
            Signal.handle(new Signal("USR1"), oldUsr1);
        }
    }

    private static String progress(final int second, final PlaybackRecording recording, final Player player,
        final Histogram interval, final long frames, final Playback.Options opts)
    {
        final String timing = opts.rate() == Player.RATE_MAX ? "" : interval.getTotalCount() == 0 ?
            "  timing error p99 -" : String.format(Locale.ROOT, "  timing error p99 %.1f us",
            interval.getValueAtPercentile(99) / 1e3);
        // the time left at the rate asked for: none at the maximum rate or looping forever
        final String left = opts.rate() == Player.RATE_MAX || opts.loops() == Player.FOREVER ? "" : "  left " +
            Progress.clock((long)(((double)(opts.loops() - player.loop() - 1) * recording.spanNanos() +
            Math.max(0, recording.spanNanos() - player.positionNanos())) / opts.rate()));
        return String.format(Locale.ROOT, "%4d s  at %8.3f of %.3f s  loop %d/%s  frames %,d (%,d/s)%s%s%s", second,
            player.positionNanos() / 1e9, recording.spanNanos() / 1e9, player.loop() + 1,
            opts.loops() == Player.FOREVER ? "forever" : Long.toString(opts.loops()), player.framesSent(), frames,
            timing, left, player.paused() ? "  paused" : "");
    }

    static PlaySummary summary(final PlaybackRecording recording, final Playback playback, final Histogram timing,
        final Playback.Options opts, final String interrupted)
    {
        final Player player = playback.player();
        // the time spent playing: first to last publish, less the pauses (a start paused included)
        final long duration = player.framesSent() == 0 ? 0 :
            player.endNanos() - player.startNanos() - player.pausedNanos();
        final boolean timed = opts.rate() != Player.RATE_MAX;
        final long loops = player.framesSent() == 0 ? 0 : player.loop() + 1;
        final double framesPerS = duration > 0 ? (player.framesSent() - 1) / (duration / 1e9) : 0.0;
        return new PlaySummary(player.framesSent(), recording.frames(), loops, timed ? (Object)opts.rate() : "max",
            duration / 1e9, recording.spanNanos() / 1e9, player.pausedNanos() / 1e9, framesPerS,
            timed ? timing.getValueAtPercentile(50) / 1e3 : null, timed ? timing.getValueAtPercentile(99) / 1e3 : null,
            timed ? timing.getMaxValue() / 1e3 : null, timed ? null : playback.receivers(),
            timed ? null : player.creditWaits(), player.sendFailures(), opts.renumber(),
            interrupted == null ? "no" : interrupted, player.stalled());
    }

    /**
     * What a playback did: {@code --play --json} prints it. At a set rate the timing error is there, at the maximum
     * rate the receivers and how often the player waited for them.
     *
     * @param frames           frames published.
     * @param framesRecorded   frames in the recording.
     * @param loops            loops begun.
     * @param speed            the speed asked for (--speed: 1.0 = as recorded), or "max".
     * @param durationS        time spent playing, s.
     * @param recordedSpanS    the recording's span, s.
     * @param pausedS          time paused, s.
     * @param framesPerS       the rate achieved.
     * @param timingErrorP50Us publish stamp - schedule, median, µs (set rate).
     * @param timingErrorP99Us its 99th percentile, µs (set rate).
     * @param timingErrorMaxUs its largest, µs (set rate).
     * @param receivers        the receiving nodes (maximum rate).
     * @param receiverWaits    times the player waited for them (maximum rate).
     * @param sendFailures     publishes that failed.
     * @param renumbered       whether loops after the first were renumbered.
     * @param interrupted      the signal that stopped it, or "no".
     * @param stalled          whether the receivers stopped taking frames.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PlaySummary(long frames, long framesRecorded, long loops, Object speed, double durationS,
        double recordedSpanS, double pausedS, double framesPerS, Double timingErrorP50Us, Double timingErrorP99Us,
        Double timingErrorMaxUs, List<Integer> receivers, Long receiverWaits, long sendFailures, boolean renumbered,
        String interrupted, boolean stalled)
    {
    }

    private static void printSummary(final PrintWriter out, final PlaySummary s)
    {
        out.println(!"no".equals(s.interrupted()) ? "summary (interrupted by " + s.interrupted() +
            ": partial playback)" : "summary");
        out.printf(Locale.ROOT, "  %-20s %,d (%,d recorded, %s loop%s)%n", "frames", s.frames(),
            s.framesRecorded(), s.loops(), s.loops() == 1 ? "" : "s");
        out.printf(Locale.ROOT, "  %-20s %.3f s playing (recorded span %.3f s, rate %s; paused %.3f s)%n",
            "duration", s.durationS(), s.recordedSpanS(), s.speed(), s.pausedS());
        out.printf(Locale.ROOT, "  %-20s %,.1f frames/s%n", "rate achieved", s.framesPerS());
        if (s.timingErrorP50Us() != null)
        {
            out.printf(Locale.ROOT, "  %-20s p50 %.1f us  p99 %.1f us  max %.1f us (publish stamp - schedule)%n",
                "timing error", s.timingErrorP50Us(), s.timingErrorP99Us(), s.timingErrorMaxUs());
        }
        else
        {
            out.printf(Locale.ROOT, "  %-20s nodes %s; waited for them %,d times (at most %d frames unhandled)%n",
                "receivers", s.receivers(), s.receiverWaits(), Playback.WINDOW_MAX);
        }
        out.printf(Locale.ROOT, "  %-20s %s%n", "send failures", s.sendFailures());
    }

    private static String rateText(final double rate)
    {
        return rate == Player.RATE_MAX ? "the maximum rate the receivers keep up with" :
            String.format(Locale.ROOT, "rate %s", rate);
    }

    private static String loopsText(final long loops)
    {
        return loops == Player.FOREVER ? "looping until stopped" : loops == 1 ? "once" : loops + " times";
    }

    /**
     * @param text the {@code --source} value: node ids separated by commas.
     * @return them.
     * @throws UsageException naming a bad one.
     */
    static Set<Integer> sources(final String text)
    {
        if (text == null)
        {
            return Set.of();
        }
        final Set<Integer> nodes = new TreeSet<>();
        for (final String part : text.split(","))
        {
            try
            {
                final int node = Integer.parseInt(part.trim());
                if (node >= 0 && node <= 255)
                {
                    nodes.add(node);
                    continue;
                }
            }
            catch (final NumberFormatException ignore)
            {
                // below
            }
            throw new UsageException("--source '" + text + "': '" + part + "' is not a node id 0-255");
        }
        return nodes;
    }
}
