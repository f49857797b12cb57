package io.rfmrt.control.excite;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The excitation signals: a step's level and length, a chirp's instantaneous frequency (counted from its zero
 * crossings as well as read) and amplitude for linear and logarithmic sweeps, a PRBS's levels, bit length, balance,
 * whiteness and determinism.
 */
class ExcitationSignalTest
{
    private static final double DT = 1.0 / 4000;

    @Test
    void shouldHoldAStepForItsCyclesThenReturnZero()
    {
        final StepSignal step = new StepSignal(0.02, 400);

        assertThat(step.kind()).isEqualTo(ExcitationSignal.KIND_STEP);
        assertThat(step.value(0)).isEqualTo(0.02);
        assertThat(step.value(399)).isEqualTo(0.02);
        assertThat(step.value(400)).isZero();
        assertThat(step.value(-1)).isZero();
        assertThat(step.frequencyHz(10)).isZero();
        assertThat(step.amplitude()).isEqualTo(0.02);
    }

    @Test
    void shouldSweepLinearlyAtTheFrequencyItReports()
    {
        final long cycles = 4 * 4000;
        final ChirpSignal chirp = new ChirpSignal(0.1, 5, 400, false, cycles, DT);

        assertThat(chirp.value(0)).as("starts at phase 0: no step into the loop").isZero();
        assertThat(chirp.frequencyHz(0)).isEqualTo(5.0);
        assertThat(chirp.frequencyHz(cycles / 2)).isCloseTo(202.5, within(1e-9));
        assertThat(chirp.frequencyHz(cycles - 1)).isCloseTo(400, within(0.1));
        // the frequency it says is the one it plays: upward zero crossings counted over a window around a point
        assertThat(countedHz(chirp, cycles / 2, 400)).isCloseTo(202.5, within(3.0));
        assertThat(countedHz(chirp, cycles / 8, 400)).isCloseTo(chirp.frequencyHz(cycles / 8), within(3.0));
        assertThat(peak(chirp)).isCloseTo(0.1, within(1e-4)).isLessThanOrEqualTo(0.1);
    }

    @Test
    void shouldSweepLogarithmicallyEqualTimePerOctave()
    {
        final long cycles = 4 * 4000;
        final ChirpSignal chirp = new ChirpSignal(0.2, 5, 400, true, cycles, DT);

        assertThat(chirp.frequencyHz(cycles / 2)).as("the geometric mean half way").isCloseTo(Math.sqrt(5 * 400),
            within(1e-9));
        assertThat(chirp.frequencyHz(cycles / 4) / chirp.frequencyHz(0)).isCloseTo(
            chirp.frequencyHz(3 * cycles / 4) / chirp.frequencyHz(cycles / 2), within(1e-9));
        assertThat(countedHz(chirp, 3 * cycles / 4, 400)).isCloseTo(chirp.frequencyHz(3 * cycles / 4),
            within(0.03 * chirp.frequencyHz(3 * cycles / 4)));
        assertThat(peak(chirp)).isCloseTo(0.2, within(1e-4));
        // the same arguments, the same bits
        final ChirpSignal again = new ChirpSignal(0.2, 5, 400, true, cycles, DT);
        for (long n = 0; n < cycles; n += 97)
        {
            assertThat(Double.doubleToRawLongBits(again.value(n))).isEqualTo(Double.doubleToRawLongBits(chirp.value(n)));
        }
    }

    @Test
    void shouldMakeABalancedWhiteSequenceOfBitsHeldForTheirCycles()
    {
        final int bit = 3;
        final long cycles = 3 * 30_000;
        final PrbsSignal prbs = new PrbsSignal(0.05, bit, cycles, 7);

        long high = 0;
        long changesInsideBits = 0;
        double lagOneBit = 0;
        for (long n = 0; n < cycles; n++)
        {
            final double v = prbs.value(n);
            assertThat(Math.abs(v)).isEqualTo(0.05);
            high += v > 0 ? 1 : 0;
            if (n % bit != 0 && v != prbs.value(n - 1))
            {
                changesInsideBits++;
            }
            if (n + bit < cycles)
            {
                lagOneBit += v * prbs.value(n + bit);
            }
        }
        assertThat(changesInsideBits).as("a bit holds for its cycles").isZero();
        assertThat((double)high / cycles).as("balanced").isCloseTo(0.5, within(0.01));
        // white: the correlation one bit apart is near 0 (a maximal sequence: -1/N over a whole period)
        assertThat(lagOneBit / (cycles * 0.05 * 0.05)).isCloseTo(0.0, within(0.02));
        assertThat(prbs.value(cycles)).isZero();
    }

    @Test
    void shouldRepeatASeedAndDifferAcrossSeeds()
    {
        final PrbsSignal a = new PrbsSignal(1, 1, 10_000, 42);
        final PrbsSignal b = new PrbsSignal(1, 1, 10_000, 42);
        final PrbsSignal c = new PrbsSignal(1, 1, 10_000, 43);
        long differ = 0;
        for (long n = 0; n < 10_000; n++)
        {
            assertThat(b.value(n)).isEqualTo(a.value(n));
            differ += a.value(n) != c.value(n) ? 1 : 0;
        }
        assertThat(differ).isGreaterThan(1000);
    }

    @Test
    void shouldRefuseSignalsThatCannotBeMade()
    {
        assertThatThrownBy(() -> new ChirpSignal(0.1, 10, 10, true, 100, DT)).isInstanceOf(
            IllegalArgumentException.class);
        assertThatThrownBy(() -> new ChirpSignal(-0.1, 1, 10, false, 100, DT)).isInstanceOf(
            IllegalArgumentException.class);
        assertThatThrownBy(() -> new PrbsSignal(0.1, 0, 100, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StepSignal(Double.NaN, 100)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Upward zero crossings in a window centred on n, as a frequency. */
    private static double countedHz(final ExcitationSignal s, final long n, final int window)
    {
        int crossings = 0;
        long first = -1;
        long last = -1;
        for (long k = n - window / 2; k < n + window / 2; k++)
        {
            if (s.value(k) < 0 && s.value(k + 1) >= 0)
            {
                crossings++;
                first = first < 0 ? k : first;
                last = k;
            }
        }
        return (crossings - 1) / ((last - first) * DT);
    }

    private static double peak(final ExcitationSignal s)
    {
        double peak = 0;
        for (long n = 0; n < s.cycles(); n++)
        {
            peak = Math.max(peak, Math.abs(s.value(n)));
        }
        return peak;
    }
}
