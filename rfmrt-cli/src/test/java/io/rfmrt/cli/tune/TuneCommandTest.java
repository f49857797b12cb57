package io.rfmrt.cli.tune;

import io.rfmrt.cli.CliRun;
import io.rfmrt.control.ControllerGains;
import io.rfmrt.control.RealisticAxisParameters;
import io.rfmrt.control.RealisticAxisPlant;
import io.rfmrt.control.excite.ExcitationLimits;
import io.rfmrt.control.excite.ExcitationRecording;
import io.rfmrt.control.excite.ExcitationSpec;
import io.rfmrt.control.law.CascadedPidLaw;
import io.rfmrt.control.law.GainsFile;
import io.rfmrt.control.tune.ExcitationJournal;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rfmrt replay DIR --frequency-response} and {@code rfmrt tune suggest} on a journal of the realistic axis
 * held at 0 by the shipped tune at 4 kHz with a torque chirp (5-400 Hz, 0.1 N·m, 4 s), written as the controller
 * journals it.
 */
class TuneCommandTest
{
    @TempDir
    static Path temp;

    static Path journals;

    @BeforeAll
    static void journal()
    {
        journals = temp.resolve("journal");
        final ExcitationRecording r = ExcitationRecording.realisticTorqueChirp(4000, 5, 400, 0.1, 4);
        ExcitationJournal.write(journals.resolve("node-2"), r, 250e-6, 1, 2, 0.1);
    }

    @Test
    void shouldReportTheFrequencyResponseAndDrawItsBodePlots() throws IOException
    {
        final Path plots = System.getProperty("tune.plots") == null ? temp.resolve("plots") :
            Path.of(System.getProperty("tune.plots"));
        final CliRun run = CliRun.of("replay", journals.toString(), "--frequency-response", "--plots",
            plots.toString());
        assertThat(run.err()).isEmpty();
        assertThat(run.exit()).isZero();
        assertThat(run.out()).containsPattern("frequency response: torque chirp of 0.1000 N·m, 5.0-(399.9|400.0) Hz")
            .contains("4000.0 Hz from the stamps")
            .contains("hann window, 2048-point segments")
            .containsPattern("resonance 2[45]\\d\\.\\d Hz")
            .containsPattern("phase margin \\d+\\.\\d° at \\d+\\.\\d Hz, gain margin")
            .contains("bode-plant.png").contains("bode-open-loop.png").contains("bode-closed-loop.png");
        for (final String name : new String[] {"bode-plant.png", "bode-open-loop.png", "bode-closed-loop.png"})
        {
            final BufferedImage image = ImageIO.read(plots.resolve(name).toFile());
            assertThat(image.getWidth()).as(name).isEqualTo(1000);
            assertThat(image.getHeight()).as(name).isEqualTo(3 * 360);
        }
    }

    @Test
    void shouldSuggestTheSameGainsFromTheJsonAndFromTheJournal() throws IOException
    {
        final CliRun json = CliRun.of("replay", journals.toString(), "--frequency-response", "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"frequency_response\"").contains("\"plant\"").contains("\"margins\"");
        final Path file = temp.resolve("fr.json");
        Files.writeString(file, json.out());

        final Path gains = temp.resolve("suggested.yaml");
        final CliRun fromJson = CliRun.of("tune", "suggest", file.toString(), "--save", gains.toString());
        assertThat(fromJson.exit()).as(fromJson.err()).isZero();
        assertThat(fromJson.out()).contains("suggested: Kp").contains("expected on the measured plant: crossover")
            .contains("gains written to " + gains);
        final ControllerGains loaded = GainsFile.load(gains, ControllerGains.standard());
        assertThat(loaded.velocityGainNmSPerRad()).isGreaterThan(0);
        assertThat(loaded.velocityIntegralGainPerS()).isCloseTo(loaded.positionGainPerS(),
            org.assertj.core.data.Offset.offset(1e-3));

        final CliRun fromDir = CliRun.of("tune", "suggest", journals.toString());
        assertThat(fromDir.exit()).as(fromDir.err()).isZero();
        assertThat(fromDir.out()).contains(fromJson.out().lines().filter(l -> l.startsWith("suggested:"))
            .findFirst().orElseThrow()).contains("velocityGainNmSPerRad: ");
    }

    @Test
    void shouldReportAPositionStepAndDrawIt() throws IOException
    {
        final double dt = 250e-6;
        final ExcitationRecording r = ExcitationRecording.record(
            new RealisticAxisPlant(RealisticAxisParameters.standard()),
            new CascadedPidLaw(ControllerGains.standard().withPeriodSeconds(dt)), dt, 1,
            ExcitationSpec.parse("step:point=position,amp=0.004,seconds=0.3,start=0.2"), ExcitationLimits.defaults(),
            (t, out) -> out.hold(0.0), (int)Math.round(0.6 / dt));
        final Path dir = temp.resolve("step");
        ExcitationJournal.write(dir.resolve("node-2"), r, dt, 3, 1, 0.004);
        final Path plots = temp.resolve("step-plots");
        final CliRun run = CliRun.of("replay", dir.toString(), "--step-response", "--plots", plots.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        // the realistic axis's stiction holds the last 2 % of a 4 mrad step longer than the step lasts
        assertThat(run.out()).contains("step response: position step of 0.004000 rad from cycle 800, 1,200 cycles " +
            "at 4000.0 Hz").containsPattern("rise \\(10-90 %\\) \\d+\\.\\d\\d ms, overshoot \\d+\\.\\d %, settling " +
            "\\(2 % band\\) (\\d+\\.\\d\\d ms|not settled within the step)");
        assertThat(ImageIO.read(plots.resolve("step.png").toFile()).getWidth()).isEqualTo(1000);
        final CliRun json = CliRun.of("replay", dir.toString(), "--step-response", "--json");
        assertThat(json.out()).contains("\"step_response\"").contains("\"overshootPercent\"");
    }

    @Test
    void shouldRefuseWhatIsNotAMeasurementInOneLine() throws IOException
    {
        final Path bad = temp.resolve("bad.json");
        Files.writeString(bad, "{\"frequency_response\": {\"point\": \"position\"}}");
        final CliRun noPlant = CliRun.of("tune", "suggest", bad.toString());
        assertThat(noPlant.exit()).isEqualTo(1);
        assertThat(noPlant.err()).isEqualTo("rfmrt: tune suggest " + bad + ": no frequency_response with a plant " +
            "(write it with rfmrt replay DIR --frequency-response --json after a torque excitation)\n");

        final CliRun margin = CliRun.of("tune", "suggest", bad.toString(), "--phase-margin", "95");
        assertThat(margin.exit()).isEqualTo(2);
        assertThat(margin.err()).contains("--phase-margin 95.0 must be 10 to 80 degrees");

        final CliRun empty = CliRun.of("replay", temp.resolve("nothing").toString(), "--step-response");
        assertThat(empty.exit()).isEqualTo(1);

        final CliRun segment = CliRun.of("replay", journals.toString(), "--frequency-response", "--segment", "1000");
        assertThat(segment.exit()).isEqualTo(2);
        assertThat(segment.err()).contains("--segment 1000 must be a power of two, at least 16");

        final CliRun step = CliRun.of("replay", journals.toString(), "--step-response");
        assertThat(step.exit()).isEqualTo(1);
        assertThat(step.err()).isEqualTo("rfmrt: the excitation is a chirp, not a step\n");
    }
}
