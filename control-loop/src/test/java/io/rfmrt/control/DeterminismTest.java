package io.rfmrt.control;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Same inputs, same bits: the closed loop run five times in this JVM (45,000 steps of controller and plant, so that
 * the JIT compiles them) against the same loop in a second JVM that only interprets ({@code -Xint}) - what a replay in
 * another process relies on - and the controller re-run alone over recorded inputs as a replay does, compared with
 * {@link Double#doubleToRawLongBits}.
 */
class DeterminismTest
{
    private static final int CYCLES = 9_000;
    private static final int RUNS_IN_THIS_JVM = 5;

    @Test
    void shouldGiveTheSameBitsInterpretedInAnotherJvmAsCompiledInThisOne(@TempDir final Path dir)
        throws IOException, InterruptedException
    {
        final Path file = dir.resolve("interpreted.bits");
        final Process child = startInterpreted(file);
        final List<long[]> here = new ArrayList<>();
        for (int i = 0; i < RUNS_IN_THIS_JVM; i++)
        {
            here.add(ClosedLoopBits.run(CYCLES));
        }
        if (!child.waitFor(5, TimeUnit.MINUTES))
        {
            child.destroyForcibly();
            throw new AssertionError("the interpreted JVM did not finish within 5 minutes");
        }
        assertThat(child.exitValue()).as("the interpreted JVM's exit code").isZero();
        final long[] interpreted = read(file, CYCLES * 4);
        for (int i = 0; i < here.size(); i++)
        {
            assertThat(firstDifference(here.get(i), interpreted)).as("run %d in this JVM against the interpreted JVM",
                i + 1).isEqualTo("none");
        }
    }

    private static String firstDifference(final long[] compiled, final long[] interpreted)
    {
        final String[] fields = {"position", "velocity", "torque", "integrator"};
        for (int i = 0; i < compiled.length; i++)
        {
            if (compiled[i] != interpreted[i])
            {
                return "cycle " + i / 4 + " " + fields[i % 4] + ": " + Double.longBitsToDouble(compiled[i]) +
                    " here, " + Double.longBitsToDouble(interpreted[i]) + " interpreted";
            }
        }
        return "none";
    }

    private static Process startInterpreted(final Path file) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xint");
        command.add("-cp");
        command.add(System.getProperty("rfmrt.test.classpath", System.getProperty("java.class.path")));
        command.add(ClosedLoopBits.class.getName());
        command.add(Integer.toString(CYCLES));
        command.add(file.toString());
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
            .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static long[] read(final Path file, final int count) throws IOException
    {
        assertThat(Files.size(file)).as("bytes the interpreted JVM wrote").isEqualTo(count * 8L);
        final long[] bits = new long[count];
        try (InputStream in = Files.newInputStream(file);
            DataInputStream data = new DataInputStream(new java.io.BufferedInputStream(in)))
        {
            for (int i = 0; i < count; i++)
            {
                bits[i] = data.readLong();
            }
        }
        return bits;
    }

    @Test
    void shouldReplayTheControllerBitForBitFromRecordedInputs()
    {
        final DemoProfile demo = DemoProfile.standard();
        final double[] integrator = new double[CYCLES];
        final SensorSample[] samples = new SensorSample[CYCLES];
        final Setpoint[] setpoints = new Setpoint[CYCLES];
        final ControlCommand[] commands = new ControlCommand[CYCLES];
        final ClosedLoop loop = new ClosedLoop(0);
        final double[] stateBefore = {0.0};
        loop.run(CYCLES, (t, out) ->
        {
            demo.setpoint(t, out);
            stateBefore[0] = loop.state.integratorNm();
        }, (k, t, s, sp, c) ->
        {
            final int i = (int)k;
            integrator[i] = stateBefore[0];
            samples[i] = new SensorSample().copyFrom(s);
            setpoints[i] = new Setpoint().copyFrom(sp);
            commands[i] = new ControlCommand().copyFrom(c);
        });

        // the replay: a fresh controller, each cycle started from the journaled state
        final AxisController replay = new AxisController(ControllerGains.standard());
        final ControllerState state = new ControllerState();
        final ControllerState next = new ControllerState();
        final ControlCommand out = new ControlCommand();
        int mismatches = 0;
        for (int i = 0; i < CYCLES; i++)
        {
            state.set(integrator[i]);
            replay.step(state, samples[i], setpoints[i], next, out);
            mismatches += out.sameBitsAs(commands[i]) ? 0 : 1;
            if (i + 1 < CYCLES && Double.doubleToRawLongBits(next.integratorNm()) !=
                Double.doubleToRawLongBits(integrator[i + 1]))
            {
                mismatches++;
            }
        }
        assertThat(mismatches).isZero();
    }
}
