package io.rfmrt.runtime;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.config.NodeConfig;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import io.rfmrt.runtime.threads.RtSettings;
import io.rfmrt.runtime.threads.RtThread;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One node as {@code rfmrt node} runs it: the device, the RT environment, the journal, the receive path for its
 * input channels, an optional built-in publisher, and the heartbeat. {@link #start()}, then {@link #close()} (on
 * SIGTERM/SIGINT): threads stop, the journal is flushed, the node id is released.
 */
public final class RfmNode implements AutoCloseable
{
    private static final Logger LOG = LogManager.getLogger("io.rfmrt.node");
    private static final Logger HEARTBEAT = LogManager.getLogger("io.rfmrt.heartbeat");

    private final NodeConfig config;
    private final Consumer<String> out;
    private RfmDevice device;
    private RtEnvironment env;
    private Journal journal;
    private ReceivePath path;
    private Heartbeat heartbeat;
    private Thread heartbeatThread;
    private RtThread publisherThread;
    private volatile boolean running;
    private volatile long published;

    /**
     * @param config the validated configuration.
     * @param out    where the start-up table and warnings go (the console).
     */
    public RfmNode(final NodeConfig config, final Consumer<String> out)
    {
        this.config = config;
        this.out = out;
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
            final NodeConfig.Threads t = config.threads();
            env = RtEnvironment.prepare(new RtSettings(t.cpus(), config.strict(), t.lockMemory(), t.cpuDmaLatency(),
                Path.of("/")), warning ->
                {
                    out.accept("warning: " + warning);
                    LOG.warn(warning);
                });
            final int rtCpu = env.rtCpus().isEmpty() ? NodeConfig.CPU_NONE : env.rtCpus().get(0);
            JournalWriter isrJournal = null;
            JournalWriter consumerJournal = null;
            if (config.journal().enabled())
            {
                journal = Journal.start(new JournalConfig(config.journal().dir(), device.nodeId(),
                    config.journal().ringBytes(), config.journal().roll(),
                    t.housekeeping() == NodeConfig.CPU_AUTO ? env.housekeepingCpu() : t.housekeeping()));
                isrJournal = journal.newWriter("isr");
                consumerJournal = journal.newWriter("consumer");
            }
            running = true;
            if (!config.inputs().isEmpty())
            {
                path = new ReceivePath(device, config.inputs(), config.event(), config.waitStrategy(),
                    (frame, stamps) -> { }, isrJournal, consumerJournal, SystemNanoClock.INSTANCE);
                path.start(env, cpu(t.isr(), rtCpu), t.isr().priority(), cpu(t.consumer(), rtCpu),
                    t.consumer().priority());
            }
            if (config.publish() != null)
            {
                publisherThread = env.start("rfmrt-publisher", cpu(t.publisher(), rtCpu), t.publisher().priority(),
                    this::publish);
            }
            heartbeat = new Heartbeat(device, path, HEARTBEAT::info);
            if (config.heartbeatNanos() > 0)
            {
                heartbeatThread = new Thread(this::beat, "rfmrt-heartbeat");
                heartbeatThread.setDaemon(true);
                heartbeatThread.start();
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

    private void publish()
    {
        final NodeConfig.Publish p = config.publish();
        final FramePublisher publisher = new FramePublisher(device, p.channel());
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[p.size()]);
        final long period = TimeUnit.SECONDS.toNanos(1) / p.rateHz();
        long next = System.nanoTime() + period;
        long count = 0;
        while (running)
        {
            final long park = next - System.nanoTime() - 50_000;
            if (park > 0)
            {
                LockSupport.parkNanos(park);
            }
            while (System.nanoTime() < next)
            {
                Thread.onSpinWait();
            }
            next += period;
            payload.putLong(0, ++count);
            if (publisher.publish(payload, 0, p.size(), 0) == RfmStatus.SUCCESS)
            {
                published = count;
            }
        }
    }

    private void beat()
    {
        final long period = config.heartbeatNanos();
        long next = System.nanoTime() + period;
        while (running)
        {
            LockSupport.parkNanos(next - System.nanoTime());
            next += period;
            if (running)
            {
                heartbeat.beat();
            }
        }
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
     * Stop threads, flush and close the journal, release the node. Idempotent.
     */
    @Override
    public void close()
    {
        running = false;
        if (path != null)
        {
            path.close();
        }
        try
        {
            if (publisherThread != null)
            {
                publisherThread.join(5_000);
            }
            if (heartbeatThread != null)
            {
                heartbeatThread.interrupt();
                heartbeatThread.join(5_000);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        if (heartbeat != null && path != null)
        {
            heartbeat.beat();
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
        if (device != null)
        {
            device.close();
            device = null;
        }
    }
}
