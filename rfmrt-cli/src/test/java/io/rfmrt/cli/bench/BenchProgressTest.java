package io.rfmrt.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.Progress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real bench under {@code --json}, as a script runs it: stdout is one JSON object and nothing else, stderr says
 * how far the run has come ({@link Progress}'s lines). Times are not checked, only that the lines are there, in
 * order, with their counts.
 */
class BenchProgressTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-bench-progress");
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldPrintAStepLinePerModeOnStderrAndOnlyJsonOnStdout() throws Exception
    {
        final Run run = run(List.of(ExitCodes.OK), "burst", "--bursts", "3", "--frames", "200", "--gap", "50ms",
            "--rows", "interrupt,interrupt-inline", "--json");

        final JsonNode result = new ObjectMapper().readTree(run.out());
        assertThat(run.out().strip().lines()).as("stdout is one line of JSON").hasSize(1);
        assertThat(result.get("benchmark").asText()).isEqualTo("burst");
        assertThat(result.get("modes")).hasSize(2);
        final List<String> progress = progressLines(run.err());
        assertThat(progress).as(run.err()).hasSize(3);
        assertThat(progress.get(0)).startsWith("[1/2, elapsed 0:").endsWith("] burst interrupt: 3 x 200 frames ...");
        assertThat(progress.get(1)).startsWith("[2/2, elapsed ").contains(", left ~")
            .endsWith("] burst interrupt-inline: 3 x 200 frames ...");
        assertThat(progress.get(2)).startsWith("[2/2, elapsed ").endsWith(", left 0:00] done");
    }

    @Test
    void shouldPrintASoaksSecondsOnStderrEveryTenSecondsAndOnlyJsonOnStdout() throws Exception
    {
        final Run run = run(List.of(ExitCodes.OK, ExitCodes.TARGETS_MISSED), "soak", "--seconds", "12", "--interval", "3", "--rate", "1000",
            "--out", dir.resolve("soak").toString(), "--json");

        final JsonNode soak = new ObjectMapper().readTree(run.out());
        assertThat(run.out().strip().lines()).as("stdout is one line of JSON").hasSize(1);
        assertThat(soak.get("seconds").asInt()).isEqualTo(12);
        final List<String> progress = progressLines(run.err());
        assertThat(progress).as(run.err()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(progress.get(0)).isEqualTo("[0/12 s, elapsed 0:00, left 0:12] soaking interrupt-inline at 1000 Hz");
        // the next line comes once ten seconds have passed, however late the ticker runs
        assertThat(progress.get(1)).matches("\\[1[0-2]/12 s, elapsed \\d+:\\d\\d, left 0:0[0-2]] soaking " +
            "interrupt-inline at 1000 Hz");
    }

    private static List<String> progressLines(final String err)
    {
        return err.lines().filter(l -> Progress.LINE.matcher(l).find()).toList();
    }

    /** What a bench printed on each stream. */
    private record Run(String out, String err)
    {
    }

    private Run run(final List<Integer> exits, final String... args) throws Exception
    {
        final String[] command = new String[args.length + 1];
        command[0] = "bench";
        System.arraycopy(args, 0, command, 1, args.length);
        final Path err = dir.resolve("bench.err");
        final Process process = CliProcesses.start(dir.resolve("sim"), ProcessBuilder.Redirect.to(err.toFile()),
            command);
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        final String errText = Files.readString(err);
        assertThat(process.exitValue()).as("stdout: %s%nstderr: %s", out, errText).isIn(exits);
        return new Run(out, errText);
    }
}
