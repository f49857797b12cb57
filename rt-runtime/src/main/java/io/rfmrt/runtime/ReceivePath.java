package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.DmaEngine;
import io.rfmrt.rfm.DmaMode;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.rfm.sim.SimNetwork;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.internal.BoundedClose;
import io.rfmrt.runtime.internal.ConsumerAgent;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.HandoffRing;
import io.rfmrt.runtime.internal.HandoffIdleStrategy;
import io.rfmrt.runtime.internal.IsrWakeAgent;
import io.rfmrt.runtime.internal.JitQueue;
import io.rfmrt.runtime.internal.PollingAgent;
import io.rfmrt.runtime.internal.ScheduleIdleStrategy;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import io.rfmrt.runtime.threads.ThreadStats;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The receive path of one node: an ISR-wake thread that sleeps on the card's interrupt and, on each wake, validates
 * every frame that is ready in its DMA buffers, and a consumer thread that runs the handler — or, in
 * {@link WaitStrategy.Kind#INLINE} mode, the handler on the ISR-wake thread itself (one wake per frame), or, in
 * {@link WaitStrategy.Kind#POLLING} mode, one thread that polls the channels' status words instead (the article's
 * baseline). Every thread is an Agrona agent under one {@link RtErrorPolicy}: a thread that throws stops the path,
 * it never dies silently.
 * <pre>
 *  card ──IRQ──▶ ISR-wake thread ──hand-off──▶ consumer thread ──▶ handler
 *                (await, drain DMA, validate)  (idle strategy)     └─▶ stage latencies, journal, DMA release
 * </pre>
 * Build it, {@link #start} it on an {@link RtEnvironment}, {@link #close()} it. The agents can also be driven
 * without threads ({@link #isrAgent()}, {@link #consumerAgent()}, {@link #pollingAgent()}).
 */
public final class ReceivePath implements AutoCloseable
{
    /** The stall a node's rings must hold the frames of: 100 ms (docs/runtime.md, "Sizing the rings"). */
    public static final long STALL_COVER_DEFAULT_NS = 100_000_000L;
    /** Frames per second the input channels are taken to carry when not told ({@code receive.rateHz}). */
    public static final int INPUT_RATE_DEFAULT_HZ = 1000;

    private final RfmDevice device;
    private final EventType event;
    private final WaitStrategy wait;
    private final List<ChannelSpec> channels;
    private final FrameReceiver[] receivers;
    private final HandoffRing handoff;
    private final Counters counters;
    private final StageLatencies latencies = new StageLatencies();
    private final NanoClock clock;
    private final IsrWakeAgent isr;
    private final ConsumerAgent consumer;
    private final PollingAgent polling;
    /** Frames per channel that {@link #warmUp} sends by default: enough for the JIT's optimising compiler. */
    public static final int WARMUP_FRAMES_DEFAULT = 30_000;

    /** Longest warm-up, in seconds: frames past {@code frames} go on only while the JIT is still compiling. */
    private static final int WARMUP_LIMIT_S = 20;

    /** How far apart the JIT compilers are looked at during the warm-up, in ms. */
    private static final int JIT_CHECK_MS = 50;

    /** Looks in a row that must find the JIT compilers idle. */
    private static final int JIT_QUIET_CHECKS = 4;

    private static final int PAGE_SIZE = 4096;

    private final RtErrorPolicy errors;
    private long pretouched;
    private volatile boolean running;
    private AgentRunner isrRunner;
    private AgentRunner consumerRunner;
    private RtThread isrThread;
    private RtThread consumerThread;

    /**
     * @param device          the node's card.
     * @param channels        input channels (their publishers must differ).
     * @param event           the event type that announces frames.
     * @param wait            how the consumer waits.
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
     * @param channels        input channels (their publishers must differ).
     * @param event           the event type that announces frames.
     * @param wait            how the consumer waits.
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
     * @param channels        input channels (their publishers must differ).
     * @param event           the event type that announces frames.
     * @param wait            how the consumer waits.
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
        if (nodeCounters.channels() != channels.size())
        {
            throw new IllegalArgumentException("counters for " + nodeCounters.channels() +
                " input channels given to a receive path of " + channels.size());
        }
        this.counters = new Counters(nodeCounters);
        this.device = device;
        this.event = event;
        this.wait = wait.validate();
        this.errors = errors;
        this.channels = List.copyOf(channels);
        this.clock = clock;
        this.receivers = new FrameReceiver[channels.size()];
        final int[] channelBySource = new int[RfmDevice.MAX_NODE_ID + 1];
        Arrays.fill(channelBySource, -1);
        for (int i = 0; i < channels.size(); i++)
        {
            final ChannelSpec c = channels.get(i);
            if (channelBySource[c.node()] >= 0)
            {
                throw new IllegalArgumentException("input channels '" + channels.get(channelBySource[c.node()]).name() +
                    "' and '" + c.name() + "' are both published by node " + c.node());
            }
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
        if (wait.kind() == WaitStrategy.Kind.POLLING)
        {
            this.isr = null;
            this.consumer = null;
            this.polling = new PollingAgent(channels.toArray(new ChannelSpec[0]), receivers, handler,
                latencies, counters, consumerJournal, clock, wait.periodNanos());
        }
        else
        {
            final boolean inline = wait.kind() == WaitStrategy.Kind.INLINE;
            // inline, the ISR-wake thread writes both faults and frames: one producer, so one writer
            final JournalWriter isrWriter = inline && consumerJournal != null ? consumerJournal : isrJournal;
            this.isr = new IsrWakeAgent(device, event, receivers, channelBySource, completions, handoff, counters,
                isrWriter, clock);
            this.consumer = new ConsumerAgent(handoff, device.dma(), completions, handler, latencies, counters,
                consumerJournal, clock);
            if (inline)
            {
                isr.inline(consumer);
            }
            this.polling = null;
        }
    }

    /**
     * Start the threads, each an Agrona {@link AgentRunner} under the path's {@link RtErrorPolicy}: the ISR-wake
     * agent (its wait is the card's interrupt), the consumer agent with the wait strategy's {@link IdleStrategy}
     * (none in the inline mode: the ISR-wake thread runs the handler), or the polling agent on its schedule. In
     * interrupt modes the event type is enabled first.
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
        if (polling != null)
        {
            consumerRunner = new AgentRunner(new ScheduleIdleStrategy(polling, clock, 0), errors, null, polling);
            consumerThread = env.start(ReceiveThreads.CONSUMER, consumerCpu, consumerPriority, errors.guard(consumerRunner));
            return;
        }
        device.enableEvent(event);
        if (wait.kind() != WaitStrategy.Kind.INLINE)
        {
            consumerRunner = new AgentRunner(consumerIdle(), errors, null, consumer);
            consumerThread = env.start(ReceiveThreads.CONSUMER, consumerCpu, consumerPriority, errors.guard(consumerRunner));
            handoff.consumer(consumerThread.thread());
        }
        isrRunner = new AgentRunner(NoOpIdleStrategy.INSTANCE, errors, null, isr);
        isrThread = env.start(ReceiveThreads.ISR, isrCpu, isrPriority, errors.guard(isrRunner));
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
        if (mode == DmaMode.AUTO && wait.kind() != WaitStrategy.Kind.POLLING)
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
        return String.format(java.util.Locale.ROOT, "%.1f ms", slots * 1000.0 / rateHz);
    }

    /**
     * Warm the receive path's own code up before the real one starts, so that a node does not report RUNNING with
     * its hot path still interpreted: on a private emulated network shaped like {@code device} (same node id, DMA
     * mode and ring), push at least {@code frames} frames per channel through a path of the same wait strategy with a
     * no-op handler, on unpinned threads, and go on until the JIT compilers have had nothing in progress or queued
     * for a while (at most {@link #WARMUP_LIMIT_S} s in all), then wait for them to be idle again and remove the
     * network. The application's handler is not run (it may have side
     * effects); the code it shares with the path (frame views, stage stamps, journal) is.
     *
     * @param device   the real card, whose shape is copied.
     * @param channels the input channels.
     * @param event    the event type.
     * @param wait     the wait strategy.
     * @param frames   frames per channel, e.g. {@link #WARMUP_FRAMES_DEFAULT}.
     */
    public static void warmUp(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final int frames)
    {
        warmUp(device, channels, event, wait, frames, (frame, stamps) -> { });
    }

    /**
     * {@link #warmUp(RfmDevice, List, EventType, WaitStrategy, int)} with the application's own handler, for a
     * handler that may see synthetic frames (64-byte payloads of zeros): then its code is compiled too, and the call
     * site keeps its one receiver type (no recompilation when the real path starts).
     *
     * @param device   the real card, whose shape is copied.
     * @param channels the input channels.
     * @param event    the event type.
     * @param wait     the wait strategy.
     * @param frames   frames per channel.
     * @param handler  the handler to run on the synthetic frames.
     */
    public static void warmUp(final RfmDevice device, final List<ChannelSpec> channels, final EventType event,
        final WaitStrategy wait, final int frames, final FrameHandler handler)
    {
        final String network = "warmup-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        long size = 1 << 20;
        for (final ChannelSpec c : channels)
        {
            size = Math.max(size, Long.highestOneBit(c.offset() + c.length()) << 1);
        }
        final DmaEngine dma = device.dma();
        final String mode = wait.kind() == WaitStrategy.Kind.POLLING ? "on-demand" : (dma.mode() == DmaMode.AUTO ?
            "auto" : "on-demand");
        SimNetwork.create(network, size).close();
        final List<RfmDevice> senders = new ArrayList<>();
        RfmDevice receiver = null;
        RtEnvironment env = null;
        ReceivePath path = null;
        ThreadNotStoppedException leftRunning = null;
        try
        {
            receiver = RfmDevices.open("sim:" + network + "?node=" + device.nodeId() + "&dmaSlots=" +
                dma.slotCount() + "&dmaSlotSize=" + dma.slotSize() + "&dma=" + mode);
            env = RtEnvironment.prepare(new RtSettings(List.of(), false, false, false, Path.of("/")), warning -> { });
            final List<FramePublisher> publishers = new ArrayList<>();
            for (final ChannelSpec c : channels)
            {
                final RfmDevice sender = RfmDevices.open("sim:" + network + "?node=" + c.node());
                senders.add(sender);
                publishers.add(new FramePublisher(sender, c));
            }
            path = new ReceivePath(receiver, channels, event, wait, handler, null, null, SystemNanoClock.INSTANCE);
            path.start(env, -1, 0, -1, 0);
            final UnsafeBuffer payload = new UnsafeBuffer(new byte[64]);
            final int inFlight = Math.max(1, Math.min(dma.slotCount(), channels.get(0).slots()) / 2);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WARMUP_LIMIT_S);
            final JitWatch jit = new JitWatch();
            long sent = 0;
            // at least the frames asked for, then on until the traffic gives the JIT nothing more to compile: the
            // optimised code of the hot path is installed while its own frames still flow
            for (int i = 0; (i < frames || !jit.idle()) && System.nanoTime() < deadline && !path.errors().failed();
                i++)
            {
                for (int c = 0; c < publishers.size(); c++)
                {
                    final FramePublisher publisher = publishers.get(c);
                    final int length = Math.min(payload.capacity(), channels.get(c).maxPayload());
                    while (sent - path.counter(RuntimeCounter.FRAMES_HANDLED) - path.counter(FrameCounter.GAPS) >=
                        inFlight && System.nanoTime() < deadline)
                    {
                        Thread.onSpinWait();
                    }
                    publisher.publish(payload, 0, length, 0);
                    sent++;
                }
            }
        }
        finally
        {
            if (path != null)
            {
                try
                {
                    path.close();
                }
                catch (final ThreadNotStoppedException ex)
                {
                    leftRunning = ex;
                }
            }
            awaitCompilerQuiet();
            if (leftRunning == null)
            {
                // nothing of the warm-up runs any more: its network can go
                for (final RfmDevice sender : senders)
                {
                    sender.close();
                }
                if (env != null)
                {
                    env.close();
                }
                if (receiver != null)
                {
                    receiver.close();
                }
                SimNetwork.destroy(network, true);
            }
        }
        if (leftRunning != null)
        {
            // a thread of the warm-up still runs on its private network: that stays mapped (and in place) until the
            // process ends
            throw new IllegalStateException("warm-up on network '" + network + "': " + leftRunning.getMessage(),
                leftRunning);
        }
    }

    /**
     * Wait until the JIT compilers have had nothing to do for a while (at most 10 s): what the warm-up queued must be
     * installed before RT threads start, because a busy RT thread on each core leaves the compiler threads no cpu.
     */
    private static void awaitCompilerQuiet()
    {
        final JitWatch jit = new JitWatch();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!jit.idle() && System.nanoTime() < deadline)
        {
            try
            {
                Thread.sleep(10);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Whether the JIT compilers have been idle for {@link #JIT_QUIET_CHECKS} looks {@link #JIT_CHECK_MS} apart: no
     * compilation in progress or queued ({@link JitQueue}); where the JVM does not list its queue, no change in the
     * summed compilation time.
     */
    private static final class JitWatch
    {
        private final CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        private long nextCheck = System.nanoTime();
        private long lastTime = -1;
        private int quiet;

        boolean idle()
        {
            final long now = System.nanoTime();
            if (now - nextCheck < 0)
            {
                return false;
            }
            nextCheck = now + TimeUnit.MILLISECONDS.toNanos(JIT_CHECK_MS);
            final int pending = JitQueue.pending();
            final boolean still;
            if (pending >= 0)
            {
                still = pending == 0;
            }
            else if (bean != null && bean.isCompilationTimeMonitoringSupported())
            {
                final long time = bean.getTotalCompilationTime();
                still = time == lastTime;
                lastTime = time;
            }
            else
            {
                return true;
            }
            quiet = still ? quiet + 1 : 0;
            return quiet >= JIT_QUIET_CHECKS;
        }
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
     * housekeeping thread: this reads /proc and allocates).
     */
    public List<ThreadStats> threadStats()
    {
        final List<ThreadStats> stats = new ArrayList<>();
        for (final RtThread t : threads())
        {
            stats.add(ThreadStats.of(t.placement().tid()));
        }
        return stats;
    }

    /**
     * @return the consumer's idle strategy for this path's wait strategy (a new one per call).
     */
    public IdleStrategy consumerIdle()
    {
        return switch (wait.kind())
        {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case SPIN_THEN_BLOCK -> new HandoffIdleStrategy(handoff, wait.spinNanos(), clock, counters);
            default -> new HandoffIdleStrategy(handoff, 0, clock, counters);
        };
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
     * @return the wait strategy.
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
