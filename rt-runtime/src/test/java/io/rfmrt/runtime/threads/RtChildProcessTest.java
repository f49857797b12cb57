package io.rfmrt.runtime.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Process-wide steps in a child JVM: mlockall and cpu_dma_latency as root, and what is refused (warned once, or fatal
 * in strict mode) when the child runs without {@code CAP_SYS_NICE} and {@code CAP_IPC_LOCK}.
 */
class RtChildProcessTest
{
    private static final long CHILD_TIMEOUT_S = 30;
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private static final List<String> NO_RT_CAPS = List.of(SETPRIV.toString(), "--bounding-set=-sys_nice,-ipc_lock");

    @Test
    void shouldLockAllMemoryAndHoldCpuDmaLatencyAsRoot() throws Exception
    {
        assumeTrue(KernelView.isRoot(), "mlockall and cpu_dma_latency need root here");
        assumeTrue(Files.isWritable(Path.of("/dev/cpu_dma_latency")), "needs /dev/cpu_dma_latency");

        final Child child = run(List.of(), "lock=true", "dma=true");

        assertThat(child.exit).as(child.toString()).isZero();
        assertThat(Long.parseLong(child.value("VMLCK "))).as("VmLck kB").isPositive();
        assertThat(child.value("DMA ")).isEqualTo("0");
        assertThat(child.warnings()).noneMatch(line -> line.contains("mlockall") || line.contains("cpu_dma_latency"));
        assertThat(child.table()).hasSize(5);
        assertThat(child.table().get(4)).contains("mlockall locked", "cpu_dma_latency held at 0");
        assertThat(child.lines).contains("BODY rfmrt-isr", "BODY rfmrt-consumer", "BODY rfmrt-journal", "DONE");
        assertThat(child.stderr).as("OpenHFT / SLF4J stay quiet").doesNotContain("SLF4J");
    }

    @Test
    void shouldWarnOncePerRefusedStepWithoutRtCapabilities() throws Exception
    {
        assumeTrue(KernelView.isRoot() && Files.isExecutable(SETPRIV), "needs root and setpriv to drop capabilities");

        final Child child = run(NO_RT_CAPS, "lock=true", "cpus=1");

        assertThat(child.exit).as(child.toString()).isZero();
        assertThat(child.warnings()).filteredOn(line -> line.startsWith("mlockall")).singleElement().asString()
            .startsWith("mlockall(MCL_CURRENT|MCL_FUTURE) refused (ENOMEM");
        assertThat(child.warnings()).contains(
            "SCHED_FIFO 80 refused for rfmrt-isr (EPERM): running SCHED_OTHER",
            "SCHED_FIFO 70 refused for rfmrt-consumer (EPERM): running SCHED_OTHER");
        assertThat(child.warnings()).doesNotHaveDuplicates();
        assertThat(child.table().get(1)).startsWith("rfmrt-isr ").contains("1/1", "SCHED_OTHER", "SCHED_FIFO");
        assertThat(child.table().get(4)).contains("mlockall refused");
        assertThat(child.lines).contains("BODY rfmrt-isr", "DONE");
    }

    @Test
    void shouldFailFastInStrictModeWithoutRtCapabilities() throws Exception
    {
        assumeTrue(KernelView.isRoot() && Files.isExecutable(SETPRIV), "needs root and setpriv to drop capabilities");

        final Child child = run(NO_RT_CAPS, "strict=true", "cpus=1");

        assertThat(child.exit).as(child.toString()).isEqualTo(RtChild.EXIT_STRICT);
        assertThat(child.value("STRICT ")).isEqualTo("strict: SCHED_FIFO 80 refused for rfmrt-isr (EPERM)");
        assertThat(child.lines).noneMatch(line -> line.startsWith("BODY") || line.startsWith("WARN"));
    }

    private static Child run(final List<String> prefix, final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final String flags = System.getProperty("rfmrt.test.jvm.flags", "");
        if (!flags.isBlank())
        {
            command.addAll(Arrays.asList(flags.trim().split("\\s+")));
        }
        // the child's cpu locks (OpenHFT affinity's lock files, in java.io.tmpdir) are its own: a node or benchmark
        // of another process holding cpu 1 on this host is not what these tests are about, and must not decide them
        final Path locks = Files.createTempDirectory("rfmrt-rt-child-");
        command.add("-Djava.io.tmpdir=" + locks);
        command.add("-cp");
        command.add(System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path")));
        command.add(RtChild.class.getName());
        command.addAll(Arrays.asList(args));
        final Path stderr = Files.createTempFile("rfmrt-rt-child", ".err");
        final Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        process.getOutputStream().close();
        try
        {
            final String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS)).as("child exited").isTrue();
            return new Child(process.exitValue(), List.of(stdout.split("\n")),
                Files.readString(stderr, StandardCharsets.UTF_8));
        }
        finally
        {
            process.destroyForcibly();
            process.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS);
            Files.deleteIfExists(stderr);
            try (Stream<Path> files = Files.list(locks))
            {
                for (final Path f : files.toList())
                {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(locks);
        }
    }

    private static final class Child
    {
        final int exit;
        final List<String> lines;
        final String stderr;

        Child(final int exit, final List<String> lines, final String stderr)
        {
            this.exit = exit;
            this.lines = lines;
            this.stderr = stderr;
        }

        List<String> warnings()
        {
            return lines.stream().filter(line -> line.startsWith("WARN ")).map(line -> line.substring(5))
                .collect(Collectors.toList());
        }

        List<String> table()
        {
            return lines.subList(lines.indexOf("TABLE") + 1, lines.indexOf("END"));
        }

        String value(final String prefix)
        {
            return lines.stream().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + prefix + "line in " + this));
        }

        @Override
        public String toString()
        {
            return "exit " + exit + ", stdout " + lines + ", stderr " + stderr;
        }
    }
}
