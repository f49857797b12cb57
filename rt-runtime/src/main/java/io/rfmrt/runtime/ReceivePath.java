package io.rfmrt.runtime;

import io.rfmrt.rfm.DmaCompletion;
import io.rfmrt.rfm.EventType;
import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.channel.ChannelSpec;
import io.rfmrt.rfm.channel.FrameCounter;
import io.rfmrt.rfm.channel.FrameReceiver;
import io.rfmrt.runtime.internal.ConsumerAgent;
import io.rfmrt.runtime.internal.Counters;
import io.rfmrt.runtime.internal.HandoffRing;
import io.rfmrt.runtime.internal.IsrWakeAgent;
import io.rfmrt.runtime.internal.PollingAgent;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtThread;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The receive path of one node: an ISR-wake thread that sleeps on the card's interrupt and validates each frame in
 * its DMA buffer, and a consumer thread that runs the handler — or, in {@link WaitStrategy.Kind#POLLING} mode, one
 * thread that polls the channels' status words instead (the article's baseline).
 * <pre>
 *  card ──IRQ──▶ ISR-wake thread ──hand-off──▶ consumer thread ──▶ handler
 *                (await, take DMA, validate)   (wait strategy)     └─▶ stage latencies, journal, DMA release
 * </pre>
 * Build it, {@link #start} it on an {@link RtEnvironment}, {@link #close()} it. The agents can also be driven
 * without threads ({@link #isrAgent()}, {@link #consumerAgent()}, {@link #pollingAgent()}).
 */
public final class ReceivePath implements AutoCloseable
{
    /** Name of the ISR-wake thread. */
    public static final String ISR_THREAD = "rfmrt-isr";
    /** Name of the consumer (or polling) thread. */
    public static final String CONSUMER_THREAD = "rfmrt-consumer";

    private final RfmDevice device;
    private final EventType event;
    private final WaitStrategy wait;
    private final List<ChannelSpec> channels;
    private final FrameReceiver[] receivers;
    private final HandoffRing handoff;
    private final Counters counters = new Counters();
    private final StageLatencies latencies = new StageLatencies();
    private final NanoClock clock;
    private final IsrWakeAgent isr;
    private final ConsumerAgent consumer;
    private final PollingAgent polling;
    private volatile boolean running;
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
        if (channels.isEmpty())
        {
            throw new IllegalArgumentException("a receive path needs at least one input channel");
        }
        this.device = device;
        this.event = event;
        this.wait = wait.validate();
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
            receivers[i] = new FrameReceiver(device, c);
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
            this.polling = new PollingAgent(device.window(), channels.toArray(new ChannelSpec[0]), receivers, handler,
                latencies, counters, consumerJournal, clock);
        }
        else
        {
            this.isr = new IsrWakeAgent(device, event, receivers, channelBySource, completions, handoff, counters,
                isrJournal, clock);
            this.consumer = new ConsumerAgent(handoff, device.dma(), completions, handler, latencies, counters,
                consumerJournal, clock);
            this.polling = null;
        }
    }

    /**
     * Start the threads. In interrupt modes the event type is enabled first.
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
        running = true;
        if (polling != null)
        {
            consumerThread = env.start(CONSUMER_THREAD, consumerCpu, consumerPriority, this::runPolling);
            return;
        }
        device.enableEvent(event);
        consumerThread = env.start(CONSUMER_THREAD, consumerCpu, consumerPriority, this::runConsumer);
        handoff.consumer(consumerThread.thread());
        isrThread = env.start(ISR_THREAD, isrCpu, isrPriority, this::runIsr);
    }

    private void runIsr()
    {
        while (running)
        {
            isr.doWork(RfmDevice.INFINITE_TIMEOUT);
        }
    }

    private void runConsumer()
    {
        final WaitStrategy.Kind kind = wait.kind();
        final long spin = wait.spinNanos();
        long lastWork = clock.nanoTime();
        while (running)
        {
            if (consumer.doWork() > 0)
            {
                if (kind == WaitStrategy.Kind.SPIN_THEN_BLOCK)
                {
                    lastWork = clock.nanoTime();
                }
                continue;
            }
            switch (kind)
            {
                case BUSY_SPIN -> Thread.onSpinWait();
                case SPIN_THEN_BLOCK ->
                {
                    if (clock.nanoTime() - lastWork < spin)
                    {
                        Thread.onSpinWait();
                    }
                    else if (handoff.park(0))
                    {
                        counters.add(RuntimeCounter.CONSUMER_PARKS, 1);
                        lastWork = clock.nanoTime();
                    }
                }
                default ->
                {
                    if (handoff.park(0))
                    {
                        counters.add(RuntimeCounter.CONSUMER_PARKS, 1);
                    }
                }
            }
        }
        // give back what is still handed off, so the card can reuse its buffers
        while (consumer.doWork() > 0)
        {
            Thread.onSpinWait();
        }
    }

    private void runPolling()
    {
        final long period = wait.periodNanos();
        long next = clock.nanoTime() + period;
        while (running)
        {
            final long sleep = next - clock.nanoTime();
            if (sleep > 0)
            {
                LockSupport.parkNanos(sleep);
            }
            polling.doWork();
            next += period;
            final long now = clock.nanoTime();
            if (now - next > period)
            {
                // fell behind by more than a period: restart the schedule rather than burst
                next = now + period;
            }
        }
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
     * Stop both threads (the ISR wait is cancelled, the consumer woken) and wait for them; the device stays open.
     */
    @Override
    public void close()
    {
        if (!running)
        {
            return;
        }
        running = false;
        if (isrThread != null)
        {
            device.cancelAwait(event);
        }
        handoff.wake();
        try
        {
            for (final RtThread t : threads())
            {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (t.isAlive() && System.nanoTime() < deadline)
                {
                    device.cancelAwait(event);
                    handoff.wake();
                    t.join(50);
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
