package io.rfmrt.runtime;

import io.rfmrt.rfm.RfmDevice;
import io.rfmrt.rfm.RfmDevices;
import io.rfmrt.rfm.RfmStatus;
import io.rfmrt.rfm.channel.FramePublisher;
import io.rfmrt.runtime.counters.NodeCounters;
import io.rfmrt.runtime.internal.BoundedClose;
import io.rfmrt.runtime.internal.PeriodicAgent;
import io.rfmrt.runtime.internal.ScheduleIdleStrategy;
import io.rfmrt.runtime.journal.Journal;
import io.rfmrt.runtime.journal.JournalConfig;
import io.rfmrt.runtime.journal.JournalWriter;
import io.rfmrt.runtime.threads.RtEnvironment;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One node: the device, the RT environment, the journal, the receive path for its input channels, an optional
 * built-in publisher, the heartbeat and the app's agents, each thread an Agrona agent under one
 * {@link RtErrorPolicy}. Composed from a {@link NodeContext} (as Aeron's {@code MediaDriver} is from its
 * {@code MediaDriver.Context}): {@link #launch(NodeContext)}, or {@code new RfmNode(ctx)} and {@link #start()}; then
 * {@link #close()} (on SIGTERM/SIGINT, when a thread failed — see {@link NodeContext#onFailure} and
 * {@link #failure()} — or when the app asked for it, {@link #terminate()}): threads stop, the journal is flushed,
 * the node id is released.
 */
public final class RfmNode implements AutoCloseable
{
    /** Name of the built-in publisher's thread. */
    public static final String PUBLISHER_THREAD = "rfmrt-publisher";
    /** Name of the heartbeat's thread. */
    public static final String HEARTBEAT_THREAD = "rfmrt-heartbeat";

    private static final Logger LOG = LogManager.getLogger("io.rfmrt.node");
    /** The publisher sleeps until this long before each send time, then spins. */
    private static final long PUBLISH_SPIN_NS = 50_000;

    private final NodeContext ctx;
    private RtErrorPolicy errors = new RtErrorPolicy(null);
    private RfmDevice device;
    private RtEnvironment env;
    private Journal journal;
    private NodeCounters counters;
    private ReceivePath path;
    private Heartbeat heartbeat;
    private AgentRunner publisherRunner;
    private AgentRunner heartbeatRunner;
    private final List<AgentRunner> agentRunners = new ArrayList<>();
    private volatile long published;
    private volatile boolean terminated;
    private boolean stopped;
    private volatile String closeFailure;
    private boolean threadsLeft;

    /**
     * @param ctx the node's parts; concluded by {@link #start()} when it was not yet.
     */
    public RfmNode(final NodeContext ctx)
    {
        this.ctx = ctx;
    }

    /**
     * @param ctx the node's parts.
     * @return the started node.
     */
    public static RfmNode launch(final NodeContext ctx)
    {
        final RfmNode node = new RfmNode(ctx);
        node.start();
        return node;
    }

    /**
     * @return the node's parts.
     */
    public NodeContext context()
    {
        return ctx;
    }

    /**
     * @param handler the application's frame handler (default: none); set before {@link #start()}.
     * @return this.
     */
    public RfmNode handler(final FrameHandler handler)
    {
        ctx.handler(handler);
        return this;
    }

    /**
     * @param writer what the built-in publisher sends; set before {@link #start()}.
     * @return this.
     */
    public RfmNode payloadWriter(final NodeContext.PayloadWriter writer)
    {
        ctx.payloadWriter(writer);
        return this;
    }

    /**
     * @param sink where heartbeat lines go; set before {@link #start()}.
     * @return this.
     */
    public RfmNode heartbeatSink(final Consumer<String> sink)
    {
        ctx.heartbeatSink(sink);
        return this;
    }

    /**
     * @param action run once when a node thread fails (on that thread).
     * @return this.
     */
    public RfmNode onFailure(final Runnable action)
    {
        ctx.onFailure(action);
        return this;
    }

    /**
     * Open everything and start the threads. On failure, what was opened is closed again.
     */
    public void start()
    {
        // everything is checked before anything is made: a refused start leaves no network, counters or journal
        ctx.check();
        // a running node is not a fault of the file (--check-config does not ask): only the start refuses to share
        final String journalInUse = ctx.journalEnabled() ? Journal.folderInUse(ctx.journalDir()) : null;
        if (journalInUse != null)
        {
            throw new ConfigException(ctx.source(), List.of("journal.dir " + journalInUse +
                "; give each node its own journal.dir"));
        }
        final Consumer<String> out = ctx.out();
        try
        {
            device = ctx.device() != null ? ctx.device() : RfmDevices.open(ctx.deviceUri());
            ctx.checkDevice(device.nodeId(), device.memorySize());
            // a node opened from a URI publishes its counters in a file others read (rfmrt stat); a node given an
            // open device keeps them in memory
            counters = ctx.deviceUri() != null ?
                NodeCounters.create(NodeCounters.fileFor(ctx.deviceUri(), device.nodeId()), device.nodeId(),
                    ctx.deviceUri(), ctx.inputs()) :
                NodeCounters.inMemory(ctx.inputs());
            env = RtEnvironment.prepare(ctx.rtSettings(), warning -> out.accept("warning: " + warning));
            final int rtCpu = env.rtCpus().isEmpty() ? CpuPlacement.CPU_NONE : env.rtCpus().get(0);
            JournalWriter isrJournal = null;
            JournalWriter consumerJournal = null;
            JournalWriter errorJournal = null;
            if (ctx.journalEnabled())
            {
                final int housekeeping = ctx.housekeepingCpu() == CpuPlacement.CPU_AUTO ? env.housekeepingCpu() :
                    ctx.housekeepingCpu();
                // the journal thread is placed like every other thread: by the environment's thread factory
                journal = Journal.start(new JournalConfig(ctx.journalDir(), device.nodeId(), ctx.journalRingBytes(),
                    ctx.journalRoll(), housekeeping, ctx.journalLayout().toYaml()), env.threadFactory(housekeeping, 0));
                isrJournal = journal.newWriter("isr");
                consumerJournal = journal.newWriter("consumer");
                errorJournal = journal.newWriter("errors");
            }
            errors = new RtErrorPolicy(errorJournal, counters).onFailure(ctx.onFailure());
            if (!ctx.inputs().isEmpty())
            {
                final String shortRing = ReceivePath.ringCoverageWarning(device.dma().mode(), device.dma().slotCount(),
                    ctx.inputs(), ctx.waitStrategy(), ctx.inputRateHz());
                if (shortRing != null)
                {
                    out.accept("warning: " + shortRing);
                }
                // the hot path compiled before the node reports it runs
                ReceiveWarmUp.warmUp(device, ctx.inputs(), ctx.event(), ctx.waitStrategy(), ctx.warmupFrames());
            }
            FrameHandler handler = ctx.handler();
            final List<NodeAgent> agents = new ArrayList<>(ctx.agents());
            if (ctx.app() != null)
            {
                ctx.app().onStart(this);
                handler = ctx.app().handler();
                agents.addAll(ctx.app().agents());
            }
            if (handler == null)
            {
                handler = (frame, stamps) -> { };
            }
            if (!ctx.inputs().isEmpty())
            {
                path = new ReceivePath(device, ctx.inputs(), ctx.event(), ctx.waitStrategy(), handler, isrJournal,
                    consumerJournal, SystemNanoClock.INSTANCE, errors, counters);
                path.start(env, ctx.isrPlacement().resolve(rtCpu), ctx.isrPlacement().priority(),
                    ctx.consumerPlacement().resolve(rtCpu), ctx.consumerPlacement().priority());
            }
            if (ctx.publishChannel() != null)
            {
                final PeriodicAgent publisher = publisher();
                publisherRunner = new AgentRunner(new ScheduleIdleStrategy(publisher, SystemNanoClock.INSTANCE,
                    PUBLISH_SPIN_NS), errors, null, publisher);
                env.start(PUBLISHER_THREAD, ctx.publisherPlacement().resolve(rtCpu),
                    ctx.publisherPlacement().priority(),
                    errors.guard(publisherRunner));
            }
            for (final NodeAgent a : agents)
            {
                final AgentRunner runner = new AgentRunner(a.idle(), errors, null, a.agent());
                agentRunners.add(runner);
                env.start(a.agent().roleName(), a.placement().resolve(rtCpu), a.placement().priority(),
                    errors.guard(runner));
            }
            heartbeat = new Heartbeat(device, path, line -> ctx.heartbeatSink().accept(line))
                .journal(journal, warning -> out.accept("warning: " + warning))
                .counters(counters, journal == null ? null : journal.newWriter("heartbeat"));
            if (ctx.app() != null)
            {
                heartbeat.app(ctx.app()::heartbeat);
            }
            if (ctx.heartbeatNanos() > 0)
            {
                final PeriodicAgent beat = new PeriodicAgent(HEARTBEAT_THREAD, ctx.heartbeatNanos(),
                    SystemNanoClock.INSTANCE, (count, nanos) -> heartbeat.beat());
                heartbeatRunner = new AgentRunner(new ScheduleIdleStrategy(beat, SystemNanoClock.INSTANCE, 0), errors,
                    null, beat);
                // a housekeeping thread: where the scheduler puts it, SCHED_OTHER by default
                env.start(HEARTBEAT_THREAD, ctx.heartbeatPlacement().resolve(rtCpu),
                    ctx.heartbeatPlacement().priority(),
                    errors.guard(heartbeatRunner));
            }
            out.accept(String.format("node %d on %s: %d input channel(s) %s, wait %s, DMA %s, publish %s, journal %s",
                device.nodeId(), ctx.deviceUri() == null ? "an open device" : ctx.deviceUri(), ctx.inputs().size(),
                ctx.inputs().stream().map(c -> c.name()).toList(), ctx.waitStrategy(), device.dma().mode(),
                ctx.publishChannel() == null ? "-" : ctx.publishChannel().name() + " at " + ctx.publishRateHz() + " Hz",
                journal == null ? "off" : ctx.journalDir()));
            out.accept(env.placementTable());
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex;
        }
    }

    private PeriodicAgent publisher()
    {
        final FramePublisher publisher = new FramePublisher(device, ctx.publishChannel());
        final int size = ctx.publishSize();
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[size]);
        final NodeContext.PayloadWriter writer = ctx.payloadWriter();
        return new PeriodicAgent(PUBLISHER_THREAD, TimeUnit.SECONDS.toNanos(1) / ctx.publishRateHz(),
            SystemNanoClock.INSTANCE, (count, nanos) ->
            {
                writer.write(count + 1, payload);
                if (publisher.publish(payload, 0, size, 0) == RfmStatus.SUCCESS)
                {
                    published = count + 1;
                }
            });
    }

    /**
     * Ask the node to stop (any thread; an app that is done): runs the context's termination hook once.
     */
    public void terminate()
    {
        if (!terminated)
        {
            terminated = true;
            if (ctx.terminationHook() != null)
            {
                ctx.terminationHook().run();
            }
        }
    }

    /**
     * @return whether {@link #terminate()} was called.
     */
    public boolean terminated()
    {
        return terminated;
    }

    /**
     * @return the open device (after {@link #start()}).
     */
    public RfmDevice device()
    {
        return device;
    }

    /**
     * @return the RT environment (after {@link #start()}).
     */
    public RtEnvironment environment()
    {
        return env;
    }

    /**
     * @return the receive path, null for a node without inputs (or before its threads start).
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
     * Stop threads (receive path, publisher, app agents, heartbeat), let the app take its figures, write a last
     * heartbeat, flush and close the journal (with any FAULT record of a failed thread), close the device (its node
     * id claim is released). Idempotent; the same order after a thread failure. A step that fails (a thread that does
     * not stop within {@link BoundedClose#STOP_TIMEOUT_MS}, a device whose shared files were damaged under it) is
     * logged in one line and kept in {@link #closeFailure()}, and the steps after it still run: the journal is
     * flushed and the claim released whatever went before.
     */
    @Override
    public void close()
    {
        closeStep("stopping the receive path", () ->
        {
            if (path != null)
            {
                path.close();
            }
        });
        closeStep("stopping the publisher", () ->
        {
            if (publisherRunner != null)
            {
                final AgentRunner runner = publisherRunner;
                publisherRunner = null;
                BoundedClose.close(runner, () -> {}, BoundedClose.STOP_TIMEOUT_MS);
            }
        });
        for (final AgentRunner runner : agentRunners)
        {
            closeStep("stopping " + runner.agent().roleName(),
                () -> BoundedClose.close(runner, () -> {}, BoundedClose.STOP_TIMEOUT_MS));
        }
        agentRunners.clear();
        closeStep("stopping the heartbeat", () ->
        {
            if (heartbeatRunner != null)
            {
                final AgentRunner runner = heartbeatRunner;
                heartbeatRunner = null;
                BoundedClose.close(runner, () -> {}, BoundedClose.STOP_TIMEOUT_MS);
            }
        });
        closeStep("stopping the app", () ->
        {
            if (!stopped && ctx.app() != null && device != null && env != null)
            {
                stopped = true;
                ctx.app().onStop(this);
            }
        });
        closeStep("the last heartbeat", () ->
        {
            final String cut = counters == null ? null : counters.truncation();
            if (cut != null)
            {
                // the figures are gone with the file (the failure line names it); reading them would fault again
                heartbeat = null;
            }
            if (heartbeat != null && path != null && ctx.heartbeatNanos() > 0)
            {
                // the last (partial) interval; a node whose heartbeat is off stays silent
                final Heartbeat last = heartbeat;
                heartbeat = null;
                try
                {
                    last.beat();
                }
                catch (final RuntimeException ex)
                {
                    LOG.warn("last heartbeat failed: {}", ex.toString());
                }
            }
        });
        closeStep("closing the journal", () ->
        {
            if (journal != null)
            {
                final Journal closing = journal;
                journal = null;
                closing.close();
            }
        });
        closeStep("releasing the threads", () ->
        {
            if (env != null)
            {
                final RtEnvironment closing = env;
                env = null;
                closing.close();
            }
        });
        if (threadsLeft)
        {
            // its counters file and device stay mapped until the process ends: unmapped, the thread's next access
            // would crash the JVM
            closeFailed("releasing the counters file and the device",
                new IllegalStateException("left open: a thread of the node is still running"));
            return;
        }
        closeStep("closing the counters file", () ->
        {
            if (counters != null)
            {
                // every thread that counts has stopped; the file goes before the node id is free again
                final NodeCounters closing = counters;
                counters = null;
                closing.close();
            }
        });
        closeStep("closing the device", () ->
        {
            if (device != null)
            {
                final RfmDevice closing = device;
                device = null;
                closing.close();
            }
        });
    }

    /**
     * @return the first step of {@link #close()} that failed, in one line ({@code closing the device:
     * InternalError: ...}), or null.
     */
    public String closeFailure()
    {
        return closeFailure;
    }

    private void closeStep(final String what, final Runnable step)
    {
        try
        {
            step.run();
        }
        catch (final ThreadNotStoppedException ex)
        {
            // a thread left running: what it may touch must stay mapped
            threadsLeft = true;
            closeFailed(what, ex);
        }
        catch (final RuntimeException | Error ex)
        {
            closeFailed(what, ex);
        }
    }

    private void closeFailed(final String what, final Throwable ex)
    {
        final String line = what + ": " + ex.getClass().getSimpleName() +
            (ex.getMessage() == null ? "" : ": " + ex.getMessage());
        LOG.error("node close: {}", line);
        if (closeFailure == null)
        {
            closeFailure = line;
        }
    }
}
