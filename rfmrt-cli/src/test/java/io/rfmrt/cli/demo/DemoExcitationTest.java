package io.rfmrt.cli.demo;

import io.rfmrt.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt demo --excite}: a bad spec, or one above its limit or the rate, is refused before anything starts, in
 * one line naming the key or value, exit 2, nothing written; a good one reaches the controller's configuration.
 */
class DemoExcitationTest
{
    private static String refused(final Path out, final String... args)
    {
        final StringWriter err = new StringWriter();
        final String[] all = new String[args.length + 3];
        all[0] = "demo";
        all[1] = "--out";
        all[2] = out.toString();
        System.arraycopy(args, 0, all, 3, args.length);
        assertThat(Main.run(all, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true))).isEqualTo(2);
        assertThat(err.toString().lines()).hasSize(1);
        return err.toString().strip();
    }

    @Test
    void shouldRefuseABadSpecInOneLineBeforeAnythingStarts(@TempDir final Path dir)
    {
        final Path out = dir.resolve("demo");

        assertThat(refused(out, "--excite", "chirp:point=torque,f0=5,f1=400,amp=0.1,f2=3")).isEqualTo(
            "rfmrt: --excite 'chirp:point=torque,f0=5,f1=400,amp=0.1,f2=3': unknown key 'f2' for chirp (keys: point, " +
            "amp, seconds, start, fade, f0, f1, sweep)");
        assertThat(refused(out, "--excite", "chirp:f0=5,f1=400,amp=0.4")).isEqualTo(
            "rfmrt: --excite 'chirp:f0=5,f1=400,amp=0.4': amp 0.4 is above the torque limit 0.25 N·m");
        assertThat(refused(out, "--excite", "chirp:f0=5,f1=600,amp=0.1")).isEqualTo(
            "rfmrt: --excite 'chirp:f0=5,f1=600,amp=0.1': f0 5.0 and f1 600.0 must be below half the loop rate, " +
            "500.0 Hz");
        assertThat(refused(out, "--excite", "sine:amp=1")).isEqualTo(
            "rfmrt: --excite 'sine:amp=1': kind 'sine' is not step, chirp or prbs (KIND:key=value,...)");
        assertThat(refused(out, "--controller-only", "--network", "x", "--excite", "step:amp=0.1")).isEqualTo(
            "rfmrt: --excite runs with the demo's plant; --controller-only runs none");
        assertThat(Files.exists(out)).as("nothing written").isFalse();
    }

    @Test
    void shouldWriteTheSpecIntoTheControllersConfiguration(@TempDir final Path dir) throws Exception
    {
        final DemoConfigs.ControllerSettings app = DemoConfigs.ControllerSettings.of(1000, "standard", null)
            .withExcite("step:point=position,amp=0.004");
        final Path file = DemoConfigs.writeController(dir, "net", dir.resolve("journal"), "INLINE", app);

        assertThat(Files.readString(file)).contains("excite: \"step:point=position,amp=0.004\"");
        assertThat(Files.readString(DemoConfigs.writeController(dir, "net", dir.resolve("journal"), "INLINE",
            DemoConfigs.ControllerSettings.of(1000, "standard", null)))).doesNotContain("excite");
    }
}
