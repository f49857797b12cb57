package io.rfmrt.runtime.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings validation, cpu discovery on fixture sysroots and the cpu_dma_latency hold on a stand-in device.
 */
class RtSettingsTest
{
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    @Test
    void shouldDefaultToDiscoveryPermissiveMlockallNoLatencyHold()
    {
        final RtSettings defaults = RtSettings.defaults();

        assertThat(defaults.cpus()).isEmpty();
        assertThat(defaults.strict()).isFalse();
        assertThat(defaults.lockMemory()).isTrue();
        assertThat(defaults.holdCpuDmaLatency()).isFalse();
        assertThat(defaults.sysroot()).isEqualTo(Path.of("/"));
        assertThat(defaults.validate()).isSameAs(defaults);
    }

    @Test
    void shouldNameTheSettingAndTheBadValue() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "2-7");

        assertThatThrownBy(() -> settings(sysroot, 2, -1).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessage("rfmrt.rt.cpus: cpu -1 is negative");
        assertThatThrownBy(() -> settings(sysroot, 8).validate())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("rfmrt.rt.cpus: cpu 8 is not online (online: 0-7)");
        assertThatThrownBy(() -> settings(sysroot, 3, 3).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rfmrt.rt.cpus: cpu 3 is listed twice");
        assertThatThrownBy(() -> new RtSettings(Arrays.asList(2, null), false, false, false, sysroot).validate())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rfmrt.rt.cpus");
        final Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> settings(missing).validate())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("rfmrt.rt.sysroot: " + missing + " is not a directory");
        assertThatThrownBy(() -> RtEnvironment.prepare(settings(sysroot, 9), warnings::add))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cpu 9");
    }

    @Test
    void shouldUseIsolatedCpusOfTheSysroot() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "2-7");

        try (RtEnvironment environment = RtEnvironment.prepare(settings(sysroot), warnings::add))
        {
            assertThat(environment.rtCpus()).containsExactly(2, 3, 4, 5, 6, 7);
            assertThat(environment.housekeepingCpu()).isZero();
            assertThat(warnings).isEmpty();
            assertThat(environment.refusals()).isEmpty();
            assertThat(environment.placementTable()).contains("rt cpus 2-7 (isolated), housekeeping cpu 0");
        }
    }

    @Test
    void shouldPreferConfiguredCpus() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "2-7");

        try (RtEnvironment environment = RtEnvironment.prepare(settings(sysroot, 5, 3), warnings::add))
        {
            assertThat(environment.rtCpus()).containsExactly(3, 5);
            assertThat(environment.housekeepingCpu()).isZero();
            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void shouldFallBackToBestEffortWithExactlyOneWarning() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "");

        try (RtEnvironment environment = RtEnvironment.prepare(settings(sysroot), warnings::add))
        {
            assertThat(environment.rtCpus()).containsExactly(1, 2, 3, 4, 5, 6, 7);
            assertThat(environment.housekeepingCpu()).isZero();
            assertThat(warnings).singleElement().asString()
                .contains("no isolated cpus", "is empty", "1-7", "best effort").doesNotContain("\n");
            assertThat(environment.refusals()).containsExactlyElementsOf(warnings);
            assertThat(environment.placementTable()).contains("rt cpus 1-7 (best effort)");
        }
    }

    @Test
    void shouldUseCpuZeroWhenItIsTheOnlyOne() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0", null);

        try (RtEnvironment environment = RtEnvironment.prepare(settings(sysroot), warnings::add))
        {
            assertThat(environment.rtCpus()).containsExactly(0);
            assertThat(environment.housekeepingCpu()).isEqualTo(-1);
            assertThat(warnings).singleElement().asString().contains("unreadable");
        }
    }

    @Test
    void shouldFailFastWithoutIsolatedCpusInStrictMode() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "");

        assertThatThrownBy(() -> RtEnvironment.prepare(new RtSettings(List.of(), true, false, false, sysroot),
            warnings::add))
            .isInstanceOf(RtSetupException.class)
            .hasMessageStartingWith("strict: no isolated cpus")
            .hasMessageNotContaining("\n");
        assertThat(warnings).isEmpty();
    }

    @Test
    void shouldHoldCpuDmaLatencyAtZeroUntilClosed() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "2-7");
        final Path device = Fixtures.cpuDmaLatency(sysroot);

        final RtEnvironment environment = RtEnvironment.prepare(
            new RtSettings(List.of(), false, false, true, sysroot), warnings::add);

        assertThat(Files.readAllBytes(device)).containsExactly(0, 0, 0, 0);
        assertThat(environment.placementTable()).contains("cpu_dma_latency held at 0");
        environment.close();
        environment.close();
        assertThat(environment.placementTable()).contains("cpu_dma_latency released");
        assertThat(warnings).isEmpty();
    }

    @Test
    void shouldWarnOnceWhenCpuDmaLatencyIsMissingAndFailInStrictMode() throws Exception
    {
        final Path sysroot = Fixtures.sysroot(dir, "0-7", "2-7");

        try (RtEnvironment environment = RtEnvironment.prepare(
            new RtSettings(List.of(), false, false, true, sysroot), warnings::add))
        {
            assertThat(warnings).singleElement().asString()
                .startsWith("cpu_dma_latency hold refused (ENOENT: ");
            assertThat(environment.refusals()).hasSize(1);
        }
        assertThatThrownBy(() -> RtEnvironment.prepare(new RtSettings(List.of(), true, false, true, sysroot),
            warnings::add))
            .isInstanceOf(RtSetupException.class)
            .hasMessageStartingWith("strict: cpu_dma_latency hold refused (ENOENT");
    }

    private static RtSettings settings(final Path sysroot, final Integer... cpus)
    {
        return new RtSettings(List.of(cpus), false, false, false, sysroot);
    }
}
