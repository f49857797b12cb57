package io.rfmrt.runtime.replay;

import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.internal.ScheduleIdleStrategy;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The duty cycle of a playback: publishes the frames of a {@link PlaybackRecording} through their channels on an
 * absolute schedule. Frame {@code i} of loop {@code k} is due at
 * <pre>
 *   t0 + paused + (k * loop + (send[i] - send[0])) / rate
 * </pre>
 * where {@code t0} is when playing began, {@code paused} the time spent paused so far, {@code loop} the recording's
 * {@link PlaybackRecording#loopNanos()} and {@code send} the recorded send stamps: a frame that goes out late does not
 * push the ones after it (no drift). Its idle strategy ({@link #idleStrategy()}) parks until {@value #SPIN_NS} ns
 * before the next due time, then spins. The timing error of each frame is its publish stamp minus its due time,
 * recorded in a {@link SingleWriterRecorder} the progress and the summary read from another thread.
 * <p>
 * {@link #RATE_MAX} plays as fast as the receivers keep up: a frame goes out only while fewer than {@code window}
 * frames are still unhandled by the receiving nodes ({@link Credit}), and the player parks
 * {@value #CREDIT_PARK_NS} ns between looks. A receiver that takes nothing for {@value #STALL_NS} ns stops the
 * playback ({@link #stalled()}).
 * <p>
 * Sequence numbers: as recorded (each loop through a publisher of another incarnation, so that a receiver takes a
 * new loop as a restarted publisher and not as stale frames), or with {@code renumber} one count per source from 1
 * that runs on across loops. Payload and flags are the recorded ones; the frame's send stamp is the publish time.
 * <p>
 * Threading: {@link #doWork()} and the idle strategy on the player thread; {@link #pause}, the progress getters and
 * {@link #timing} from any thread. Allocation-free on the player thread once started (the end listener aside).
 */
public final class Player implements Agent
{
    /** Name of the player thread. */
    public static final String THREAD_NAME = "rfmrt-player";
    /** The player parks until this long before a due time, then spins. */
    public static final long SPIN_NS = 50_000;
    /** Park between looks at the receivers' progress in {@link #RATE_MAX} mode. */
    public static final long CREDIT_PARK_NS = 20_000;
    /** In {@link #RATE_MAX} mode, a receiver that takes no frame for this long stops the playback. */
    public static final long STALL_NS = TimeUnit.SECONDS.toNanos(2);
    /** Park while paused or done. */
    public static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Most frames one duty cycle publishes (a backlog is worked off in steps, so a pause is taken at once). */
    public static final int BATCH_LIMIT = 64;
    /** {@code loops} of a playback that repeats until stopped. */
    public static final long FOREVER = Long.MAX_VALUE;
    /** {@code rate} of a playback as fast as the receivers keep up with. */
    public static final double RATE_MAX = 0.0;
    /** Largest timing error recorded, ns (larger ones are recorded as this). */
    public static final long HIGHEST_ERROR_NS = TimeUnit.SECONDS.toNanos(60);

    /** What the receivers have taken, for {@link #RATE_MAX}. */
    @FunctionalInterface
    public interface Credit
    {
        /**
         * Called on the player thread: no allocation.
         *
         * @return frames the slowest receiver has handled since the playback started.
         */
        long taken();
    }

    /** Told when the playback starts and ends, on the player thread. */
    public interface Listener
    {
        /**
         * Before the first frame.
         *
         * @param recording what is played.
         */
        default void started(final PlaybackRecording recording)
        {
        }

        /**
         * After the last frame of the last loop (not after a stop from outside).
         *
         * @param recording what was played.
         * @param lastFrame the last frame published ({@link PlaybackRecording} index).
         */
        default void ended(final PlaybackRecording recording, final int lastFrame)
        {
        }
    }

    private final PlaybackRecording recording;
    private final FramePublisher[][] publishers;
    private final NanoClock clock;
    private final double rate;
    private final long loops;
    private final boolean renumber;
    private final Credit credit;
    private final int window;
    private final Listener listener;
    private final long loopNanos;
    private final long firstSend;
    private final int frames;
    private final SingleWriterRecorder timing = new SingleWriterRecorder(1, HIGHEST_ERROR_NS, 3);
    private final IdleStrategy idle = new PlayerIdle();
    /** The wait for the next due time: the node's periodic senders' park-then-spin. */
    private final ScheduleIdleStrategy schedule;

    private final AtomicLong sent = new AtomicLong();
    private volatile boolean pauseRequested;
    private volatile boolean paused;
    private volatile boolean done;
    private volatile boolean stalled;
    private volatile long startNanos;
    private volatile long endNanos;
    private volatile long loop;
    private volatile long position;
    private volatile long pausedTotal;
    private volatile long sendFailures;
    private volatile long creditWaits;

    // player thread only
    private boolean started;
    private int index;
    private boolean pausing;
    private long pauseStart;
    private long due;
    private boolean waitingForCredit;
    private long lastTaken = -1;
    private long lastTakenNanos;

    /**
     * @param recording  what to play.
     * @param publishers per source ({@link PlaybackRecording#sources()} order) its publishers on the channel: one
     *                   with {@code renumber} or a single loop, else two (loops alternate between their
     *                   incarnations).
     * @param clock      the time source (the publishers' too).
     * @param rate       speed, 1.0 = as recorded, or {@link #RATE_MAX}.
     * @param loops      times to play the recording, 1 or more, or {@link #FOREVER}.
     * @param renumber   number frames 1, 2, ... per source across loops instead of as recorded.
     * @param credit     the receivers' progress, needed for {@link #RATE_MAX}, else ignored.
     * @param window     with {@link #RATE_MAX}: most frames unhandled by the receivers.
     * @param listener   told of the start and the end, or {@code null}.
     * @param startPaused begin paused (until {@link #pause(boolean)} with {@code false}).
     */
    public Player(final PlaybackRecording recording, final FramePublisher[][] publishers, final NanoClock clock,
        final double rate, final long loops, final boolean renumber, final Credit credit, final int window,
        final Listener listener, final boolean startPaused)
    {
        if (recording.frames() == 0)
        {
            throw new IllegalArgumentException("playback: the recording has no frames");
        }
        if (!(rate >= 0) || Double.isInfinite(rate))
        {
            throw new IllegalArgumentException("playback rate " + rate + " is not a positive number (or max)");
        }
        if (loops < 1)
        {
            throw new IllegalArgumentException("playback loops " + loops + " is not 1 or more");
        }
        if (rate == RATE_MAX && (credit == null || window < 1))
        {
            throw new IllegalArgumentException("playback at the maximum rate needs the receivers' progress");
        }
        if (publishers.length != recording.sources().size())
        {
            throw new IllegalArgumentException("playback: " + publishers.length + " publishers for " +
                recording.sources().size() + " sources");
        }
        for (final FramePublisher[] p : publishers)
        {
            if (p.length < (renumber || loops == 1 ? 1 : 2))
            {
                throw new IllegalArgumentException("playback of several loops as recorded needs two publishers " +
                    "per source");
            }
        }
        this.recording = recording;
        this.publishers = publishers;
        this.clock = clock;
        this.rate = rate;
        this.loops = loops;
        this.renumber = renumber;
        this.credit = credit;
        this.window = window;
        this.listener = listener;
        this.loopNanos = recording.loopNanos();
        this.firstSend = recording.sendNanos(0);
        this.frames = recording.frames();
        this.pauseRequested = startPaused;
        this.schedule = new ScheduleIdleStrategy(() -> due, clock, SPIN_NS);
    }

    @Override
    public void onStart()
    {
        timing.reset();
    }

    @Override
    public int doWork()
    {
        if (done)
        {
            return 0;
        }
        long now = clock.nanoTime();
        if (!started)
        {
            started = true;
            startNanos = now;
            lastTakenNanos = now;
            if (listener != null)
            {
                listener.started(recording);
            }
            due = dueNanos(0, 0, now, 0);
        }
        if (pauseRequested)
        {
            if (!pausing)
            {
                pausing = true;
                pauseStart = now;
                paused = true;
            }
            return 0;
        }
        if (pausing)
        {
            final long pausedFor = now - pauseStart;
            pausedTotal += pausedFor;
            pausing = false;
            due += pausedFor;
            lastTakenNanos = now;
            paused = false;
        }
        int work = 0;
        while (work < BATCH_LIMIT)
        {
            if (rate == RATE_MAX)
            {
                if (!creditAvailable(now))
                {
                    break;
                }
                due = now;
            }
            else if (now - due < 0)
            {
                break;
            }
            publish(index);
            work++;
            if (++index == frames)
            {
                index = 0;
                final long nextLoop = loop + 1;
                if (nextLoop == loops)
                {
                    finish();
                    break;
                }
                loop = nextLoop;
            }
            due = dueNanos(loop, index, startNanos, pausedTotal);
            now = clock.nanoTime();
        }
        return work;
    }

    private void publish(final int i)
    {
        final int source = recording.sourceIndex(i);
        final FramePublisher[] choices = publishers[source];
        final FramePublisher publisher = renumber ? choices[0] : choices[(int)(loop & 1) % choices.length];
        if (!renumber)
        {
            publisher.resumeAfter(recording.seq(i) - 1);
        }
        final RfmStatus status = publisher.publish(recording.payloads(), recording.payloadOffset(i),
            recording.payloadLength(i), recording.flags(i));
        if (status != RfmStatus.SUCCESS)
        {
            sendFailures++;
        }
        if (rate != RATE_MAX)
        {
            final long error = publisher.lastSendNanos() - due;
            timing.recordValue(Math.max(1, Math.min(error, HIGHEST_ERROR_NS)));
        }
        position = recording.sendNanos(i) - firstSend;
        endNanos = publisher.lastSendNanos();
        sent.lazySet(sent.get() + 1);
    }

    private boolean creditAvailable(final long now)
    {
        final long taken = credit.taken();
        if (taken != lastTaken)
        {
            lastTaken = taken;
            lastTakenNanos = now;
        }
        if (sent.get() - taken < window)
        {
            waitingForCredit = false;
            return true;
        }
        if (!waitingForCredit)
        {
            waitingForCredit = true;
            creditWaits++;
        }
        if (now - lastTakenNanos > STALL_NS)
        {
            stalled = true;
            done = true;
        }
        return false;
    }

    private void finish()
    {
        done = true;
        if (listener != null)
        {
            listener.ended(recording, frames - 1);
        }
    }

    private long dueNanos(final long loop, final int i, final long t0, final long paused)
    {
        final double recorded = (double)loop * loopNanos + (recording.sendNanos(i) - firstSend);
        return t0 + paused + (rate == RATE_MAX ? 0 : (long)(recorded / rate));
    }

    /**
     * @return the idle strategy to run this agent with: parks until the next due time less {@link #SPIN_NS}, then
     *         spins; parks {@link #CREDIT_PARK_NS} while the receivers catch up and {@link #IDLE_PARK_NS} while
     *         paused or done.
     */
    public IdleStrategy idleStrategy()
    {
        return idle;
    }

    /**
     * Pause or resume: takes effect at the player's next duty cycle; the time paused is added to the schedule. Any
     * thread.
     *
     * @param pause {@code true} to pause.
     */
    public void pause(final boolean pause)
    {
        pauseRequested = pause;
    }

    /**
     * @return whether a pause is asked for (what {@link #pause} set last).
     */
    public boolean pauseRequested()
    {
        return pauseRequested;
    }

    /**
     * @return whether the player is paused now.
     */
    public boolean paused()
    {
        return paused;
    }

    /**
     * @return whether the playback has ended: every loop played, or a stalled receiver.
     */
    public boolean done()
    {
        return done;
    }

    /**
     * @return whether {@link #RATE_MAX} playback stopped because the receivers took no frame for {@link #STALL_NS}.
     */
    public boolean stalled()
    {
        return stalled;
    }

    /**
     * @return frames published.
     */
    public long framesSent()
    {
        return sent.get();
    }

    /**
     * @return publishes whose event send was refused (the frame was in memory, the receiver was not told).
     */
    public long sendFailures()
    {
        return sendFailures;
    }

    /**
     * @return times the player waited for the receivers ({@link #RATE_MAX}).
     */
    public long creditWaits()
    {
        return creditWaits;
    }

    /**
     * @return the loop being played, from 0.
     */
    public long loop()
    {
        return loop;
    }

    /**
     * @return where in the recording the last frame published is: its recorded time after the first frame, ns.
     */
    public long positionNanos()
    {
        return position;
    }

    /**
     * @return when playing began ({@link NanoClock} time), 0 before.
     */
    public long startNanos()
    {
        return startNanos;
    }

    /**
     * @return the publish stamp of the last frame, 0 before the first.
     */
    public long endNanos()
    {
        return endNanos;
    }

    /**
     * @return time spent paused so far (a pause going on not counted), ns.
     */
    public long pausedNanos()
    {
        return pausedTotal;
    }

    /**
     * The timing errors recorded since the last call: publish stamp minus due time, ns. Any one thread.
     *
     * @param recycle a histogram to reuse, or {@code null}.
     * @return the interval's errors.
     */
    public Histogram timing(final Histogram recycle)
    {
        return timing.getIntervalHistogram(recycle);
    }

    @Override
    public String roleName()
    {
        return THREAD_NAME;
    }

    private final class PlayerIdle implements IdleStrategy
    {
        @Override
        public void idle(final int workCount)
        {
            if (workCount <= 0)
            {
                idle();
            }
        }

        @Override
        public void idle()
        {
            if (done || paused || pauseRequested)
            {
                LockSupport.parkNanos(IDLE_PARK_NS);
                return;
            }
            if (rate == RATE_MAX)
            {
                LockSupport.parkNanos(CREDIT_PARK_NS);
                return;
            }
            schedule.idle();
        }

        @Override
        public void reset()
        {
        }

        @Override
        public String alias()
        {
            return "playback schedule";
        }
    }
}
