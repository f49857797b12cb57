package io.rfmrt.runtime.threads;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RtBudgetTest
{
    @TempDir
    Path sysroot;

    private void write(final String file, final String text) throws IOException
    {
        final Path path = sysroot.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    @Test
    void shouldReadTheKernelsDefaultBudget() throws IOException
    {
        write(RtBudget.RUNTIME_FILE, "950000\n");
        write(RtBudget.PERIOD_FILE, "1000000\n");

        final RtBudget budget = RtBudget.read(sysroot);

        assertThat(budget).isEqualTo(new RtBudget(950_000, 1_000_000));
        assertThat(budget.unlimited()).isFalse();
        assertThat(budget.share()).isEqualTo(0.95);
        assertThat(budget.throttleUs()).isEqualTo(50_000);
        assertThat(budget.describe())
            .isEqualTo("kernel.sched_rt_runtime_us 950000 of kernel.sched_rt_period_us 1000000");
    }

    @Test
    void shouldReadMinusOneAsNoBudget() throws IOException
    {
        write(RtBudget.RUNTIME_FILE, "-1\n");
        write(RtBudget.PERIOD_FILE, "1000000\n");

        final RtBudget budget = RtBudget.read(sysroot);

        assertThat(budget.unlimited()).isTrue();
        assertThat(budget.share()).isEqualTo(1.0);
        assertThat(budget.throttleUs()).isZero();
    }

    @Test
    void shouldTakeTheDefaultPeriodWhenItsFileIsMissing() throws IOException
    {
        write(RtBudget.RUNTIME_FILE, "500000\n");

        assertThat(RtBudget.read(sysroot)).isEqualTo(new RtBudget(500_000, RtBudget.PERIOD_DEFAULT_US));
    }

    @Test
    void shouldNameTheFileOrTheSysctlThatCannotBeRead() throws IOException
    {
        assertThatThrownBy(() -> RtBudget.read(sysroot)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("sched_rt_runtime_us cannot be read");

        write(RtBudget.RUNTIME_FILE, "lots\n");
        assertThatThrownBy(() -> RtBudget.read(sysroot)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("kernel.sched_rt_runtime_us 'lots' is not a number");

        write(RtBudget.RUNTIME_FILE, "950000\n");
        write(RtBudget.PERIOD_FILE, "0\n");
        assertThatThrownBy(() -> RtBudget.read(sysroot)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("kernel.sched_rt_period_us 0 is not positive");
    }

    @Test
    void shouldReadTheRealMachinesBudget()
    {
        // whatever this machine's sysctls say, they parse (a kernel without RT group scheduling still has both)
        final RtBudget budget = RtBudget.read(Path.of("/"));
        assertThat(budget.periodUs()).isPositive();
    }
}
