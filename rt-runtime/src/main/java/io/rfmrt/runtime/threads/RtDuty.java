package io.rfmrt.runtime.threads;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The RT duty a set of threads plans per cpu, against the kernel's {@link RtBudget}: a pure function from the threads
 * (where each runs, how it waits, how often it wakes, what it does per wake) to each cpu's planned share, and whether
 * every cpu fits. A thread that spins forever plans its whole cpu; one that sleeps (blocked on a futex, or on the
 * absolute timer) plans, per wake-up, the wake-up's own cost ({@link #WAKE_COST_DEFAULT_NS}), its work, and any spin
 * it does before or after the work. The figures are estimates made before anything runs, upper bounds by intent: a
 * plan that fits leaves the kernel no reason to throttle; one that does not is told in one line
 * ({@link Plan#line(String)}).
 * <p>
 * Threading: immutable values; no I/O.
 */
public final class RtDuty
{
    /**
     * A wake-up's cost to the RT cpu, ns: the kernel's switch in and out, the JVM's return from the wait. Measured on
     * a 2-vCPU VM (non-RT kernel) from each demo thread's run time in {@code /proc/<pid>/task/<tid>/schedstat} at
     * 10 kHz: 3-5 µs for a futex wake-up, 9-11 µs for a timed one; 10 µs covers either.
     */
    public static final long WAKE_COST_DEFAULT_NS = 10_000;

    private static final double NANOS_PER_SECOND = 1e9;

    private RtDuty()
    {
    }

    /** How a thread waits between its wake-ups. */
    public enum Wait
    {
        /** Blocked in the kernel (a futex, a hand-off) until woken: a wake-up's cost per wake. */
        BLOCKING,
        /** Asleep on a timer until its next period: a wake-up's cost per wake, plus any spin before the deadline. */
        TIMER,
        /** Never sleeps: the whole cpu. */
        SPIN
    }

    /**
     * One planned RT thread.
     *
     * @param process       the process it belongs to (for the line that names it).
     * @param name          the thread's name.
     * @param cpu           the cpu it is pinned to.
     * @param waits         how it waits.
     * @param wakesPerSecond how often it wakes.
     * @param workNanos     its work per wake-up, ns.
     * @param spinNanos     what it spins per wake-up besides the work (a timer's tail, a spin-then-block), ns.
     */
    public record PlannedThread(String process, String name, int cpu, Wait waits, long wakesPerSecond, long workNanos,
        long spinNanos)
    {
        /**
         * @throws IllegalArgumentException for a negative rate, work or spin.
         */
        public PlannedThread
        {
            if (wakesPerSecond < 0 || workNanos < 0 || spinNanos < 0)
            {
                throw new IllegalArgumentException(name + ": wakes " + wakesPerSecond + "/s, work " + workNanos +
                    " ns and spin " + spinNanos + " ns must be >= 0");
            }
        }

        /**
         * @param wakeCostNanos a wake-up's cost, ns.
         * @return the share of its cpu it plans, 0..1.
         */
        public double duty(final long wakeCostNanos)
        {
            if (waits == Wait.SPIN)
            {
                return 1.0;
            }
            return Math.min(1.0, wakesPerSecond * (double)(wakeCostNanos + workNanos + spinNanos) / NANOS_PER_SECOND);
        }
    }

    /**
     * A plan: each cpu's planned duty against the budget.
     *
     * @param threads      the threads.
     * @param budget       the kernel's RT budget.
     * @param wakeCostNanos the wake-up cost it was planned with.
     * @param dutyByCpu    each cpu's planned duty (a share; over 1 when the threads want more than the cpu).
     */
    public record Plan(List<PlannedThread> threads, RtBudget budget, long wakeCostNanos, Map<Integer, Double> dutyByCpu)
    {
        /**
         * @return whether every cpu's duty is within the budget's share.
         */
        public boolean fits()
        {
            return dutyByCpu.values().stream().allMatch(d -> d <= budget.share());
        }

        /**
         * @return the first cpu over the budget, -1 when the plan fits.
         */
        public int firstCpuOver()
        {
            return dutyByCpu.entrySet().stream().filter(e -> e.getValue() > budget.share()).map(Map.Entry::getKey)
                .findFirst().orElse(-1);
        }

        /**
         * One line for a user, before anything runs: each cpu's planned duty and the budget, and when it does not fit,
         * what the kernel will do and the setting that lifts the budget.
         *
         * @param who who speaks (e.g. {@code "rfmrt demo"}).
         * @return the line.
         */
        public String line(final String who)
        {
            final String perCpu = dutyByCpu.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "cpu %d %.0f %% (%s)", e.getKey(), 100 * e.getValue(),
                    threadsOn(e.getKey())))
                .collect(Collectors.joining("; "));
            final String budgetText = budget.unlimited() ? "no RT budget (" + budget.describe() + ")" :
                String.format(Locale.ROOT, "the kernel's RT budget of %.0f %% (%s)", 100 * budget.share(),
                    budget.describe());
            if (fits())
            {
                return who + ": RT duty planned: " + perCpu + "; fits " + budgetText;
            }
            final int cpu = firstCpuOver();
            if (budget.unlimited())
            {
                return String.format(Locale.ROOT, "%s: RT duty planned: %s; more than cpu %d can run, with %s: the " +
                    "threads will fall behind; lower the rate or give them more cpus", who, perCpu, cpu, budgetText);
            }
            return String.format(Locale.ROOT, "%s: RT duty planned: %s; over %s: the kernel will stop the RT " +
                "threads of cpu %d for up to %d ms at a time and they will miss their deadlines; lift the budget " +
                "with %s", who, perCpu, budgetText, cpu, budget.throttleUs() / 1000, RtBudget.HOW_TO_LIFT);
        }

        private String threadsOn(final int cpu)
        {
            return threads.stream().filter(t -> t.cpu() == cpu)
                .map(t -> String.format(Locale.ROOT, "%s %s %.0f %%", t.process(), t.name(),
                    100 * t.duty(wakeCostNanos)))
                .collect(Collectors.joining(", "));
        }
    }

    /**
     * Plan threads against a budget with the default wake-up cost.
     *
     * @param threads the threads.
     * @param budget  the budget.
     * @return the plan.
     */
    public static Plan plan(final List<PlannedThread> threads, final RtBudget budget)
    {
        return plan(threads, budget, WAKE_COST_DEFAULT_NS);
    }

    /**
     * Plan threads against a budget.
     *
     * @param threads       the threads.
     * @param budget        the budget.
     * @param wakeCostNanos a wake-up's cost, ns.
     * @return the plan.
     */
    public static Plan plan(final List<PlannedThread> threads, final RtBudget budget, final long wakeCostNanos)
    {
        final Map<Integer, Double> byCpu = new TreeMap<>();
        for (final PlannedThread t : threads)
        {
            byCpu.merge(t.cpu(), t.duty(wakeCostNanos), Double::sum);
        }
        return new Plan(List.copyOf(new ArrayList<>(threads)), budget, wakeCostNanos, Collections.unmodifiableMap(byCpu));
    }
}
