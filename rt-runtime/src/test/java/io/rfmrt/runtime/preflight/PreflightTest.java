package io.rfmrt.runtime.preflight;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.rfmrt.runtime.preflight.CheckStatus.FAIL;
import static io.rfmrt.runtime.preflight.CheckStatus.PASS;
import static io.rfmrt.runtime.preflight.CheckStatus.WARN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PreflightTest
{
    private static final PreflightOptions RFM = PreflightOptions.defaults().withRfmIrqMatch(Pattern.compile("^rfm2g"));

    private static Map<CheckId, CheckStatus> statuses(final PreflightReport report)
    {
        final Map<CheckId, CheckStatus> statuses = new EnumMap<>(CheckId.class);
        report.items().forEach(item -> statuses.put(item.check(), item.status()));
        return statuses;
    }

    @Test
    void shouldPassEveryItemOnTheRtNodeWhenTheCardsIrqIsNamed()
    {
        final PreflightReport report = Preflight.run(Fixtures.tree(Fixtures.RT_NODE), RFM);

        final Map<CheckId, CheckStatus> expected = new EnumMap<>(CheckId.class);
        for (final CheckId check : CheckId.machineItems())
        {
            expected.put(check, PASS);
        }
        assertThat(statuses(report)).isEqualTo(expected);
        assertThat(report.failed()).isFalse();
        assertThat(report.item(CheckId.RT_KERNEL).value()).contains("PREEMPT_RT", "/sys/kernel/realtime = 1");
        assertThat(report.item(CheckId.ISOLATED_CPUS).value()).isEqualTo("2-7 (online 0-7)");
        assertThat(report.item(CheckId.NOHZ_FULL).value()).isEqualTo("2-7");
        assertThat(report.item(CheckId.RCU_NOCBS).value()).startsWith("2-7 (rcu_nocbs=2-7");
        assertThat(report.item(CheckId.IRQ_AFFINITY).value())
            .isEqualTo("none of 12 IRQs on isolated cores 2-7 besides the RFM card's: 40 rfm2g0-dma (affinity 2)");
        assertThat(report.item(CheckId.IRQBALANCE).value())
            .contains("running (pid 812)", "IRQBALANCE_BANNED_CPULIST=2-7", "/etc/default/irqbalance");
        assertThat(report.item(CheckId.CPU_GOVERNOR).value()).isEqualTo("performance on 0-7");
        assertThat(report.item(CheckId.THP).value()).isEqualTo("always madvise [never]");
        assertThat(report.item(CheckId.RT_THROTTLING).value()).isEqualTo("-1 (no RT throttling)");
        assertThat(report.item(CheckId.RLIMIT_RTPRIO).value()).isEqualTo("99 (hard 99)");
        assertThat(report.item(CheckId.RLIMIT_MEMLOCK).value()).isEqualTo("unlimited (hard unlimited)");
        assertThat(report.item(CheckId.SWAP).value()).isEqualTo("none");
        assertThat(report.item(CheckId.CLOCKSOURCE).value()).isEqualTo("tsc");
    }

    @Test
    void shouldFailTheRtNodesCardIrqOnAnIsolatedCoreWhenNoPatternNamesIt()
    {
        final PreflightReport report = Preflight.run(Fixtures.tree(Fixtures.RT_NODE), PreflightOptions.defaults());

        final PreflightItem irqs = report.item(CheckId.IRQ_AFFINITY);
        assertThat(irqs.status()).isEqualTo(FAIL);
        assertThat(irqs.value()).isEqualTo("1 of 12 IRQs may run on isolated cores 2-7: 40 rfm2g0-dma (affinity 2)");
        assertThat(irqs.hint()).contains("rfmrt-isolate", "rfmrt-irq-affinity", "--rfm-irq-match");
        assertThat(report.count(FAIL)).isEqualTo(1);
        assertThat(report.count(PASS)).isEqualTo(CheckId.machineItems().length - 1);
        assertThat(report.failed()).isTrue();
    }

    @Test
    void shouldReportTheCapturedVmAsNotReadyButReadable()
    {
        final PreflightReport report = Preflight.run(Fixtures.tree(Fixtures.VM), PreflightOptions.defaults());

        final Map<CheckId, CheckStatus> expected = new EnumMap<>(CheckId.class);
        expected.put(CheckId.RT_KERNEL, FAIL);
        expected.put(CheckId.ISOLATED_CPUS, FAIL);
        expected.put(CheckId.NOHZ_FULL, WARN);
        expected.put(CheckId.RCU_NOCBS, WARN);
        expected.put(CheckId.IRQ_AFFINITY, WARN);
        expected.put(CheckId.IRQBALANCE, PASS);
        expected.put(CheckId.CPU_GOVERNOR, PASS);
        expected.put(CheckId.THP, WARN);
        expected.put(CheckId.RT_THROTTLING, WARN);
        expected.put(CheckId.RLIMIT_RTPRIO, WARN);
        expected.put(CheckId.RLIMIT_MEMLOCK, WARN);
        expected.put(CheckId.SWAP, PASS);
        expected.put(CheckId.CLOCKSOURCE, PASS);
        assertThat(statuses(report)).isEqualTo(expected);

        assertThat(report.item(CheckId.RT_KERNEL).value()).contains("PREEMPT_DYNAMIC", "(not PREEMPT_RT)");
        assertThat(report.item(CheckId.ISOLATED_CPUS).value()).isEqualTo("none (online 0-1)");
        assertThat(report.item(CheckId.NOHZ_FULL).value())
            .isEqualTo("unknown: /sys/devices/system/cpu/nohz_full missing (kernel without CONFIG_NO_HZ_FULL?)");
        assertThat(report.item(CheckId.RCU_NOCBS).value()).isEqualTo("none; no isolated cores");
        assertThat(report.item(CheckId.IRQ_AFFINITY).value()).isEqualTo("not checked: no isolated cores (19 IRQs)");
        assertThat(report.item(CheckId.IRQBALANCE).value()).isEqualTo("not running");
        assertThat(report.item(CheckId.CPU_GOVERNOR).value()).startsWith("no cpufreq");
        assertThat(report.item(CheckId.THP).value()).isEqualTo("always [madvise] never");
        assertThat(report.item(CheckId.RT_THROTTLING).value())
            .isEqualTo("950000 of 1000000 us: RT threads get 95% of each cpu, then are stopped for 50 ms; a node's RT " +
                "threads on one cpu must plan under 95% of it (a spinning one plans 100%)");
        assertThat(report.item(CheckId.RLIMIT_RTPRIO).value()).startsWith("0 (hard 0); CAP_SYS_NICE held");
        assertThat(report.item(CheckId.RLIMIT_MEMLOCK).value()).startsWith("8 MiB (hard 8 MiB); CAP_IPC_LOCK held");
        assertThat(report.item(CheckId.SWAP).value()).isEqualTo("none");
        assertThat(report.item(CheckId.CLOCKSOURCE).value()).isEqualTo("tsc");
    }

    @Test
    void shouldPrintOneJsonObjectWithEveryItemAndTheSummary() throws Exception
    {
        final PreflightReport report = Preflight.run(Fixtures.tree(Fixtures.VM), PreflightOptions.defaults());

        final JsonNode json = new ObjectMapper().readTree(report.toJson());

        assertThat(json.isObject()).isTrue();
        assertThat(fieldNames(json)).containsExactly("sysroot", "items", "summary");
        assertThat(json.get("sysroot").asText()).isEqualTo(Fixtures.tree(Fixtures.VM).toString());
        assertThat(json.get("items")).hasSize(CheckId.machineItems().length);
        final List<String> ids = new ArrayList<>();
        for (final JsonNode item : json.get("items"))
        {
            assertThat(fieldNames(item)).containsExactly("id", "title", "status", "value", "hint");
            assertThat(item.get("status").asText()).isIn("PASS", "WARN", "FAIL");
            assertThat(item.get("value").asText()).isNotBlank();
            assertThat(item.get("hint").asText()).isNotBlank();
            ids.add(item.get("id").asText());
        }
        final List<String> expectedIds = new ArrayList<>();
        for (final CheckId check : CheckId.machineItems())
        {
            expectedIds.add(check.id());
        }
        assertThat(ids).isEqualTo(expectedIds);
        final JsonNode summary = json.get("summary");
        assertThat(fieldNames(summary)).containsExactly("pass", "warn", "fail");
        assertThat(summary.get("pass").asInt()).isEqualTo(4);
        assertThat(summary.get("warn").asInt()).isEqualTo(7);
        assertThat(summary.get("fail").asInt()).isEqualTo(2);
    }

    private static List<String> fieldNames(final JsonNode node)
    {
        final List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void shouldRefuseASysrootThatDoesNotExistIsAFileOrHasNoProc(@TempDir final Path dir) throws Exception
    {
        final Path file = Files.writeString(dir.resolve("file"), "x");

        assertThatThrownBy(() -> Preflight.run(dir.resolve("absent")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("absent does not exist");
        assertThatThrownBy(() -> Preflight.run(file))
            .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("file is not a folder");
        assertThatThrownBy(() -> Preflight.run(dir))
            .isInstanceOf(IllegalArgumentException.class).hasMessageEndingWith("has no proc/ folder");
    }

    @Test
    void shouldReportEveryItemOnThisMachine() throws Exception
    {
        assumeTrue(Files.isDirectory(Paths.get("/proc/self")), "needs a Linux /proc");

        final PreflightReport report = Preflight.run(Paths.get("/"), PreflightOptions.defaults());

        assertThat(report.items()).extracting(PreflightItem::check).containsExactly(CheckId.machineItems());
        assertThat(report.items()).allSatisfy(item ->
        {
            assertThat(item.value()).isNotBlank();
            assertThat(item.hint()).isNotBlank();
        });
        // whatever this machine gives, the summary, the verdict and the JSON agree with the items
        assertThat(report.failed()).isEqualTo(report.items().stream().anyMatch(item -> item.status() == FAIL));
        final JsonNode json = new ObjectMapper().readTree(report.toJson());
        for (final CheckStatus status : List.of(PASS, WARN, FAIL))
        {
            final long listed = report.items().stream().filter(item -> item.status() == status).count();
            assertThat(json.get("summary").get(status.name().toLowerCase(java.util.Locale.ROOT)).asLong())
                .as("summary %s", status).isEqualTo(listed);
        }
    }

    /**
     * The capture script and the reader must agree: a tree captured from this machine reads the same as the machine.
     * The limits and capabilities items are left out of the value comparison: they describe a process, and the
     * captured one is the script's, not this JVM.
     */
    @Test
    void shouldReadATreeCapturedFromThisMachineAsTheMachineItself(@TempDir final Path dir) throws Exception
    {
        final Path script = Fixtures.tree("capture.sh");
        assumeTrue(Files.isDirectory(Paths.get("/proc/self")) && Files.isExecutable(Paths.get("/bin/bash")),
            "needs a Linux /proc and bash");
        final Path tree = dir.resolve("captured");
        final Process capture = new ProcessBuilder("/bin/bash", script.toString(), tree.toString())
            .redirectErrorStream(true).start();
        capture.getInputStream().transferTo(OutputStream.nullOutputStream());
        assertThat(capture.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(capture.exitValue()).isZero();

        final PreflightReport live = Preflight.run(Paths.get("/"), PreflightOptions.defaults());
        final PreflightReport captured = Preflight.run(tree, PreflightOptions.defaults());

        final EnumSet<CheckId> perProcess = EnumSet.of(CheckId.RLIMIT_RTPRIO, CheckId.RLIMIT_MEMLOCK);
        for (final CheckId check : CheckId.machineItems())
        {
            assertThat(captured.item(check).status()).as(check.id()).isEqualTo(live.item(check).status());
            if (!perProcess.contains(check))
            {
                assertThat(captured.item(check).value()).as(check.id()).isEqualTo(live.item(check).value());
            }
        }
    }
}
