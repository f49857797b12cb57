package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.threads.internal.QuietSlf4j;
import io.rfmrt.runtime.threads.internal.RefusalLog;
import net.openhft.affinity.AffinityLock;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;



/**
 * The process set up for real-time threads, and the factory of those threads.
 * <p>
 * {@link #prepare} chooses the RT cpus (configured, else isolated, else best effort), locks memory
 * ({@code mlockall(MCL_CURRENT|MCL_FUTURE)}) and optionally holds {@code /dev/cpu_dma_latency} at 0.
 * {@link #start} starts a named thread that pins itself to its cpu (OpenHFT Java-Thread-Affinity; RT cpus are also
 * reserved with an {@link AffinityLock}), sets {@code SCHED_FIFO} or {@code SCHED_OTHER} through its own tid, reads
 * back what the kernel granted, and only then runs its body.
 * <p>
 * Permissive (default): every refused step is reported once to the {@code warn} consumer as one line, and setup goes
 * on with what was granted. Strict: the first refused step throws {@link RtSetupException}.
 * <p>
 * The jobs sit in their own classes: {@link CpuPlan} (which cpus), {@link ProcessSetup} ({@code mlockall},
 * {@code cpu_dma_latency}), {@link RtThreadFactory} (a thread factory that applies a placement),
 * {@link PlacementTable} (the text table); this class ties them together and owns their lifetime.
 * <p>
 * Thread-safe; warnings are delivered on the thread that called {@link #prepare} or {@link #start} (or, for a
 * factory's thread, on that thread).
 */
public final class RtEnvironment implements AutoCloseable
{
    private final RtSettings settings;
    private final CpuPlan plan;
    private final RefusalLog refusals;
    private final ThreadLauncher launcher;
    private ProcessSetup process;
    private boolean closed;

    private RtEnvironment(final RtSettings settings, final Consumer<String> warn)
    {
        this.settings = settings;
        this.plan = CpuPlan.choose(settings);
        this.refusals = new RefusalLog(settings.strict(), warn);
        this.launcher = new ThreadLauncher(plan, refusals);
    }

    /**
     * Validate the settings and prepare the process: choose the RT cpus, {@code mlockall}, hold
     * {@code cpu_dma_latency} if asked.
     *
     * @param settings the settings; validated here.
     * @param warn     receives one line per distinct refused step (permissive mode), on the calling thread.
     * @return the environment; close it to drop the {@code cpu_dma_latency} hold and the cpu reservations.
     * @throws IllegalArgumentException when the settings are invalid.
     * @throws RtSetupException         in strict mode, on the first refused step.
     */
    public static RtEnvironment prepare(final RtSettings settings, final Consumer<String> warn)
    {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(warn, "warn");
        settings.validate();
        QuietSlf4j.apply();
        initAffinity();
        final RtEnvironment environment = new RtEnvironment(settings, warn);
        try
        {
            environment.plan.bestEffortRefusal().ifPresent(environment.refusals::refuse);
            final ProcessSetup setup = ProcessSetup.apply(settings, environment.refusals);
            synchronized (environment)
            {
                environment.process = setup;
            }
        }
        catch (final RuntimeException ex)
        {
            environment.close();
            throw ex;
        }
        return environment;
    }

    /**
     * @return the cpus for RT threads: the configured ones, else the online isolated ones, else (best effort, with a
     * warning) every online cpu but cpu 0, or cpu 0 when it is the only one. Ascending.
     */
    public List<Integer> rtCpus()
    {
        return plan.rtCpus();
    }

    /**
     * @return the first online cpu that is not an RT cpu (for journal and other housekeeping threads), -1 if none.
     */
    public int housekeepingCpu()
    {
        return plan.housekeepingCpu();
    }

    /**
     * @return the cpu choice: RT cpus, housekeeping cpu, where they came from.
     */
    public CpuPlan plan()
    {
        return plan;
    }

    /**
     * @return the process-wide steps and what the kernel granted.
     */
    public synchronized ProcessSetup process()
    {
        return process;
    }

    /**
     * @return whether a refused step throws instead of being warned.
     */
    public boolean strict()
    {
        return settings.strict();
    }

    /**
     * Start a named thread that places itself, then runs {@code body}. Returns once the placement is read back (so
     * {@link RtThread#placement()} is ready); the body runs after that. A cpu among {@link #rtCpus()} is reserved with
     * an OpenHFT {@link AffinityLock} (unless another thread of this environment already holds it: then the cpu is
     * shared); if the lock is refused the thread is still pinned with {@code sched_setaffinity} and the
     * {@code affinity-lock} step counts as refused. Other cpus are pinned without a reservation.
     *
     * @param name     the thread's name (the kernel shows its first 15 characters); unique among running threads.
     * @param cpu      the cpu to pin to, -1 to leave the affinity as inherited.
     * @param priority 1-99 for {@code SCHED_FIFO} at that priority, 0 for {@code SCHED_OTHER}.
     * @param body     what the thread runs once placed.
     * @return the started thread.
     * @throws IllegalArgumentException when the name is blank or already running, the cpu is below -1 or the priority
     *                                  is outside 0-99.
     * @throws IllegalStateException    when the environment is closed.
     * @throws RtSetupException         in strict mode, when a step is refused (the body then never runs).
     */
    public RtThread start(final String name, final int cpu, final int priority, final Runnable body)
    {
        Objects.requireNonNull(body, "body");
        if (name == null || name.isBlank())
        {
            throw new IllegalArgumentException("thread name must not be blank");
        }
        if (cpu < -1)
        {
            throw new IllegalArgumentException("cpu " + cpu + " for " + name + " is not a cpu (-1 = do not pin)");
        }
        if (priority < 0 || priority > 99)
        {
            throw new IllegalArgumentException("priority " + priority + " for " + name +
                " is not in 0-99 (1-99 = SCHED_FIFO, 0 = SCHED_OTHER)");
        }
        synchronized (this)
        {
            if (closed)
            {
                throw new IllegalStateException("RtEnvironment is closed; cannot start " + name);
            }
        }
        return launcher.start(name, cpu, priority, body);
    }

    /**
     * A thread factory that applies a placement, for threads whose owner starts them itself (an Agrona
     * {@code AgentRunner.startOnThread}, the journal): each new thread, once started, places itself as
     * {@link #start} would (cpu, reservation, priority; refusals warned once, or in strict mode the body never runs),
     * is listed in {@link #placements()} and the placement table, then runs its body. Threads are daemons and are
     * named by their owner (the name when the thread starts is the one recorded).
     *
     * @param cpu      the cpu to pin to, -1 to leave the affinity as inherited.
     * @param priority 1-99 for {@code SCHED_FIFO}, 0 for {@code SCHED_OTHER}.
     * @return the factory.
     * @throws IllegalArgumentException when the cpu is below -1 or the priority outside 0-99.
     */
    public RtThreadFactory threadFactory(final int cpu, final int priority)
    {
        return new RtThreadFactory(launcher, cpu, priority);
    }

    /**
     * @return the placement of every thread started so far, in start order (ended threads included).
     */
    public List<Placement> placements()
    {
        final List<RtThread> threads = launcher.threads();
        final List<Placement> placements = new ArrayList<>(threads.size());
        for (final RtThread thread : threads)
        {
            placements.add(thread.placement());
        }
        return List.copyOf(placements);
    }

    List<RtThread> threads()
    {
        return launcher.threads();
    }

    /**
     * One table of every thread started so far: thread, tid, cpu (requested/actual; {@code -} = not pinned, a list
     * when the kernel allows several), policy, priority, refused steps ({@code -} if none); then one line with the
     * process-wide steps.
     *
     * @return the table, lines separated by {@code \n}, ending with a newline: {@link PlacementTable#format}.
     */
    public String placementTable()
    {
        return PlacementTable.format(this);
    }

    /**
     * @return every distinct refused step so far, process-wide ({@code mlockall}, {@code cpu_dma_latency},
     * {@code isolated-cpus}) and per thread, as the one-line warnings, in the order they happened.
     */
    public List<String> refusals()
    {
        return refusals.lines();
    }

    /**
     * Drop the {@code cpu_dma_latency} hold and release the cpu reservations of threads that have ended (a thread
     * still running keeps its reservation until its body returns). No new threads can be started afterwards.
     * Memory stays locked. Idempotent.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (process != null)
        {
            process.close();
        }
        launcher.close();
    }

    @Override
    public String toString()
    {
        return "RtEnvironment{rtCpus=" + plan.rtCpus() + ", housekeepingCpu=" + plan.housekeepingCpu() +
            ", strict=" + settings.strict() + '}';
    }

    private static void initAffinity()
    {
        try
        {
            // loads the lock inventory (and its base affinity) on the preparing thread, not on a pinned one
            AffinityLock.cpuLayout();
        }
        catch (final RuntimeException | LinkageError ignored)
        {
            // each thread's placement reports what is refused
        }
    }
}
