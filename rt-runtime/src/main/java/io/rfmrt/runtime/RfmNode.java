package io.rfmrt.runtime;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.internal.PeriodicAgent;
import io.rfmrt.runtime.internal.ScheduleIdleStrategy;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One node as {@code rfmrt node} runs it: the device, the RT environment, the journal, the receive path for its
 * input channels, an optional built-in publisher, and the heartbeat, each thread an Agrona agent under one
 * {@link RtErrorPolicy}. {@link #start()}, then {@link #close()} (on SIGTERM/SIGINT, or when a thread failed: see
 * {@link #onFailure} and {@link #failure()}): threads stop, the journal is flushed, the node id is released.
 */
public final class RfmNode implements AutoCloseable
{
    /** Name of the built-in publisher's thread. */
    public static final String PUBLISHER_THREAD = "rfmrt-publisher";
    /** Name of the heartbeat's thread. */
    public static final String HEARTBEAT_THREAD = "rfmrt-heartbeat";

    private static final Logger LOG = LogManager.getLogger("io.rfmrt.node");
    private static final Logger HEARTBEAT = LogManager.getLogger("io.rfmrt.heartbeat");
    /** The publisher sleeps until this long before each send time, then spins. */
    private static final long PUBLISH_SPIN_NS = 50_000;

    /**
     * What the built-in publisher sends: fills the payload of frame number {@code count} (1, 2, ...). Runs on the
     * publisher thread: no allocation, no blocking.
     */
    @FunctionalInterface
    public interface PayloadWriter
    {
        /**
         * @param count   the frame number.
         * @param payload the payload buffer ({@code publish.size} bytes).
         */
        void write(long count, MutableDirectBuffer payload);
    }

    private final NodeConfig config;
    private final Consumer<String> out;
    private FrameHandler handler = (frame, stamps) -> { };
    private PayloadWriter payloadWriter = (count, payload) -> payload.putLong(0, count);
    private Consumer<String> heartbeatSink = HEARTBEAT::info;
    private RtErrorPolicy errors = new RtErrorPolicy(null);
    private Runnable onFailure;
    private RfmDevice device;
    private RtEnvironment env;
    private Journal journal;
    private NodeCounters counters;
    private ReceivePath path;
    private Heartbeat heartbeat;
    private AgentRunner publisherRunner;
    private AgentRunner heartbeatRunner;
    private volatile long published;

    /**
     * @param config the validated configuration.
     * @param out    where the start-up table and warnings go (the console), each warning once, as one line.
     */
    public RfmNode(final NodeConfig config, final Consumer<String> out)
    {
        this.config = config;
        this.out = out;
    }

    /**
     * @param handler the application's frame handler (default: none); set before {@link #start()}.
     * @return this.
     */
    public RfmNode handler(final FrameHandler handler)
    {
        this.handler = handler;
        return this;
    }

    /**
     * @param writer what the built-in publisher sends (default: the frame number as the first 8 bytes); set before
     *               {@link #start()}.
     * @return this.
     */
    public RfmNode payloadWriter(final PayloadWriter writer)
    {
        this.payloadWriter = writer;
        return this;
    }

    /**
     * @param sink where heartbeat lines go (default: the {@code io.rfmrt.heartbeat} logger); set before
     *             {@link #start()}.
     * @return this.
     */
    public RfmNode heartbeatSink(final Consumer<String> sink)
    {
        this.heartbeatSink = sink;
        return this;
    }

    /**
     * @param action run once when a node thread fails (on that thread): wake whoever waits to stop the node.
     * @return this.
     */
    public RfmNode onFailure(final Runnable action)
    {
        this.onFailure = action;
        return this;
    }

    /**
     * Open everything and start the threads. On failure, what was opened is closed again.
     */
    public void start()
    {
        try
        {
            device = RfmDevices.open(config.device());
            config.checkDevice(device.nodeId(), device.memorySize());
            counters = NodeCounters.create(NodeCounters.fileFor(config.device(), device.nodeId()), device.nodeId(),
                config.device(), config.inputs());
            final NodeConfig.Threads t = config.threads();
            env = RtEnvironment.prepare(new RtSettings(t.cpus(), config.strict(), t.lockMemory(), t.cpuDmaLatency(),
                Path.of("/")), warning -> out.accept("warning: " + warning));
            final int rtCpu = env.rtCpus().isEmpty() ? NodeConfig.CPU_NONE : env.rtCpus().get(0);
            JournalWriter isrJournal = null;
            JournalWriter consumerJournal = null;
            JournalWriter errorJournal = null;
            if (config.journal().enabled())
            {
                final int housekeeping = t.housekeeping() == NodeConfig.CPU_AUTO ? env.housekeepingCpu() :
                    t.housekeeping();
                // the journal thread is placed like every other thread: by the environment's thread factory
                journal = Journal.start(new JournalConfig(config.journal().dir(), device.nodeId(),
                    config.journal().ringBytes(), config.journal().roll(), housekeeping),
                    env.threadFactory(housekeeping, 0));
                isrJournal = journal.newWriter("isr");
                consumerJournal = journal.newWriter("consumer");
                errorJournal = journal.newWriter("errors");
            }
            errors = new RtErrorPolicy(errorJournal, counters).onFailure(onFailure);
            if (!config.inputs().isEmpty())
            {
                path = new ReceivePath(device, config.inputs(), config.event(), config.waitStrategy(), handler,
                    isrJournal, consumerJournal, SystemNanoClock.INSTANCE, errors, counters);
                // the hot path compiled before the node reports it runs
                ReceivePath.warmUp(device, config.inputs(), config.event(), config.waitStrategy(),
                    ReceivePath.WARMUP_FRAMES_DEFAULT);
                path.start(env, cpu(t.isr(), rtCpu), t.isr().priority(), cpu(t.consumer(), rtCpu),
                    t.consumer().priority());
            }
            if (config.publish() != null)
            {
                final PeriodicAgent publisher = publisher(config.publish());
                publisherRunner = new AgentRunner(new ScheduleIdleStrategy(publisher, SystemNanoClock.INSTANCE,
                    PUBLISH_SPIN_NS), errors, null, publisher);
                env.start(PUBLISHER_THREAD, cpu(t.publisher(), rtCpu), t.publisher().priority(), publisherRunner);
            }
            heartbeat = new Heartbeat(device, path, line -> heartbeatSink.accept(line))
                .journal(journal, warning -> out.accept("warning: " + warning))
                .counters(counters, journal == null ? null : journal.newWriter("heartbeat"));
            if (config.heartbeatNanos() > 0)
            {
                final PeriodicAgent beat = new PeriodicAgent(HEARTBEAT_THREAD, config.heartbeatNanos(),
                    SystemNanoClock.INSTANCE, (count, nanos) -> heartbeat.beat());
                heartbeatRunner = new AgentRunner(new ScheduleIdleStrategy(beat, SystemNanoClock.INSTANCE, 0), errors,
                    null, beat);
                // a housekeeping thread: where the scheduler puts it, SCHED_OTHER
                env.start(HEARTBEAT_THREAD, -1, 0, heartbeatRunner);
            }
            out.accept(String.format("node %d on %s: %d input channel(s) %s, wait %s, DMA %s, publish %s, journal %s",
                device.nodeId(), config.device(), config.inputs().size(),
                config.inputs().stream().map(c -> c.name()).toList(), config.waitStrategy(),
                device.dma().mode(), config.publish() == null ? "-" : config.publish().channel().name() + " at " +
                    config.publish().rateHz() + " Hz", journal == null ? "off" : config.journal().dir()));
            out.accept(env.placementTable());
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private static int cpu(final NodeConfig.Placement placement, final int rtCpu)
    {
        return placement.cpu() == NodeConfig.CPU_AUTO ? rtCpu : placement.cpu();
    }

    private PeriodicAgent publisher(final NodeConfig.Publish p)
    {
        final FramePublisher publisher = new FramePublisher(device, p.channel());
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[p.size()]);
        final PayloadWriter writer = payloadWriter;
        return new PeriodicAgent(PUBLISHER_THREAD, TimeUnit.SECONDS.toNanos(1) / p.rateHz(),
            SystemNanoClock.INSTANCE, (count, nanos) ->
            {
                writer.write(count + 1, payload);
                if (publisher.publish(payload, 0, p.size(), 0) == RfmStatus.SUCCESS)
                {
                    published = count + 1;
                }
            });
    }

    /**
     * @return the receive path, null for a node without inputs.
     */
    public ReceivePath receivePath()
    {
        return path;
    }

    /**
     * @return frames the built-in publisher has sent.
     */
    public long published()
    {
        return published;
    }

    /**
     * @return the journal, null when off.
     */
    public Journal journal()
    {
        return journal;
    }

    /**
     * @return the node's counters (its counters file), null before {@link #start()}.
     */
    public NodeCounters counters()
    {
        return counters;
    }

    /**
     * @return the error policy of the node's threads.
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
     * Stop threads (receive path, publisher, heartbeat), write a last heartbeat, flush and close the journal (with
     * any FAULT record of a failed thread), close the device (its node id claim is released). Idempotent; the same
     * order after a thread failure.
     */
    @Override
    public void close()
    {
        if (path != null)
        {
            path.close();
        }
        if (publisherRunner != null)
        {
            publisherRunner.close();
            publisherRunner = null;
        }
        if (heartbeatRunner != null)
        {
            heartbeatRunner.close();
            heartbeatRunner = null;
        }
        if (heartbeat != null && path != null && config.heartbeatNanos() > 0)
        {
            // the last (partial) interval; a node whose heartbeat is off stays silent
            try
            {
                heartbeat.beat();
            }
            catch (final RuntimeException ex)
            {
                LOG.warn("last heartbeat failed: {}", ex.toString());
            }
        }
        if (journal != null)
        {
            journal.close();
            journal = null;
        }
        if (env != null)
        {
            env.close();
            env = null;
        }
        if (counters != null)
        {
            // every thread that counts has stopped; the file goes before the node id is free again
            counters.close();
            counters = null;
        }
        if (device != null)
        {
            device.close();
            device = null;
        }
    }
}
