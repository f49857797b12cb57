package io.rfmrt.cli.bench;

import io.rfmrt.cli.CliProcesses;
import io.rfmrt.cli.common.ExitCodes;
import io.rfmrt.cli.common.OutputFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bench's output file is checked before anything is measured: a plot that cannot be written is one line and exit 2
 * at once, with no network made and no benchmark run.
 */
class BenchOutputCheckTest
{
    private Path dir;

    @BeforeEach
    void setUp() throws Exception
    {
        dir = Files.createTempDirectory("rfmrt-bench-output-test");
    }

    @AfterEach
    void tearDown() throws Exception
    {
        CliProcesses.removeTree(dir);
    }

    @Test
    void shouldRefuseARampPlotInAFolderThatTakesNoFileBeforeMeasuring() throws Exception
    {
        final String err = refused("ramp", "--rows", "interrupt", "--rates", "1000", "--step-seconds", "1",
            "--plot", "/proc/x.png");

        assertThat(err).startsWith("rfmrt: --plot /proc/x.png: cannot be written");
    }

    @Test
    void shouldRefuseARampPlotThatIsAFolder() throws Exception
    {
        final String err = refused("ramp", "--rows", "interrupt", "--rates", "1000", "--step-seconds", "1",
            "--plot", dir.toString());

        assertThat(err).isEqualTo("rfmrt: --plot " + dir + ": is a folder; give a file name\n");
    }

    @Test
    void shouldRefuseARampPlotUnderAFile() throws Exception
    {
        final Path file = Files.writeString(dir.resolve("plain"), "x");

        final String err = refused("ramp", "--rows", "interrupt", "--rates", "1000", "--step-seconds", "1",
            "--plot", file.resolve("x.png").toString());

        assertThat(err).isEqualTo("rfmrt: --plot " + file.resolve("x.png") + ": " + file + " is not a folder\n");
        assertThat(Files.readString(file)).isEqualTo("x");
    }

    @Test
    void shouldRefuseAPeersPlotInAFolderThatTakesNoFileBeforeMeasuring() throws Exception
    {
        final String err = refused("peers", "--rows", "futex-floor", "--rates", "1000", "--seconds", "1",
            "--plot", "/proc/x.png");

        assertThat(err).startsWith("rfmrt: --plot /proc/x.png: cannot be written");
    }

    @Test
    void shouldLeaveNoProbeBehindWhenThePlotFolderIsWritable() throws Exception
    {
        final Path plot = dir.resolve("ramp.png");
        OutputFiles.checkWritable("--plot", plot);
        OutputFiles.checkWritable("--plot", dir.resolve("new/sub/ramp.png"));

        try (var left = Files.list(dir))
        {
            assertThat(left.toList()).isEmpty();
        }
    }

    /** Runs a bench that must be refused: exit 2 within 60 s, nothing on stdout, no network made; returns stderr. */
    private String refused(final String... args) throws Exception
    {
        final String[] command = new String[args.length + 1];
        command[0] = "bench";
        System.arraycopy(args, 0, command, 1, args.length);
        final Path simRoot = dir.resolve("sim");
        final Path err = dir.resolve("bench.err");
        final Process bench = CliProcesses.start(simRoot, ProcessBuilder.Redirect.to(err.toFile()), command);
        final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        bench.getInputStream().transferTo(stdout);
        final boolean ended = bench.waitFor(60, TimeUnit.SECONDS);
        if (!ended)
        {
            bench.destroyForcibly().waitFor();
        }
        final String text = Files.readString(err);
        Files.delete(err);
        assertThat(ended).as("refused at once, not after measuring").isTrue();
        assertThat(bench.exitValue()).as(text).isEqualTo(ExitCodes.USAGE);
        assertThat(stdout.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(simRoot).as("nothing measured, no network made").doesNotExist();
        assertThat(text.lines().count()).as(text).isEqualTo(1);
        return text;
    }
}
