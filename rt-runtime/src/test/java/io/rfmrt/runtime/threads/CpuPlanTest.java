package io.rfmrt.runtime.threads;

import io.rfmrt.runtime.threads.internal.Refusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CpuPlanTest
{
    @TempDir
    Path sysroot;

    private CpuPlan plan(final List<Integer> configured, final String online, final String isolated)
        throws IOException
    {
        final Path cpu = sysroot.resolve("sys/devices/system/cpu");
        Files.createDirectories(cpu);
        Files.writeString(cpu.resolve("online"), online + "\n");
        if (isolated != null)
        {
            Files.writeString(cpu.resolve("isolated"), isolated + "\n");
        }
        return CpuPlan.choose(new RtSettings(configured, false, false, false, sysroot));
    }

    @Test
    void shouldTakeTheOnlineIsolatedCpus() throws IOException
    {
        final CpuPlan plan = plan(List.of(), "0-7", "2-3,9");

        assertThat(plan.rtCpus()).containsExactly(2, 3);
        assertThat(plan.source()).isEqualTo(CpuPlan.ISOLATED);
        assertThat(plan.housekeepingCpu()).isZero();
        assertThat(plan.bestEffortRefusal()).isEmpty();
        assertThat(plan.isRtCpu(3)).isTrue();
        assertThat(plan.isRtCpu(4)).isFalse();
    }

    @Test
    void shouldPreferTheConfiguredCpus() throws IOException
    {
        final CpuPlan plan = plan(List.of(5, 4), "0-7", "2-3");

        assertThat(plan.rtCpus()).containsExactly(4, 5);
        assertThat(plan.source()).isEqualTo(CpuPlan.CONFIGURED);
    }

    @Test
    void shouldFallBackToBestEffortAndSayWhy() throws IOException
    {
        final CpuPlan empty = plan(List.of(), "0-3", "");

        assertThat(empty.rtCpus()).containsExactly(1, 2, 3);
        assertThat(empty.housekeepingCpu()).isZero();
        assertThat(empty.source()).isEqualTo(CpuPlan.BEST_EFFORT);
        assertThat(empty.bestEffortRefusal()).map(Refusal::line).get().asString()
            .contains("isolated is empty").contains("RT threads use cpus 1-3, best effort");
    }

    @Test
    void shouldReadTheKernelsNullMaskAsNoIsolatedCpus() throws IOException
    {
        final CpuPlan plan = plan(List.of(), "0", "(null)");

        assertThat(plan.rtCpus()).containsExactly(0);
        assertThat(plan.housekeepingCpu()).isEqualTo(-1);
        assertThat(plan.source()).isEqualTo(CpuPlan.BEST_EFFORT);
    }

    @Test
    void shouldRefuseToPinToACpuThatIsNotOnline() throws IOException
    {
        final CpuPlan plan = plan(List.of(), "0-1", "1");

        assertThat(plan.pinRefusal("rfmrt-isr", 1)).isEmpty();
        assertThat(plan.pinRefusal("rfmrt-isr", -1)).isEmpty();
        assertThat(plan.pinRefusal("rfmrt-isr", 7)).map(Refusal::line).get().asString()
            .isEqualTo("pinning rfmrt-isr to cpu 7 refused (not online; online 0-1): running unpinned");
    }
}
