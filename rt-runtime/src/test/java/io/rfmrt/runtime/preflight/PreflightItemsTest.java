package io.rfmrt.runtime.preflight;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.rfmrt.runtime.preflight.CheckStatus.FAIL;
import static io.rfmrt.runtime.preflight.CheckStatus.PASS;
import static io.rfmrt.runtime.preflight.CheckStatus.WARN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each item on an edited copy of the RT node fixture: what makes it PASS, WARN and FAIL, and what a missing or
 * malformed file gives.
 */
class PreflightItemsTest
{
    private static final PreflightOptions RFM = PreflightOptions.defaults().withRfmIrqMatch(Pattern.compile("^rfm2g"));
    private static final String CPU = "sys/devices/system/cpu/";
    private static final String CAP_EFF_NONE = "CapEff:\t0000000000000000\n";

    @TempDir
    static Path dir;

    private static Fixtures.Editable fixture;
    private static Path node;

    @BeforeAll
    static void copyFixture()
    {
        fixture = new Fixtures.Editable(Fixtures.RT_NODE, dir);
        node = fixture.root();
    }

    @AfterEach
    void restoreFixture()
    {
        fixture.restore();
    }

    @AfterAll
    static void shouldHaveRestoredEveryEdit()
    {
        assertThat(fixture.files()).isEqualTo(fixture.originalFiles());
    }

    private PreflightItem check(final CheckId check)
    {
        return Preflight.run(node, RFM).item(check);
    }

    private void write(final String path, final String text)
    {
        fixture.write(path, text);
    }

    private void delete(final String path)
    {
        fixture.delete(path);
    }

    private void limits(final String rtprio, final String memlock)
    {
        write("proc/self/limits",
            "Limit                     Soft Limit           Hard Limit           Units     \n" +
            "Max locked memory         " + String.format("%-21s%-21s", memlock, memlock) + "bytes     \n" +
            "Max realtime priority     " + String.format("%-21s%-21s", rtprio, rtprio) + "\n");
    }

    @Test
    void shouldFailAKernelWithoutPreemptRt()
    {
        delete("sys/kernel/realtime");
        write("proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)\n");
        write("proc/version", "Linux version 6.1.0-27-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1\n");
        write("proc/sys/kernel/osrelease", "6.1.0-27-amd64\n");

        final PreflightItem item = check(CheckId.RT_KERNEL);

        assertThat(item.status()).isEqualTo(FAIL);
        assertThat(item.value()).isEqualTo("6.1.0-27-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01) " +
            "(not PREEMPT_RT)");
        assertThat(item.hint()).contains("linux-image-rt-amd64");
    }

    @Test
    void shouldPassAnOlderRtKernelThatSaysPreemptRtWithASpace()
    {
        delete("sys/kernel/realtime");
        write("proc/sys/kernel/version", "#1 SMP PREEMPT RT Debian 4.19.67-2 (2019-08-28)\n");

        assertThat(check(CheckId.RT_KERNEL).status()).isEqualTo(PASS);
    }

    @Test
    void shouldFailWhenSysKernelRealtimeSaysZero()
    {
        write("sys/kernel/realtime", "0\n");

        assertThat(check(CheckId.RT_KERNEL).status()).isEqualTo(FAIL);
        assertThat(check(CheckId.RT_KERNEL).value()).endsWith("(/sys/kernel/realtime = 0)");
    }

    @Test
    void shouldFailNoIsolatedCoresAndSkipTheIrqItem()
    {
        write(CPU + "isolated", "\n");

        final PreflightReport report = Preflight.run(node, RFM);

        assertThat(report.item(CheckId.ISOLATED_CPUS).status()).isEqualTo(FAIL);
        assertThat(report.item(CheckId.ISOLATED_CPUS).value()).isEqualTo("none (online 0-7)");
        assertThat(report.item(CheckId.IRQ_AFFINITY).status()).isEqualTo(WARN);
        assertThat(report.item(CheckId.IRQ_AFFINITY).value()).startsWith("not checked: no isolated cores");
        assertThat(report.item(CheckId.NOHZ_FULL).value()).isEqualTo("2-7; no isolated cores");
    }

    @Test
    void shouldWarnWhenNohzFullMissesIsolatedCores()
    {
        write(CPU + "nohz_full", "2-5\n");

        assertThat(check(CheckId.NOHZ_FULL).status()).isEqualTo(WARN);
        assertThat(check(CheckId.NOHZ_FULL).value()).isEqualTo("2-5; isolated cores 6-7 keep the tick");
    }

    @Test
    void shouldReadNullInNohzFullAsNone()
    {
        write(CPU + "nohz_full", "(null)\n");

        assertThat(check(CheckId.NOHZ_FULL).status()).isEqualTo(WARN);
        assertThat(check(CheckId.NOHZ_FULL).value()).isEqualTo("none: isolated cores 2-7 keep the tick");
    }

    @Test
    void shouldPassRcuNocbsImpliedByNohzFull()
    {
        write("proc/cmdline", "root=/dev/sda1 ro isolcpus=2-7 nohz_full=2-7\n");

        assertThat(check(CheckId.RCU_NOCBS).status()).isEqualTo(PASS);
        assertThat(check(CheckId.RCU_NOCBS).value()).isEqualTo("2-7 (implied by nohz_full=2-7)");
    }

    @Test
    void shouldWarnRcuNocbsThatMissIsolatedCoresAndIgnoreInitArguments()
    {
        write(CPU + "nohz_full", "\n");
        write("proc/cmdline", "ro rcu_nocbs=2-3 -- rcu_nocbs=2-7\n");

        assertThat(check(CheckId.RCU_NOCBS).status()).isEqualTo(WARN);
        assertThat(check(CheckId.RCU_NOCBS).value())
            .isEqualTo("2-3 (rcu_nocbs=2-3); isolated cores 4-7 run their own RCU callbacks");
    }

    @Test
    void shouldReadABareRcuNocbsAsEveryCpu()
    {
        write(CPU + "nohz_full", "\n");
        write("proc/cmdline", "ro rcu_nocbs\n");

        assertThat(check(CheckId.RCU_NOCBS).status()).isEqualTo(PASS);
        assertThat(check(CheckId.RCU_NOCBS).value()).isEqualTo("0-7 (rcu_nocbs=0-7)");
    }

    @Test
    void shouldListEveryForeignIrqThatMayRunOnAnIsolatedCore()
    {
        write("proc/irq/30/smp_affinity_list", "0-7\n");
        write("proc/irq/30/effective_affinity_list", "0\n");
        write("proc/irq/26/smp_affinity_list", "3\n");
        write("proc/irq/26/effective_affinity_list", "3\n");

        final PreflightItem item = check(CheckId.IRQ_AFFINITY);

        assertThat(item.status()).isEqualTo(FAIL);
        assertThat(item.value()).isEqualTo("2 of 12 IRQs may run on isolated cores 2-7: " +
            "26 nvme0q2 (affinity 3, managed), 30 eth0-TxRx-0 (affinity 0-7, effective 0); " +
            "RFM card's: 40 rfm2g0-dma (affinity 2)");
    }

    @Test
    void shouldFallBackToTheMaskAndToProcInterruptsForAnIrq()
    {
        delete("proc/irq/16/smp_affinity_list");
        delete("proc/irq/16/effective_affinity_list");
        delete("proc/irq/16/effective_affinity");
        write("proc/irq/16/smp_affinity", "0c\n");
        delete("sys/kernel/irq/16/actions");

        final PreflightItem item = check(CheckId.IRQ_AFFINITY);

        assertThat(item.status()).isEqualTo(FAIL);
        assertThat(item.value()).contains("16 ehci_hcd:usb1, i801_smbus (affinity 2-3)");
    }

    @Test
    void shouldFailAnIrqWhoseEffectiveCpuIsIsolated()
    {
        write("proc/irq/31/effective_affinity_list", "4\n");

        assertThat(check(CheckId.IRQ_AFFINITY).value()).contains("31 eth0-TxRx-1 (affinity 0-1, effective 4)");
    }

    @Test
    void shouldWarnWhenAnIrqsAffinityCannotBeRead()
    {
        for (final String file : new String[]{"smp_affinity", "smp_affinity_list", "effective_affinity",
            "effective_affinity_list"})
        {
            delete("proc/irq/9/" + file);
        }

        final PreflightItem item = check(CheckId.IRQ_AFFINITY);

        assertThat(item.status()).isEqualTo(WARN);
        assertThat(item.value()).endsWith("; affinity unreadable: IRQ 9");
    }

    @Test
    void shouldFailIrqbalanceWhoseBannedListLeavesIsolatedCoresToIt()
    {
        write("etc/default/irqbalance", "IRQBALANCE_BANNED_CPULIST=4-7\n");

        final PreflightItem item = check(CheckId.IRQBALANCE);

        assertThat(item.status()).isEqualTo(FAIL);
        assertThat(item.value()).isEqualTo("running (pid 812), IRQBALANCE_BANNED_CPULIST=4-7 in " +
            "/etc/default/irqbalance leaves isolated cores 2-3 to it: it may move IRQs there");
        assertThat(item.hint()).contains("rfmrt-isolate", "IRQBALANCE_BANNED_CPULIST");
    }

    @Test
    void shouldWarnIrqbalanceWithoutBannedCpus()
    {
        delete("etc/default/irqbalance");

        assertThat(check(CheckId.IRQBALANCE).status()).isEqualTo(WARN);
        assertThat(check(CheckId.IRQBALANCE).value()).isEqualTo("running (pid 812), no IRQBALANCE_BANNED_CPULIST " +
            "(no configuration found): relies on its default of skipping isolated and nohz_full cores");
    }

    @Test
    void shouldLetTheBannedMaskWinOverTheBannedListAsIrqbalanceDoes()
    {
        write("etc/sysconfig/irqbalance", "IRQBALANCE_BANNED_CPUS=fc\n");
        delete("etc/default/irqbalance");
        assertThat(check(CheckId.IRQBALANCE).status()).isEqualTo(PASS);

        write("etc/default/irqbalance", "export IRQBALANCE_BANNED_CPUS=\"0c\"\nIRQBALANCE_BANNED_CPULIST='2-7'\n");
        assertThat(check(CheckId.IRQBALANCE).status()).isEqualTo(FAIL);
        assertThat(check(CheckId.IRQBALANCE).value()).contains("IRQBALANCE_BANNED_CPUS=0c", "cores 4-7");
    }

    @Test
    void shouldTrustTheRunningIrqbalancesEnvironmentOverItsConfigurationFile()
    {
        write("proc/812/environ", "LANG=C\0IRQBALANCE_BANNED_CPULIST=2-3\0PATH=/usr/bin\0");

        final PreflightItem item = check(CheckId.IRQBALANCE);

        assertThat(item.status()).isEqualTo(FAIL);
        assertThat(item.value()).isEqualTo("running (pid 812), IRQBALANCE_BANNED_CPULIST=2-3 in its environment " +
            "leaves isolated cores 4-7 to it: it may move IRQs there");

        write("proc/812/environ", "LANG=C\0");
        assertThat(check(CheckId.IRQBALANCE).status()).isEqualTo(WARN);
        assertThat(check(CheckId.IRQBALANCE).value()).contains("no IRQBALANCE_BANNED_CPULIST in its environment");
    }

    @Test
    void shouldPassIrqbalanceThatDoesNotRun()
    {
        delete("proc/812");
        write("etc/default/irqbalance", "IRQBALANCE_BANNED_CPULIST=0\n");

        assertThat(check(CheckId.IRQBALANCE).status()).isEqualTo(PASS);
        assertThat(check(CheckId.IRQBALANCE).value()).isEqualTo("not running");
    }

    @Test
    void shouldParseIrqbalanceConfigurationLikeAShell()
    {
        final Map<String, String> vars = IrqCheck.parseConfig("# IRQBALANCE_BANNED_CPULIST=0\n" +
            "  #IRQBALANCE_ONESHOT=yes\nIRQBALANCE_ARGS=\"--policyscript=/x -i 40\"\n" +
            "export IRQBALANCE_BANNED_CPULIST='2-3'\nIRQBALANCE_BANNED_CPULIST=2-7 # rfmrt\nnot an assignment\n");

        assertThat(vars).containsExactly(Map.entry("IRQBALANCE_ARGS", "--policyscript=/x -i 40"),
            Map.entry("IRQBALANCE_BANNED_CPULIST", "2-7"));
    }

    @Test
    void shouldWarnGovernorsOtherThanPerformance()
    {
        write(CPU + "cpu5/cpufreq/scaling_governor", "powersave\n");

        assertThat(check(CheckId.CPU_GOVERNOR).status()).isEqualTo(WARN);
        assertThat(check(CheckId.CPU_GOVERNOR).value()).isEqualTo("performance on 0-4,6-7, powersave on 5");
    }

    @Test
    void shouldReadGovernorsFromPoliciesWhenCpuFoldersHaveNone()
    {
        for (int cpu = 0; cpu < 8; cpu++)
        {
            delete(CPU + "cpu" + cpu);
        }
        write(CPU + "cpufreq/policy3/scaling_governor", "schedutil\n");

        assertThat(check(CheckId.CPU_GOVERNOR).status()).isEqualTo(WARN);
        assertThat(check(CheckId.CPU_GOVERNOR).value()).isEqualTo("performance on 0-2,4-7, schedutil on 3");
    }

    @Test
    void shouldPassAMachineWithoutCpufreq()
    {
        for (int cpu = 0; cpu < 8; cpu++)
        {
            delete(CPU + "cpu" + cpu);
        }
        delete(CPU + "cpufreq");

        assertThat(check(CheckId.CPU_GOVERNOR).status()).isEqualTo(PASS);
        assertThat(check(CheckId.CPU_GOVERNOR).value()).isEqualTo("no cpufreq (VM, or frequency set by the firmware)");
    }

    @Test
    void shouldWarnTransparentHugePagesOtherThanNever()
    {
        write("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
        assertThat(check(CheckId.THP).status()).isEqualTo(WARN);

        write("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
        assertThat(check(CheckId.THP).status()).isEqualTo(WARN);
        assertThat(check(CheckId.THP).value()).isEqualTo("always [madvise] never");
    }

    @Test
    void shouldWarnRtThrottlingAndFailAZeroRuntime()
    {
        write("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
        assertThat(check(CheckId.RT_THROTTLING).status()).isEqualTo(WARN);
        assertThat(check(CheckId.RT_THROTTLING).value())
            .isEqualTo("950000 of 1000000 us: RT threads get 95% of each cpu, then are stopped for 50 ms; a node's RT " +
                "threads on one cpu must plan under 95% of it (a spinning one plans 100%)");

        // the budget is the runtime over the period: the period is read too
        write("proc/sys/kernel/sched_rt_runtime_us", "800000\n");
        write("proc/sys/kernel/sched_rt_period_us", "2000000\n");
        assertThat(check(CheckId.RT_THROTTLING).status()).isEqualTo(WARN);
        assertThat(check(CheckId.RT_THROTTLING).value()).startsWith("800000 of 2000000 us: RT threads get 40% of " +
            "each cpu, then are stopped for 1200 ms; a node's RT threads on one cpu must plan under 40% of it");
        write("proc/sys/kernel/sched_rt_period_us", "1000000\n");

        write("proc/sys/kernel/sched_rt_runtime_us", "-1\n");
        assertThat(check(CheckId.RT_THROTTLING).status()).isEqualTo(PASS);
        assertThat(check(CheckId.RT_THROTTLING).value()).isEqualTo("-1 (no RT throttling)");

        write("proc/sys/kernel/sched_rt_runtime_us", "0\n");
        assertThat(check(CheckId.RT_THROTTLING).status()).isEqualTo(FAIL);

        write("proc/sys/kernel/sched_rt_runtime_us", "lots\n");
        assertThat(check(CheckId.RT_THROTTLING).status()).isEqualTo(WARN);
        assertThat(check(CheckId.RT_THROTTLING).value()).isEqualTo("unknown: kernel.sched_rt_runtime_us 'lots' is not a number");
    }

    @Test
    void shouldFailRtprioZeroWithoutCapSysNiceAndWarnWithIt()
    {
        limits("0", "unlimited");
        assertThat(check(CheckId.RLIMIT_RTPRIO).status()).isEqualTo(FAIL);
        assertThat(check(CheckId.RLIMIT_RTPRIO).value()).isEqualTo("0 (hard 0): SCHED_FIFO refused");

        write("proc/self/status", "CapEff:\t0000000000800000\n");
        assertThat(check(CheckId.RLIMIT_RTPRIO).status()).isEqualTo(WARN);
        assertThat(check(CheckId.RLIMIT_RTPRIO).value()).contains("CAP_SYS_NICE held");
    }

    @Test
    void shouldWarnRtprioBelowTheExpectedPriority()
    {
        limits("50", "unlimited");
        write("proc/self/status", CAP_EFF_NONE);

        final PreflightItem item = check(CheckId.RLIMIT_RTPRIO);

        assertThat(item.status()).isEqualTo(WARN);
        assertThat(item.value()).isEqualTo("50 (hard 50): SCHED_FIFO priorities above 50 refused (expected up to 80)");
        assertThat(Preflight.run(node, RFM.withMinRtPriority(50)).item(CheckId.RLIMIT_RTPRIO).status())
            .isEqualTo(PASS);
    }

    @Test
    void shouldFailAFiniteMemlockWithoutCapIpcLockAndWarnWithIt()
    {
        limits("99", "65536");
        assertThat(check(CheckId.RLIMIT_MEMLOCK).status()).isEqualTo(FAIL);
        assertThat(check(CheckId.RLIMIT_MEMLOCK).value())
            .isEqualTo("64 KiB (hard 64 KiB): mlockall(MCL_CURRENT|MCL_FUTURE) of a JVM needs unlimited");

        write("proc/self/status", "CapEff:\t0000000000004000\n");
        assertThat(check(CheckId.RLIMIT_MEMLOCK).status()).isEqualTo(WARN);
    }

    @Test
    void shouldWarnAboutEachSwapArea()
    {
        write("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n" +
            "/dev/sda2                               partition\t4194300\t\t0\t\t-2\n" +
            "/swapfile                               file\t\t524288\t\t0\t\t-3\n");

        final PreflightItem item = check(CheckId.SWAP);

        assertThat(item.status()).isEqualTo(WARN);
        assertThat(item.value())
            .isEqualTo("2 swap areas: /dev/sda2 (partition, 4194300 KiB), /swapfile (file, 512 MiB)");
    }

    @Test
    void shouldWarnAClocksourceOtherThanTsc()
    {
        write("sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");

        assertThat(check(CheckId.CLOCKSOURCE).status()).isEqualTo(WARN);
        assertThat(check(CheckId.CLOCKSOURCE).value()).isEqualTo("hpet (available: tsc hpet acpi_pm)");
    }

    static Stream<Arguments> missingFiles()
    {
        return Stream.of(
            Arguments.of(CheckId.RT_KERNEL, new String[]{"sys/kernel/realtime", "proc/version",
                "proc/sys/kernel/version", "proc/sys/kernel/osrelease"},
                "unknown: /proc/sys/kernel/version, /proc/version and /sys/kernel/realtime missing"),
            Arguments.of(CheckId.ISOLATED_CPUS, new String[]{CPU + "isolated"},
                "unknown: /sys/devices/system/cpu/isolated missing"),
            Arguments.of(CheckId.NOHZ_FULL, new String[]{CPU + "nohz_full"},
                "unknown: /sys/devices/system/cpu/nohz_full missing (kernel without CONFIG_NO_HZ_FULL?)"),
            Arguments.of(CheckId.RCU_NOCBS, new String[]{"proc/cmdline", CPU + "nohz_full"},
                "unknown: /proc/cmdline missing"),
            Arguments.of(CheckId.IRQ_AFFINITY, new String[]{"proc/irq"}, "unknown: /proc/irq missing"),
            Arguments.of(CheckId.IRQBALANCE, new String[]{"etc/default/irqbalance"},
                "running (pid 812), no IRQBALANCE_BANNED_CPULIST (no configuration found): relies on its default " +
                "of skipping isolated and nohz_full cores"),
            Arguments.of(CheckId.CPU_GOVERNOR, new String[]{"sys/devices/system/cpu"},
                "unknown: /sys/devices/system/cpu missing"),
            Arguments.of(CheckId.THP, new String[]{"sys/kernel/mm/transparent_hugepage/enabled"},
                "unknown: /sys/kernel/mm/transparent_hugepage/enabled missing"),
            Arguments.of(CheckId.RT_THROTTLING, new String[]{"proc/sys/kernel/sched_rt_runtime_us"},
                "unknown: /proc/sys/kernel/sched_rt_runtime_us missing"),
            Arguments.of(CheckId.RLIMIT_RTPRIO, new String[]{"proc/self/limits"},
                "unknown: /proc/self/limits missing"),
            Arguments.of(CheckId.RLIMIT_MEMLOCK, new String[]{"proc/self/limits"},
                "unknown: /proc/self/limits missing"),
            Arguments.of(CheckId.SWAP, new String[]{"proc/swaps"}, "unknown: /proc/swaps missing"),
            Arguments.of(CheckId.CLOCKSOURCE,
                new String[]{"sys/devices/system/clocksource/clocksource0/current_clocksource"},
                "unknown: /sys/devices/system/clocksource/clocksource0/current_clocksource missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("missingFiles")
    void shouldWarnWithAClearValueWhenAFileIsMissing(final CheckId check, final String[] paths, final String value)
    {
        for (final String path : paths)
        {
            delete(path);
        }

        final PreflightReport report = Preflight.run(node, RFM);

        assertThat(report.items()).hasSize(CheckId.machineItems().length);
        assertThat(report.item(check).status()).isEqualTo(WARN);
        assertThat(report.item(check).value()).isEqualTo(value);
    }

    @Test
    void shouldWarnWhenALimitsLineIsMissing()
    {
        write("proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units\n");

        assertThat(check(CheckId.RLIMIT_RTPRIO).value())
            .isEqualTo("unknown: no 'Max realtime priority' line in /proc/self/limits");
        assertThat(check(CheckId.RLIMIT_MEMLOCK).status()).isEqualTo(WARN);
    }

    @Test
    void shouldWarnAboutAMalformedCpuListAndCarryOn()
    {
        write(CPU + "isolated", "2-x\n");

        final PreflightReport report = Preflight.run(node, RFM);

        assertThat(report.item(CheckId.ISOLATED_CPUS).status()).isEqualTo(WARN);
        assertThat(report.item(CheckId.ISOLATED_CPUS).value())
            .isEqualTo("unknown: bad cpu list '2-x' in /sys/devices/system/cpu/isolated");
        assertThat(report.item(CheckId.IRQ_AFFINITY).value()).startsWith("not checked");
    }

    @Test
    void shouldReportEveryItemOnASysrootWithAnEmptyProc(@TempDir final Path empty) throws Exception
    {
        final Path bare = Files.createDirectories(empty.resolve("bare/proc"));

        final PreflightReport report = Preflight.run(bare.getParent(), PreflightOptions.defaults());

        assertThat(report.items()).extracting(PreflightItem::check).containsExactly(CheckId.machineItems());
        assertThat(report.failed()).isFalse();
        assertThat(report.item(CheckId.IRQBALANCE).value()).isEqualTo("not running");
        assertThat(report.items()).filteredOn(i -> i.check() != CheckId.IRQBALANCE).allSatisfy(i ->
        {
            assertThat(i.status()).isEqualTo(WARN);
            assertThat(i.value()).startsWith("unknown: ");
        });
    }
}
