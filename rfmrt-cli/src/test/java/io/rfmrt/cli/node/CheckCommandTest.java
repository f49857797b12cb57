package io.rfmrt.cli.node;

import io.rfmrt.cli.common.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class CheckCommandTest
{
    private static final int ITEMS = 13;

    @TempDir
    Path dir;

    private Path node;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /**
     * A small RT-ready 4-cpu node: cpus 2-3 isolated, every item PASS.
     */
    @BeforeEach
    void writeReadyNode() throws IOException
    {
        node = dir.resolve("node");
        write("sys/kernel/realtime", "1");
        write("proc/sys/kernel/osrelease", "6.1.0-27-rt-amd64");
        write("proc/sys/kernel/version", "#1 SMP PREEMPT_RT Debian 6.1.115-1 (2024-11-01)");
        write("sys/devices/system/cpu/online", "0-3");
        write("sys/devices/system/cpu/isolated", "2-3");
        write("sys/devices/system/cpu/nohz_full", "2-3");
        write("proc/cmdline", "ro isolcpus=managed_irq,domain,2-3 nohz_full=2-3 rcu_nocbs=2-3");
        irq(30, "0-1", "eth0-TxRx-0");
        for (int cpu = 0; cpu < 4; cpu++)
        {
            write("sys/devices/system/cpu/cpu" + cpu + "/cpufreq/scaling_governor", "performance");
        }
        write("proc/1/comm", "systemd");
        write("sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]");
        write("proc/sys/kernel/sched_rt_runtime_us", "-1");
        write("proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units\n" +
            "Max locked memory         unlimited            unlimited            bytes\n" +
            "Max realtime priority     99                   99\n");
        write("proc/self/status", "CapEff:\t0000000000000000");
        write("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority");
        write("sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc");
    }

    private void write(final String path, final String text) throws IOException
    {
        final Path file = node.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text + "\n");
    }

    private void irq(final int irq, final String cpus, final String name) throws IOException
    {
        write("proc/irq/" + irq + "/smp_affinity_list", cpus);
        write("proc/irq/" + irq + "/effective_affinity_list", cpus);
        write("sys/kernel/irq/" + irq + "/actions", name);
    }

    private int check(final String... args)
    {
        final CommandLine cli = new CommandLine(new CheckCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldPrintATableAndExitZeroOnAReadyNode()
    {
        final int exit = check("--sysroot", node.toString());

        assertThat(exit).isEqualTo(ExitCodes.OK);
        assertThat(err.toString()).isEmpty();
        final String[] lines = out.toString().split("\n");
        assertThat(lines[0]).isEqualTo("rfmrt check: sysroot " + node);
        assertThat(lines[1]).matches("STATUS +ITEM +VALUE");
        assertThat(lines).hasSize(2 + ITEMS + 1);
        assertThat(lines[2]).matches("PASS +PREEMPT_RT kernel +6\\.1\\.0-27-rt-amd64 #1 SMP PREEMPT_RT .*");
        assertThat(out.toString()).contains("PASS    isolated cores", "2-3 (online 0-3)")
            .doesNotContain("fix:", "WARN", "FAIL ");
        assertThat(lines[lines.length - 1]).isEqualTo(ITEMS + " items: " + ITEMS + " pass, 0 warn, 0 fail");
    }

    @Test
    void shouldExitOneAndSayHowToFixWhenAnItemFails() throws IOException
    {
        write("sys/kernel/realtime", "0");
        write("proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)");

        final int exit = check("--sysroot", node.toString());

        assertThat(exit).isEqualTo(ExitCodes.ERROR);
        assertThat(out.toString()).containsPattern("FAIL +PREEMPT_RT kernel +.*PREEMPT_DYNAMIC")
            .containsPattern("\n +fix: install and boot a PREEMPT_RT kernel")
            .endsWith(ITEMS + " items: " + (ITEMS - 1) + " pass, 0 warn, 1 fail\n");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void shouldAddTheRfm2gCardItemForAnRfm2gDeviceAndFailWithoutItsNode()
    {
        final Path absent = dir.resolve("rfm2g0");
        final int exit = check("--sysroot", node.toString(), "--device", "rfm2g:" + absent + "?dmaThreshold=512");

        assertThat(exit).isEqualTo(ExitCodes.ERROR);
        assertThat(out.toString()).containsPattern("FAIL +RFM2g card +device node " + absent + " missing")
            .contains("fix: load the RFM2g driver")
            .endsWith((ITEMS + 1) + " items: " + ITEMS + " pass, 0 warn, 1 fail\n");
        out.getBuffer().setLength(0);
        assertThat(check("--sysroot", node.toString(), "--device", "sim:lab?node=1")).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).doesNotContain("RFM2g card");
    }

    @Test
    void shouldExitZeroWhenItemsOnlyWarn() throws IOException
    {
        write("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never");
        write("proc/sys/kernel/sched_rt_runtime_us", "950000");

        final int exit = check("--sysroot", node.toString());

        assertThat(exit).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).containsPattern("WARN +transparent huge pages +always \\[madvise] never")
            .contains("fix: tuning/bin/rfmrt-isolate (thp step)")
            .containsPattern("WARN +RT throttling +950000 of 1000000 us: RT threads get 95% of each cpu")
            .contains("2 warn, 0 fail");
    }

    @Test
    void shouldAcceptTheCardsIrqOnAnIsolatedCoreOnlyWhenTheMatchNamesIt() throws IOException
    {
        irq(40, "2", "rfm2g0-dma");

        assertThat(check("--sysroot", node.toString())).isEqualTo(ExitCodes.ERROR);
        assertThat(out.toString()).containsPattern(
            "FAIL +IRQs on isolated cores +1 of 2 IRQs may run on isolated cores 2-3: 40 rfm2g0-dma \\(affinity 2\\)");

        out.getBuffer().setLength(0);
        assertThat(check("--sysroot", node.toString(), "--rfm-irq-match", "^rfm2g\\d+-dma$")).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).containsPattern("PASS +IRQs on isolated cores +none of 2 IRQs .*40 rfm2g0-dma");
    }

    @Test
    void shouldPrintOneJsonObjectWithTheSameExitCode() throws IOException
    {
        assertThat(check("--sysroot", node.toString(), "--json")).isEqualTo(ExitCodes.OK);
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("sysroot").asText()).isEqualTo(node.toString());
        assertThat(json.get("items")).hasSize(ITEMS);
        assertThat(json.get("items").get(0).get("id").asText()).isEqualTo("rt-kernel");
        assertThat(json.get("items").get(0).get("status").asText()).isEqualTo("PASS");
        assertThat(json.get("summary").get("pass").asInt()).isEqualTo(ITEMS);

        write("proc/self/limits", "Max locked memory         65536                65536                bytes\n" +
            "Max realtime priority     99                   99\n");
        out.getBuffer().setLength(0);
        assertThat(check("--sysroot", node.toString(), "--json")).isEqualTo(ExitCodes.ERROR);
        json = new ObjectMapper().readTree(out.toString());
        assertThat(json.get("summary").get("fail").asInt()).isEqualTo(1);
        for (final JsonNode item : json.get("items"))
        {
            if (item.get("id").asText().equals("rlimit-memlock"))
            {
                assertThat(item.get("status").asText()).isEqualTo("FAIL");
                assertThat(item.get("value").asText()).startsWith("64 KiB (hard 64 KiB)");
                assertThat(item.get("hint").asText()).contains("LimitMEMLOCK=infinity");
            }
        }
    }

    @Test
    void shouldReportEveryItemOfThisMachine() throws Exception
    {
        final int exit = check("--json");

        // the exit code follows the report: an error exactly when an item failed on this machine
        final JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(exit).isEqualTo(json.get("summary").get("fail").asInt() > 0 ? ExitCodes.ERROR : ExitCodes.OK);
        assertThat(out.toString()).contains("\"sysroot\" : \"/\"");
        assertThat(out.toString().split("\"status\"", -1)).hasSize(ITEMS + 1);
    }

    @Test
    void shouldRefuseASysrootThatDoesNotExistWithOneLine()
    {
        final int exit = check("--sysroot", dir.resolve("absent").toString());

        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEqualTo("rfmrt: sysroot " + dir.resolve("absent") + " does not exist\n");
    }

    @Test
    void shouldRefuseASysrootWithoutProc() throws IOException
    {
        final Path empty = Files.createDirectories(dir.resolve("empty"));

        assertThat(check("--sysroot", empty.toString(), "--json")).isEqualTo(ExitCodes.USAGE);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).isEqualTo("rfmrt: sysroot " + empty + " has no proc/ folder\n");
    }

    @Test
    void shouldRefuseABadRegexAndABadPriorityWithOneLine()
    {
        assertThat(check("--sysroot", node.toString(), "--rfm-irq-match", "rfm(")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).startsWith("rfmrt: --rfm-irq-match 'rfm(' is not a regular expression: ")
            .doesNotContain("Exception").hasLineCount(1);

        err.getBuffer().setLength(0);
        assertThat(check("--sysroot", node.toString(), "--min-rtprio", "100")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).isEqualTo("rfmrt: --min-rtprio 100 is not in 1-99\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void shouldUseTheMinimumPriorityGiven() throws IOException
    {
        write("proc/self/limits", "Max locked memory         unlimited            unlimited            bytes\n" +
            "Max realtime priority     60                   60\n");

        assertThat(check("--sysroot", node.toString())).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).containsPattern("WARN +RLIMIT_RTPRIO +60 \\(hard 60\\): SCHED_FIFO priorities " +
            "above 60 refused \\(expected up to 80\\)");

        out.getBuffer().setLength(0);
        assertThat(check("--sysroot", node.toString(), "--min-rtprio", "60")).isEqualTo(ExitCodes.OK);
        assertThat(out.toString()).containsPattern("PASS +RLIMIT_RTPRIO +60 \\(hard 60\\)");
    }
}
