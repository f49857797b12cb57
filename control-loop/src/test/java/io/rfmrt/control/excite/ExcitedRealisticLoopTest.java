package io.rfmrt.control.excite;

import io.rfmrt.control.AxisParameters;
import io.rfmrt.control.RealisticAxisParameters;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The data an analysis is tested on: the realistic axis (two masses, anti-resonance 159 Hz, resonance 251.6 Hz) held
 * at rest by the shipped tune at 4 kHz, one period of delay, a logarithmic chirp 5..400 Hz of 0.1 N·m on the torque
 * command. The recording is the same bit for bit from run to run, holds what the loop did (the command is the law's
 * torque plus the injection), and shows the plant: the motor's velocity answers the sweep most near the resonance and
 * least near the anti-resonance.
 */
class ExcitedRealisticLoopTest
{
    private static final int RATE_HZ = 4000;

    @Test
    void shouldRecordAChirpOnTheTorqueCommandOfTheRealisticAxisDeterministically()
    {
        final ExcitationRecording r = ExcitationRecording.realisticTorqueChirp(RATE_HZ, 5, 400, 0.1, 4.0);
        final ExcitationRecording again = ExcitationRecording.realisticTorqueChirp(RATE_HZ, 5, 400, 0.1, 4.0);

        assertThat(again.velocityRadPerS()).isEqualTo(r.velocityRadPerS());
        assertThat(again.torqueNm()).isEqualTo(r.torqueNm());
        assertThat(r.firstExcited()).as("from 0.5 s").isEqualTo(RATE_HZ / 2);
        assertThat(r.lastExcited() - r.firstExcited() + 1).as("4 s of chirp and 20 ms of fade").isEqualTo(
            4 * RATE_HZ + RATE_HZ / 50);
        assertThat(r.excitation().endReason()).isEqualTo(io.rfmrt.control.journal.ControlJournal.EXCITATION_DONE);
        final double[] t = r.timeSeconds();
        final double[] u = r.injected();
        final double[] torque = r.torqueNm();
        final double[] before = r.before();
        final double[] f = r.frequencyHz();
        final double peak = AxisParameters.PEAK_TORQUE_DEFAULT_NM;
        for (int i = r.firstExcited(); i <= r.lastExcited(); i++)
        {
            assertThat(torque[i]).isEqualTo(Math.max(-peak, Math.min(peak, before[i] + u[i])));
        }
        assertThat(t[1] - t[0]).isCloseTo(1.0 / RATE_HZ, within(1e-12));
        assertThat(f[r.firstExcited()]).isEqualTo(5.0);
        assertThat(f[r.firstExcited() + 4 * RATE_HZ - 1]).isCloseTo(400, within(0.2));

        final double atResonance = gain(r, 240, 262);
        final double atAntiResonance = gain(r, 150, 168);
        final double between = gain(r, 190, 210);
        System.out.printf(Locale.ROOT, "realistic axis, torque chirp 5..400 Hz 0.1 N·m at %d Hz: |velocity / " +
            "injected| rms ratio %.1f rad/s/N·m over 150..168 Hz, %.1f over 190..210, %.1f over 240..262 (resonance " +
            "%.1f Hz)%n", RATE_HZ, atAntiResonance, between, atResonance,
            RealisticAxisParameters.standard().resonanceRadPerS() / (2 * Math.PI));
        assertThat(atResonance).isGreaterThan(2 * between);
        assertThat(between).isGreaterThan(atAntiResonance);
    }

    /** RMS of the velocity over RMS of the injection, where the chirp sweeps from f0 to f1. */
    private static double gain(final ExcitationRecording r, final double f0, final double f1)
    {
        final double[] f = r.frequencyHz();
        final double[] u = r.injected();
        final double[] v = r.velocityRadPerS();
        double vv = 0;
        double uu = 0;
        for (int i = r.firstExcited(); i <= r.lastExcited(); i++)
        {
            if (f[i] >= f0 && f[i] <= f1)
            {
                vv += v[i] * v[i];
                uu += u[i] * u[i];
            }
        }
        return Math.sqrt(vv / uu);
    }
}
