package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.internal.BoundedClose;
import io.rfmrt.runtime.internal.ConsumerAgent;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.HandoffRing;
import io.rfmrt.runtime.internal.HandoffIdleStrategy;
import io.rfmrt.runtime.internal.IsrWakeAgent;
import io.rfmrt.runtime.internal.PollingAgent;
import io.rfmrt.runtime.internal.ScheduleIdleStrategy;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtThread;
import io.rfmrt.runtime.threads.ThreadStats;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The receive path of one node, in one of three {@link ReceiveMode}s: {@link ReceiveMode#INTERRUPT}, an ISR-wake
 * thread that sleeps on the card's interrupt and, on each wake, validates every frame that is ready in its DMA
 * buffers, and a consumer thread that runs the handler; {@link ReceiveMode#INLINE}, the handler on the ISR-wake thread
 * itself (one wake per frame); {@link ReceiveMode#POLLING}, one thread that polls the channels' status words instead
 * (the article's baseline). Every mode takes the same frame step ({@code FrameStep}) with each frame.
 * Every thread is an Agrona agent under one {@link RtErrorPolicy}: a thread that throws stops the path, it never dies
 * silently.
 * <pre>
 *  card ──IRQ──▶ ISR-wake thread ──hand-off──▶ consumer thread ──▶ handler
 *                (await, drain DMA, validate)  (idle strategy)     └─▶ stage latencies, journal, DMA release
 * </pre>
 * Build it, {@link #start} it on an {@link RtEnvironment}, {@link #close()} it. The agents can also be driven
 * without threads ({@link #isrAgent()}, {@link #consumerAgent()}, {@link #pollingAgent()}). Its JIT warm-up is
 * {@link ReceiveWarmUp}.
 */
public final class ReceivePath implements AutoCloseable
{
    /** The stall a node's rings must hold the frames of: 100 ms (docs/runtime.md, "Sizing the rings"). */
    public static final long STALL_COVER_DEFAULT_NS = 100_000_000L;

    private final RfmDevice device;
    private final EventType event;
    private final WaitStrategy wait;
    private final ReceiveMode mode;
    private final ReceiveIdle idle;
    private final List<ChannelSpec> channels;
    private final FrameReceiver[] receivers;
    private final HandoffRing handoff;
    private final Counters counters;
    private final StageLatencies latencies = new StageLatencies();
    private final NanoClock clock;
    private final IsrWakeAgent isr;
    private final ConsumerAgent consumer;
    private final PollingAgent polling;
    private static final int PAGE_SIZE = 4096;

    private final RtErrorPolicy errors;
    private long pretouched;
    private volatile boolean running;
    /** The threads' figures read as {@link #close()} began; null before. */
    private volatile List<ThreadStats> stoppedStats;
    private AgentRunner isrRunner;
    private AgentRunner consumerRunner;
    private RtThread isrThread;
    private RtThread consumerThread;

    /**
     * @param device          the node's card.
     * @param channels        input channels (their publishers must differ: {@link #publisherClash}).
     * @param event           the event type that announces frames.
     * @param wait            the receive mode and how its frame-taking thread waits.
     * @param handler         the application.
     * @param isrJournal      journal writer for the ISR-wake thread (faults), or null.
     * @param consumerJournal journal writer for the consumer thread (frames), or null.
     * @param clock           time source, {@link SystemNanoClock} normally.
     */
    public ReceivePath(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final FrameHandler handler, final JournalWriter isrJournal,
        final JournalWriter consumerJournal, final NanoClock clock)
    {
        this(device, channels, event, wait, handler, isrJournal, consumerJournal, clock, new RtErrorPolicy(null));
    }

    /**
     * @param device          the node's card.
     * @param channels        input channels (their publishers must differ: {@link #publisherClash}).
     * @param event           the event type that announces frames.
     * @param wait            the receive mode and how its frame-taking thread waits.
     * @param handler         the application.
     * @param isrJournal      journal writer for the ISR-wake thread (faults), or null.
     * @param consumerJournal journal writer for the consumer thread (frames), or null; in the inline mode the
     *                        ISR-wake thread writes frames to it too (it then is that thread's writer).
     * @param clock           time source, {@link SystemNanoClock} normally.
     * @param errors          the error policy of the threads (shared with the node's other threads).
     */
    public ReceivePath(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final FrameHandler handler, final JournalWriter isrJournal,
        final JournalWriter consumerJournal, final NanoClock clock, final RtErrorPolicy errors)
    {
        this(device, channels, event, wait, handler, isrJournal, consumerJournal, clock, errors,
            NodeCounters.inMemory(channels));
    }

    /**
     * @param device          the node's card.
     * @param channels        input channels (their publishers must differ: {@link #publisherClash}).
     * @param event           the event type that announces frames.
     * @param wait            the receive mode and how its frame-taking thread waits.
     * @param handler         the application.
     * @param isrJournal      journal writer for the ISR-wake thread (faults), or null.
     * @param consumerJournal journal writer for the consumer thread (frames), or null; in the inline mode the
     *                        ISR-wake thread writes frames to it too (it then is that thread's writer).
     * @param clock           time source, {@link SystemNanoClock} normally.
     * @param errors          the error policy of the threads (shared with the node's other threads).
     * @param nodeCounters    where the runtime counters and each channel's frame counters are kept (the node's
     *                        counters file), made for these channels in this order.
     */
    public ReceivePath(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final FrameHandler handler, final JournalWriter isrJournal,
        final JournalWriter consumerJournal, final NanoClock clock, final RtErrorPolicy errors,
        final NodeCounters nodeCounters)
    {
        if (channels.isEmpty())
        {
            throw new IllegalArgumentException("a receive path needs at least one input channel");
        }
        final String clash = publisherClash(channels);
        if (clash != null)
        {
            throw new IllegalArgumentException(clash);
        }
        if (nodeCounters.channels() != channels.size())
        {
            throw new IllegalArgumentException("counters for " + nodeCounters.channels() +
                " input channels given to a receive path of " + channels.size());
        }
        this.counters = new Counters(nodeCounters);
        this.device = device;
        this.event = event;
        this.wait = wait.validate();
        this.mode = wait.mode();
        this.idle = wait.idle();
        this.errors = errors;
        this.channels = List.copyOf(channels);
        this.clock = clock;
        this.receivers = new FrameReceiver[channels.size()];
        final int[] channelBySource = new int[RfmDevice.MAX_NODE_ID + 1];
        Arrays.fill(channelBySource, -1);
        for (int i = 0; i < channels.size(); i++)
        {
            final ChannelSpec c = channels.get(i);
            channelBySource[c.node()] = i;
            receivers[i] = new FrameReceiver(device, c, nodeCounters.frames(i));
        }
        final int slots = device.dma().slotCount();
        final DmaCompletion[] completions = new DmaCompletion[slots];
        for (int i = 0; i < slots; i++)
        {
            completions[i] = new DmaCompletion();
        }
        this.handoff = new HandoffRing(slots);
        if (mode == ReceiveMode.POLLING)
        {
            this.isr = null;
            this.consumer = null;
            this.polling = new PollingAgent(channels.toArray(new ChannelSpec[0]), receivers, handler,
                latencies, counters, consumerJournal, clock, idle.nanos());
            return;
        }
        final boolean inline = mode == ReceiveMode.INLINE;
        // inline, the ISR-wake thread writes both faults and frames: one producer, so one writer
        final JournalWriter isrWriter = inline && consumerJournal != null ? consumerJournal : isrJournal;
        this.isr = new IsrWakeAgent(device, event, receivers, channelBySource, completions, handoff, counters,
            isrWriter, clock);
        this.consumer = new ConsumerAgent(handoff, device.dma(), completions, handler, latencies, counters,
            consumerJournal, clock);
        isr.inline(inline ? consumer : null);
        this.polling = null;
    }

    /**
     * Start the threads, each an Agrona {@link AgentRunner} under the path's {@link RtErrorPolicy}: the ISR-wake
     * agent (its wait is the card's interrupt), the consumer agent with its {@link ReceiveIdle} as an Agrona
     * {@link IdleStrategy} ({@link #consumerIdle()}; none in the inline mode: the ISR-wake thread runs the handler),
     * or the polling agent on its schedule (its period). In interrupt modes the event type is enabled first.
     *
     * @param env              where threads are placed.
     * @param isrCpu           core of the ISR-wake thread, -1 = not pinned.
     * @param isrPriority      its SCHED_FIFO priority, 0 = SCHED_OTHER.
     * @param consumerCpu      core of the consumer (or polling) thread.
     * @param consumerPriority its priority.
     */
    public void start(final RtEnvironment env, final int isrCpu, final int isrPriority, final int consumerCpu,
        final int consumerPriority)
    {
        pretouch();
        running = true;
        if (!mode.interrupts())
        {
            consumerRunner = new AgentRunner(new ScheduleIdleStrategy(polling, clock, 0), errors, null, polling);
            consumerThread = env.start(ReceiveThreads.CONSUMER, consumerCpu, consumerPriority,
                errors.guard(consumerRunner));
            return;
        }
        device.enableEvent(event);
        if (mode.handsOff())
        {
            consumerRunner = new AgentRunner(consumerIdle(), errors, null, consumer);
            consumerThread = env.start(ReceiveThreads.CONSUMER, consumerCpu, consumerPriority,
                errors.guard(consumerRunner));
            handoff.consumer(consumerThread.thread());
        }
        isrRunner = new AgentRunner(NoOpIdleStrategy.INSTANCE, errors, null, isr);
        isrThread = env.start(ReceiveThreads.ISR, isrCpu, isrPriority, errors.guard(isrRunner));
    }

    /**
     * The one check that a receive path can tell its input channels apart: the receiver knows a frame's channel by its
     * publisher, so no two input channels may have one publisher. Both the path and a node's settings
     * ({@link NodeContext#conclude()}) refuse such channels by it.
     *
     * @param channels input channels.
     * @return the line that names the first two channels of one publisher, or null when every publisher differs.
     */
    public static String publisherClash(final List<ChannelSpec> channels)
    {
        for (int i = 0; i < channels.size(); i++)
        {
            for (int j = 0; j < i; j++)
            {
                if (channels.get(j).node() == channels.get(i).node())
                {
                    return "receive.channels '" + channels.get(j).name() + "' and '" + channels.get(i).name() +
                        "' are both published by node " + channels.get(i).node() +
                        " (the receiver tells channels apart by publisher)";
                }
            }
        }
        return null;
    }

    /**
     * The slots a ring needs to hold every frame of a stall: {@code rateHz} × the stall, rounded up to a power of two.
     *
     * @param rateHz      frames per second.
     * @param stallNanos  the stall.
     * @return slots.
     */
    public static int slotsFor(final int rateHz, final long stallNanos)
    {
        final long frames = Math.max(2, (rateHz * stallNanos + 999_999_999L) / 1_000_000_000L);
        return (int)Math.min(1 << 30, Long.highestOneBit(frames - 1) << 1);
    }

    /**
     * Whether the ring that holds a node's frames through a stall covers {@link #STALL_COVER_DEFAULT_NS} at the
     * expected rate: in auto mode the card's DMA ring (the card moves every frame into it at once), when frames are
     * found by number (on-demand DMA, polling) each input channel's ring in reflective memory (the frames stay there
     * until the reader comes).
     *
     * @param mode     the card's DMA mode.
     * @param dmaSlots its DMA ring's descriptors.
     * @param inputs   input channels.
     * @param wait     the wait strategy.
     * @param rateHz   frames per second expected on the inputs.
     * @return one line naming the short ring, what it covers and what it needs, or null when it covers the stall.
     */
    public static String ringCoverageWarning(final DmaMode mode, final int dmaSlots, final List<ChannelSpec> inputs,
        final WaitStrategy wait, final int rateHz)
    {
        final int needed = slotsFor(rateHz, STALL_COVER_DEFAULT_NS);
        final String stall = STALL_COVER_DEFAULT_NS / 1_000_000 + " ms";
        if (mode == DmaMode.AUTO && !wait.mode().findsByNumber())
        {
            return dmaSlots >= needed ? null : "the DMA ring of " + dmaSlots + " slots holds " +
                coverMillis(dmaSlots, rateHz) + " at receive.rateHz " + rateHz + ", less than a " + stall +
                " stall: give the device URI dmaSlots=" + needed + " or more";
        }
        for (final ChannelSpec channel : inputs)
        {
            if (channel.slots() < needed)
            {
                return "channel '" + channel.name() + "' of " + channel.slots() + " slots holds " +
                    coverMillis(channel.slots(), rateHz) + " at receive.rateHz " + rateHz + ", less than a " + stall +
                    " stall: give it slots: " + needed + " or more in the layout";
            }
        }
        return null;
    }

    private static String coverMillis(final int slots, final int rateHz)
    {
        return String.format(Locale.ROOT, "%.1f ms", slots * 1000.0 / rateHz);
    }

    /**
     * Map, in this process, every page the hot path reads: the input channels' regions of reflective memory (read,
     * never written). A page first touched by an RT thread is a page fault on the hot path.
     */
    private void pretouch()
    {
        long sum = 0;
        for (final ChannelSpec c : channels)
        {
            for (long offset = c.offset(); offset < c.offset() + c.length(); offset += PAGE_SIZE)
            {
                sum += device.window().getLong(offset & ~7L);
            }
        }
        pretouched = sum;
    }

    /**
     * @return the RT hygiene figures of the threads so far, in the order of {@link #threads()} (read from a
     * housekeeping thread: this reads /proc and allocates). After {@link #close()}, the figures read just before the
     * threads were told to stop: an ended thread has no {@code /proc/self/task} entry left to read.
     */
    public List<ThreadStats> threadStats()
    {
        if (stoppedStats != null)
        {
            return stoppedStats;
        }
        final List<ThreadStats> stats = new ArrayList<>();
        for (final RtThread t : threads())
        {
            stats.add(ThreadStats.of(t.placement().tid()));
        }
        return stats;
    }

    /**
     * @return the consumer's Agrona idle strategy for this path's {@link ReceiveIdle} (a new one per call): how the
     * consumer thread of the {@link ReceiveMode#INTERRUPT} mode waits on the hand-off.
     */
    public IdleStrategy consumerIdle()
    {
        return switch (idle.kind())
        {
            case SPIN -> new BusySpinIdleStrategy();
            case SPIN_THEN_BLOCK -> new HandoffIdleStrategy(handoff, idle.nanos(), clock, counters);
            // a period is no consumer's wait (the polling mode has no consumer): never run
            case BLOCK, PERIOD -> new HandoffIdleStrategy(handoff, 0, clock, counters);
        };
    }

    /**
     * @return which threads this path runs.
     */
    public ReceiveMode mode()
    {
        return mode;
    }

    /**
     * @return how the thread that takes frames waits (the consumer, or the polling thread).
     */
    public ReceiveIdle idle()
    {
        return idle;
    }

    /**
     * @return the ISR-wake duty, null in polling mode.
     */
    public IsrWakeAgent isrAgent()
    {
        return isr;
    }

    /**
     * @return the consumer duty, null in polling mode.
     */
    public ConsumerAgent consumerAgent()
    {
        return consumer;
    }

    /**
     * @return the polling duty, null in interrupt modes.
     */
    public PollingAgent pollingAgent()
    {
        return polling;
    }

    /**
     * @return the threads started, ISR-wake first (absent in polling mode).
     */
    public List<RtThread> threads()
    {
        final List<RtThread> threads = new ArrayList<>();
        if (isrThread != null)
        {
            threads.add(isrThread);
        }
        if (consumerThread != null)
        {
            threads.add(consumerThread);
        }
        return threads;
    }

    /**
     * @return the stage recorders; sample them from one reporting thread.
     */
    public StageLatencies latencies()
    {
        return latencies;
    }

    /**
     * @param counter a runtime counter.
     * @return its value.
     */
    public long counter(final RuntimeCounter counter)
    {
        if (counter == RuntimeCounter.ERRORS)
        {
            return errors.errors();
        }
        return counters.get(counter);
    }

    /**
     * @param counter a frame counter.
     * @return its sum over every input channel (read from another thread: a recent value).
     */
    public long counter(final FrameCounter counter)
    {
        long sum = 0;
        for (final FrameReceiver receiver : receivers)
        {
            sum += receiver.counter(counter);
        }
        return sum;
    }

    /**
     * @return the input channels.
     */
    public List<ChannelSpec> channels()
    {
        return channels;
    }

    /**
     * @return the mode and idle as one value (its {@code toString()} is the {@code receive.wait} shorthand).
     */
    public WaitStrategy waitStrategy()
    {
        return wait;
    }

    /**
     * @return the error policy of this path's threads.
     */
    public RtErrorPolicy errors()
    {
        return errors;
    }

    /**
     * @return the first thread failure in one line, or null while every thread is well.
     */
    public String failure()
    {
        return errors.failure();
    }

    /**
     * Stop the threads (the ISR wait is cancelled, the consumer woken; what is still handed off is given back to the
     * card) and wait for them, each at most {@link BoundedClose#STOP_TIMEOUT_MS}; the device stays open.
     *
     * @throws ThreadNotStoppedException when a thread did not stop (both were tried): it is left running, and the
     *                                    device must stay open (mapped) for it.
     */
    @Override
    public void close()
    {
        if (!running)
        {
            return;
        }
        stoppedStats = List.copyOf(threadStats());
        running = false;
        ThreadNotStoppedException stuck = null;
        if (isrRunner != null)
        {
            try
            {
                BoundedClose.close(isrRunner, () -> device.cancelAwait(event), BoundedClose.STOP_TIMEOUT_MS);
            }
            catch (final ThreadNotStoppedException ex)
            {
                stuck = ex;
            }
        }
        if (consumerRunner != null)
        {
            try
            {
                BoundedClose.close(consumerRunner, handoff::wake, BoundedClose.STOP_TIMEOUT_MS);
            }
            catch (final ThreadNotStoppedException ex)
            {
                if (stuck != null)
                {
                    ex.addSuppressed(stuck);
                }
                stuck = ex;
            }
        }
        if (stuck != null)
        {
            throw stuck;
        }
    }
}
