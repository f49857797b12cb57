package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.threads.internal.PlacementResult;
import io.rfmrt.runtime.threads.internal.Refusal;
import io.rfmrt.runtime.threads.internal.RefusalLog;
import io.rfmrt.runtime.threads.internal.ThreadPlacer;
import net.openhft.affinity.AffinityLock;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Launches the threads of an RT environment and keeps their placements: each thread places itself (cpu, OpenHFT
 * reservation of an RT cpu, scheduling policy and priority), reads back what the kernel granted and hands its
 * refusals to the refusal policy before its body runs. Used by {@link RtEnvironment#start} and
 * {@link RtThreadFactory}. Thread-safe (one lock, this object).
 */
final class ThreadLauncher
{
    private static final long PLACEMENT_TIMEOUT_MS = 10_000;

    private final CpuPlan plan;
    private final RefusalLog refusals;
    private final List<Launch> launches = new ArrayList<>();
    private final List<RtThread> threads = new ArrayList<>();
    private boolean closed;

    ThreadLauncher(final CpuPlan plan, final RefusalLog refusals)
    {
        this.plan = plan;
        this.refusals = refusals;
    }

    synchronized RtThread start(final String name, final int cpu, final int priority, final Runnable body)
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

    synchronized List<RtThread> threads()
    {
        return List.copyOf(threads);
    }

    /**
     * No new threads; release the reservations of threads that have ended. Idempotent.
     */
    synchronized void close()
    {
        closed = true;
        for (final Launch launch : launches)
        {
            if (!launch.thread.isAlive())
            {
                launch.release();
            }
        }
    }

    void runPlaced(final int cpu, final int priority, final Runnable body)
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
            final Optional<Refusal> notOnline = plan.pinRefusal(name, cpu);
            if (notOnline.isPresent())
            {
                refused.add(notOnline.get());
                pinCpu = -1;
            }
            final boolean reserve = pinCpu >= 0 && plan.isRtCpu(pinCpu) && !lockedByRunningThread(pinCpu);
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
                    refusals.refuse(refusal);
                }
            }
            body.run();
        }
        finally
        {
            launch.release();
        }
    }

    RtThread launch(final String name, final int cpu, final int priority, final Runnable body)
    {
        final Refusal early = plan.pinRefusal(name, cpu).orElse(null);
        final int pinCpu = early == null ? cpu : -1;
        if (early != null && refusals.strict())
        {
            refusals.refuse(early);
        }
        final boolean reserve = pinCpu >= 0 && plan.isRtCpu(pinCpu) && !lockedByRunningThread(pinCpu);

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
                refusals.refuse(refusal);
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
