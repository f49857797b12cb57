package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.threads.RtDuty.PlannedThread;
import io.rfmrt.runtime.threads.RtDuty.Wait;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RtDutyTest
{
    private static final RtBudget DEFAULT = new RtBudget(950_000, 1_000_000);

    @Test
    void shouldPlanAWholeCpuForAThreadThatNeverSleeps()
    {
        final PlannedThread spinner = new PlannedThread("node", "rfmrt-consumer", 1, Wait.SPIN, 0, 0, 0);
        assertThat(spinner.duty(10_000)).isEqualTo(1.0);

        final RtDuty.Plan plan = RtDuty.plan(List.of(spinner), DEFAULT);
        assertThat(plan.fits()).isFalse();
        assertThat(plan.firstCpuOver()).isEqualTo(1);
    }

    @Test
    void shouldPlanEachWakeUpsCostWorkAndSpinAndSumThemPerCpu()
    {
        // 10 kHz: (10 + 5 + 10) µs per wake = 25 %; (10 + 15) µs = 25 %; a 1 kHz timer on cpu 2: 1 %
        final List<PlannedThread> threads = List.of(
            new PlannedThread("plant", "loop", 1, Wait.TIMER, 10_000, 5_000, 10_000),
            new PlannedThread("controller", "isr", 1, Wait.BLOCKING, 10_000, 15_000, 0),
            new PlannedThread("other", "tick", 2, Wait.TIMER, 1_000, 0, 0));

        final RtDuty.Plan plan = RtDuty.plan(threads, DEFAULT, 10_000);

        assertThat(plan.dutyByCpu()).containsOnlyKeys(1, 2);
        assertThat(plan.dutyByCpu().get(1)).isCloseTo(0.50, within(1e-9));
        assertThat(plan.dutyByCpu().get(2)).isCloseTo(0.01, within(1e-9));
        assertThat(plan.fits()).isTrue();
        assertThat(plan.firstCpuOver()).isEqualTo(-1);
        assertThat(plan.line("rfmrt demo")).isEqualTo("rfmrt demo: RT duty planned: cpu 1 50 % (plant loop 25 %, " +
            "controller isr 25 %); cpu 2 1 % (other tick 1 %); fits the kernel's RT budget of 95 % " +
            "(kernel.sched_rt_runtime_us 950000 of kernel.sched_rt_period_us 1000000)");
    }

    @Test
    void shouldSayInOneLineWhichCpuIsOverTheBudgetAndWhatLiftsIt()
    {
        // a loop that spins 60 µs of its 100 µs period: 75 %, beside 25 % more on the same cpu
        final RtDuty.Plan plan = RtDuty.plan(List.of(
            new PlannedThread("plant", "loop", 1, Wait.TIMER, 10_000, 5_000, 60_000),
            new PlannedThread("controller", "isr", 1, Wait.BLOCKING, 10_000, 15_000, 0)), DEFAULT, 10_000);

        assertThat(plan.fits()).isFalse();
        assertThat(plan.dutyByCpu().get(1)).isCloseTo(1.0, within(1e-9));
        final String line = plan.line("rfmrt demo");
        assertThat(line).doesNotContain("\n")
            .contains("cpu 1 100 %")
            .contains("over the kernel's RT budget of 95 %")
            .contains("stop the RT threads of cpu 1 for up to 50 ms")
            .contains("tuning/bin/rfmrt-isolate --rt-runtime-unlimited")
            .contains("kernel.sched_rt_runtime_us=-1");
    }

    @Test
    void shouldFitAnythingUpToAWholeCpuWithoutABudgetAndSayWhenThreadsWantMore()
    {
        final PlannedThread spinner = new PlannedThread("node", "consumer", 1, Wait.SPIN, 0, 0, 0);
        assertThat(RtDuty.plan(List.of(spinner), RtBudget.UNLIMITED).fits()).isTrue();

        final RtDuty.Plan twoSpinners = RtDuty.plan(List.of(spinner,
            new PlannedThread("node", "loop", 1, Wait.SPIN, 0, 0, 0)), RtBudget.UNLIMITED);
        assertThat(twoSpinners.fits()).isFalse();
        assertThat(twoSpinners.line("rfmrt demo")).contains("more than cpu 1 can run").contains("no RT budget");
    }

    @Test
    void shouldCapAThreadAtItsWholeCpu()
    {
        // 100 kHz of 20 µs wake-ups would be 200 %: one thread cannot use more than its cpu
        assertThat(new PlannedThread("n", "t", 0, Wait.BLOCKING, 100_000, 10_000, 0).duty(10_000)).isEqualTo(1.0);
    }
}
