package io.rfmrt.runtime.threads;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.rfmrt.runtime.threads.internal.Errno;
import io.rfmrt.runtime.threads.internal.PlacementResult;
import io.rfmrt.runtime.threads.internal.ProcessSteps;
import io.rfmrt.runtime.threads.internal.QuietSlf4j;
import io.rfmrt.runtime.threads.internal.Refusal;
import io.rfmrt.runtime.threads.internal.SysCpus;
import io.rfmrt.runtime.threads.internal.ThreadPlacer;
import net.openhft.affinity.AffinityLock;

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
 * Thread-safe; warnings are delivered on the thread that called {@link #prepare} or {@link #start}.
 */
public final class RtEnvironment implements AutoCloseable
{
    private static final long PLACEMENT_TIMEOUT_MS = 10_000;
    private static final String NOT_PINNED = "-";

    private final RtSettings settings;
    private final Consumer<String> warn;
    private final BitSet online;
    private final List<Integer> rtCpus;
    private final int housekeepingCpu;
    private final Set<String> warned = new HashSet<>();
    private final List<String> refusals = new ArrayList<>();
    private final List<Launch> launches = new ArrayList<>();
    private final List<RtThread> threads = new ArrayList<>();
    private String cpusSource;
    private String memoryStatus = "off";
    private String latencyStatus = "off";
    private FileChannel cpuDmaLatency;
    private boolean closed;

    private RtEnvironment(final RtSettings settings, final Consumer<String> warn)
    {
        this.settings = settings;
        this.warn = warn;
        final Path sysroot = settings.sysroot();
        online = SysCpus.online(sysroot).orElseGet(RtEnvironment::availableCpus);
        rtCpus = chooseRtCpus(sysroot);
        housekeepingCpu = firstOnlineNotIn(rtCpus);
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
            environment.prepareProcess();
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
        return rtCpus;
    }

    /**
     * @return the first online cpu that is not an RT cpu (for journal and other housekeeping threads), -1 if none.
     */
    public int housekeepingCpu()
    {
        return housekeepingCpu;
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
            for (final RtThread running : threads)
            {
                if (running.isAlive() && running.placement().thread().equals(name))
                {
                    throw new IllegalArgumentException("thread name " + name + " is already running");
                }
            }
            return launch(name, cpu, priority, body);
        }
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
    public ThreadFactory threadFactory(final int cpu, final int priority)
    {
        if (cpu < -1)
        {
            throw new IllegalArgumentException("cpu " + cpu + " is not a cpu (-1 = do not pin)");
        }
        if (priority < 0 || priority > 99)
        {
            throw new IllegalArgumentException("priority " + priority +
                " is not in 0-99 (1-99 = SCHED_FIFO, 0 = SCHED_OTHER)");
        }
        return body ->
        {
            Objects.requireNonNull(body, "body");
            final Thread thread = new Thread(() -> runPlaced(cpu, priority, body));
            thread.setDaemon(true);
            return thread;
        };
    }

    private void runPlaced(final int cpu, final int priority, final Runnable body)
    {
        final Thread self = Thread.currentThread();
        final String name = self.getName();
        final Launch launch;
        final List<Refusal> refused = new ArrayList<>();
        synchronized (this)
        {
            if (closed)
            {
                throw new IllegalStateException("RtEnvironment is closed; cannot place " + name);
            }
            int pinCpu = cpu;
            if (cpu >= 0 && !online.get(cpu))
            {
                refused.add(Refusal.ofThread(ThreadPlacer.STEP_AFFINITY, name, "pinning " + name + " to cpu " + cpu +
                    " refused (not online; online " + CpuSet.of(online).toString() + ")", "running unpinned"));
                pinCpu = -1;
            }
            final boolean reserve = pinCpu >= 0 && rtCpus.contains(pinCpu) && !lockedByRunningThread(pinCpu);
            launch = new Launch(name, pinCpu, reserve, priority, body);
            launch.thread = self;
            launches.add(launch);
        }
        try
        {
            final PlacementResult result = ThreadPlacer.place(name, launch.cpu, launch.reserve, priority);
            launch.adopt(result.lock());
            refused.addAll(result.refusals());
            final List<String> steps = new ArrayList<>();
            for (final Refusal refusal : refused)
            {
                steps.add(refusal.step());
            }
            synchronized (this)
            {
                threads.add(new RtThread(self, new Placement(name, result.tid(), cpu, result.actualCpu(),
                    result.policy(), result.priority(), steps), result.allowed()));
                for (final Refusal refusal : refused)
                {
                    refuse(refusal);
                }
            }
            body.run();
        }
        finally
        {
            launch.release();
        }
    }

    /**
     * @return the placement of every thread started so far, in start order (ended threads included).
     */
    public synchronized List<Placement> placements()
    {
        final List<Placement> placements = new ArrayList<>(threads.size());
        for (final RtThread thread : threads)
        {
            placements.add(thread.placement());
        }
        return List.copyOf(placements);
    }

    /**
     * One table of every thread started so far: thread, tid, cpu (requested/actual; {@code -} = not pinned, a list
     * when the kernel allows several), policy, priority, refused steps ({@code -} if none); then one line with the
     * process-wide steps.
     *
     * @return the table, lines separated by {@code \n}, ending with a newline.
     */
    public synchronized String placementTable()
    {
        final List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"thread", "tid", "cpu (req/actual)", "policy", "priority", "refused"});
        for (final RtThread thread : threads)
        {
            final Placement p = thread.placement();
            rows.add(new String[] {
                p.thread(),
                Integer.toString(p.tid()),
                (p.requestedCpu() < 0 ? NOT_PINNED : Integer.toString(p.requestedCpu())) + '/' +
                    (p.actualCpu() < 0 ? thread.allowedCpus() : Integer.toString(p.actualCpu())),
                p.policy(),
                Integer.toString(p.priority()),
                p.refused().isEmpty() ? "-" : String.join(",", p.refused())});
        }
        final int[] widths = new int[rows.get(0).length];
        for (final String[] row : rows)
        {
            for (int i = 0; i < row.length; i++)
            {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        final StringBuilder table = new StringBuilder();
        for (final String[] row : rows)
        {
            final int start = table.length();
            for (int i = 0; i < row.length; i++)
            {
                table.append(row[i]);
                if (i < row.length - 1)
                {
                    table.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            table.setLength(start + table.substring(start).stripTrailing().length());
            table.append('\n');
        }
        table.append("process: rt cpus ").append(CpuSet.of(rtCpus).toString()).append(" (").append(cpusSource)
            .append("), housekeeping cpu ").append(housekeepingCpu)
            .append(", mlockall ").append(memoryStatus)
            .append(", cpu_dma_latency ").append(latencyStatus)
            .append(settings.strict() ? ", strict" : ", permissive")
            .append('\n');
        return table.toString();
    }

    /**
     * @return every distinct refused step so far, process-wide ({@code mlockall}, {@code cpu_dma_latency},
     * {@code isolated-cpus}) and per thread, as the one-line warnings, in the order they happened.
     */
    public synchronized List<String> refusals()
    {
        return List.copyOf(refusals);
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
        if (cpuDmaLatency != null)
        {
            try
            {
                cpuDmaLatency.close();
            }
            catch (final IOException ignored)
            {
                // the hold ends with the descriptor either way
            }
            cpuDmaLatency = null;
            latencyStatus = "released";
        }
        for (final Launch launch : launches)
        {
            if (!launch.thread.isAlive())
            {
                launch.release();
            }
        }
    }

    @Override
    public String toString()
    {
        return "RtEnvironment{rtCpus=" + rtCpus + ", housekeepingCpu=" + housekeepingCpu + ", strict=" +
            settings.strict() + '}';
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

    private static BitSet availableCpus()
    {
        final BitSet cpus = new BitSet();
        cpus.set(0, Runtime.getRuntime().availableProcessors());
        return cpus;
    }

    private List<Integer> chooseRtCpus(final Path sysroot)
    {
        if (!settings.cpus().isEmpty())
        {
            cpusSource = "configured";
            return CpuSet.of(settings.cpus()).toList();
        }
        final Optional<BitSet> isolated = SysCpus.isolated(sysroot);
        if (isolated.isPresent())
        {
            final BitSet usable = (BitSet)isolated.get().clone();
            usable.and(online);
            if (!usable.isEmpty())
            {
                cpusSource = "isolated";
                return CpuSet.of(usable).toList();
            }
        }
        final BitSet bestEffort = (BitSet)online.clone();
        if (bestEffort.cardinality() > 1)
        {
            bestEffort.clear(0);
        }
        cpusSource = "best effort";
        return CpuSet.of(bestEffort).toList();
    }

    private int firstOnlineNotIn(final List<Integer> cpus)
    {
        final BitSet rest = (BitSet)online.clone();
        rest.andNot(CpuSet.of(cpus).toBitSet());
        return rest.nextSetBit(0);
    }

    private void prepareProcess()
    {
        if ("best effort".equals(cpusSource))
        {
            final Optional<BitSet> isolated = SysCpus.isolated(settings.sysroot());
            final String file = settings.sysroot().resolve(SysCpus.ISOLATED).toString();
            refuse(Refusal.ofProcess(ProcessSteps.STEP_ISOLATED_CPUS,
                "no isolated cpus (" + file + (isolated.isEmpty() ? " unreadable" :
                    isolated.get().isEmpty() ? " is empty" : " lists no online cpu") +
                ") and rfmrt.rt.cpus not set",
                "RT threads use cpus " + CpuSet.of(rtCpus).toString() +
                ", best effort (shared with the rest of the system)"));
        }
        if (settings.lockMemory())
        {
            final String refused = ProcessSteps.lockAllMemory();
            if (refused == null)
            {
                memoryStatus = "locked";
            }
            else
            {
                memoryStatus = "refused";
                refuse(Refusal.ofProcess(ProcessSteps.STEP_MLOCKALL,
                    "mlockall(MCL_CURRENT|MCL_FUTURE) refused (" + refused + ")",
                    "memory may be paged out (allow it: LimitMEMLOCK=infinity or CAP_IPC_LOCK)"));
            }
        }
        if (settings.holdCpuDmaLatency())
        {
            final Path device = settings.sysroot().resolve(ProcessSteps.CPU_DMA_LATENCY);
            try
            {
                cpuDmaLatency = ProcessSteps.holdCpuDmaLatency(device);
                latencyStatus = "held at 0";
            }
            catch (final IOException | RuntimeException ex)
            {
                latencyStatus = "refused";
                refuse(Refusal.ofProcess(ProcessSteps.STEP_CPU_DMA_LATENCY,
                    "cpu_dma_latency hold refused (" + Errno.reasonOf(ex) + ": " + device + ")",
                    "cpus may enter deep idle states and wake up late"));
            }
        }
    }

    private RtThread launch(final String name, final int cpu, final int priority, final Runnable body)
    {
        Refusal early = null;
        int pinCpu = cpu;
        if (cpu >= 0 && !online.get(cpu))
        {
            early = Refusal.ofThread(ThreadPlacer.STEP_AFFINITY, name,
                "pinning " + name + " to cpu " + cpu + " refused (not online; online " + CpuSet.of(online).toString() + ")",
                "running unpinned");
            pinCpu = -1;
            if (settings.strict())
            {
                refuse(early);
            }
        }
        final boolean reserve = pinCpu >= 0 && rtCpus.contains(pinCpu) && !lockedByRunningThread(pinCpu);

        final Launch launch = new Launch(name, pinCpu, reserve, priority, body);
        final Thread thread = new Thread(launch, name);
        launch.thread = thread;
        thread.start();
        try
        {
            if (!launch.placed.await(PLACEMENT_TIMEOUT_MS, TimeUnit.MILLISECONDS))
            {
                launch.abort();
                throw new RtSetupException("placing " + name + " did not finish in " + PLACEMENT_TIMEOUT_MS + " ms");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            launch.abort();
            throw new RtSetupException("interrupted while placing " + name, ex);
        }
        if (launch.failure != null)
        {
            launch.abort();
            throw new RtSetupException("placing " + name + " failed: " + launch.failure, launch.failure);
        }

        final PlacementResult result = launch.result;
        final List<Refusal> refused = new ArrayList<>();
        if (early != null)
        {
            refused.add(early);
        }
        refused.addAll(result.refusals());
        final List<String> steps = new ArrayList<>();
        for (final Refusal refusal : refused)
        {
            steps.add(refusal.step());
        }
        final Placement placement = new Placement(name, result.tid(), cpu, result.actualCpu(), result.policy(),
            result.priority(), steps);
        final RtThread rtThread = new RtThread(thread, placement, result.allowed());
        launches.add(launch);
        threads.add(rtThread);
        try
        {
            for (final Refusal refusal : refused)
            {
                refuse(refusal);
            }
        }
        catch (final RtSetupException ex)
        {
            launch.abort();
            joinQuietly(thread);
            throw ex;
        }
        launch.go();
        return rtThread;
    }

    private boolean lockedByRunningThread(final int cpu)
    {
        for (final Launch launch : launches)
        {
            if (launch.lockedCpu() == cpu && launch.thread.isAlive())
            {
                return true;
            }
        }
        return false;
    }

    private void refuse(final Refusal refusal)
    {
        if (warned.add(refusal.key()))
        {
            refusals.add(refusal.line());
            if (!settings.strict())
            {
                warn.accept(refusal.line());
            }
        }
        if (settings.strict())
        {
            throw new RtSetupException("strict: " + refusal.what());
        }
    }

    private static void joinQuietly(final Thread thread)
    {
        try
        {
            thread.join(PLACEMENT_TIMEOUT_MS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The new thread's run: place, report, wait for the go (or the abort) from {@link #start}, run the body, release
     * the cpu reservation.
     */
    private static final class Launch implements Runnable
    {
        private final String name;
        private final int cpu;
        private final boolean reserve;
        private final int priority;
        private final Runnable body;
        private final CountDownLatch placed = new CountDownLatch(1);
        private final CountDownLatch decided = new CountDownLatch(1);
        private volatile boolean aborted;
        private volatile Thread thread;
        private volatile PlacementResult result;
        private volatile Throwable failure;
        private AffinityLock lock;
        private boolean released;

        Launch(final String name, final int cpu, final boolean reserve, final int priority, final Runnable body)
        {
            this.name = name;
            this.cpu = cpu;
            this.reserve = reserve;
            this.priority = priority;
            this.body = body;
        }

        @Override
        public void run()
        {
            try
            {
                try
                {
                    final PlacementResult placement = ThreadPlacer.place(name, cpu, reserve, priority);
                    synchronized (this)
                    {
                        lock = placement.lock();
                    }
                    result = placement;
                }
                catch (final RuntimeException | LinkageError ex)
                {
                    failure = ex;
                }
                finally
                {
                    placed.countDown();
                }
                decided.await();
                if (!aborted)
                {
                    body.run();
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            finally
            {
                release();
            }
        }

        void go()
        {
            decided.countDown();
        }

        void abort()
        {
            aborted = true;
            decided.countDown();
        }

        synchronized void adopt(final AffinityLock placed)
        {
            lock = placed;
        }

        synchronized int lockedCpu()
        {
            return lock != null && !released ? lock.cpuId() : -1;
        }

        synchronized void release()
        {
            if (lock != null && !released)
            {
                released = true;
                try
                {
                    lock.resetAffinity(false).release();
                }
                catch (final RuntimeException | LinkageError ignored)
                {
                    // the lock file goes with the process
                }
            }
        }
    }
}
