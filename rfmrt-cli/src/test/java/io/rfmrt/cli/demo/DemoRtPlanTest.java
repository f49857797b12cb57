package io.rfmrt.cli.demo;

import io.rfmrt.control.node.PlantApp;
import io.rfmrt.runtime.threads.RtBudget;
import io.rfmrt.runtime.threads.RtDuty;
import io.rfmrt.runtime.threads.RtDuty.PlannedThread;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DemoRtPlanTest
{
    private static final RtBudget DEFAULT = new RtBudget(950_000, 1_000_000);

    @Test
    void shouldFitTenKilohertzOnOneCpuInTheKernelsDefaultBudget()
    {
        final RtDuty.Plan plan = DemoRtPlan.plan(10_000, "inline", 1, DEFAULT);

        assertThat(plan.threads()).extracting(t -> t.process() + " " + t.name()).containsExactly(
            "controller rfmrt-isr", "controller rfmrt-watchdog", "plant rfmrt-isr", "plant rfmrt-consumer",
            "plant rfmrt-plant");
        // 25 + 11 + 10 + 11 + 25 %
        assertThat(plan.dutyByCpu().get(1)).isCloseTo(0.82, within(1e-9));
        assertThat(plan.fits()).isTrue();
        assertThat(plan.line("rfmrt demo")).startsWith("rfmrt demo: RT duty planned: cpu 1 82 % (")
            .endsWith("; fits the kernel's RT budget of 95 % (kernel.sched_rt_runtime_us 950000 of " +
                "kernel.sched_rt_period_us 1000000)");
    }

    @Test
    void shouldNotHaveFitWithThePlantSpinningFromSixtyMicrosecondsBeforeEachTick()
    {
        // the plant loop as it was: parked to 60 µs before each tick and spun the rest, 75 % of a core at 10 kHz
        final List<PlannedThread> spinning = DemoRtPlan.threads(10_000, "inline", 1).stream()
            .map(t -> PlantApp.LOOP_THREAD.equals(t.name()) ? new PlannedThread(t.process(), t.name(), t.cpu(),
                t.waits(), t.wakesPerSecond(), t.workNanos(), 60_000) : t)
            .toList();

        final RtDuty.Plan plan = RtDuty.plan(spinning, DEFAULT);

        assertThat(plan.dutyByCpu().get(1)).isGreaterThan(DEFAULT.share());
        assertThat(plan.fits()).isFalse();
    }

    @Test
    void shouldSayUpFrontWhenTheBudgetIsTooSmallAndNameTheSetting()
    {
        final String line = DemoRtPlan.plan(10_000, "inline", 1, new RtBudget(500_000, 1_000_000))
            .line("rfmrt demo");

        assertThat(line).doesNotContain("\n")
            .contains("over the kernel's RT budget of 50 % (kernel.sched_rt_runtime_us 500000 of")
            .contains("tuning/bin/rfmrt-isolate --rt-runtime-unlimited")
            .contains("sysctl -w kernel.sched_rt_runtime_us=-1");
    }

    @Test
    void shouldPlanTheControllersConsumerWhenTheLawRunsOffTheIsrThread()
    {
        final RtDuty.Plan inline = DemoRtPlan.plan(1_000, "inline", 1, DEFAULT);
        final RtDuty.Plan blocking = DemoRtPlan.plan(1_000, "blocking", 1, DEFAULT);

        assertThat(blocking.threads()).hasSize(inline.threads().size() + 1)
            .anyMatch(t -> "controller".equals(t.process()) && "rfmrt-consumer".equals(t.name()));
        // one more wake-up per frame: 10 µs at 1 kHz
        assertThat(blocking.dutyByCpu().get(1) - inline.dutyByCpu().get(1)).isCloseTo(0.01, within(1e-9));
    }
}
